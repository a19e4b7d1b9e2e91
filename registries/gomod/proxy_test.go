package gomod_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/internal/fetch"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

const testdataMods = "testdata/mod"

// noRetry is a client that fails at once, so fault tests do not wait for backoff.
func noRetry() *fetch.Client {
	return &fetch.Client{HTTP: http.DefaultClient, Retries: -1, Timeout: 5 * time.Second}
}

func newProxy(t *testing.T, goproxy string) *gomod.Proxy {
	t.Helper()
	p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: goproxy}, Client: noRetry()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProxyFetch(t *testing.T) {
	srv := gomodtest.NewServerFromDir(t, testdataMods)
	p := newProxy(t, srv.URL)
	docs := testutil.Fetched(t, p, "example.com/hello", "v1.1.0")
	pkg := docs.Package
	if pkg.Ecosystem != docidx.Go || pkg.Name != "example.com/hello" || pkg.Version != "v1.1.0" {
		t.Errorf("package = %+v", pkg)
	}
	if want := []string{"v1.0.0", "v1.1.0", "v1.2.0"}; !slices.Equal(pkg.Versions, want) {
		t.Errorf("Versions = %v, want %v", pkg.Versions, want)
	}
	if want := registrytest.Published(1); !pkg.Published.Equal(want) {
		t.Errorf("Published = %v, want %v", pkg.Published, want)
	}
	if pkg.Description != "Package hello greets people in several styles." {
		t.Errorf("Description = %q", pkg.Description)
	}
	if pkg.License != "MIT" {
		t.Errorf("License = %q, want MIT", pkg.License)
	}
	if pkg.Source != srv.URL {
		t.Errorf("Source = %q, want %q", pkg.Source, srv.URL)
	}
	if len(docs.Symbols) == 0 {
		t.Fatal("no symbols")
	}
	// Fetching by query resolves first.
	latest := testutil.Fetched(t, p, "example.com/hello", "")
	if latest.Package.Version != "v1.1.0" {
		t.Errorf("Fetch(latest) version = %s, want v1.1.0 (v1.2.0 is retracted)", latest.Package.Version)
	}
}

func TestProxyResolve(t *testing.T) {
	srv := gomodtest.NewServerFromDir(t, testdataMods)
	p := newProxy(t, srv.URL)
	const hello = "example.com/hello"
	testutil.CheckResolve(t, p, []testutil.Resolution{
		{hello, "", "v1.1.0", nil}, // v1.2.0 retracts itself
		{hello, "latest", "v1.1.0", nil},
		{hello, "v1.2.0", "v1.2.0", nil}, // an exact version is allowed even when retracted
		{hello, "v1.0.0", "v1.0.0", nil},
		{hello, "v1", "v1.1.0", nil},
		{hello, "v1.0", "v1.0.0", nil},
		{hello, "<v1.1.0", "v1.0.0", nil},
		{hello, ">=v1.0.1", "v1.1.0", nil},
		{hello, ">v1.0.0", "v1.1.0", nil},
		{hello, "v1.3.0", "", docidx.ErrNotFound},
		{hello, "v2", "", docidx.ErrNotFound},
		{hello, "main", "", docidx.ErrNotFound},
		{"example.com/nope", "", "", docidx.ErrNotFound}, // an unknown module
		{"not a path", "", "", docidx.ErrBadSpec},
	})
}

func TestProxyLatestEndpoint(t *testing.T) {
	// A module with an empty @v/list (only pseudo-versions) resolves through @latest.
	m, err := gomodtest.NewModule("example.com/pseudo", "v0.0.0-20240102030405-abcdefabcdef", map[string][]byte{
		"go.mod": []byte("module example.com/pseudo\n"),
		"p.go":   []byte("package pseudo\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := gomodtest.NewServer(t, m)
	p := newProxy(t, srv.URL)
	v, err := p.Resolve(context.Background(), "example.com/pseudo", "")
	if err != nil || v != m.Version {
		t.Fatalf("Resolve = %q, %v; want %q", v, err, m.Version)
	}
	if !slices.Contains(srv.Targets(), "/example.com/pseudo/@latest") {
		t.Errorf("requests %q lack @latest", srv.Targets())
	}
}

func TestProxyCaseEncoding(t *testing.T) {
	srv := gomodtest.NewServerFromDir(t, testdataMods)
	p := newProxy(t, srv.URL)
	docs := testutil.Fetched(t, p, "github.com/Azure/go-sample", "v0.1.0")
	for _, r := range srv.Targets() {
		if !strings.HasPrefix(r, "/github.com/!azure/go-sample/@v/") {
			t.Errorf("request %q is not case-encoded", r)
		}
	}
	if docs.Package.License != "Apache-2.0" {
		t.Errorf("License = %q, want Apache-2.0", docs.Package.License)
	}
	if docs.Package.Repository != "https://github.com/Azure/go-sample" {
		t.Errorf("Repository = %q", docs.Package.Repository)
	}
	if len(docs.Documents) != 1 || docs.Documents[0].Path != "README.rst" || docs.Documents[0].Kind != docidx.DocReadme {
		t.Fatalf("documents = %+v, want README.rst", docs.Documents)
	}
	if got := docs.Documents[0].Summary; got != "A sample module whose path has capitals, for case-encoding." {
		t.Errorf("README summary = %q", got)
	}
	if len(docs.Symbols) != 2 || docs.Symbols[1].QualifiedName != "sample.Do" {
		t.Errorf("symbols = %+v", docs.Symbols)
	}
}

func TestProxyList(t *testing.T) {
	good := gomodtest.NewServerFromDir(t, testdataMods)
	ctx := context.Background()
	const mod, ver = "example.com/hello", "v1.1.0"

	for _, tc := range []struct {
		name, sep string
		status    int   // of every reply of the first proxy; 0: it holds nothing and says 404
		want      error // nil: the second proxy serves the module
	}{
		{"comma falls through on 404", ",", 0, nil},
		{"comma falls through on 410", ",", http.StatusGone, nil},
		{"comma stops on 500", ",", http.StatusInternalServerError, docidx.ErrRetryable},
		{"pipe falls through on 500", "|", http.StatusInternalServerError, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := gomodtest.NewServer(t)
			if tc.status != 0 {
				bad.Inject(registrytest.Fault{Status: tc.status})
			}
			p := newProxy(t, bad.URL+tc.sep+good.URL)
			_, err := p.Fetch(ctx, mod, ver)
			if !errors.Is(err, tc.want) { // with tc.want nil: err must be nil
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("pipe falls through on timeout", func(t *testing.T) {
		slow := gomodtest.NewServer(t)
		slow.Inject(registrytest.Fault{Delay: 5 * time.Second})
		c := noRetry()
		c.Timeout = 100 * time.Millisecond
		p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: slow.URL + "|" + good.URL}, Client: c})
		if err != nil {
			t.Fatal(err)
		}
		testutil.Fetched(t, p, mod, ver)
	})
	t.Run("other errors outrank not found", func(t *testing.T) {
		bad := gomodtest.NewServer(t)
		bad.Inject(registrytest.Fault{Status: http.StatusInternalServerError})
		empty := gomodtest.NewServer(t)
		p := newProxy(t, bad.URL+"|"+empty.URL)
		_, err := p.Fetch(ctx, mod, ver)
		if !errors.Is(err, docidx.ErrRetryable) || errors.Is(err, docidx.ErrNotFound) {
			t.Fatalf("err = %v, want the 500 rather than the 404", err)
		}
	})
	t.Run("direct", func(t *testing.T) {
		p := newProxy(t, "direct")
		_, err := p.Fetch(ctx, mod, ver)
		if !errors.Is(err, gomod.ErrDirect) || !strings.Contains(err.Error(), "version control") {
			t.Fatalf("err = %v, want ErrDirect", err)
		}
	})
	t.Run("direct after not found", func(t *testing.T) {
		p := newProxy(t, good.URL+",direct")
		_, err := p.Fetch(ctx, "example.com/nope", "v1.0.0")
		if !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), "direct") {
			t.Fatalf("err = %v, want ErrNotFound mentioning direct", err)
		}
		if _, err := p.Fetch(ctx, mod, ver); err != nil {
			t.Fatalf("found module: %v", err)
		}
	})
	t.Run("off", func(t *testing.T) {
		p := newProxy(t, "off")
		_, err := p.Resolve(ctx, mod, "")
		if !errors.Is(err, docidx.ErrOffline) || !strings.Contains(err.Error(), "GOPROXY=off") {
			t.Fatalf("err = %v, want ErrOffline naming GOPROXY=off", err)
		}
	})
	t.Run("entries after off are ignored", func(t *testing.T) {
		p := newProxy(t, "off,"+good.URL)
		if _, err := p.Fetch(ctx, mod, ver); !errors.Is(err, docidx.ErrOffline) {
			t.Fatalf("err = %v, want ErrOffline", err)
		}
	})
	t.Run("file URL", func(t *testing.T) {
		mods, err := gomodtest.Load(testdataMods)
		if err != nil {
			t.Fatal(err)
		}
		cache := gomodtest.WriteModCache(t, mods...)
		p := newProxy(t, "file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")))
		docs := testutil.Fetched(t, p, "github.com/Azure/go-sample", "")
		if docs.Package.Version != "v0.1.0" {
			t.Errorf("version = %s", docs.Package.Version)
		}
	})
}

func TestParseGOPROXY(t *testing.T) {
	for _, bad := range []string{"", ",", " | ", "ftp://x.example", "nonsense"} {
		if _, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: bad}}); err == nil {
			t.Errorf("NewProxy(GOPROXY=%q) succeeded, want an error", bad)
		}
	}
	p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: "https://user:secret@a.example/,b.example|direct"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.String(), "GOPROXY=https://a.example,https://b.example|direct"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestProxyPrivate(t *testing.T) {
	srv := gomodtest.NewServerFromDir(t, testdataMods)
	for _, cfg := range []gomod.Config{
		{GOPRIVATE: "example.com/hel*"},
		{GOPRIVATE: "*.org", GONOPROXY: "example.com"},
	} {
		cfg.GOPROXY = srv.URL
		p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &cfg, Client: noRetry()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Fetch(context.Background(), "example.com/hello", "v1.1.0")
		if !errors.Is(err, gomod.ErrPrivate) {
			t.Errorf("%+v: err = %v, want ErrPrivate", cfg, err)
		}
	}
	// GONOPROXY set explicitly overrides GOPRIVATE.
	p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: srv.URL, GOPRIVATE: "example.com", GONOPROXY: "none"}, Client: noRetry()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Fetch(context.Background(), "example.com/hello", "v1.1.0"); err != nil {
		t.Errorf("GONOPROXY=none: %v", err)
	}
}

func TestLoadConfig(t *testing.T) {
	env := []string{"GOPROXY=https://env.example", "GOPRIVATE=", "GOFLAGS=-mod=mod"}
	cfg, err := gomod.LoadConfig(gomod.ConfigOptions{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GOPROXY != "https://env.example" {
		t.Errorf("from environment: GOPROXY=%s", cfg.GOPROXY)
	}
	cfg, err = gomod.LoadConfig(gomod.ConfigOptions{Env: env, GOPROXY: "https://flag.example"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GOPROXY != "https://flag.example" {
		t.Errorf("explicit: GOPROXY=%s", cfg.GOPROXY)
	}
	noGo := filepath.Join(t.TempDir(), "go") // no go command
	_, err = gomod.LoadConfig(gomod.ConfigOptions{Env: []string{}, Go: noGo})
	if err == nil || !strings.Contains(err.Error(), "--goproxy") {
		t.Errorf("without GOPROXY or go: err = %v, want advice to pass --goproxy", err)
	}
	if _, err := gomod.LoadConfig(gomod.ConfigOptions{Env: []string{"GOPROXY=ftp://x.example"}, Go: "-"}); err == nil {
		t.Error("GOPROXY=ftp://x.example: no error")
	}
}

func TestProxyZipLimits(t *testing.T) {
	ctx := context.Background()
	srv := gomodtest.NewServerFromDir(t, testdataMods)

	t.Run("too large", func(t *testing.T) {
		p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: srv.URL}, Client: noRetry(), Limits: gomod.Limits{MaxZip: 512}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Fetch(ctx, "example.com/hello", "v1.1.0"); !errors.Is(err, docidx.ErrTooLarge) {
			t.Fatalf("err = %v, want ErrTooLarge", err)
		}
	})
	t.Run("uncompressed too large", func(t *testing.T) {
		big := strings.Repeat("a", 64<<10) // compresses to far below the limit
		srv.Add(&gomodtest.Module{Path: "example.com/bomb", Version: "v1.0.0", Time: registrytest.BaseTime,
			Zip: gomodtest.RawZip(map[string]string{"example.com/bomb@v1.0.0/a.txt": big, "example.com/bomb@v1.0.0/b.txt": big})})
		p, err := gomod.NewProxy(gomod.ProxyConfig{Config: &gomod.Config{GOPROXY: srv.URL}, Client: noRetry(), Limits: gomod.Limits{MaxZip: 100 << 10}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Fetch(ctx, "example.com/bomb", "v1.0.0"); !errors.Is(err, docidx.ErrTooLarge) {
			t.Fatalf("err = %v, want ErrTooLarge", err)
		}
	})
	unsafe := map[string]map[string]string{
		"dot-dot":        {"example.com/evil@v1.0.0/go.mod": "module example.com/evil\n", "example.com/evil@v1.0.0/../../etc/passwd": "x"},
		"wrong prefix":   {"example.com/evil@v1.0.0/go.mod": "module example.com/evil\n", "example.com/other@v1.0.0/x.go": "package x"},
		"absolute":       {"/etc/passwd": "x"},
		"case collision": {"example.com/evil@v1.0.0/a.go": "package a", "example.com/evil@v1.0.0/A.go": "package a"},
		"nested go.mod":  {"example.com/evil@v1.0.0/sub/go.mod": "module example.com/evil/sub\n"},
	}
	for name, entries := range unsafe {
		t.Run(name, func(t *testing.T) {
			srv.Add(&gomodtest.Module{Path: "example.com/evil", Version: "v1.0.0", Time: registrytest.BaseTime, Zip: gomodtest.RawZip(entries)})
			p := newProxy(t, srv.URL)
			if _, err := p.Fetch(ctx, "example.com/evil", "v1.0.0"); !errors.Is(err, docidx.ErrUnsafePath) {
				t.Fatalf("err = %v, want ErrUnsafePath", err)
			}
		})
	}
}

// A module zip whose go.mod declares another module path is refused, as the go command refuses
// it, rather than indexed under the path asked for; one whose go.mod agrees, or that has none,
// is indexed.
func TestProxyModulePathMismatch(t *testing.T) {
	var mods []*gomodtest.Module
	for _, c := range []struct{ path, gomod string }{
		{"example.com/wanted", "module example.com/other\n"},
		{"example.com/agrees", "module example.com/agrees\n"},
		{"example.com/nogomod", ""},
		{"example.com/nomodule", "go 1.22\n"},
	} {
		files := map[string][]byte{"p.go": []byte("// Package p is a package.\npackage p\n\n// F is a function.\nfunc F() {}\n")}
		if c.gomod != "" {
			files["go.mod"] = []byte(c.gomod)
		}
		m, err := gomodtest.NewModule(c.path, "v1.0.0", files)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	p := newProxy(t, gomodtest.NewServer(t, mods...).URL)
	ctx := context.Background()

	_, err := p.Fetch(ctx, "example.com/wanted", "v1.0.0")
	if !errors.Is(err, gomod.ErrModulePath) {
		t.Fatalf("Fetch of a zip whose go.mod names another module: err = %v, want ErrModulePath", err)
	}
	for _, s := range []string{"example.com/wanted@v1.0.0", `module "example.com/other", not example.com/wanted`, "go command refuses"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	for _, name := range []string{"example.com/agrees", "example.com/nogomod", "example.com/nomodule"} {
		docs, err := p.Fetch(ctx, name, "v1.0.0")
		if err != nil {
			t.Errorf("Fetch %s: %v", name, err)
			continue
		}
		if docs.Package.Name != name || len(docs.Symbols) == 0 {
			t.Errorf("Fetch %s: package %q with %d symbols", name, docs.Package.Name, len(docs.Symbols))
		}
	}
}
