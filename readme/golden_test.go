package readme_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the current output")

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
			golden := filepath.Join("testdata", "golden", in.name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Parse(%s) differs from %s; run go test -run TestGolden -update and review the diff\n%s",
					in.name, golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts, with a little context.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(i+1) + ":\n  want: " + w + "\n  got:  " + g
		}
	}
	return "(no line differs)"
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}
