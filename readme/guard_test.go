package readme

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGuardLeavesREADMEsAlone(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "in", "*.md"))
	if len(paths) == 0 {
		t.Fatal("no testdata")
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := guard(src); !bytes.Equal(got, src) {
			t.Errorf("guard changed %s", p)
		}
	}
	// A long README of ordinary paragraphs, lists, tables and code, over every limit in total.
	var b strings.Builder
	for i := 0; i < 300; i++ {
		b.WriteString("## Option *" + strings.Repeat("x", i%7) + "*\n\nSet [it](#x) to _on_ or ~~off~~.\n\n")
		b.WriteString("- [a](u) *b*\n- [c](v) _d_\n\n| k | v |\n|---|---|\n| `a_b` | [x](y) |\n\n```go\nm[k] = *p\n```\n\n")
	}
	if src := []byte(b.String()); !bytes.Equal(guard(src), src) {
		t.Errorf("guard changed an ordinary long document")
	}
}

func TestGuard(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      func(out string) bool
	}{
		{"deep block quotes", strings.Repeat(">", maxNesting+10) + " x\n", func(out string) bool {
			return strings.Count(out, ">") == maxNesting
		}},
		{"deep list markers", strings.Repeat("- ", maxNesting+5) + "x\n", func(out string) bool {
			return strings.Count(out, "-") == maxNesting
		}},
		{"delimiters in one paragraph", strings.Repeat("_a*", maxDelims), func(out string) bool {
			return !strings.ContainsAny(out, "_*")
		}},
		{"delimiters in a code block are kept", "```\n" + strings.Repeat("_a*", maxDelims) + "\n```\n", func(out string) bool {
			return strings.Count(out, "_") == maxDelims
		}},
		{"table rows counted one by one", "|a|\n|-|\n" + strings.Repeat("|[x](y) *z*|\n", maxDelims), func(out string) bool {
			return strings.Count(out, "[") == maxDelims
		}},
		{"long paragraph split", strings.Repeat("[a]: b\n", 2*maxParaLines+1), func(out string) bool {
			return strings.Count(out, "\n\n") == 2
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := guard([]byte(tc.src))
			if len(out) != len(tc.src) || !tc.want(string(out)) {
				t.Errorf("guard(%.40q…) = %.80q…", tc.src, out)
			}
		})
	}
}
