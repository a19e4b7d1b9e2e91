package clex

import (
	"strings"
	"testing"
)

func TestSpace(t *testing.T) {
	for _, tc := range []struct {
		src        string
		i          int
		end, lines int
	}{
		{"a \t\r\n\f\v\nb", 1, 8, 2},
		{"a", 0, 0, 0},
		{"  ", 0, 2, 0},
		{"x\u00a0", 1, 1, 0}, // no-break space is the tokenizer's own
		{"", 0, 0, 0},
	} {
		if end, lines := Space(tc.src, tc.i); end != tc.end || lines != tc.lines {
			t.Errorf("Space(%q, %d) = %d, %d; want %d, %d", tc.src, tc.i, end, lines, tc.end, tc.lines)
		}
		if end, lines := Space([]byte(tc.src), tc.i); end != tc.end || lines != tc.lines {
			t.Errorf("Space([]byte(%q), %d) = %d, %d; want %d, %d", tc.src, tc.i, end, lines, tc.end, tc.lines)
		}
	}
}

func TestTrivia(t *testing.T) {
	for _, tc := range []struct {
		src        string
		i          int
		nested     bool
		kind       TriviaKind
		end, lines int
	}{
		{"a \n\tb", 1, false, Blank, 4, 1},
		{"x // c\ny", 2, false, LineComment, 6, 0},
		{"/* a\n/* b */ c */x", 0, false, BlockComment, 12, 1},
		{"/* a\n/* b */ c */x", 0, true, BlockComment, 17, 1},
		{"/* open", 0, false, BlockComment, 7, 0},
		{"a/b", 1, false, NoTrivia, 1, 0},
		{"/", 0, false, NoTrivia, 0, 0},
		{"x\u00a0", 1, false, NoTrivia, 1, 0}, // Unicode white space is the tokenizer's own
		{"ab", 2, false, NoTrivia, 2, 0},
	} {
		kind, end, lines := Trivia(tc.src, tc.i, tc.nested)
		if kind != tc.kind || end != tc.end || lines != tc.lines {
			t.Errorf("Trivia(%q, %d, %v) = %d, %d, %d; want %d, %d, %d", tc.src, tc.i, tc.nested, kind, end, lines, tc.kind, tc.end, tc.lines)
		}
		if kind2, end2, lines2 := Trivia([]byte(tc.src), tc.i, tc.nested); kind2 != kind || end2 != end || lines2 != lines {
			t.Errorf("Trivia([]byte(%q)) = %d, %d, %d; the string gives %d, %d, %d", tc.src, kind2, end2, lines2, kind, end, lines)
		}
	}
}

func TestLineEnd(t *testing.T) {
	for _, tc := range []struct {
		src    string
		i, end int
	}{
		{"// a\r\nb", 0, 5},
		{"x // a", 2, 6},
		{"\n", 0, 0},
	} {
		if end := LineEnd(tc.src, tc.i); end != tc.end {
			t.Errorf("LineEnd(%q, %d) = %d, want %d", tc.src, tc.i, end, tc.end)
		}
		if end := LineEnd([]byte(tc.src), tc.i); end != tc.end {
			t.Errorf("LineEnd([]byte(%q), %d) = %d, want %d", tc.src, tc.i, end, tc.end)
		}
	}
}

func TestBlockEnd(t *testing.T) {
	for _, tc := range []struct {
		src        string
		nested     bool
		end, lines int
	}{
		{"/* a */ b", false, 7, 0},
		{"/* a */ b", true, 7, 0},
		{"/**/x", false, 4, 0},
		{"/*/ x */", false, 8, 0}, // "/*/" does not close itself
		{"/* a\n/* b\n*/ c */ d", false, 12, 2},
		{"/* a\n/* b\n*/ c */ d", true, 17, 2},
		{"/* a /* b */", true, 12, 0}, // the outer comment is never closed
		{"/* a\n\n", false, 6, 2},
		{"/*", false, 2, 0},
		{"/*", true, 2, 0},
	} {
		if end, lines := BlockEnd(tc.src, 0, tc.nested); end != tc.end || lines != tc.lines {
			t.Errorf("BlockEnd(%q, nested %v) = %d, %d; want %d, %d", tc.src, tc.nested, end, lines, tc.end, tc.lines)
		}
		if end, lines := BlockEnd([]byte(tc.src), 0, tc.nested); end != tc.end || lines != tc.lines {
			t.Errorf("BlockEnd([]byte(%q), nested %v) = %d, %d; want %d, %d", tc.src, tc.nested, end, lines, tc.end, tc.lines)
		}
	}
	// Offsets count from the start of src, not from i.
	if end, _ := BlockEnd("ab/* c */d", 2, false); end != 9 {
		t.Errorf("BlockEnd at 2 = %d, want 9", end)
	}
}

func TestQuoteEnd(t *testing.T) {
	for _, tc := range []struct {
		src        string
		multiline  bool
		end, lines int
	}{
		{`"a\"b" c`, false, 6, 0},
		{`'it\'s' x`, false, 7, 0},
		{"\"a\nb\"", false, 2, 0}, // stops before the line feed, unclosed
		{"\"a\nb\"", true, 5, 1},
		{"\"a\\\nb\"", false, 6, 1}, // an escaped line feed does not end it
		{`"abc`, false, 4, 0},
		{`"a\`, false, 3, 0}, // a backslash at the very end: end stays at len(src)
		{`"a\`, true, 3, 0},
		{`'"'`, false, 3, 0}, // only the opening quote closes
	} {
		if end, lines := QuoteEnd(tc.src, 0, tc.multiline); end != tc.end || lines != tc.lines {
			t.Errorf("QuoteEnd(%q, multiline %v) = %d, %d; want %d, %d", tc.src, tc.multiline, end, lines, tc.end, tc.lines)
		}
		if end, lines := QuoteEnd([]byte(tc.src), 0, tc.multiline); end != tc.end || lines != tc.lines {
			t.Errorf("QuoteEnd([]byte(%q), multiline %v) = %d, %d; want %d, %d", tc.src, tc.multiline, end, lines, tc.end, tc.lines)
		}
	}
}

// FuzzQuoteEnd: on any input a literal ends inside src, after its opening quote, holding exactly
// the line feeds QuoteEnd counts, and one that is not multiline holds only escaped ones.
func FuzzQuoteEnd(f *testing.F) {
	for _, s := range []string{`a"`, `a\"b"`, "a\nb", `a\`, "a\\\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := `"` + s
		for _, multiline := range []bool{false, true} {
			end, lines := QuoteEnd(src, 0, multiline)
			if end < 1 || end > len(src) || lines != strings.Count(src[:end], "\n") {
				t.Fatalf("QuoteEnd(%q, %v) = %d, %d", src, multiline, end, lines)
			}
			if !multiline && lines != strings.Count(src[:end], "\\\n") {
				t.Fatalf("QuoteEnd(%q, false) = %d, %d: holds an unescaped line feed", src, end, lines)
			}
		}
	})
}

// FuzzBlockEnd: on any input a comment ends inside src, after its opening, holding exactly the
// line feeds BlockEnd counts; a nested comment never ends before the flat one.
func FuzzBlockEnd(f *testing.F) {
	for _, s := range []string{"/* a */", "/* /* */ */", "/*\n*/", "/*/", "/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := "/*" + s
		for _, nested := range []bool{false, true} {
			end, lines := BlockEnd(src, 0, nested)
			if end < 2 || end > len(src) || lines != strings.Count(src[:end], "\n") {
				t.Fatalf("BlockEnd(%q, %v) = %d, %d", src, nested, end, lines)
			}
		}
		flat, _ := BlockEnd(src, 0, false)
		if deep, _ := BlockEnd(src, 0, true); deep < flat {
			t.Fatalf("BlockEnd(%q): nested %d before flat %d", src, deep, flat)
		}
	})
}

func TestEscape(t *testing.T) {
	for c, want := range map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '0': 0, '\\': '\\', '\'': '\'', '"': '"'} {
		if b, ok := Escape(c); !ok || b != want {
			t.Errorf("Escape(%q) = %q, %v; want %q, true", c, b, ok, want)
		}
	}
	for _, c := range []byte("ux(a1\n ") {
		if b, ok := Escape(c); ok {
			t.Errorf("Escape(%q) = %q, true; want false", c, b)
		}
	}
}
