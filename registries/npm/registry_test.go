package npm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/redact"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

var testNow = time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)

// newTestRegistry starts the fake registry over testdata/registry and a Registry pointed at it,
// retrying once after a millisecond and crawling at testNow; mod, when not nil, changes its
// configuration first.
func newTestRegistry(t *testing.T, mod func(*RegistryConfig)) (*Registry, *npmtest.Server) {
	t.Helper()
	srv := npmtest.NewServer(t, filepath.Join("testdata", "registry"))
	return testutil.Configured(t, RegistryConfig{
		Config: configAt(t, srv.URL),
		Client: registrytest.QuickClient(srv.Client()),
		Now:    func() time.Time { return testNow },
	}, mod, NewRegistry), srv
}

// configAt returns the Config of the registry at url (see NewConfig), failing the test when url
// is not one.
func configAt(tb testing.TB, url string) *Config {
	tb.Helper()
	return testutil.Must(tb, NewConfig, url)
}

// registryOver returns a Registry over cfg that requests through client; mod, when not nil,
// changes its configuration first. It fails the test when NewRegistry does.
func registryOver(tb testing.TB, cfg *Config, client *fetch.Client, mod func(*RegistryConfig)) *Registry {
	tb.Helper()
	return testutil.Configured(tb, RegistryConfig{Config: cfg, Client: client}, mod, NewRegistry)
}

func TestResolve(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	ctx := context.Background()
	testutil.CheckResolve(t, r, []testutil.Resolution{
		{"widget", "", "1.1.0", nil},
		{"widget", "latest", "1.1.0", nil},
		{"widget", "next", "2.0.0-beta.1", nil},
		{"widget", "1.0.0", "1.0.0", nil},
		{"widget", "v1.0.0", "1.0.0", nil},
		{"widget", "=1.2.0", "1.2.0", nil},
		{"widget", "^1.0.0", "1.1.0", nil},         // latest satisfies the range: npm picks it
		{"widget", "1.x", "1.1.0", nil},            //
		{"widget", "~1.0", "1.0.0", nil},           //
		{"widget", ">=1.1.1 <2", "1.2.0", nil},     // only a deprecated version matches: still picked
		{"widget", ">1.0.0 <=1.2.0", "1.1.0", nil}, // latest again
		{"widget", "1.0.0 - 1.0.9", "1.0.0", nil},  // hyphen range
		{"widget", "^0.1 || ~1.0.0", "1.0.0", nil},
		{"widget", "*", "1.1.0", nil},
		{"widget", "^2.0.0-beta", "2.0.0-beta.1", nil},
		{"widget", "^2", "", docidx.ErrNotFound}, // prereleases need a prerelease in the range
		{"widget", "3.0.0", "", docidx.ErrNotFound},
		{"widget", "^3", "", docidx.ErrNotFound},
		{"widget", "beta", "", docidx.ErrNotFound}, // an unknown dist-tag
		{"widget", ">>1", "", docidx.ErrBadSpec},
		// Names npm does not allow.
		{"", "", "", docidx.ErrBadSpec},
		{"UPPER CASE", "", "", docidx.ErrBadSpec},
		{"../etc", "", "", docidx.ErrBadSpec},
		{"@scope", "", "", docidx.ErrBadSpec},
		{"@/x", "", "", docidx.ErrBadSpec},
		{"a/b", "", "", docidx.ErrBadSpec},
		{".hidden", "", "", docidx.ErrBadSpec},
		{"_under", "", "", docidx.ErrBadSpec},
		{"@s/a/b", "", "", docidx.ErrBadSpec},
		{strings.Repeat("x", 215), "", "", docidx.ErrBadSpec},
	})
	if _, err := r.Resolve(ctx, "no-such-package", ""); !errors.Is(err, docidx.ErrNotFound) ||
		!strings.Contains(err.Error(), "npm: package no-such-package not found in "+redact.URL(r.cfg.Config.Registry)) {
		t.Errorf("unknown package: %v", err)
	}
}

func TestPackumentRequest(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	ctx := context.Background()
	if _, err := r.Resolve(ctx, "@acme/tools", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(ctx, "@acme/tools", "^0.1"); err != nil { // from the cache
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %+v, want one (packuments are cached)", reqs)
	}
	if reqs[0].Path != "/@acme%2ftools" || reqs[0].Accept != "application/json" || reqs[0].Authorization != "" {
		t.Errorf("request = %+v", reqs[0])
	}
}

func TestFetch(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "widget", "1.1.0")
	p := pd.Package
	want := docidx.Package{
		Ecosystem:   docidx.NPM,
		Name:        "widget",
		Version:     "1.1.0",
		Versions:    []string{"1.0.0", "1.1.0", "1.2.0", "2.0.0-beta.1"},
		Description: "Widgets for docidx tests",
		License:     "MIT",
		Homepage:    "https://widget.example.test",
		Repository:  "https://github.com/example/widget",
		Keywords:    []string{"widget", "test"},
		Published:   time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC),
		Source:      r.cfg.Config.Registry + "widget",
		CrawledAt:   testNow,
	}
	testutil.SamePackage(t, p, want)

	docs := testutil.Documents(t, pd, map[string]docidx.DocKind{
		"README.md":            docidx.DocReadme,
		"docs/guide.md":        docidx.DocGuide,
		"docs/api/advanced.md": docidx.DocGuide,
		"examples/README.md":   docidx.DocExample,
		"examples/basic.js":    docidx.DocExample,
		"CHANGELOG.md":         docidx.DocGuide, // its entry for 1.1.0
	})
	if len(pd.Documents) != 6 {
		t.Errorf("documents: %d, want 6 (no docs/notes.txt)", len(pd.Documents))
	}
	if text := testutil.Text(docs["CHANGELOG.md"]); !strings.Contains(text, "things") {
		t.Errorf("CHANGELOG.md's entry for 1.1.0 = %q", text)
	}
	if text := testutil.Text(docs["README.md"]); !strings.Contains(text, "npm install widget") || strings.Contains(text, "registry's copy") {
		t.Errorf("README is not the tarball's: %q", text)
	}
	if text := testutil.Text(docs["examples/basic.js"]); !strings.Contains(text, "createWidget({ size: 1 })") {
		t.Errorf("example source missing: %q", text)
	}

	syms := testutil.FirstByName(pd.Symbols)
	var resize []string
	for _, s := range pd.Symbols {
		if s.QualifiedName == "Widget.resize" {
			resize = append(resize, s.Signature)
		}
	}
	for q, kind := range map[string]docidx.SymbolKind{
		"WidgetOptions": docidx.KindInterface, "WidgetOptions.size": docidx.KindField,
		"Widget": docidx.KindClass, "Widget.render": docidx.KindMethod, "Widget.resize": docidx.KindMethod,
		"Widget.compose": docidx.KindMethod, "Widget.size": docidx.KindField, "Widget.constructor": docidx.KindMethod,
		"createWidget": docidx.KindFunc, "makeWidget": docidx.KindFunc, "VERSION": docidx.KindConst,
		"Shape": docidx.KindEnum, "Shape.Square": docidx.KindConst, "Point": docidx.KindType, "Point.x": docidx.KindField,
	} {
		if s, ok := syms[q]; !ok || s.Kind != kind {
			t.Errorf("symbol %s = %+v, want kind %s", q, s, kind)
		}
	}
	if len(syms) != 18 || len(pd.Symbols) != 19 {
		t.Errorf("%d symbols of %d names, want 19 of 18: %v", len(pd.Symbols), len(syms), syms)
	}
	if fmt.Sprint(resize) != "[resize(n: number): this resize(w: number, h: number): this]" {
		t.Errorf("Widget.resize overloads = %q", resize)
	}
	if s := syms["Widget.resize"]; s.File != "types/index.d.ts" || s.Parent != "Widget" || s.Package != "widget" {
		t.Errorf("Widget.resize = %+v", s)
	}
	if s := syms["Widget"]; !strings.Contains(s.Doc, "@example") || s.Line != 16 {
		t.Errorf("Widget doc/line = %q %d", s.Doc, s.Line)
	}
	if !syms["makeWidget"].Deprecated || syms["createWidget"].Deprecated {
		t.Error("deprecation flags wrong")
	}
	if s := syms["Shape"]; s.File != "types/shapes.d.ts" || s.Doc != "Known shapes." {
		t.Errorf("Shape = %+v", s)
	}
}

func TestFetchDeprecatedAndPrerelease(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "widget", "1.2.0")
	if pd.Package.Deprecated != "1.2.0 is broken; use 1.1.0" {
		t.Errorf("Deprecated = %q", pd.Package.Deprecated)
	}
	if _, err := r.Fetch(context.Background(), "widget", "^1"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("Fetch of a range: %v, want ErrNotFound", err)
	}
}

func TestFetchReadmeSources(t *testing.T) {
	r, srv := newTestRegistry(t, nil)

	// The packument has no readme; the tarball's readme.markdown is used.
	pd := testutil.Fetched(t, r, "quiet", "1.0.0")
	if len(pd.Documents) != 1 || pd.Documents[0].Path != "readme.markdown" || !strings.Contains(testutil.Text(pd.Documents[0]), "hush()") {
		t.Errorf("documents = %+v", pd.Documents)
	}
	if len(pd.Symbols) != 1 || pd.Symbols[0].QualifiedName != "hush" || pd.Symbols[0].File != "main.d.ts" {
		t.Errorf("symbols (types beside main) = %+v", pd.Symbols)
	}
	if pd.Package.License != "ISC" || pd.Package.Published.IsZero() {
		t.Errorf("package = %+v", pd.Package)
	}

	// No README in the tarball: the version's readme, else the top-level one for latest only.
	srv.AddPackage("bare", "0.9.0", map[string]string{"index.d.ts": "export declare const x: 1;\n"})
	srv.AddPackage("bare", "1.0.0", map[string]string{"index.d.ts": "export declare const x: 1;\n"})
	top := "# bare\n\n## Usage\n\nFrom the packument.\n"
	srv.SetReadme("bare", &top)
	pd = testutil.Fetched(t, r, "bare", "1.0.0")
	if len(pd.Documents) != 1 || pd.Documents[0].Path != "README.md" || !strings.Contains(testutil.Text(pd.Documents[0]), "From the packument") {
		t.Errorf("latest: documents = %+v", pd.Documents)
	}
	pd = testutil.Fetched(t, r, "bare", "0.9.0")
	if len(pd.Documents) != 0 {
		t.Errorf("0.9.0 got the latest version's README: %+v", pd.Documents)
	}

	placeholder := noReadme
	srv.AddPackage("placeholder", "1.0.0", nil)
	srv.SetReadme("placeholder", &placeholder)
	if pd := testutil.Fetched(t, r, "placeholder", "1.0.0"); len(pd.Documents) != 0 {
		t.Errorf("placeholder readme: %+v", pd)
	}
}

func TestScopedRegistryWithToken(t *testing.T) {
	srv := npmtest.NewServer(t, filepath.Join("testdata", "registry"))
	srv.RequireToken("@acme", "s3cret")
	u, _ := url.Parse(srv.URL)
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), fmt.Sprintf("registry=http://unused.example.test/\n@acme:registry=%s\n//%s/:_authToken=${ACME_TOKEN}\n", srv.URL, u.Host))

	load := func(env ...string) *Registry {
		cfg, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: append(env, "HOME="+t.TempDir())})
		if err != nil {
			t.Fatal(err)
		}
		return registryOver(t, cfg, &fetch.Client{HTTP: srv.Client(), Retries: -1}, nil)
	}
	ctx := context.Background()
	_, err := load().Resolve(ctx, "@acme/tools", "")
	if err == nil || !strings.Contains(err.Error(), "_authToken") {
		t.Errorf("without token: %v", err)
	}
	r := load("ACME_TOKEN=s3cret")
	pd := testutil.Fetched(t, r, "@acme/tools", "0.1.0")
	names := map[string]bool{}
	for _, s := range pd.Symbols {
		names[s.QualifiedName] = true
	}
	if !names["hammer"] || !names["saw"] || len(names) != 2 {
		t.Errorf("symbols = %v, want hammer and saw from dist/index.d.mts", names)
	}
	if pd.Package.Repository != "https://github.com/acme/tools" || pd.Package.License != "Apache-2.0" {
		t.Errorf("package = %+v", pd.Package)
	}
	if authed := srv.Authorized("Bearer s3cret"); authed != 2 {
		t.Errorf("%d requests carried the token, want 2 (packument and tarball): %+v", authed, srv.Requests())
	}
}

func TestFetchFaults(t *testing.T) {
	registrytest.FetchFaults(t, "npm: ", "1.1.0", newTestRegistry, nil, []registrytest.FetchFault[*npmtest.Server, RegistryConfig]{
		{Case: "packument 429 exhausted", Setup: func(s *npmtest.Server) {
			s.Inject(registrytest.Fault{Path: "/widget", Status: http.StatusTooManyRequests, RetryAfter: "0"})
		}, Name: "widget", Want: docidx.ErrRetryable},
		{Case: "oversized tarball", Mod: func(c *RegistryConfig) { c.Limits.MaxTarball = 200 }, Name: "widget", Want: docidx.ErrTooLarge},
		{Case: "oversized packument", Mod: func(c *RegistryConfig) { c.Limits.MaxPackument = 200 }, Name: "widget", Want: docidx.ErrTooLarge},
		{Case: "unpacks too large", Mod: func(c *RegistryConfig) { c.Limits.MaxUnpacked = 1000 }, Name: "widget", Want: docidx.ErrTooLarge},
		{Case: "entry too large", Mod: func(c *RegistryConfig) { c.Limits.MaxEntry = 100 }, Name: "widget", Want: docidx.ErrTooLarge},
		{Case: "tarball with ..", Setup: func(s *npmtest.Server) {
			s.AddTarball("evil", "1.1.0", nil, npmtest.Tarballs.Build([]registrytest.Entry{
				{Name: "package/package.json", Body: `{"name":"evil","version":"1.1.0"}`},
				{Name: "package/../../etc/passwd", Body: "root"},
			}))
		}, Name: "evil", Want: docidx.ErrUnsafePath},
		{Case: "tarball with absolute path", Setup: func(s *npmtest.Server) {
			s.AddTarball("evil", "1.1.0", nil, npmtest.Tarballs.Build([]registrytest.Entry{{Name: "/etc/passwd", Body: "root"}}))
		}, Name: "evil", Want: docidx.ErrUnsafePath},
	})
}

func TestRegistryCacheEvictsAndRetriesFailures(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	registrytest.MetadataCache(t, registrytest.MetadataCacheSubject{Registry: r, Server: srv.Server,
		Fault: registrytest.Fault{Path: "/quiet", Status: http.StatusNotFound}, Want: docidx.ErrNotFound,
		Name: "quiet", Version: "1.0.0",
		Add:  func(name string) { srv.AddPackage(name, "1.0.0", nil) },
		Size: packumentCacheSize, Len: r.cache.Len})
}

func TestNewRegistryNeedsConfig(t *testing.T) {
	if _, err := NewRegistry(RegistryConfig{}); err == nil {
		t.Error("NewRegistry without Config succeeded")
	}
}

// TestRegistryStringDropsCredentials checks that the name crawl prints for a registry (and
// quotes when it times out) holds neither the user information nor the query of its URL.
func TestRegistryStringDropsCredentials(t *testing.T) {
	r := testutil.Must(t, NewRegistry, RegistryConfig{Config: &Config{Registry: "https://alice:s3cretXYZ@127.0.0.1:1/npm/?token=s3cretXYZ"}})
	if got, want := r.String(), "npm registry https://127.0.0.1:1/npm/"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestNoRegistryHostInRepo guards the rule that the public registry's host is never written into
// docidx: registry URLs come from npm's configuration.
func TestNoRegistryHostInRepo(t *testing.T) {
	forbidden := strings.Join([]string{"registry", "npmjs", "org"}, ".")
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(strings.ToLower(string(b)), forbidden) {
			t.Errorf("%s mentions the public registry host", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOddPackument(t *testing.T) {
	body := `{"name":"odd","dist-tags":{"latest":"1.0.0","bad":7},"versions":{
		"1.0.0":{"name":"odd","version":"1.0.0","description":["not","a","string"],"dist":{"tarball":"http://unused.example.test/x.tgz"}},
		"0.9.0":"not an object",
		"0.8.0":null},
		"time":{"1.0.0":"yesterday"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/empty" {
			w.Write([]byte(`{"name":"empty","versions":{},"time":{"unpublished":{}}}`))
			return
		}
		if r.URL.Path == "/broken" {
			w.Write([]byte(`{"name":`))
			return
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()
	r := registryOver(t, configAt(t, srv.URL), &fetch.Client{HTTP: srv.Client(), Retries: -1}, nil)
	ctx := context.Background()
	if v, err := r.Resolve(ctx, "odd", ""); err != nil || v != "1.0.0" {
		t.Errorf("Resolve(odd) = %q, %v", v, err)
	}
	if _, err := r.Resolve(ctx, "odd", "0.9.0"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("Resolve(odd, 0.9.0) = %v", err)
	}
	if _, err := r.Resolve(ctx, "empty", ""); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("unpublished: %v", err)
	}
	if _, err := r.Resolve(ctx, "broken", ""); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("broken: %v", err)
	}
}
