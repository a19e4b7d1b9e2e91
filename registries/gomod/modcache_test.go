package gomod_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/registrytest"
)

func newModCache(t *testing.T) (*gomod.ModCache, string) {
	t.Helper()
	dir := gomodtest.WriteModCacheFromDir(t, testdataMods)
	c, err := gomod.NewModCache(dir, gomod.ModCacheConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return c, dir
}

func TestModCacheList(t *testing.T) {
	c, dir := newModCache(t)
	// Debris the go command leaves behind must not be listed.
	for _, d := range []string{
		"example.com/hello@v1.3.0.tmp-12345", // an unfinished extraction
		"example.com/partial@v1.0.0",         // marked partial below
		"example.com/UPPER@v1.0.0",           // not a valid escaped path
		"cache/download/example.com/x@v1.0.0",
	} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testutil.WriteFile(t, filepath.Join(dir, "cache", "download", "example.com", "partial", "@v", "v1.0.0.partial"), "")

	refs := testutil.Listed(t, c, nil)
	want := []docidx.Ref{
		{Ecosystem: docidx.Go, Name: "example.com/hello", Version: "v1.0.0"},
		{Ecosystem: docidx.Go, Name: "example.com/hello", Version: "v1.1.0"},
		{Ecosystem: docidx.Go, Name: "example.com/hello", Version: "v1.2.0"},
		{Ecosystem: docidx.Go, Name: "github.com/Azure/go-sample", Version: "v0.1.0"},
	}
	if !reflect.DeepEqual(refs, want) {
		t.Errorf("List = %v\nwant %v", refs, want)
	}
}

func TestModCacheFetch(t *testing.T) {
	c, dir := newModCache(t)
	ctx := context.Background()
	docs := testutil.Fetched(t, c, "github.com/Azure/go-sample", "v0.1.0")
	pkg := docs.Package
	if pkg.Source != filepath.Join(dir, "github.com", "!azure", "go-sample@v0.1.0") {
		t.Errorf("Source = %q", pkg.Source)
	}
	if !pkg.Published.Equal(registrytest.BaseTime) {
		t.Errorf("Published = %v, want %v", pkg.Published, registrytest.BaseTime)
	}
	if pkg.License != "Apache-2.0" || pkg.Description != "Package sample shows a module path with capital letters." {
		t.Errorf("package = %+v", pkg)
	}

	// The module cache and the proxy yield the same documentation for the same zip.
	srv := gomodtest.NewServerFromDir(t, testdataMods)
	fromProxy := testutil.Fetched(t, newProxy(t, srv.URL), "example.com/hello", "v1.1.0")
	fromCache := testutil.Fetched(t, c, "example.com/hello", "v1.1.0")
	if !reflect.DeepEqual(fromProxy.Symbols, fromCache.Symbols) || !reflect.DeepEqual(fromProxy.Documents, fromCache.Documents) {
		t.Error("proxy and module cache extract different documentation")
	}
	if !slices.Equal(fromCache.Package.Versions, []string{"v1.0.0", "v1.1.0", "v1.2.0"}) {
		t.Errorf("Versions = %v", fromCache.Package.Versions)
	}

	if _, err := c.Fetch(ctx, "example.com/hello", "v9.0.0"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing version: err = %v, want ErrNotFound", err)
	}
	if _, err := c.Fetch(ctx, "example.com/absent", "v1.0.0"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("missing module: err = %v, want ErrNotFound", err)
	}
}

func TestModCacheResolve(t *testing.T) {
	c, _ := newModCache(t)
	const hello = "example.com/hello"
	testutil.CheckResolve(t, c, []testutil.Resolution{
		{hello, "", "v1.1.0", nil},
		{hello, "latest", "v1.1.0", nil},
		{hello, "v1.2.0", "v1.2.0", nil},
		{hello, "v1.0", "v1.0.0", nil},
		{hello, "<v1.1.0", "v1.0.0", nil},
		{hello, "v1.5.0", "", docidx.ErrNotFound},
		{hello, "v2", "", docidx.ErrNotFound},
		{hello, "master", "", docidx.ErrNotFound},
		{"example.com/absent", "", "", docidx.ErrNotFound},
	})
}

func TestNewModCacheErrors(t *testing.T) {
	if _, err := gomod.NewModCache(filepath.Join(t.TempDir(), "missing"), gomod.ModCacheConfig{}); err == nil {
		t.Error("NewModCache of a missing directory succeeded")
	}
}

func TestDefaultModCacheDir(t *testing.T) {
	t.Setenv("GOMODCACHE", "/some/cache")
	if d, err := gomod.DefaultModCacheDir(context.Background()); err != nil || d != "/some/cache" {
		t.Errorf("DefaultModCacheDir = %q, %v", d, err)
	}
	t.Setenv("GOMODCACHE", "")
	t.Setenv("PATH", t.TempDir()) // no go command
	t.Setenv("GOPATH", "/gp1"+string(filepath.ListSeparator)+"/gp2")
	if d, err := gomod.DefaultModCacheDir(context.Background()); err != nil || d != filepath.Join("/gp1", "pkg", "mod") {
		t.Errorf("DefaultModCacheDir = %q, %v", d, err)
	}
}
