package swift

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
	"github.com/docidx/docidx/registries/swift/swifttest"
)

var testNow = time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)

const (
	kitID   = "example.swift-argument-kit"
	dequeID = "Collections.Swift-Deque"
	kitRepo = "https://github.com/example/swift-argument-kit.git"
)

// readPackage reads a fixture package's files.
func readPackage(t testing.TB, name string) map[string]string {
	t.Helper()
	return testutil.Must(t, registrytest.ReadTree, filepath.Join("testdata", "packages", name))
}

// publishFixtures publishes the fixture packages: swift-argument-kit in several versions (1.1.0
// withdrawn, 1.4.0-beta.1 a pre-release) and swift-deque once.
func publishFixtures(t testing.TB, srv *swifttest.Server) {
	kit := readPackage(t, "swift-argument-kit")
	meta := map[string]any{
		"description":             "Type-safe argument parsing for Swift",
		"licenseURL":              "https://github.com/example/swift-argument-kit/blob/main/LICENSE.txt",
		"readmeURL":               "https://github.com/example/swift-argument-kit/blob/main/README.md",
		"repositoryURLs":          []any{"git@github.com:example/swift-argument-kit.git", kitRepo},
		"author":                  map[string]any{"name": "Example Authors"},
		"originalPublicationTime": "2023-02-16T04:00:00.000Z",
		"keywords":                []any{"cli", "arguments"},
	}
	for _, v := range []string{"1.0.0", "1.2.0", "1.3.0", "1.4.0-beta.1"} {
		srv.Publish(swifttest.Release{ID: "Example.swift-argument-kit", Version: v, Files: kit, Metadata: meta})
	}
	srv.Publish(swifttest.Release{ID: "Example.swift-argument-kit", Version: "1.1.0", Files: kit, Problem: "this release was removed from the registry"})
	srv.Publish(swifttest.Release{ID: dequeID, Version: "1.1.0", Files: readPackage(t, "swift-deque")})
}

// testClient retries once with tiny waits.
func testClient(hc *http.Client) *fetch.Client {
	return &fetch.Client{HTTP: hc, Retries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond, Rate: 1000}
}

// newFixtureServer starts the fake registry holding the fixtures.
func newFixtureServer(tb testing.TB) *swifttest.Server {
	tb.Helper()
	srv := swifttest.NewServer(tb, "")
	publishFixtures(tb, srv)
	return srv
}

// newTestRegistry starts the fake registry with the fixtures and a Registry pointed at it.
func newTestRegistry(t *testing.T, mod func(*RegistryConfig)) (*Registry, *swifttest.Server) {
	t.Helper()
	srv := newFixtureServer(t)
	return testutil.Configured(t, RegistryConfig{
		Config: testutil.Must(t, NewConfig, srv.URL),
		Client: testClient(srv.Client()),
		Now:    func() time.Time { return testNow },
	}, mod, NewRegistry), srv
}

// registryAt returns a Registry over the registry at url (see NewConfig), requesting with hc
// through testClient; mod, when not nil, changes its configuration first.
func registryAt(tb testing.TB, url string, hc *http.Client, mod func(*RegistryConfig)) *Registry {
	tb.Helper()
	return registryOver(tb, testutil.Must(tb, NewConfig, url), hc, mod)
}

// registryOver returns a Registry over cfg, requesting with hc through testClient; mod, when not
// nil, changes its configuration first.
func registryOver(tb testing.TB, cfg *Config, hc *http.Client, mod func(*RegistryConfig)) *Registry {
	tb.Helper()
	return testutil.Configured(tb, RegistryConfig{Config: cfg, Client: testClient(hc)}, mod, NewRegistry)
}

func TestRegistryResolve(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	testutil.CheckResolve(t, r, []testutil.Resolution{
		{kitID, "", "1.3.0", nil},
		{kitID, "latest", "1.3.0", nil},
		{"EXAMPLE.Swift-Argument-Kit", "", "1.3.0", nil}, // identifiers are case-insensitive
		{kitID, "1.2.0", "1.2.0", nil},
		{kitID, "v1.2.0", "1.2.0", nil},
		{kitID, "=1.2.0", "1.2.0", nil},
		{kitID, "^1.2", "1.3.0", nil},
		{kitID, "~1.2.0", "1.2.0", nil},
		{kitID, "1.0.0..<1.3.0", "1.2.0", nil}, // Swift's half-open range
		{kitID, "1.0.0...1.3.0", "1.3.0", nil}, // and closed range
		{kitID, ">=1.4.0-0", "1.4.0-beta.1", nil},
		{kitID, "1.4.0-beta.1", "1.4.0-beta.1", nil},
		{kitID, "<1.2", "1.0.0", nil},            // 1.1.0 is withdrawn
		{kitID, "1.1.0", "", docidx.ErrNotFound}, // withdrawn
		{kitID, "9.0.0", "", docidx.ErrNotFound},
		{kitID, "^9", "", docidx.ErrNotFound},
		{kitID, ">>1", "", docidx.ErrBadSpec},
		{"example.no-such-package", "", "", docidx.ErrNotFound},
		{"no-dot", "", "", docidx.ErrBadSpec},
		{"-bad.name", "", "", docidx.ErrBadSpec},
		{"example.bad--name", "", "", docidx.ErrBadSpec},
		{kitRepo, "", "1.3.0", nil},                                              // a repository URL
		{"https://github.com/Example/swift-argument-kit", "1.2.0", "1.2.0", nil}, // another form of it
		{"example/swift-argument-kit", "", "1.3.0", nil},                         // owner/repo shorthand
		{"https://github.com/unknown/repo", "", "", docidx.ErrNotFound},
	})
	if _, err := r.Resolve(context.Background(), kitID, "1.1.0"); err == nil || !strings.Contains(err.Error(), "removed from the registry") {
		t.Errorf("a withdrawn release should say why: %v", err)
	}
}

func TestRegistryFetch(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	pd := testutil.Fetched(t, r, kitID, "1.3.0")
	p := pd.Package
	want := docidx.Package{
		Ecosystem:   docidx.Swift,
		Name:        kitID,
		Version:     "1.3.0",
		Versions:    []string{"1.0.0", "1.2.0", "1.3.0", "1.4.0-beta.1"},
		Description: "Type-safe argument parsing for Swift",
		License:     "Apache-2.0",
		Repository:  "https://github.com/example/swift-argument-kit.git",
		Keywords:    []string{"cli", "arguments"},
		Published:   time.Date(2023, 2, 16, 4, 0, 0, 0, time.UTC),
		Source:      srv.URL + "/example/swift-argument-kit",
		CrawledAt:   testNow,
		Requires:    []docidx.Requirement{{Name: "swift", Range: ">=5.9"}}, // swift-tools-version:5.9
	}
	testutil.SamePackage(t, p, want)
	if len(pd.Documents) != 5 || pd.Documents[0].Path != "README.md" || pd.Documents[0].Kind != docidx.DocReadme {
		t.Errorf("documents: %+v", docPaths(pd.Documents))
	}
	local := extractDir(t, filepath.Join("testdata", "packages", "swift-argument-kit"), Limits{})
	if len(pd.Symbols) != len(local.symbols) || len(pd.Symbols) < 80 {
		t.Errorf("%d symbols from the archive, %d from the directory", len(pd.Symbols), len(local.symbols))
	}
	// The archive's top-level directory is stripped: paths are relative to the package root.
	if s, ok := testutil.ByName(pd.Symbols)["ArgumentKit.ParsableCommand.main()"]; !ok || s.File != "Sources/ArgumentKit/Parsable Types/ParsableCommand.swift" {
		t.Errorf("ParsableCommand.main() = %+v", s)
	}

	// A release without metadata description falls back to the README summary; publishedAt is used.
	pd = testutil.Fetched(t, r, "collections.swift-deque", "")
	if pd.Package.Version != "1.1.0" || !strings.HasPrefix(pd.Package.Description, "Swift Deque is an open-source package") ||
		pd.Package.License != "MIT" || !pd.Package.Published.Equal(registrytest.Published(5)) || pd.Package.Repository != "" {
		t.Errorf("deque package = %+v", pd.Package)
	}
}

func docPaths(docs []docidx.Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, string(d.Kind)+":"+d.Path)
	}
	return out
}

// TestRegistryRequests pins what goes on the wire: the API version in Accept, the paths of
// SE-0292, and one release list per package for Resolve then Fetch.
func TestRegistryRequests(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	ctx := context.Background()
	v, err := r.Resolve(ctx, kitRepo, "^1.2")
	if err != nil {
		t.Fatal(err)
	}
	testutil.Fetched(t, r, kitRepo, v)
	var got []string
	for _, req := range srv.Requests() {
		got = append(got, req.Accept+" "+req.Path)
	}
	want := []string{
		MediaJSON + " /identifiers",
		MediaJSON + " /example/swift-argument-kit",
		MediaJSON + " /Example/swift-argument-kit/1.3.0",
		MediaZip + " /Example/swift-argument-kit/1.3.0.zip",
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if q := srv.Requests()[0].Query; !strings.Contains(q, "url=https%3A%2F%2Fgithub.com%2Fexample%2Fswift-argument-kit.git") {
		t.Errorf("identifiers query %q", q)
	}
}

func TestRegistryManifest(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	m, err := r.Manifest(context.Background(), kitID, "1.3.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(m), `name: "swift-argument-kit"`) {
		t.Errorf("manifest: %.80s", m)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Accept != MediaSwift || last.Path != "/example/swift-argument-kit/1.3.0/Package.swift" {
		t.Errorf("manifest request %+v", last)
	}
	if _, err := r.Manifest(context.Background(), kitID, "7.0.0"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing manifest: %v", err)
	}
}

func TestRegistryPagination(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	srv.SetPageSize(2)
	pd := testutil.Fetched(t, r, kitID, "1.0.0") // on the last page
	if !slices.Equal(pd.Package.Versions, []string{"1.0.0", "1.2.0", "1.3.0", "1.4.0-beta.1"}) {
		t.Errorf("versions across pages: %v", pd.Package.Versions)
	}
	pages := 0
	for _, req := range srv.Requests() {
		if req.Path == "/example/swift-argument-kit" || strings.HasSuffix(req.Path, "/swift-argument-kit") && strings.Contains(req.Query, "page=") {
			pages++
		}
	}
	if pages != 3 {
		t.Errorf("%d list pages requested, want 3", pages)
	}
}

// TestRegistryFaults covers the failures particular to the Swift registry; TestConformance
// covers those every registry shares.
func TestRegistryFaults(t *testing.T) {
	ctx := context.Background()
	t.Run("410 on metadata", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.Inject(registrytest.Fault{Path: "/swift-argument-kit/1.3.0", Status: http.StatusGone})
		if _, err := r.Fetch(ctx, kitID, "1.3.0"); !errors.Is(err, docidx.ErrNotFound) {
			t.Errorf("err = %v, want ErrNotFound", err)
		}
	})
	t.Run("429 then success", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.Inject(registrytest.Fault{Path: ".zip", Status: http.StatusTooManyRequests, RetryAfter: "0", Times: 1})
		if _, err := r.Fetch(ctx, kitID, "1.3.0"); err != nil {
			t.Fatalf("a 429 with Retry-After should be retried: %v", err)
		}
		if r.Retries() != 1 {
			t.Errorf("Retries() = %d, want 1", r.Retries())
		}
	})
	t.Run("wrong checksum", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.TamperChecksum(kitID, "1.3.0")
		_, err := r.Fetch(ctx, kitID, "1.3.0")
		if !errors.Is(err, docidx.ErrIntegrity) || !strings.Contains(err.Error(), srv.ArchiveChecksum(kitID, "1.3.0")) {
			t.Errorf("err = %v, want ErrIntegrity naming the archive's digest", err)
		}
	})
	t.Run("archive replaced in transit", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.Inject(registrytest.Fault{Path: ".zip", Body: swifttest.Zip("x", map[string]string{"evil.swift": "public func evil() {}"})})
		if _, err := r.Fetch(ctx, kitID, "1.3.0"); !errors.Is(err, docidx.ErrIntegrity) {
			t.Errorf("err = %v, want ErrIntegrity", err)
		}
	})
	t.Run("no checksum", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.Inject(registrytest.Fault{Path: "/swift-argument-kit/1.3.0", Body: []byte(`{"id":"example.swift-argument-kit","version":"1.3.0","resources":[],"metadata":{}}`)})
		if _, err := r.Fetch(ctx, kitID, "1.3.0"); !errors.Is(err, docidx.ErrIntegrity) {
			t.Errorf("err = %v, want ErrIntegrity", err)
		}
	})
	t.Run("oversized archive", func(t *testing.T) {
		r, _ := newTestRegistry(t, func(rc *RegistryConfig) { rc.Limits.MaxArchive = 4 << 10 })
		if _, err := r.Fetch(ctx, kitID, "1.3.0"); !errors.Is(err, docidx.ErrTooLarge) {
			t.Errorf("err = %v, want ErrTooLarge", err)
		}
	})
	t.Run("oversized entry", func(t *testing.T) {
		r, srv := newTestRegistry(t, func(rc *RegistryConfig) { rc.Limits.MaxEntry = 1 << 10 })
		srv.Publish(swifttest.Release{ID: "mona.Big", Version: "1.0.0", Files: map[string]string{"Package.swift": "", "data.bin": strings.Repeat("x", 4<<10)}})
		if _, err := r.Fetch(ctx, "mona.big", "1.0.0"); !errors.Is(err, docidx.ErrTooLarge) {
			t.Errorf("err = %v, want ErrTooLarge", err)
		}
	})
	for name, entries := range map[string][]registrytest.Entry{
		"dot-dot":   {{Name: "pkg/Package.swift"}, {Name: "pkg/../../etc/passwd", Body: "x"}},
		"absolute":  {{Name: "/etc/passwd", Body: "x"}},
		"backslash": {{Name: `pkg\..\..\evil`, Body: "x"}},
		"drive":     {{Name: "C:/Windows/evil", Body: "x"}},
	} {
		t.Run("unsafe path "+name, func(t *testing.T) {
			r, srv := newTestRegistry(t, nil)
			srv.Publish(swifttest.Release{ID: "mona.Evil", Version: "1.0.0", Archive: swifttest.SourceArchive.Build(entries)})
			if _, err := r.Fetch(ctx, "mona.evil", "1.0.0"); !errors.Is(err, docidx.ErrUnsafePath) {
				t.Errorf("err = %v, want ErrUnsafePath", err)
			}
		})
	}
	t.Run("unauthorized", func(t *testing.T) {
		r, srv := newTestRegistry(t, nil)
		srv.RequireAuth("Bearer secret")
		_, err := r.Resolve(ctx, kitID, "")
		if err == nil || !strings.Contains(err.Error(), "~/.netrc") || !strings.Contains(err.Error(), "SWIFTPM_REGISTRY_TOKEN") {
			t.Errorf("err = %v, want advice on credentials", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		r, _ := newTestRegistry(t, nil)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := r.Fetch(cctx, kitID, "1.3.0"); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestRegistryContentVersion(t *testing.T) {
	srv := http.NewServeMux()
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Version", "2")
		w.Write([]byte(`{"releases":{"1.0.0":{}}}`))
	})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	r := registryAt(t, hs.URL, hs.Client(), nil)
	if _, err := r.Resolve(context.Background(), "mona.linkedlist", ""); err == nil || !strings.Contains(err.Error(), "API version 2") {
		t.Errorf("err = %v, want an API version error", err)
	}
}

func TestRegistryAuth(t *testing.T) {
	ctx := context.Background()
	srv := swifttest.NewServer(t, "")
	publishFixtures(t, srv)
	host := strings.TrimPrefix(srv.URL, "http://")
	home := t.TempDir()
	for _, tc := range []struct {
		name    string
		env     []string
		netrc   string
		regJSON string
		want    string // the header the server requires
	}{
		{"env token", []string{"SWIFTPM_REGISTRY_TOKEN=SECRET1"}, "", "", "Bearer SECRET1"},
		{"env login", []string{"SWIFTPM_REGISTRY_LOGIN=me", "SWIFTPM_REGISTRY_PASSWORD=SECRET2"}, "", "", basic("me", "SECRET2")},
		{"netrc basic", nil, "machine 127.0.0.1 login me password SECRET3\n", "", basic("me", "SECRET3")},
		{"netrc token", nil, "machine 127.0.0.1\n  login token\n  password SECRET4\n", `"authentication": {"` + host + `": {"type": "token"}},`, "Bearer SECRET4"},
		{"netrc data", []string{"SWIFTPM_NETRC_DATA=machine 127.0.0.1 login data password SECRET5"}, "machine 127.0.0.1 login file password SECRET6\n", "", basic("data", "SECRET5")},
		{"netrc default", nil, "machine other.example login x password y\ndefault login any password SECRET7\n", "", basic("any", "SECRET7")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.RequireAuth(tc.want)
			dir := filepath.Join(home, strings.ReplaceAll(tc.name, " ", "-"))
			testutil.WriteFile(t, filepath.Join(dir, ".netrc"), tc.netrc)
			testutil.WriteFile(t, filepath.Join(dir, ".swiftpm", "configuration", "registries.json"),
				`{"registries": {"[default]": {"url": "`+srv.URL+`"}}, `+tc.regJSON+` "version": 1}`)
			cfg, err := LoadConfig(ConfigOptions{Env: append([]string{"HOME=" + dir}, tc.env...)})
			if err != nil {
				t.Fatal(err)
			}
			r := registryOver(t, cfg, srv.Client(), nil)
			if _, err := r.Fetch(ctx, kitID, "1.3.0"); err != nil {
				t.Fatalf("with %s: %v", tc.name, err)
			}
			if s := fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, r); strings.Contains(s, "SECRET") {
				t.Errorf("credentials leak into %q", s)
			}
		})
	}
}

func TestRegistryScopes(t *testing.T) {
	main := swifttest.NewServer(t, "")
	publishFixtures(t, main)
	private := swifttest.NewServer(t, "")
	private.Publish(swifttest.Release{ID: "acme.tools", Version: "2.0.0", Files: map[string]string{
		"Package.swift":             `let package = Package(name: "tools")`,
		"Sources/Tools/Tools.swift": "public func tool() {}",
	}})
	r := registryAt(t, main.URL, http.DefaultClient, func(rc *RegistryConfig) { rc.Config.Scopes["acme"] = private.URL })
	pd := testutil.Fetched(t, r, "ACME.Tools", "")
	if pd.Package.Name != "acme.tools" || pd.Package.Version != "2.0.0" || len(pd.Symbols) != 1 || pd.Symbols[0].QualifiedName != "Tools.tool()" {
		t.Errorf("scoped package = %+v %+v", pd.Package, pd.Symbols)
	}
	if len(main.Requests()) != 0 {
		t.Errorf("the default registry was asked for a scoped package: %+v", main.Requests())
	}
}

func TestNewRegistryErrors(t *testing.T) {
	if _, err := NewRegistry(RegistryConfig{}); err == nil {
		t.Error("NewRegistry without Config should fail")
	}
	if _, err := NewRegistry(RegistryConfig{Config: &Config{}}); err == nil {
		t.Error("NewRegistry with an empty Config should fail")
	}
	r := testutil.Must(t, NewRegistry, RegistryConfig{Config: testutil.Must(t, NewConfig, "https://user:secret@registry.example.test/swift/")})
	if got := r.String(); got != "swift registry https://registry.example.test/swift" {
		t.Errorf("String() = %q", got)
	}
	if r.Ecosystem() != docidx.Swift {
		t.Error("Ecosystem")
	}
}

func TestParseLinks(t *testing.T) {
	got := parseLinks([]string{
		`<https://github.com/mona/LinkedList>; rel="canonical", <ssh://git@github.com:mona/LinkedList.git>; rel="alternate"`,
		`<https://packages.example.com/mona/LinkedList/1.1.1>; rel="latest-version",  <https://github.com/sponsors/mona>; rel=payment`,
		`<https://x.example/?page=2>; title="a, b; c"; rel="next prev"`,
		`garbage, <unterminated`,
	})
	want := []link{
		{"https://github.com/mona/LinkedList", "canonical"},
		{"ssh://git@github.com:mona/LinkedList.git", "alternate"},
		{"https://packages.example.com/mona/LinkedList/1.1.1", "latest-version"},
		{"https://github.com/sponsors/mona", "payment"},
		{"https://x.example/?page=2", "next"},
		{"https://x.example/?page=2", "prev"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseLinks =\n%v\nwant\n%v", got, want)
	}
}

func TestBrowsable(t *testing.T) {
	testutil.Mapping(t, "browsable", browsable, map[string]string{
		"https://github.com/a/b.git":     "https://github.com/a/b.git",
		"https://u:p@host.example/x":     "https://host.example/x",
		"git@github.com:apple/swift.git": "https://github.com/apple/swift",
		"ssh://git@host.example/x/y.git": "https://host.example/x/y",
		"/local/path/pkg":                "",
		"":                               "",
	})
}

func FuzzParseLinks(f *testing.F) {
	f.Add(`<https://a.example/x>; rel="canonical", <b>; rel=next`)
	f.Add(`<x>; title="a\"b"; rel="x y"`)
	f.Fuzz(func(t *testing.T, v string) {
		for _, l := range parseLinks([]string{v}) {
			if l.rel == "" {
				t.Fatalf("empty rel in %q", v)
			}
		}
	})
}

// TestRegistryRefusesDowngrade checks SE-0292 §4.4.2: a redirect from https to plain http is
// not followed through.
func TestRegistryRefusesDowngrade(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"releases":{"1.0.0":{}}}`))
	}))
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusSeeOther)
	}))
	t.Cleanup(secure.Close)
	r := registryAt(t, secure.URL, secure.Client(), nil)
	if _, err := r.Resolve(context.Background(), "mona.linkedlist", ""); err == nil || !strings.Contains(err.Error(), "downgrade") {
		t.Errorf("err = %v, want a refused downgrade", err)
	}
}
