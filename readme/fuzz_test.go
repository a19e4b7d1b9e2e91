package readme_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

// FuzzParse checks that Parse never panics and that its output keeps its promises on any input:
// at most MaxSections sections, only the first without a heading path, non-empty text, a title,
// a summary of at most MaxSummary bytes, valid UTF-8 out of valid UTF-8 in, and the same result
// twice.
func FuzzParse(f *testing.F) {
	for _, in := range inputs(f) {
		f.Add(in.src)
	}
	for _, s := range []string{
		"", "#", "# \n", "=\n", "a\n=", "---\n---", "```", "~~~\n", "    code", "> # h\n", "- # h\n",
		"<h1>t</h1>\n", "<!--", "[a]: <>\n[a]", "[![x](y)](z)", "| a |\n|---|\n| b |", "- [ ] t\n- [x] u",
		"# A\n## B\n### C\n## D\n# E", "Title\n===\n\nSub\n---\n", "# License\n## Usage\nx",
		"## Table of Contents\n- [a](#a)\n### a\nx", "\xef\xbb\xbf# bom", "a\r\nb\r\n===\r\n", "\x00#\x00",
		"# \xff\xfe\n\xc3", strings.Repeat(">", 40) + " x", strings.Repeat("_a*", 800),
		strings.Repeat("[a]: b\n", 1100) + "[a]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, kind := range []docidx.DocKind{docidx.DocReadme, docidx.DocGuide} {
			doc := readme.Parse("docs/x.md", kind, src)
			check(t, src, doc)
			if again := readme.Parse("docs/x.md", kind, src); !reflect.DeepEqual(doc, again) {
				t.Fatalf("Parse is not deterministic")
			}
		}
	})
}

func check(t *testing.T, src []byte, doc docidx.Document) {
	t.Helper()
	if doc.Sections == nil || len(doc.Sections) > readme.MaxSections {
		t.Fatalf("Sections: nil %v, %d of at most %d", doc.Sections == nil, len(doc.Sections), readme.MaxSections)
	}
	if doc.Title == "" || len(doc.Summary) > readme.MaxSummary {
		t.Fatalf("Title %q, Summary of %d bytes", doc.Title, len(doc.Summary))
	}
	strs := []string{doc.Title, doc.Summary}
	for i, s := range doc.Sections {
		if s.Heading == nil && i != 0 {
			t.Fatalf("section %d has no heading path; only the lead section may lack one", i)
		}
		if s.Text == "" {
			t.Fatalf("section %d (%q) has no text", i, s.Heading)
		}
		strs = append(strs, s.Text, s.Plain, s.Anchor)
		strs = append(strs, s.Heading...)
		for _, c := range s.Code {
			strs = append(strs, c.Lang, c.Code)
		}
	}
	if utf8.Valid(src) {
		for _, s := range strs {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in output %q from valid input", s)
			}
		}
	}
}
