package readme_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/readme"
)

// input is one real-world README under testdata/in.
type input struct {
	name string // file name without ".md"
	src  []byte
}

// inputs returns the READMEs under testdata/in, sorted by name (see testdata/SOURCES.txt).
func inputs(tb testing.TB) []input {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "in", "*.md"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no inputs in testdata/in: %v", err)
	}
	out := make([]input, 0, len(paths))
	for _, p := range paths { // Glob sorts
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, input{strings.TrimSuffix(filepath.Base(p), ".md"), b})
	}
	return out
}

func marshal(tb testing.TB, doc docidx.Document) []byte {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestGolden parses each README under testdata/in and compares the Document, as indented JSON,
// with testdata/golden/NAME.json. Run with -update to rewrite the goldens, then review the diff:
// the goldens are where keep/drop decisions on real READMEs are checked by eye.
func TestGolden(t *testing.T) {
	for _, in := range inputs(t) {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			got := marshal(t, readme.Parse("README.md", docidx.DocReadme, in.src))
			goldenPath := filepath.Join("testdata", "golden", in.name+".json")
			golden.Check(t, goldenPath, got)
		})
	}
}

// TestSummaryGolden parses the opening excerpts of real npm READMEs under testdata/summary and
// compares their summaries, one "name: summary" line each, with testdata/summary.golden: the
// summary must be the README's opening description (axios: "Promise based HTTP client for the
// browser and node.js"), never a sentence from further down.
func TestSummaryGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "summary", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no inputs in testdata/summary: %v", err)
	}
	var b strings.Builder
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc := readme.Parse("README.md", docidx.DocReadme, src)
		fmt.Fprintf(&b, "%s: %s\n", strings.TrimSuffix(filepath.Base(p), ".md"), doc.Summary)
	}
	golden.Check(t, filepath.Join("testdata", "summary.golden"), []byte(b.String()))
}
