package answer

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

func TestCutPage(t *testing.T) {
	units := []string{"# A\n\nshort\n\n", strings.Repeat("line of ten\n", 10), "tail\n", "αβγδεζηθικλμνξοπρστυφχψω\n"}
	for _, budget := range []int{1, 5, 12, 13, 30, 64, 200, 1000} {
		var joined strings.Builder
		p := pos{}
		for pages := 0; ; pages++ {
			if pages > 1000 {
				t.Fatalf("budget %d: no progress", budget)
			}
			if !validPos(textUnits(units), p) {
				t.Fatalf("budget %d: next position %+v is not valid", budget, p)
			}
			text, first, end, next, more := cutPage(textUnits(units), p, budget)
			if text == "" {
				t.Fatalf("budget %d: empty page at %+v", budget, p)
			}
			if first != p.unit || end <= first {
				t.Errorf("budget %d: units [%d,%d) from %+v", budget, first, end, p)
			}
			if len(text) > budget && !(p.off == 0 && utf8.RuneCountInString(text) == 1) {
				// Over budget only for a unit cut that had to take one character.
				if strings.Contains(text[:len(text)-1], "\n") || len(text) > utf8.UTFMax {
					t.Errorf("budget %d: page of %d bytes: %q", budget, len(text), text)
				}
			}
			if !utf8.ValidString(text) {
				t.Errorf("budget %d: page cut inside a character: %q", budget, text)
			}
			joined.WriteString(text)
			if !more {
				break
			}
			p = next
		}
		if joined.String() != strings.Join(units, "") {
			t.Errorf("budget %d: pages joined = %q", budget, joined.String())
		}
	}
	// Whole units are never split when they fit a page of their own.
	text, _, end, next, _ := cutPage(textUnits{"aaaa\n", "bbbbbb\n"}, pos{}, 10)
	if text != "aaaa\n" || end != 1 || next != (pos{1, 0}) {
		t.Errorf("cutPage stopped at %q end %d next %+v; want the first unit only", text, end, next)
	}
}

func FuzzCutPage(f *testing.F) {
	f.Add("a\nb\n", "ccc", 3)
	f.Add("αβγ", "\n\n\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, budget int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || budget <= 0 || budget > 1<<16 {
			t.Skip()
		}
		units := []string{a, b, a}
		var joined strings.Builder
		p := pos{}
		for i := 0; ; i++ {
			if i > len(a)*2+len(b)+3 {
				t.Fatal("no progress")
			}
			text, _, _, next, more := cutPage(textUnits(units), p, budget)
			joined.WriteString(text)
			if !more {
				break
			}
			if !validPos(textUnits(units), next) {
				t.Fatalf("invalid next %+v", next)
			}
			p = next
		}
		if joined.String() != a+b+a {
			t.Fatalf("joined %q", joined.String())
		}
	})
}

func TestCursorRoundTrip(t *testing.T) {
	s := New(nil, Options{})
	h := RequestHash(IssuerSearch, "q", "golang")
	c := Cursor{Tool: IssuerSearch, Hash: h, Unit: 7, Byte: 3}
	got, err := s.DecodeCursor(c.Encode(), IssuerSearch, h)
	if err != nil || got != c {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	// A search's cursor is short: an assistant reads it twice in every paged answer.
	if n := len(c.Encode()); n > 24 {
		t.Errorf("a search cursor takes %d bytes, want at most 24", n)
	}
	list := Cursor{Tool: IssuerPages, Hash: RequestHash(IssuerPages), Unit: 300, Byte: 70000, Ver: 2, Next: "pkg\x00next", Snapshot: "s1"}
	if got, err := s.DecodeCursor(list.Encode(), IssuerPages, list.Hash); err != nil || got != list {
		t.Errorf("round trip: %+v, %v, want %+v", got, err, list)
	}
	enc := c.Encode()
	for _, bad := range []struct{ s, tool, hash string }{
		{enc, IssuerSearch, RequestHash(IssuerSearch, "q", "npm")},
		{enc, IssuerGetDoc, h},
		{"!!!", IssuerSearch, h},
		{"e30", IssuerSearch, h},        // {}
		{"eyJ2IjoxfQ", IssuerSearch, h}, // {"v":1}, version 1's JSON
		{enc[:len(enc)-2], IssuerSearch, h},
		{enc + "AA", IssuerSearch, h},
	} {
		_, err := s.DecodeCursor(bad.s, bad.tool, bad.hash)
		var aerr *ArgumentError
		if !errors.As(err, &aerr) || aerr.Argument != "cursor" || !errors.Is(err, docidx.ErrUsage) {
			t.Errorf("DecodeCursor(%q): %v, want an *ArgumentError for the cursor", bad.s, err)
		}
	}
	if RequestHash("t", "ab", "c") == RequestHash("t", "a", "bc") {
		t.Error("requestHash does not separate its arguments")
	}
}

func FuzzDecodeCursor(f *testing.F) {
	svc := New(nil, Options{})
	h := RequestHash(IssuerSearch, "q")
	f.Add(Cursor{Tool: IssuerSearch, Hash: h, Unit: 3}.Encode())
	f.Add("")
	f.Add("eyJ2IjoxfQ")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := svc.DecodeCursor(s, IssuerSearch, h)
		if err == nil && s != "" && (c.Hash != h || c.Tool != IssuerSearch || c.Unit < 0 || c.Byte < 0) {
			t.Fatalf("accepted %q as %+v", s, c)
		}
	})
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Go calls f. It returns.":                    "Go calls f.",
		"Use e.g. this one. Then that.":              "Use e.g. this one.",
		"Version v1.2.3 is fine.\n\nMore.":           "Version v1.2.3 is fine.",
		"No period here\n\nSecond paragraph.":        "No period here",
		"  Spaces\n  across\tlines. Next":            "Spaces across lines.",
		"":                                           "",
		"Does it ask? Yes.":                          "Does it ask?",
		"Wraps io.Reader and returns io.EOF at end.": "Wraps io.Reader and returns io.EOF at end.",
		"@internal":                                  "",
		"@internal\nThe base of schemas. More.":      "The base of schemas.",
		"@internals are kept.":                       "@internals are kept.",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// firstSentenceFields is the first implementation of FirstSentence, kept as the reference the
// one-pass version is held to.
func firstSentenceFields(doc string) string {
	doc = strings.TrimSpace(doc)
	for f := strings.Fields(doc); len(f) > 0 && f[0] == "@internal"; f = strings.Fields(doc) {
		doc = strings.TrimSpace(strings.TrimPrefix(doc, "@internal"))
	}
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	doc = strings.Join(strings.Fields(doc), " ")
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(doc) || doc[i+1] == ' ') && !isAbbrevEnd(doc[:i]) {
			doc = doc[:i+1]
			break
		}
	}
	return Clip(doc, maxSynopsis)
}

func FuzzFirstSentence(f *testing.F) {
	for _, s := range []string{
		"Go calls f. It returns.", "Use e.g. this one. Then that.", "Version v1.2.3 is fine.\n\nMore.",
		"  Spaces\n  across\tlines. Next", "Does it ask? Yes.", "Ends with etc. and more. Done.",
		"Ünïcode\u00a0spaces\u2003here. Next.", "a. b", ".", ". .", "x !y. z", "Word\n\n\nthree",
		strings.Repeat("word ", 100), strings.Repeat("é", 150) + ". Next.", strings.Repeat("ab ", 66) + "cd. e",
		"Invalid \xff utf-8. Next.", "VS. next. Cf. that.", "@internal\n@internal x. y", "@internal\u00a0z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if got, want := FirstSentence(doc), firstSentenceFields(doc); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", doc, got, want)
		}
	})
}

func TestFirstSentenceBounded(t *testing.T) {
	got := FirstSentence(strings.Repeat("word ", 100))
	if len(got) > maxSynopsis || !strings.HasSuffix(got, "word…") {
		t.Errorf("FirstSentence of 500 bytes = %q (%d bytes)", got, len(got))
	}
}

func TestCompactSignature(t *testing.T) {
	for in, want := range map[string]string{
		"func F()":                    "func F()",
		"type T struct {\n\tA int\n}": "type T struct { … }",
		"export interface O {\n  strict?: bool;\n}": "export interface O { … }",
		"const (\n\tA = 1\n\tB = 2\n)":              "const ( …",
	} {
		if got := CompactSignature(in); got != want {
			t.Errorf("CompactSignature(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Pool.Go", "Pool.TryGo", "New", "Pool.Close", "DefaultSize"}
	if got := closest("Pool.Gox", names, 3); len(got) == 0 || got[0] != "Pool.Go" {
		t.Errorf("closest(Pool.Gox) = %v", got)
	}
	if got := closest("trygo", names, 3); len(got) == 0 || got[0] != "Pool.TryGo" {
		t.Errorf("closest(trygo) = %v", got)
	}
	if got := closest("zzzzzzzz", names, 3); len(got) != 0 {
		t.Errorf("closest(zzzzzzzz) = %v, want none", got)
	}
}

// TestTwinOf: the same member on two types is one answer when its passage is the same and
// either its declaration is too or the passage is not empty, or when its declaration is the same
// and one passage, not too short, holds the other.
func TestTwinOf(t *testing.T) {
	hit := func(title, section, passage string) *foundHit {
		return &foundHit{Hit: docidx.Hit{Title: title, Section: section, Kind: docidx.HitSymbol, Snippet: passage}, chosen: true}
	}
	for _, tc := range []struct {
		name       string
		kept, next *foundHit
		twin       bool
	}{
		{"documented, other receiver", hit("pool.Pool.WithMax", "func (p *Pool) WithMax(n int) *Pool", "WithMax limits the pool."),
			hit("pool.ErrorPool.WithMax", "func (p *ErrorPool) WithMax(n int) *ErrorPool", "WithMax limits the pool."), true},
		{"undocumented, same declaration", hit("ZodString.safeParse", "method safeParse(data: unknown)", ""),
			hit("ZodNumber.safeParse", "method safeParse(data: unknown)", ""), true},
		{"undocumented Go method, other receiver", hit("wkt.Msg.UnmarshalVT", "func (m *Msg) UnmarshalVT(dAtA []byte) error", ""),
			hit("pool.Opt.UnmarshalVT", "func (m *Opt) UnmarshalVT(dAtA []byte) error", ""), true},
		{"undocumented Go methods, other parameters", hit("a.T.Read", "func (t *T) Read(p []byte) (int, error)", ""),
			hit("b.U.Read", "func (u U) Read() error", ""), false},
		{"undocumented overloads", hit("Buffer.write", "method write(s: string)", ""),
			hit("Buffer.write", "method write(b: Uint8Array)", ""), false},
		{"other passage", hit("a.Options.Timeout", "field Timeout int", "Timeout in seconds."),
			hit("b.Options.Timeout", "field Timeout int", "Timeout in milliseconds."), false},
		{"two cuts of one doc", hit("margins.Margin.get_width", "def get_width(self) -> int",
			"… :param get_ui_content: Callable that asks the user control to create a UIContent instance. This gives the number of lines."),
			hit("margins.ScrollbarMargin.get_width", "def get_width(self) -> int",
				"Return the width that this margin is going to consume.\n:param get_ui_content: Callable that asks the user control to create a UIContent instance. This gives the number of lines."), true},
		{"a cut held in another declaration's", hit("a.Map.get", "fn get(&self, k: &K) -> Option<&V>",
			"Returns a reference to the value corresponding to the key, if the map holds one at all."),
			hit("a.Set.get", "fn get(&self, v: &T) -> Option<&T>",
				"Returns a reference to the value corresponding to the key, if the map holds one at all. Sets compare by value."), false},
		{"a short first sentence", hit("a.Map.len", "fn len(&self) -> usize", "Returns the length."),
			hit("a.Set.len", "fn len(&self) -> usize", "Returns the length. A set counts its members."), false},
	} {
		got := tc.next.twinOf([]*foundHit{tc.kept})
		if (got != nil) != tc.twin {
			t.Errorf("%s: twin %v, want %v", tc.name, got != nil, tc.twin)
		}
	}
	if hit("x.A.F", "", "doc").twinOf(nil) != nil {
		t.Error("twin of no hit")
	}
}

// TestRepeatOfCut checks that two cuts of one text, marked "…" where they start or end, are
// repeats, as the crate docs of a Rust crate are, shown once as its page and once as its root
// module's doc: the marks are no words.
func TestRepeatOfCut(t *testing.T) {
	text := "```rust\nuse base64::{engine::general_purpose::STANDARD, read::DecoderReader};\nlet mut input = io::stdin();\n" +
		"let mut decoder = DecoderReader::new(&mut input, &STANDARD);\nio::copy(&mut decoder, &mut io::stdout())?;\n```\n" +
		"This also allows for constant-space validity checking of encoded data, using a statically allocated buffer:\n"
	kept := &foundHit{Hit: docidx.Hit{Snippet: text + "```rust\nlet mut buf = [0u8; 128];\n```"}, chosen: true}
	cut := &foundHit{Hit: docidx.Hit{Snippet: "… Decoding\n" + text + " …"}, chosen: true}
	if cut.repeatOf([]*foundHit{kept}) == nil {
		t.Error("a cut of a kept passage marked with \"…\" is not taken for a repeat")
	}
}

// TestDeclarationShown checks when a symbol hit's signature line is left out: when its passage
// opens with a code block that holds the declaration whole, however it is wrapped, and only then.
func TestDeclarationShown(t *testing.T) {
	wrapped := "```\ndef dump_all(\n    documents,\n    stream=None,\n    sort_keys=True,\n)\n```\nSerialize a sequence of Python objects."
	for _, c := range []struct {
		name, decl, passage string
		want                bool
	}{
		{"wrapped over lines", "def dump_all(documents, stream=None, sort_keys=True)", wrapped, true},
		{"clipped line", "def dump_all(documents, stream=None, …", wrapped, true},
		{"Go fence with info string", "func Peek(key K) (V, bool)", "```go\nfunc Peek(key K) (V, bool)\n```\nPeek returns the value.", true},
		{"another declaration", "def dump(data, stream=None)", wrapped, false},
		{"kind before the declaration", "field engine_config_types: Mapping[str, Any] = util.immutabledict({\"echo\": util.asbool, …",
			"```python\nengine_config_types: Mapping[str, Any] = util.immutabledict({\"echo\": util.asbool, \"future\": util.asbool})\n```\nInherited from DefaultDialect.", true},
		{"kind before another declaration", "field engine_config_types: Mapping[str, Any]", "```python\nengine_config: Mapping[str, Any]\n```", false},
		{"code later in the passage", "func Peek(key K) (V, bool)", "Peek returns the value.\n```go\nfunc Peek(key K) (V, bool)\n```", false},
		{"no declaration", "", wrapped, false},
	} {
		if got := declarationShown(c.decl, c.passage); got != c.want {
			t.Errorf("%s: declarationShown = %v, want %v", c.name, got, c.want)
		}
	}
	h := docidx.Hit{Kind: docidx.HitSymbol, Title: "yaml.dump_all", Section: "def dump_all(documents, stream=None, sort_keys=True)", Snippet: wrapped, URI: "docidx://pypi/pyyaml@6.0.4/symbol/yaml.dump_all"}
	if text := string(appendHit(nil, 2, &h, nil)); strings.Contains(text, "   def dump_all(documents") {
		t.Errorf("the signature line is shown above the declaration it repeats:\n%s", text)
	}
}
