package index

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestMentionedName(t *testing.T) {
	for span, want := range map[string]string{
		"args": "args", "self.args": "args", "Request.args": "args", "wsgikit.Request.args": "args",
		"Self::len": "len", "len()": "len", "len(x)": "len", "Other.args": "", "#args": "args",
	} {
		if got := mentionedName(span, "Request"); got != want {
			t.Errorf("mentionedName(%q) = %q, want %q", span, got, want)
		}
	}
}

func TestSiblingMentionsLimits(t *testing.T) {
	syms := []docidx.Symbol{{Name: "target", Parent: "T", Package: "p"}}
	for i := 0; i < maxMentions+3; i++ {
		syms = append(syms, docidx.Symbol{Name: "m" + string(rune('a'+i)), Parent: "T", Package: "p", Doc: "Prefer `target`, which is faster. Then `target` again."})
	}
	// A member of another type, or of another package, with the same name is not mentioned.
	syms = append(syms, docidx.Symbol{Name: "other", Parent: "U", Package: "p", Doc: "Like `target`."},
		docidx.Symbol{Name: "self", Parent: "T", Package: "p", Doc: "Not `self`-mentions: `self`."})
	got := siblingMentions(syms)
	if n := len(got); n != 1 {
		t.Fatalf("%d members mentioned, want 1: %v", n, got)
	}
	if c := countLines(got[0]); c != 2*maxMentions {
		t.Errorf("target has %d lines of mentions, want %d (name and sentence, %d times):\n%s", c, 2*maxMentions, maxMentions, got[0])
	}
}

func countLines(s string) int {
	n := 0
	for _, c := range s {
		if c == '\n' {
			n++
		}
	}
	return n
}

// TestSiblingMentionsOncePerSibling: a doc that names a member many times does not crowd out the
// other siblings that name it (werkzeug's values names args three times before query_string).
func TestSiblingMentionsOncePerSibling(t *testing.T) {
	syms := []docidx.Symbol{
		{Name: "args", Parent: "Request", Package: "p"},
		{Name: "values", Parent: "Request", Package: "p", Doc: "Combines `args` and `form`. For GET, only `args`. Really, `args`; and `args` again, `args`."},
		{Name: "query_string", Parent: "Request", Package: "p", Doc: "The raw value, use `args` for the parsed values."},
	}
	if got := siblingMentions(syms)[0]; !strings.Contains(got, "raw value") {
		t.Errorf("args's mentions lack query_string's sentence:\n%s", got)
	}
}

// TestCodeSpans checks codeSpans against the regular expression it stands for, on docs made at
// random of the characters that matter to it (backticks, brackets, newlines, name characters,
// a multi-byte letter and an invalid byte), long runs included.
func TestCodeSpans(t *testing.T) {
	re := regexp.MustCompile("`([^`\n]{1,80})`|\\[([A-Za-z_][\\w.:]{0,80})\\]")
	find := func(doc string) (got [][]int) {
		codeSpans(doc, func(lo, hi, nameLo, nameHi int) { got = append(got, []int{lo, hi, nameLo, nameHi}) })
		return got
	}
	want := func(doc string) (out [][]int) {
		for _, m := range re.FindAllStringSubmatchIndex(doc, -1) {
			lo, hi := m[2], m[3]
			if lo < 0 {
				lo, hi = m[4], m[5]
			}
			out = append(out, []int{m[0], m[1], lo, hi})
		}
		return out
	}
	pieces := []string{"`", "[", "]", "\n", " ", "a", "Z", "_", "1", ".", ":", "é", "\xff", "(", strings.Repeat("x", 79), strings.Repeat("y", 80), strings.Repeat("ü", 40)}
	rng := rand.New(rand.NewPCG(1, 2))
	docs := []string{"", "`args`", "[`Self::len`]", "[Client.Do]", "``", "[1]", "[a" + strings.Repeat("b", 80) + "]", "`" + strings.Repeat("é", 81) + "`"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		docs = append(docs, b.String())
	}
	found := 0
	for _, doc := range docs {
		got, w := find(doc), want(doc)
		if !slices.EqualFunc(got, w, slices.Equal) {
			t.Fatalf("codeSpans(%q) = %v, want %v", doc, got, w)
		}
		found += len(got)
	}
	if found < 1000 {
		t.Fatalf("only %d spans found in all: the docs do not test much", found)
	}
}
