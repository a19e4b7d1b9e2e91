package pypi

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// TestReexports reads testdata/reexport, a distribution whose public package pkg re-exports
// what its private modules define: plainly, renamed, through a chain of private modules, from a
// star import, with an absolute import, and around an import cycle.
func TestReexports(t *testing.T) {
	pd := fetchInstalled(t, filepath.Join("testdata", "reexport"), SitePackagesConfig{}, "pkg", "1.0.0")
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
	pd := fetchInstalled(t, filepath.Join("testdata", "reexport"), SitePackagesConfig{Limits: Limits{MaxSymbols: 5}}, "pkg", "1.0.0")
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

// TestAliases reads testdata/alias, a distribution whose public functions are module-level
// aliases of what other modules define: a classmethod a public class inherits from its private
// base in another public module, a method a private module's class inherits, a private
// module's function, and a function of a public submodule. An alias whose target is missing
// or not a function stays a variable or constant. Its public classes based on private
// modules' classes inherit their members, the base's bases' included, unless they override
// them.
func TestAliases(t *testing.T) {
	pd := fetchInstalled(t, filepath.Join("testdata", "alias"), SitePackagesConfig{}, "finder", "2.0.0")
	m := testutil.ByName(pd.Symbols)
	for name, want := range map[string]struct {
		kind     docidx.SymbolKind
		sig, doc string
	}{
		"finder.find_packages": {docidx.KindFunc, "find_packages = PackageFinder.find\n@classmethod def find(cls, where='.', exclude=())",
			"Return the packages found within where.\n\n'exclude' is a sequence of names to leave out: 'foo.*' excludes\nall subpackages of 'foo' (but not 'foo' itself).\n\nInherited from _Finder.\n\nAlias of PackageFinder.find."},
		"finder.discovery.PackageFinder.find": {docidx.KindMethod, "@classmethod def find(cls, where='.', exclude=())",
			"Return the packages found within where.\n\n'exclude' is a sequence of names to leave out: 'foo.*' excludes\nall subpackages of 'foo' (but not 'foo' itself).\n\nInherited from _Finder."},
		"finder.walk":                         {docidx.KindFunc, "walk = _Walker.walk\ndef walk(self, depth=3)", "Walk the tree down to *depth* levels.\n\nInherited from _Base.\n\nAlias of _Walker.walk."},
		"finder.scan_all":                     {docidx.KindFunc, "scan_all = scan\ndef scan(path)", "Scan one path.\n\nAlias of scan."},
		"finder.helper":                       {docidx.KindFunc, "helper = helpers.helper\ndef helper(x=1)", "Help with `x`.\n\nAlias of helpers.helper."},
		"finder.missing":                      {docidx.KindVar, "missing = PackageFinder.nothing", ""},
		"finder.walkers.DeepWalker.walk":      {docidx.KindMethod, "def walk(self, depth=3)", "Walk the tree down to *depth* levels.\n\nInherited from _Base."},
		"finder.walkers.DeepWalker.MAX_DEPTH": {docidx.KindConst, "MAX_DEPTH = 10", "The deepest walk.\n\nInherited from _Base."},
		"finder.walkers.FastWalker.MAX_DEPTH": {docidx.KindConst, "MAX_DEPTH = 10", "The deepest walk.\n\nInherited from _Base."},
		"finder.walkers.FastWalker.walk":      {docidx.KindMethod, "def walk(self)", "Walk the top level only."},
		"finder.LIMIT":                        {docidx.KindConst, "LIMIT = helpers.LIMIT", ""},
	} {
		if s, ok := m[name]; !ok || s.Kind != want.kind || s.Signature != want.sig || s.Doc != want.doc {
			t.Errorf("%s = %+v\nwant %s %q doc %q", name, s, want.kind, want.sig, want.doc)
		}
	}
	if p := m["finder.helper"].Params; len(p) != 1 || p[0].Name != "x" || p[0].Default != "1" || p[0].Doc != "Help with x." {
		t.Errorf("finder.helper params = %+v, want helper's x=1, in plain text", p)
	}
}

// TestInheritedLast checks that inherited members count last against MaxSymbols: with as many
// symbols too few as there are inherited members, the distribution loses those, not the
// definitions of the modules scanned after them (helpers.py after discovery.py).
func TestInheritedLast(t *testing.T) {
	fetch := func(max int) map[string]bool {
		pd := fetchInstalled(t, filepath.Join("testdata", "alias"), SitePackagesConfig{Limits: Limits{MaxSymbols: max}}, "finder", "2.0.0")
		names := map[string]bool{}
		for _, s := range pd.Symbols {
			names[s.QualifiedName] = true
		}
		return names
	}
	inherited := map[string]bool{
		"finder.discovery.PackageFinder.find": true,
		"finder.walkers.DeepWalker.MAX_DEPTH": true,
		"finder.walkers.DeepWalker.walk":      true,
		"finder.walkers.FastWalker.MAX_DEPTH": true,
	}
	all := fetch(0)
	for n := range inherited {
		if !all[n] {
			t.Fatalf("symbols %v lack %s", all, n)
		}
	}
	max := len(all) - len(inherited)
	cut := fetch(max)
	for n := range all {
		if cut[n] == inherited[n] {
			t.Errorf("with %d symbols, %s kept = %v", max, n, cut[n])
		}
	}
}
