package swift

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// testPackages are the real-shaped fixture packages under testdata/packages.
var testPackages = []string{"swift-argument-kit", "swift-deque"}

func extractDir(t testing.TB, dir string, lim Limits) *packageContents {
	t.Helper()
	pc, err := extractPackage(context.Background(), os.DirFS(dir), filepath.Base(dir), lim, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// render prints extraction results in the golden-file format: the package facts, one line per
// document, then one header line per symbol with its signature lines and the first line of its
// doc, indented.
func render(pc *packageContents) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- manifest: name=%q tools=%q\n", pc.manifest.Name, pc.manifest.ToolsVersion)
	fmt.Fprintf(&b, "-- license: %s\n", pc.license)
	fmt.Fprintf(&b, "-- summary: %s\n", pc.summary)
	fmt.Fprintf(&b, "-- modules: %s\n", strings.Join(pc.modules, " "))
	for _, d := range pc.documents {
		var heads []string
		for _, s := range d.Sections {
			heads = append(heads, strings.Join(s.Heading, " › "))
		}
		fmt.Fprintf(&b, "-- doc %s %s %q sections=%q\n", d.Kind, d.Path, d.Title, heads)
	}
	for _, s := range pc.symbols {
		testutil.Symbol(&b, s)
	}
	return b.String()
}

// TestExtractGolden extracts the fixture packages and compares with testdata/golden/*.golden;
// go test -update rewrites them.
func TestExtractGolden(t *testing.T) {
	for _, name := range testPackages {
		t.Run(name, func(t *testing.T) {
			pc := extractDir(t, filepath.Join("testdata", "packages", name), Limits{})
			checkSymbols(t, pc.symbols)
			got := render(pc)
			goldenPath := filepath.Join("testdata", "golden", name+".golden")
			golden.Check(t, goldenPath, []byte(got))
		})
	}
}

// checkSymbols checks what every symbol must satisfy: unique qualified names, complete fields
// (testutil.CheckSymbols), and a qualified name that starts with its module.
func checkSymbols(t *testing.T, syms []docidx.Symbol) {
	t.Helper()
	testutil.CheckSymbols(t, syms)
	for _, s := range syms {
		if !strings.HasPrefix(s.QualifiedName, s.Package+".") {
			t.Errorf("%s is not qualified by its module %s", s.QualifiedName, s.Package)
		}
	}
}
