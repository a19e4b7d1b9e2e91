package cargo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// openCache opens the cache in dir (a cargo home, its registry or registry/src directory) with
// cfg, failing the test if it cannot.
func openCache(t *testing.T, dir string, cfg CacheConfig) *Cache {
	t.Helper()
	c, err := NewCache(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCacheList(t *testing.T) {
	home := cargotest.CargoHomeFromDir(t, testCrates)
	// Older cargo's directory for the same index, and the git index, beside the current one.
	extra, err := cargotest.LoadCrates(testCrates)
	if err != nil {
		t.Fatal(err)
	}
	cargotest.AddToCargoHome(t, home, cargotest.IndexDirOld, extra[0]) // Quux 2.0.0 again
	cargotest.AddToCargoHome(t, home, cargotest.IndexDirGit, cargotest.Crate{Name: "md-5", Version: "0.10.6",
		Files: map[string]string{"Cargo.toml": "[package]\nname = \"md-5\"\nversion = \"0.10.6\"\n", "src/lib.rs": "//! MD5.\npub fn digest() {}\n"}})
	// Noise cargo leaves or that is not a crate.
	testutil.WriteFile(t, filepath.Join(home, "registry", "src", cargotest.IndexDir, "not-a-crate", "Cargo.toml"), "")
	testutil.WriteFile(t, filepath.Join(home, "registry", "src", cargotest.IndexDir, "half-1.0.0", "src", "lib.rs"), "") // no Cargo.toml
	testutil.WriteFile(t, filepath.Join(home, "registry", "src", cargotest.IndexDir, "file-1.0.0"), "")
	testutil.WriteFile(t, filepath.Join(home, "registry", "src", ".hidden", "x-1.0.0", "Cargo.toml"), "")

	for _, dir := range []string{home, filepath.Join(home, "registry"), filepath.Join(home, "registry", "src")} {
		c := openCache(t, dir, CacheConfig{})
		want := []string{"Quux@2.0.0", "ferris-json@0.9.0", "ferris-json@1.0.0", "ferris-json@1.1.0", "ferris-json@1.2.0", "ferris-json@2.0.0-alpha.1", "md-5@0.10.6", "tz@0.1.0"}
		if got := testutil.RefNames(testutil.Listed(t, c, nil)); !slices.Equal(got, want) {
			t.Errorf("List(%s)\n got %q\nwant %q", dir, got, want)
		}
		if c.Dir() != filepath.Join(home, "registry", "src") {
			t.Errorf("Dir() = %s", c.Dir())
		}
	}
	for _, bad := range []string{t.TempDir(), filepath.Join(home, "nope"), filepath.Join(home, ".package-cache")} {
		if _, err := NewCache(bad, CacheConfig{}); err == nil {
			t.Errorf("NewCache(%s) succeeded", bad)
		}
	}
}

func TestCacheFetch(t *testing.T) {
	home := cargotest.CargoHomeFromDir(t, testCrates)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := openCache(t, home, CacheConfig{Now: func() time.Time { return now }})
	ctx := context.Background()
	// Offline nothing is known to be yanked: 1.2.0, yanked in the registry, is the highest release.
	testutil.CheckResolve(t, c, []testutil.Resolution{
		{"ferris-json", "", "1.2.0", nil},
		{"ferris-json", "1.0", "1.2.0", nil},
		{"ferris-json", "~1.0", "1.0.0", nil},
		{"ferris-json", "2.0.0-alpha.1", "2.0.0-alpha.1", nil},
		{"ferris-json", "1.2.0", "1.2.0", nil},
		{"ferris-json", "3", "", docidx.ErrNotFound},
		{"../x", "", "", docidx.ErrBadSpec},
	})
	if _, err := c.Resolve(ctx, "serde", ""); !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), "is not in "+c.Dir()) {
		t.Errorf("missing crate: %v", err)
	}

	pd := testutil.Fetched(t, c, "ferris_json", "1.1.0") // "_" for "-", as cargo treats them
	p := pd.Package
	if p.Name != "ferris-json" || p.Version != "1.1.0" || p.License != "MIT OR Apache-2.0" || !p.Published.IsZero() || !p.CrawledAt.Equal(now) ||
		p.Source != filepath.Join(c.Dir(), cargotest.IndexDir, "ferris-json-1.1.0") || len(p.Versions) != 5 {
		t.Errorf("package %+v", p)
	}
	// The same documents and symbols as from the registry.
	r, _ := newTestRegistry(t, nil)
	remote := testutil.Fetched(t, r, "ferris-json", "1.1.0")
	if fmt.Sprint(remote.Symbols) != fmt.Sprint(pd.Symbols) || fmt.Sprint(remote.Documents) != fmt.Sprint(pd.Documents) {
		t.Errorf("local and remote extraction differ: %d/%d symbols, %d/%d documents", len(pd.Symbols), len(remote.Symbols), len(pd.Documents), len(remote.Documents))
	}
	var paths []string
	for _, d := range pd.Documents {
		paths = append(paths, d.Path)
	}
	if want := []string{"README.md", "src/lib.rs", "docs/parsing.md", "examples/README.md", "examples/pretty.rs", "features.md"}; !slices.Equal(paths, want) {
		t.Errorf("documents from the cargo home = %v, want %v", paths, want)
	}

	if pd := testutil.Fetched(t, c, "QUUX", ""); pd.Package.Name != "Quux" || len(pd.Documents) != 1 {
		t.Errorf("Quux: %+v", pd)
	}
}

func TestCachePrefersNewestCopy(t *testing.T) {
	home := t.TempDir()
	old := cargotest.Crate{Name: "dup", Version: "1.0.0", Files: map[string]string{"Cargo.toml": "[package]\nname = \"dup\"\ndescription = \"old\"\n"}}
	cur := cargotest.Crate{Name: "dup", Version: "1.0.0", Files: map[string]string{"Cargo.toml": "[package]\nname = \"dup\"\ndescription = \"new\"\n"}}
	cargotest.AddToCargoHome(t, home, cargotest.IndexDirOld, old)
	cargotest.AddToCargoHome(t, home, cargotest.IndexDir, cur)
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(home, "registry", "src", cargotest.IndexDirOld, "dup-1.0.0", ".cargo-ok"), past, past); err != nil {
		t.Fatal(err)
	}
	c := openCache(t, home, CacheConfig{})
	if pd := testutil.Fetched(t, c, "dup", "1.0.0"); pd.Package.Description != "new" {
		t.Errorf("Fetch = %+v", pd)
	}
	if refs := testutil.Listed(t, c, nil); len(refs) != 1 {
		t.Errorf("List = %v", refs)
	}
}

// TestRealCargoLayout runs the real cargo, when installed, against the fake registry: cargo must
// accept its config.json, index files and checksums, and the cargo home it fills must read back
// through Cache with the same API as the registry gives. Only localhost is contacted.
func TestRealCargoLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs cargo")
	}
	cargoBin, err := exec.LookPath("cargo")
	if err != nil {
		t.Skip("cargo not installed")
	}
	srv := cargotest.NewServer(t, testCrates)
	project, home := t.TempDir(), t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, "Cargo.toml"), `[package]
name = "probe"
version = "0.1.0"
edition = "2021"

[dependencies]
ferris-json = "=1.1.0"
tz = "0.1"
`)
	testutil.WriteFile(t, filepath.Join(project, "src", "lib.rs"), "")
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), fmt.Sprintf("[source.crates-io]\nreplace-with = \"fake\"\n\n[source.fake]\nregistry = %q\n", srv.Index()))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cargoBin, "fetch")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "CARGO_HOME="+home, "CARGO_NET_OFFLINE=false", "CARGO_TERM_COLOR=never", "CARGO_HTTP_TIMEOUT=30")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cargo fetch against the fake registry failed (cargo %s): %v\n%s", cargoVersion(cargoBin), err, out)
	}
	c := openCache(t, home, CacheConfig{})
	if got := testutil.RefNames(testutil.Listed(t, c, nil)); !slices.Equal(got, []string{"ferris-json@1.1.0", "tz@0.1.0"}) {
		t.Fatalf("cargo extracted %q", got)
	}
	entries, _ := os.ReadDir(c.Dir())
	t.Logf("cargo %s extracted into registry/src/%s", cargoVersion(cargoBin), entries[0].Name())
	local := testutil.Fetched(t, c, "ferris-json", "1.1.0")
	if len(local.Symbols) != 60 || len(local.Documents) != 6 {
		t.Errorf("from cargo's extraction: %d symbols, %d documents", len(local.Symbols), len(local.Documents))
	}
}

func cargoVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

// TestCacheStaysInsideCrate checks that a symlink in an extracted crate cannot make docidx read
// outside the crate's directory.
func TestCacheStaysInsideCrate(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.md")
	testutil.WriteFile(t, secret, "# Secret\n\ntop secret text\n")
	home := cargotest.CargoHome(t, cargotest.Crate{Name: "sneaky", Version: "1.0.0", Files: map[string]string{
		"Cargo.toml": "[package]\nname = \"sneaky\"\nreadme = \"README.md\"\n", "src/lib.rs": "#![doc = include_str!(\"../docs/x.md\")]\npub fn f() {}\n",
	}})
	dir := filepath.Join(home, "registry", "src", cargotest.IndexDir, "sneaky-1.0.0")
	for _, link := range []string{"README.md", "docs/x.md"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, filepath.Join(dir, link)); err != nil {
			t.Skip("symlinks not supported:", err)
		}
	}
	pd := testutil.Fetched(t, openCache(t, home, CacheConfig{}), "sneaky", "1.0.0")
	if out := fmt.Sprint(pd); strings.Contains(out, "top secret") {
		t.Errorf("read through a symlink out of the crate: %s", out)
	}
	if len(pd.Symbols) != 2 {
		t.Errorf("symbols %+v", pd.Symbols)
	}
}

// TestCacheExternReexports: a crate that re-exports its dependencies (a facade, as clap is of
// clap_builder) lists their items under its own paths, from the versions in the cache that its
// Cargo.toml selects, following the dependency's own re-exports one crate further.
func TestCacheExternReexports(t *testing.T) {
	home := t.TempDir()
	add := func(c cargotest.Crate) { cargotest.AddToCargoHome(t, home, cargotest.IndexDir, c) }
	add(cargotest.Crate{Name: "facade", Version: "1.0.0", Files: map[string]string{
		"Cargo.toml": "[package]\nname = \"facade\"\nversion = \"1.0.0\"\nedition = \"2021\"\n[dependencies]\nfacade-builder = \"=2.0.0\"\nrenamed = { package = \"facade-core\", version = \"1\" }\n",
		"src/lib.rs": "pub use facade_builder::*;\npub mod core { pub use renamed::Core; }\n"}})
	for _, v := range []string{"2.0.0", "2.1.0"} {
		add(cargotest.Crate{Name: "facade-builder", Version: v, Files: map[string]string{
			"Cargo.toml": "[package]\nname = \"facade-builder\"\nversion = \"" + v + "\"\nedition = \"2021\"\n[dependencies]\nfacade-core = \"1.0\"\n",
			"src/lib.rs": "/// An argument.\npub struct Arg;\nimpl Arg { pub fn new() -> Self { Arg } }\npub use facade_core::Core;\n" +
				map[string]string{"2.0.0": "", "2.1.0": "pub fn only_in_newer() {}\n"}[v]}})
	}
	add(cargotest.Crate{Name: "facade-core", Version: "1.2.0", Files: map[string]string{
		"Cargo.toml": "[package]\nname = \"facade-core\"\nversion = \"1.2.0\"\n",
		"src/lib.rs": "/// The core.\npub struct Core;\n"}})
	pd := testutil.Fetched(t, openCache(t, home, CacheConfig{}), "facade", "1.0.0")
	got := testutil.ByName(pd.Symbols)
	testutil.Files(t, got, map[string]string{
		"facade::Arg":        "facade-builder-2.0.0/src/lib.rs",
		"facade::Arg::new":   "facade-builder-2.0.0/src/lib.rs",
		"facade::Core":       "facade-core-1.2.0/src/lib.rs",
		"facade::core::Core": "facade-core-1.2.0/src/lib.rs",
	})
	if s := got["facade::Arg"]; s.Doc != "An argument." {
		t.Errorf("facade::Arg doc %q", s.Doc)
	}
	if _, ok := got["facade::only_in_newer"]; ok {
		t.Error("facade::only_in_newer is from a version Cargo.toml does not select")
	}
}

// TestCacheExternOrder: a dependency's API does not depend on which crate of the crawl reached
// it first. In a chain a -> b -> c -> d -> e of glob re-exports, c lists e's E whether it is
// fetched first or after a, which reaches c two crates deeper.
func TestCacheExternOrder(t *testing.T) {
	home := t.TempDir()
	chain := []string{"a", "b", "c", "d", "e"}
	for i, name := range chain {
		toml := "[package]\nname = \"" + name + "\"\nversion = \"1.0.0\"\nedition = \"2021\"\n"
		lib := "/// The " + name + " type.\npub struct " + strings.ToUpper(name) + ";\n"
		if i+1 < len(chain) {
			toml += "[dependencies]\n" + chain[i+1] + " = \"1\"\n"
			lib += "pub use " + chain[i+1] + "::*;\n"
		}
		cargotest.AddToCargoHome(t, home, cargotest.IndexDir, cargotest.Crate{Name: name, Version: "1.0.0", Files: map[string]string{"Cargo.toml": toml, "src/lib.rs": lib}})
	}
	lists := func(fetchFirst ...string) bool {
		c := openCache(t, home, CacheConfig{})
		for _, name := range append(fetchFirst, "c") {
			pd := testutil.Fetched(t, c, name, "1.0.0")
			if name != "c" {
				continue
			}
			for _, s := range pd.Symbols {
				if s.QualifiedName == "c::E" {
					return true
				}
			}
		}
		return false
	}
	alone, afterA := lists(), lists("a")
	if alone != afterA {
		t.Errorf("c lists c::E: %v fetched alone, %v after a", alone, afterA)
	}
}
