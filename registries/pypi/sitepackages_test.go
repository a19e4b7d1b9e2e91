package pypi

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/pypi/pypitest"
	"github.com/docidx/docidx/registries/registrytest"
)

// widgetsFiles are demo-widgets 1.1.0's installed files, from the fake index's tree.
func widgetsFiles(t *testing.T) map[string]string {
	t.Helper()
	files := testutil.Must(t, registrytest.ReadTree, filepath.Join("testdata", "index", "Demo_Widgets", "1.1.0"))
	delete(files, "METADATA")
	for p := range files {
		if strings.HasPrefix(p, "sdist/") {
			delete(files, p)
		}
	}
	return files
}

func readTestFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// layout writes a site-packages directory with every form docidx reads.
func layout(t *testing.T) string {
	t.Helper()
	return pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "Demo_Widgets", Version: "1.1.0", Form: pypitest.DistInfo,
			Metadata: readTestFile(t, filepath.Join("testdata", "index", "Demo_Widgets", "1.1.0", "METADATA")),
			Files:    widgetsFiles(t),
		},
		pypitest.Installed{
			// pip's RECORD left out: top_level.txt says where the modules are.
			Name: "norecord", Version: "2.0", Form: pypitest.DistInfo, NoRecord: true,
			Metadata: "Summary: No RECORD\nDescription-Content-Type: text/plain\n\nPlain.\n",
			Files:    map[string]string{"norecord/__init__.py": "def nr(): ...\n", "norecord/sub/mod.py": "class Deep: ...\n"},
		},
		pypitest.Installed{
			// A legacy install with installed-files.txt.
			Name: "legacy-pkg", Version: "0.5", Form: pypitest.EggInfoDir, InstalledFiles: true,
			Metadata: "Summary: Legacy\nLicense: Apache 2.0\n",
			Files:    map[string]string{"legacy_pkg/__init__.py": "def old(): ...\n"},
		},
		pypitest.Installed{
			// Debian's egg-info directories: top_level.txt and SOURCES.txt only.
			Name: "PyYAML", Version: "6.0", Form: pypitest.EggInfoDir,
			Metadata: readTestFile(t, filepath.Join("testdata", "metadata", "PyYAML-6.0-debian.METADATA")),
			Files:    map[string]string{"yaml/__init__.py": "def safe_load(stream):\n    \"\"\"Parse the first YAML document in a stream.\"\"\"\n", "_yaml/__init__.py": "def hidden(): ...\n"},
			TopLevel: []string{"_yaml", "yaml"},
		},
		pypitest.Installed{
			// distutils' egg-info file: the module is named like the distribution.
			Name: "wsgiref", Version: "0.1.2", Form: pypitest.EggInfoFile,
			Metadata: readTestFile(t, filepath.Join("testdata", "metadata", "wsgiref-0.1.2.egg-info")),
			Files:    map[string]string{"wsgiref/__init__.py": "\"\"\"WSGI utilities.\"\"\"\n", "wsgiref/simple_server.py": "def make_server(host, port, app): ...\n"},
		},
		pypitest.Installed{
			// Old style metadata with a Description header.
			Name: "toml", Version: "0.10.2", Form: pypitest.EggInfoDir,
			Metadata: readTestFile(t, filepath.Join("testdata", "metadata", "toml-0.10.2.PKG-INFO")),
			Files:    map[string]string{"toml/__init__.py": "from toml.decoder import load\n", "toml/decoder.py": "def load(f, _dict=dict, decoder=None):\n    \"\"\"Parses named file or files as toml and returns a dictionary\"\"\"\n", "toml/decoder.pyi": "from typing import Any\ndef load(f: Any, _dict: Any = ..., decoder: Any = ...) -> Any: ...\n"},
		},
		pypitest.Installed{
			// Two distributions sharing the namespace package "lazr".
			Name: "lazr.uri", Version: "1.0.6", Form: pypitest.EggInfoDir,
			Metadata: "Summary: URI parsing\n",
			Files:    map[string]string{"lazr/uri/__init__.py": "def parse(u): ...\n"},
			TopLevel: []string{"lazr"},
		},
		pypitest.Installed{
			Name: "lazr.restfulclient", Version: "0.14.5", Form: pypitest.EggInfoDir,
			Metadata: "Summary: REST client\n",
			Files:    map[string]string{"lazr/restfulclient/__init__.py": "class Client: ...\n"},
			TopLevel: []string{"lazr"},
		},
		pypitest.Installed{
			// An older copy left behind next to the current one.
			Name: "norecord", Version: "1.0", Form: pypitest.EggInfoFile,
			Metadata: "Summary: old\n",
		},
	)
}

func TestSitePackagesList(t *testing.T) {
	dir := layout(t)
	// The namespace package marker setuptools writes.
	for _, n := range []string{"lazr.uri-1.0.6-py3.11.egg-info", "lazr.restfulclient-0.14.5-py3.11.egg-info"} {
		testutil.WriteFile(t, filepath.Join(dir, n, "namespace_packages.txt"), "lazr\n")
	}
	sp, err := NewSitePackages(dir, SitePackagesConfig{Now: func() time.Time { return testNow }})
	got := strings.Join(testutil.RefNames(testutil.Listed(t, sp, err)), " ")
	want := "demo-widgets@1.1.0 lazr-restfulclient@0.14.5 lazr-uri@1.0.6 legacy-pkg@0.5 norecord@1.0 norecord@2.0 pyyaml@6.0 toml@0.10.2 wsgiref@0.1.2"
	if got != want {
		t.Errorf("List = %s\nwant   %s", got, want)
	}
	ctx := context.Background()
	api := func(name, version string) map[string]docidx.Symbol {
		t.Helper()
		return testutil.ByName(testutil.Fetched(t, sp, name, version).Symbols)
	}
	keys := func(m map[string]docidx.Symbol) string { return fmt.Sprint(slices.Sorted(maps.Keys(m))) }
	for name, want := range map[string]string{
		"norecord":           "[norecord norecord.nr norecord.sub.mod norecord.sub.mod.Deep]",
		"legacy-pkg":         "[legacy_pkg legacy_pkg.old]",
		"PyYAML":             "[yaml yaml.safe_load]",
		"wsgiref":            "[wsgiref wsgiref.simple_server wsgiref.simple_server.make_server]",
		"toml":               "[toml.decoder toml.decoder.load]",
		"lazr.uri":           "[lazr.uri lazr.uri.parse]",
		"lazr-restfulclient": "[lazr.restfulclient lazr.restfulclient.Client]",
	} {
		v, err := sp.Resolve(ctx, name, "")
		if err != nil {
			t.Errorf("Resolve(%s): %v", name, err)
			continue
		}
		if got := keys(api(name, v)); got != want {
			t.Errorf("%s symbols = %s, want %s", name, got, want)
		}
	}
	// The stub declares the API; its "= ..." defaults show the values of the source beside it.
	if s := api("toml", "0.10.2")["toml.decoder.load"]; s.Signature != "def load(f: Any, _dict: Any = dict, decoder: Any = None) -> Any" || s.File != "toml/decoder.pyi" {
		t.Errorf("toml.decoder.load (stub beside source) = %+v", s)
	}
}

func TestSitePackagesFetch(t *testing.T) {
	dir := layout(t)
	sp, err := NewSitePackages(dir, SitePackagesConfig{Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pd := testutil.Fetched(t, sp, "demo.widgets", "1.1.0")
	checkWidgetsAPI(t, pd, "")
	p := pd.Package
	if p.Name != "demo-widgets" || p.Version != "1.1.0" || p.License != "MIT" || p.Repository != "https://github.com/example/demo-widgets" ||
		p.Source != filepath.Join(dir, "Demo_Widgets-1.1.0.dist-info") || !p.CrawledAt.Equal(testNow) || fmt.Sprint(p.Versions) != "[1.1.0]" {
		t.Errorf("package = %+v", p)
	}
	if len(pd.Documents) != 1 || pd.Documents[0].Title != "Demo Widgets" || len(pd.Documents[0].Sections) != 3 {
		t.Errorf("README = %+v", pd.Documents)
	}

	pd = testutil.Fetched(t, sp, "toml", "0.10.2")
	d := pd.Documents[0]
	if d.Title != "TOML" || d.Path != "README.rst" || !strings.Contains(allText(d), "TOML > Installation") || pd.Package.Description != "Python Library for Tom's Obvious, Minimal Language" {
		t.Errorf("toml README from the Description header: %s", allText(d))
	}

	pd = testutil.Fetched(t, sp, "pyyaml", "6.0")
	if pd.Package.Name != "pyyaml" || pd.Package.Homepage != "https://pyyaml.org/" || !strings.HasSuffix(pd.Package.Source, "PyYAML-6.0-py3.11.egg-info") {
		t.Errorf("pyyaml = %+v", pd.Package)
	}
	if pd := testutil.Fetched(t, sp, "wsgiref", "0.1.2"); len(pd.Documents) != 0 || pd.Package.License != "PSF or ZPL" {
		t.Errorf("wsgiref (no description) = %+v", pd)
	}

	testutil.CheckResolve(t, sp, []testutil.Resolution{
		{"norecord", "", "2.0", nil},
		{"NoRecord", "<2", "1.0", nil},
		{"norecord", "==1.0.0", "1.0", nil},
		{"norecord", "3.0", "", docidx.ErrNotFound},
		{"norecord", ">>1", "", docidx.ErrBadSpec},
		{"missing", "", "", docidx.ErrNotFound},
	})
	if _, err := sp.Fetch(ctx, "norecord", "3.0"); !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), dir) {
		t.Errorf("Fetch of a version not installed: %v", err)
	}
	if pd := testutil.Fetched(t, sp, "norecord", "1.0.0"); pd.Package.Version != "1.0" {
		t.Errorf("Fetch compares versions as PEP 440 does: %+v", pd.Package)
	}
	if sp.Ecosystem() != docidx.PyPI || sp.String() != dir || sp.Dir() != dir {
		t.Errorf("names: %s %s", sp.String(), sp.Dir())
	}
}

func TestSitePackagesLimitsAndOddEntries(t *testing.T) {
	dir := t.TempDir()
	big := "def big(): ...\n" + strings.Repeat("# padding\n", 200)
	pypitest.SitePackages(t, dir, pypitest.Installed{
		Name: "many", Version: "1.0", Form: pypitest.DistInfo,
		Files: map[string]string{"many/a.py": "def a(): ...\n", "many/b.py": "def b(): ...\n", "many/c.py": big, "many/d.py": "def d1(): ...\ndef d2(): ...\ndef d3(): ...\n"},
	})
	// A distribution without name or version, a METADATA that is a directory, and a RECORD that
	// points outside the directory are skipped or ignored.
	testutil.WriteFile(t, filepath.Join(dir, "broken.dist-info", "METADATA"), "Summary: no name\n")
	os.MkdirAll(filepath.Join(dir, "weird-1.0.dist-info", "METADATA"), 0o755)
	testutil.WriteFile(t, filepath.Join(dir, "many-1.0.dist-info", "RECORD"), "many/a.py,,\nmany/b.py,,\nmany/c.py,,\nmany/d.py,,\n/etc/passwd,,\n../outside.py,,\n\"many/quoted,name.py\",,\n")
	testutil.WriteFile(t, filepath.Join(dir, "..", "outside.py"), "def outside(): ...\n")

	sp, err := NewSitePackages(dir, SitePackagesConfig{Limits: Limits{MaxFile: 100, MaxSymbols: 5}})
	refs := testutil.Listed(t, sp, err)
	if len(refs) != 1 || refs[0].Name != "many" {
		t.Fatalf("refs = %v", refs)
	}
	pd := testutil.Fetched(t, sp, "many", "1.0")
	m := testutil.ByName(pd.Symbols)
	if len(pd.Symbols) != 5 {
		t.Errorf("%d symbols, want MaxSymbols=5: %v", len(pd.Symbols), m)
	}
	if _, ok := m["many.c.big"]; ok {
		t.Error("a file over MaxFile was read")
	}
	for q := range m {
		if strings.Contains(q, "outside") {
			t.Errorf("read a file outside site-packages: %s", q)
		}
	}
	if _, err := NewSitePackages(filepath.Join(dir, "many", "a.py"), SitePackagesConfig{}); err == nil {
		t.Error("a file is not a site-packages directory")
	}
	if _, err := NewSitePackages(filepath.Join(dir, "nope"), SitePackagesConfig{}); err == nil {
		t.Error("a missing directory")
	}
}

func TestModuleName(t *testing.T) {
	for p, want := range map[string]string{
		"flask/app.py": "flask.app", "yaml/__init__.py": "yaml", "six.py": "six", "attr/__init__.pyi": "attr",
		"requests-stubs/api.pyi": "requests.api", "pkg/sub/__init__.py": "pkg.sub",
		"pkg/_private.py": "", "_pytest/main.py": "", "pkg/_impl/x.py": "", "pkg/tests/test_x.py": "", "pkg/test/test_x.py": "", "pkg/test/x_test.py": "",
		// A test package whose modules are not tests is an API for writing tests (django.test).
		"django/test/__init__.py": "django.test", "django/test/client.py": "django.test.client",
		"pkg/__main__.py": "", "setup.py": "", "pkg/setup.py": "pkg.setup", "conftest.py": "", "pkg/conftest.py": "",
		"my-pkg/x.py": "", "2to3/x.py": "", "pkg/x.pyc": "", "pkg/data.json": "", "__init__.py": "",
	} {
		got, public, ok := importName(p)
		if !public {
			got, ok = "", false
		}
		if got != want || ok != (want != "") {
			t.Errorf("importName(%q) as a public module = %q, %v; want %q", p, got, ok, want)
		}
	}
}

// realSitePackages returns this machine's site-packages directory, or skips.
func realSitePackages(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("short mode")
	}
	dir := os.Getenv("DOCIDX_SITE_PACKAGES")
	if dir == "" {
		dirs, err := DefaultSitePackagesDirs(context.Background(), "")
		if err != nil {
			tb.Skipf("no Python here: %v", err)
		}
		dir = dirs[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Skipf("no site-packages at %s", dir)
	}
	return dir
}

// TestRealSitePackages reads every distribution of this machine's Python: nothing may fail, and
// Flask and PyYAML, when installed, show their version, README and API.
func TestRealSitePackages(t *testing.T) {
	dir := realSitePackages(t)
	ctx := context.Background()
	start := time.Now()
	symbols, sections := 0, 0
	byName := map[string]*docidx.PackageDocs{}
	sp, refs := fetchEvery(t, dir, func(r docidx.Ref, pd *docidx.PackageDocs) {
		symbols += len(pd.Symbols)
		for _, d := range pd.Documents {
			sections += len(d.Sections)
		}
		testutil.CheckSymbols(t, pd.Symbols) // qualified names and files name the distribution
		byName[r.Name] = pd
	})
	t.Logf("%s: %d distributions, %d symbols, %d README sections in %v", dir, len(refs), symbols, sections, time.Since(start))

	if pd := byName["flask"]; pd != nil {
		m := testutil.ByName(pd.Symbols)
		testutil.Present(t, m, "flask", "flask.app.Flask", "flask.app.Flask.__init__", "flask.helpers.url_for", "flask.blueprints.Blueprint")
		if pd.Package.Version == "" || len(pd.Documents) == 0 || len(pd.Documents[0].Sections) < 2 || pd.Package.Repository == "" {
			t.Errorf("flask = %+v, %d documents", pd.Package, len(pd.Documents))
		}
	}
	// Every ":param" field of a docstring is a parameter with its text: blinker's weak too.
	if pd := byName["blinker"]; pd != nil {
		s := testutil.ByName(pd.Symbols)["blinker.base.Signal.connect"]
		var names []string
		for _, p := range s.Params {
			names = append(names, p.Name)
			if p.Name == "weak" && (p.Default != "True" || !strings.Contains(p.Doc, "set to False")) {
				t.Errorf("blinker Signal.connect's weak = %+v", p)
			}
		}
		if strings.Join(names, " ") != "receiver sender weak" {
			t.Errorf("blinker Signal.connect params %q, want receiver sender weak", names)
		}
	}
	if pd := byName["pyyaml"]; pd != nil {
		m := testutil.ByName(pd.Symbols)
		testutil.Present(t, m, "pyyaml", "yaml.safe_load", "yaml.dump", "yaml.YAMLObject")
		if pd.Package.Version == "" || len(pd.Documents) == 0 || pd.Package.License != "MIT" {
			t.Errorf("pyyaml = %+v", pd.Package)
		}
		if v, err := sp.Resolve(ctx, "PyYAML", ""); err != nil || v != pd.Package.Version {
			t.Errorf("Resolve(PyYAML) = %q, %v", v, err)
		}
	}
}

// fetchInstalled opens the site-packages directory dir with cfg and fetches name@version from
// it; a failure is fatal.
func fetchInstalled(t *testing.T, dir string, cfg SitePackagesConfig, name, version string) *docidx.PackageDocs {
	t.Helper()
	sp, err := NewSitePackages(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return testutil.Fetched(t, sp, name, version)
}

// fetchEvery opens the site-packages directory dir, lists it and fetches every distribution,
// handing each to visit (testutil.FetchEvery). A failed open or List is fatal.
func fetchEvery(tb testing.TB, dir string, visit func(docidx.Ref, *docidx.PackageDocs)) (*SitePackages, []docidx.Ref) {
	tb.Helper()
	sp, err := NewSitePackages(dir, SitePackagesConfig{})
	refs := testutil.Listed(tb, sp, err)
	testutil.FetchEvery(tb, sp, refs, visit)
	return sp, refs
}

// TestDebianDistPackages reads Debian's system dist-packages (egg-info directories) when present.
func TestDebianDistPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := "/usr/lib/python3/dist-packages"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no Debian dist-packages")
	}
	eggs := 0
	_, refs := fetchEvery(t, dir, func(_ docidx.Ref, pd *docidx.PackageDocs) {
		if strings.HasSuffix(pd.Package.Source, ".egg-info") {
			eggs++
		}
	})
	t.Logf("%d distributions, %d from egg-info", len(refs), eggs)
}

// BenchmarkRealSitePackages lists and reads every distribution of this machine's Python and
// reports the symbols extracted per second.
func BenchmarkRealSitePackages(b *testing.B) {
	dir := realSitePackages(b)
	symbols := 0
	for b.Loop() {
		fetchEvery(b, dir, func(_ docidx.Ref, pd *docidx.PackageDocs) { symbols += len(pd.Symbols) })
	}
	b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
}
