package cargo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

var testNow = time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)

const testCrates = "testdata/crates"

// newTestRegistry starts the fake registry over testdata/crates and a Registry pointed at it.
func newTestRegistry(t *testing.T, mod func(*RegistryConfig)) (*Registry, *cargotest.Server) {
	t.Helper()
	srv := cargotest.NewServer(t, testCrates)
	srv.Yank("ferris-json", "1.2.0", true)
	return registryFor(t, srv, mod), srv
}

// registryFor returns a Registry over srv's index with a quickly retrying client and testNow as
// its clock, after mod (when not nil) has changed its configuration.
func registryFor(t *testing.T, srv *cargotest.Server, mod func(*RegistryConfig)) *Registry {
	t.Helper()
	return testutil.Configured(t, RegistryConfig{
		Config: testutil.Must(t, NewConfig, srv.Index()),
		Client: registrytest.QuickClient(srv.Client()),
		Now:    func() time.Time { return testNow },
	}, mod, NewRegistry)
}

func TestResolve(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	ctx := context.Background()
	const crate = "ferris-json"
	testutil.CheckResolve(t, r, []testutil.Resolution{
		{crate, "", "1.1.0", nil}, // 1.2.0 is yanked, 2.0.0-alpha.1 a pre-release
		{crate, "latest", "1.1.0", nil},
		{crate, "1.0.0", "1.0.0", nil},
		{crate, "=1.0.0", "1.0.0", nil},
		{crate, "v0.9.0", "0.9.0", nil},
		{crate, "1.2.0", "1.2.0", nil}, // a yanked version named exactly
		{crate, "1", "1.1.0", nil},     // ^1, the yanked 1.2.0 left out
		{crate, "1.0", "1.1.0", nil},   // ^1.0
		{crate, "^0.9", "0.9.0", nil},
		{crate, "~1.0", "1.0.0", nil},
		{crate, "1.*", "1.1.0", nil},
		{crate, ">=1.0.0, <1.1.0", "1.0.0", nil},
		{crate, "*", "1.1.0", nil},
		{crate, "^2.0.0-alpha", "2.0.0-alpha.1", nil},
		{crate, "2", "", docidx.ErrNotFound}, // pre-releases need a pre-release in the requirement
		{crate, "1.2.1", "", docidx.ErrNotFound},
		{crate, "3.0.0", "", docidx.ErrNotFound},
		{crate, "^3", "", docidx.ErrNotFound},
		{crate, ">>1", "", docidx.ErrBadSpec},
		{crate, "banana", "", docidx.ErrBadSpec},
		{"", "", "", docidx.ErrBadSpec},
		{"has space", "", "", docidx.ErrBadSpec},
		{"../etc", "", "", docidx.ErrBadSpec},
		{"a/b", "", "", docidx.ErrBadSpec},
		{"-lead", "", "", docidx.ErrBadSpec},
		{"9lives", "", "", docidx.ErrBadSpec},
		{strings.Repeat("x", 65), "", "", docidx.ErrBadSpec},
		{"ünï", "", "", docidx.ErrBadSpec},
	})
	if _, err := r.Resolve(ctx, "no-such-crate", ""); !errors.Is(err, docidx.ErrNotFound) ||
		!strings.Contains(err.Error(), "cargo: crate no-such-crate not found in sparse+http://") {
		t.Errorf("unknown crate: %v", err)
	}
}

func TestIndexRequests(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	ctx := context.Background()
	for _, name := range []string{"ferris-json", "FERRIS-JSON", "ferris_json", "tz", "quux"} {
		if _, err := r.Resolve(ctx, name, ""); err != nil {
			t.Fatalf("Resolve(%s): %v", name, err)
		}
	}
	var paths []string
	for _, req := range srv.Requests() {
		paths = append(paths, req.Path)
		if req.Authorization != "" {
			t.Errorf("%s carried a token to a public registry", req.Path)
		}
	}
	want := []string{
		"/index/config.json", "/index/fe/rr/ferris-json", // FERRIS-JSON: the same file, cached
		"/index/fe/rr/ferris_json", // not found: translated to ferris-json, which is cached
		"/index/2/tz", "/index/qu/ux/quux",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("requests\n got %q\nwant %q", paths, want)
	}
}

func TestFetch(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, "ferris-json", "1.1.0")
	want := docidx.Package{
		Ecosystem:   docidx.Cargo,
		Name:        "ferris-json",
		Version:     "1.1.0",
		Versions:    []string{"0.9.0", "1.0.0", "1.1.0", "2.0.0-alpha.1"},
		Description: "A small JSON value type with a parser, a serializer and the json! macro.",
		License:     "MIT OR Apache-2.0",
		Homepage:    "https://ferris-json.example.test",
		Repository:  "https://github.com/ferris-example/ferris-json",
		Keywords:    []string{"json", "parser", "serialization"},
		Published:   registrytest.Published(2),
		Source:      srv.Index(),
		CrawledAt:   testNow,
		Requires:    []docidx.Requirement{{Name: "rust", Range: ">=1.70"}}, // rust-version = "1.70"
	}
	testutil.SamePackage(t, pd.Package, want)
	docs := testutil.Documents(t, pd, map[string]docidx.DocKind{
		"README.md":          docidx.DocReadme,
		"docs/parsing.md":    docidx.DocGuide,
		"examples/README.md": docidx.DocExample,
		"examples/pretty.rs": docidx.DocExample,
		"src/lib.rs":         docidx.DocGuide,
		"features.md":        docidx.DocGuide, // the feature flags, from Cargo.toml
	})
	if len(pd.Documents) != 6 {
		t.Errorf("%d documents, want 6", len(pd.Documents))
	}
	if d := docs["src/lib.rs"]; pd.Documents[1].Path != "src/lib.rs" || d.Title != "Crate ferris_json" || len(d.Sections) != 1 ||
		d.Sections[0].Code[0].Lang != "rust" || !strings.Contains(d.Sections[0].Plain, "A small JSON Value type") {
		t.Errorf("crate-level docs (second, after the README) = %+v", d)
	}
	readme := testutil.Text(docs["README.md"])
	if !strings.Contains(readme, "ferris-json = \"1.1\"") || strings.Contains(readme, "Pull requests are welcome") || strings.Contains(readme, "img.shields.io") {
		t.Errorf("README not filtered: %q", readme)
	}
	if text := testutil.Text(docs["examples/pretty.rs"]); !strings.Contains(text, "Pretty-prints a JSON document") || !strings.Contains(text, "to_string_pretty(&value") {
		t.Errorf("example: %q", text)
	}
	syms := testutil.ByName(pd.Symbols)
	if len(syms) != 60 { // 47 items and 13 members: enum variants and pub fields
		t.Errorf("%d symbols, want 60", len(syms))
	}
	if s := syms["ferris_json::Value::as_str"]; s.Kind != docidx.KindMethod || s.Parent != "Value" || s.File != "src/value.rs" || s.Signature != "pub fn as_str(&self) -> Option<&str>" {
		t.Errorf("Value::as_str = %+v", s)
	}
	if s := syms["ferris_json::parse_str"]; !s.Deprecated {
		t.Errorf("parse_str not deprecated: %+v", s)
	}
	if _, ok := syms["ferris_json::__private"]; ok {
		t.Error("doc(hidden) module listed")
	}
}

func TestFetchOtherCrates(t *testing.T) {
	r, _ := newTestRegistry(t, nil)

	// Edition 2015, [lib] path elsewhere, readme = false although a README.md is packaged.
	pd := testutil.Fetched(t, r, "tz", "")
	if len(pd.Documents) != 0 {
		t.Errorf("tz documents %+v, want none (readme = false)", pd.Documents)
	}
	var names []string
	for _, s := range pd.Symbols {
		names = append(names, s.QualifiedName)
	}
	if !slices.Equal(names, []string{"tz", "tz::Offset", "tz::Offset::seconds", "tz::Offset::hours", "tz::zones", "tz::zones::UTC", "tz::zones::by_name"}) {
		t.Errorf("tz symbols %q", names)
	}

	// A binary-only crate: its README (README.txt, from the manifest), no API; the index spells it Quux.
	pd = testutil.Fetched(t, r, "quux", "2.0.0")
	if pd.Package.Name != "Quux" || len(pd.Symbols) != 0 || len(pd.Documents) != 1 || pd.Documents[0].Path != "README.txt" {
		t.Errorf("Quux: %+v", pd)
	}

	// A yanked version named exactly is fetched and says so; its name translated from ferris_json.
	pd = testutil.Fetched(t, r, "ferris_json", "1.2.0")
	if pd.Package.Name != "ferris-json" || !strings.Contains(pd.Package.Deprecated, "yanked") || !slices.Contains(pd.Package.Versions, "1.2.0") {
		t.Errorf("yanked: %+v", pd.Package)
	}
	// A requirement is resolved first.
	if pd := testutil.Fetched(t, r, "ferris-json", "~1.0"); pd.Package.Version != "1.0.0" {
		t.Errorf("Fetch(~1.0) = %+v", pd)
	}
}

func TestDownloadTemplates(t *testing.T) {
	for _, tc := range []struct{ name, dl string }{
		{"crates.io style", "/api/v1/crates"},
		{"markers", "/dl/{lowerprefix}/{crate}/{crate}-{version}.crate"},
		{"prefix and checksum", "/files/{prefix}/{crate}/{version}?sum={sha256-checksum}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, srv := newTestRegistry(t, nil)
			srv.SetDownload(srv.URL + tc.dl)
			for _, name := range []string{"Quux", "tz"} {
				testutil.Fetched(t, r, name, "")
			}
			reqs := srv.Requests()
			last := reqs[len(reqs)-1].Target()
			if want := strings.TrimPrefix(srv.DownloadURL("tz", "0.1.0"), srv.URL); last != want {
				t.Errorf("download request %q, want %q", last, want)
			}
		})
	}
	e := &IndexEntry{Name: "Quux", Vers: "2.0.0", Cksum: "abc"}
	checkEachOK(t, "downloadURL", func(dl string) (string, error) { return downloadURL(dl, e) }, map[string]string{
		"https://dl.example.test/crates":  "https://dl.example.test/crates/Quux/2.0.0/download",
		"https://dl.example.test/crates/": "https://dl.example.test/crates/Quux/2.0.0/download",
		"https://dl.example.test/{prefix}/{lowerprefix}/{crate}-{version}.crate?c={sha256-checksum}": "https://dl.example.test/Qu/ux/qu/ux/Quux-2.0.0.crate?c=abc",
		"https://dl.example.test/{sha256-checksum}":                                                  "https://dl.example.test/abc",
	})
	if _, err := downloadURL("ftp://x/{crate}", e); err == nil {
		t.Error("ftp dl accepted")
	}
}

// fault returns a set-up that makes every request for path fail with status.
func fault(path string, status int) func(*cargotest.Server) {
	return func(s *cargotest.Server) {
		s.Inject(registrytest.Fault{Path: path, Status: status, RetryAfter: "0"})
	}
}

func TestFetchFaults(t *testing.T) {
	registrytest.FetchFaults(t, "cargo: ", "1.1.0", newTestRegistry, nil, []registrytest.FetchFault[*cargotest.Server, RegistryConfig]{
		{Case: "config.json 404", Setup: fault("/index/config.json", http.StatusNotFound), Name: "ferris-json", Want: docidx.ErrNotFound},
		{Case: "config.json 500", Setup: fault("/index/config.json", http.StatusInternalServerError), Name: "ferris-json", Want: docidx.ErrRetryable},
		{Case: "index 429 exhausted", Setup: fault("/index/fe/rr/ferris-json", http.StatusTooManyRequests), Name: "ferris-json", Want: docidx.ErrRetryable},
		{Case: "oversized crate", Mod: func(c *RegistryConfig) { c.Limits.MaxCrate = 500 }, Name: "ferris-json", Want: docidx.ErrTooLarge},
		{Case: "oversized index file", Mod: func(c *RegistryConfig) { c.Limits.MaxIndexFile = 100 }, Name: "ferris-json", Want: docidx.ErrTooLarge},
		{Case: "unpacks too large", Mod: func(c *RegistryConfig) { c.Limits.MaxUnpacked = 1000 }, Name: "ferris-json", Want: docidx.ErrTooLarge},
		{Case: "entry too large", Mod: func(c *RegistryConfig) { c.Limits.MaxEntry = 100 }, Name: "ferris-json", Want: docidx.ErrTooLarge},
		{Case: "entry with ..", Setup: func(s *cargotest.Server) {
			s.AddArchive(cargotest.Crate{Name: "evil", Version: "1.1.0"}, cargotest.Crates.Build([]registrytest.Entry{
				{Name: "evil-1.1.0/Cargo.toml", Body: "[package]\nname = \"evil\"\n"},
				{Name: "evil-1.1.0/../../etc/passwd", Body: "root"},
			}))
		}, Name: "evil", Want: docidx.ErrUnsafePath},
		{Case: "absolute entry", Setup: func(s *cargotest.Server) {
			s.AddArchive(cargotest.Crate{Name: "evil", Version: "1.1.0"}, cargotest.Crates.Build([]registrytest.Entry{{Name: "/etc/passwd", Body: "root"}}))
		}, Name: "evil", Want: docidx.ErrUnsafePath},
		{Case: "entry outside NAME-VERSION/", Setup: func(s *cargotest.Server) {
			s.AddArchive(cargotest.Crate{Name: "evil", Version: "1.1.0"}, cargotest.Crates.Build([]registrytest.Entry{
				{Name: "evil-1.1.0/Cargo.toml", Body: "[package]\nname = \"evil\"\n"},
				{Name: "evil-1.1.0x/src/lib.rs", Body: "pub fn f() {}"},
			}))
		}, Name: "evil", Want: docidx.ErrUnsafePath},
	})
}

func TestFetchNotGzip(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	srv.AddArchive(cargotest.Crate{Name: "plain", Version: "1.0.0"}, []byte("not a tarball"))
	if _, err := r.Fetch(context.Background(), "plain", "1.0.0"); err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("Fetch = %v", err)
	}
	srv.AddArchive(cargotest.Crate{Name: "nomanifest", Version: "1.0.0"}, cargotest.Crates.Build([]registrytest.Entry{{Name: "nomanifest-1.0.0/src/lib.rs", Body: "pub fn f() {}"}}))
	if _, err := r.Fetch(context.Background(), "nomanifest", "1.0.0"); err == nil || !strings.Contains(err.Error(), "Cargo.toml") {
		t.Errorf("Fetch without Cargo.toml = %v", err)
	}
}

func TestIndexCacheRetriesFailures(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	registrytest.MetadataCache(t, registrytest.MetadataCacheSubject{Registry: r, Server: srv.Server,
		Fault: registrytest.Fault{Path: "/index/2/tz", Status: http.StatusInternalServerError}, Want: docidx.ErrRetryable,
		Name: "tz", Version: "0.1.0",
		Add: func(name string) {
			srv.AddCrate(cargotest.Crate{Name: name, Version: "1.0.0", Files: map[string]string{"Cargo.toml": "[package]\n"}})
		},
		Size: indexCacheSize, Len: r.files.Len})
}

func TestPrivateRegistry(t *testing.T) {
	srv := cargotest.NewServer(t, testCrates)
	srv.RequireToken("cio-s3cret")
	home, project := t.TempDir(), t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), fmt.Sprintf(`
[source.crates-io]
replace-with = "corp"

[source.corp]
registry = %q

[registries.corp]
index = %q
`, srv.Index(), srv.Index()))
	ctx := context.Background()
	load := func(env ...string) *Registry {
		cfg, err := LoadConfig(ConfigOptions{ProjectDir: project, CargoHome: home, Env: append(env, "HOME="+home)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRegistry(RegistryConfig{Config: cfg, Client: &fetch.Client{HTTP: srv.Client(), Retries: -1}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := load().Resolve(ctx, "tz", ""); err == nil || !strings.Contains(err.Error(), "CARGO_REGISTRIES_CORP_TOKEN") {
		t.Errorf("without token: %v", err)
	}
	r := load("CARGO_REGISTRIES_CORP_TOKEN=cio-s3cret")
	pd := testutil.Fetched(t, r, "tz", "0.1.0")
	if pd.Package.Source != srv.Index() || !strings.Contains(r.String(), "replaced by corp") || strings.Contains(r.String(), "s3cret") {
		t.Errorf("source %q, registry %s", pd.Package.Source, r)
	}
	// config.json is asked for without the token first, then again with it; then the index file
	// and the .crate carry it.
	if authed := srv.Authorized("cio-s3cret"); authed != 3 {
		t.Errorf("%d requests carried the token, want 3: %+v", authed, srv.Requests())
	}

	// The token from credentials.toml works the same.
	testutil.WriteFile(t, filepath.Join(home, "credentials.toml"), "[registries.corp]\ntoken = \"cio-s3cret\"\n")
	if _, err := load().Resolve(ctx, "tz", ""); err != nil {
		t.Errorf("token from credentials.toml: %v", err)
	}
}

func TestUnsupportedSources(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), `
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
`)
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: project, CargoHome: t.TempDir(), Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(RegistryConfig{Config: cfg, Client: fetch.New(&http.Client{Transport: fetch.Offline{}})})
	if err != nil {
		t.Fatalf("NewRegistry must accept an unsupported source and fail lookups: %v", err)
	}
	_, err = r.Resolve(context.Background(), "serde", "")
	if !errors.Is(err, ErrUnsupportedSource) || !strings.Contains(err.Error(), filepath.Join(project, "vendor")) || !strings.Contains(err.Error(), "--cargo-home") {
		t.Errorf("Resolve = %v", err)
	}
	if _, err := r.Fetch(context.Background(), "serde", "1.0.0"); !errors.Is(err, ErrUnsupportedSource) {
		t.Errorf("Fetch = %v", err)
	}
	if _, err := NewRegistry(RegistryConfig{Config: cfg, Registry: "nope"}); !errors.Is(err, docidx.ErrBadSpec) {
		t.Errorf("unknown registry: %v", err)
	}
}

func TestDefaultRegistry(t *testing.T) {
	r, err := NewRegistry(RegistryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.String(); s != "cargo registry crates-io sparse+https://index.crates.io/" {
		t.Errorf("String() = %q", s)
	}
}
