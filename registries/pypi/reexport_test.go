package pypi

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// TestReexports reads testdata/reexport, a distribution whose public package pkg re-exports
// what its private modules define: plainly, renamed, through a chain of private modules, from a
// star import, with an absolute import, and around an import cycle.
func TestReexports(t *testing.T) {
	sp, err := NewSitePackages(filepath.Join("testdata", "reexport"), SitePackagesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	pd, err := sp.Fetch(context.Background(), "pkg", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range pd.Symbols {
		if strings.Contains(s.QualifiedName, "._") || strings.HasPrefix(s.Package, "pkg._") {
			t.Errorf("private symbol %s (package %s)", s.QualifiedName, s.Package)
		}
		fmt.Fprintf(&b, "%s %s parent=%s pkg=%s %s:%d | %s | %s\n", s.Kind, s.QualifiedName, s.Parent, s.Package, s.File, s.Line, s.Signature, s.Doc)
	}
	want := `package pkg parent= pkg=pkg pkg/__init__.py:1 | module pkg | The public face of pkg.
class pkg.Thing parent= pkg=pkg pkg/_impl.py:4 | class Thing | A thing.
method pkg.Thing.method parent=Thing pkg=pkg pkg/_impl.py:7 | def method(self, x: int) -> str | Do the thing to x.
func pkg.func parent= pkg=pkg pkg/_impl.py:14 | def func(a, b=2) | Add b to a.
class pkg.Aliased parent= pkg=pkg pkg/_impl.py:26 | class _Base | A base exported under another name.
method pkg.Aliased.run parent=Aliased pkg=pkg pkg/_impl.py:29 | def run(self) | Run it.
func pkg.chained parent= pkg=pkg pkg/_impl.py:14 | def func(a, b=2) | Add b to a.
func pkg.absolute parent= pkg=pkg pkg/_impl.py:33 | def absolute() | Imported with an absolute import.
func pkg.starred parent= pkg=pkg pkg/_star.py:4 | def starred() | Brought in by a star import.
package pkg.util parent= pkg=pkg.util pkg/util.py:1 | module pkg.util | Helpers that also re-export Thing.
func pkg.util.tool parent= pkg=pkg.util pkg/util.py:6 | def tool() | A tool.
class pkg.util.Thing parent= pkg=pkg.util pkg/_impl.py:4 | class Thing | A thing.
method pkg.util.Thing.method parent=Thing pkg=pkg.util pkg/_impl.py:7 | def method(self, x: int) -> str | Do the thing to x.
`
	if got := b.String(); got != want {
		t.Errorf("symbols:\n%s\nwant:\n%s", got, want)
	}
}

// TestReexportLimits checks that re-exported symbols count against MaxSymbols. Without the
// re-exports the distribution has 3 public symbols, fewer than the limit.
func TestReexportLimits(t *testing.T) {
	sp, err := NewSitePackages(filepath.Join("testdata", "reexport"), SitePackagesConfig{Limits: Limits{MaxSymbols: 5}})
	if err != nil {
		t.Fatal(err)
	}
	pd, err := sp.Fetch(context.Background(), "pkg", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	reexported := false
	for _, s := range pd.Symbols {
		reexported = reexported || s.QualifiedName == "pkg.Thing"
	}
	if len(pd.Symbols) != 5 || !reexported {
		t.Errorf("%d symbols, want 5 with the re-exported pkg.Thing: %+v", len(pd.Symbols), pd.Symbols)
	}
}

func TestRelativeModule(t *testing.T) {
	for _, tc := range []struct {
		path, module string
		level        int
		from, want   string
		ok           bool
	}{
		{"trio/__init__.py", "trio", 1, "_core", "trio._core", true},
		{"trio/_abc.py", "trio._abc", 1, "_core", "trio._core", true},
		{"trio/_core/__init__.py", "trio._core", 1, "_run", "trio._core._run", true},
		{"trio/_core/_run.py", "trio._core._run", 2, "_util", "trio._util", true},
		{"trio/_core/_run.py", "trio._core._run", 1, "", "trio._core", true},
		{"trio/__init__.py", "trio", 0, "trio._core", "trio._core", true},
		{"trio/__init__.py", "trio", 2, "x", "", false},
		{"six.py", "six", 1, "x", "", false},
	} {
		got, ok := relativeModule(apiFile{module: tc.module, path: tc.path}, pyscan.Import{Level: tc.level, Module: tc.from})
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: from %s%s = %q, %v; want %q, %v", tc.path, strings.Repeat(".", tc.level), tc.from, got, ok, tc.want, tc.ok)
		}
	}
}
