package cargotest

import (
	"os"
	"path/filepath"
	"testing"
)

// Directory names cargo gives a registry under registry/src, registry/cache and registry/index:
// the index host and a hash of the index URL, which changed in cargo 1.85.
const (
	IndexDir    = "index.crates.io-1949cf8c6b5b557f" // crates.io's sparse index, cargo 1.85 and later
	IndexDirOld = "index.crates.io-6f17d22bba15001f" // crates.io's sparse index, cargo 1.68 to 1.84
	IndexDirGit = "github.com-1ecc6299db9ec823"      // crates.io's git index, older cargo
)

// CargoHome lays out a cargo home ($CARGO_HOME) holding crates under IndexDir in a new temporary
// directory of tb and returns it (see AddToCargoHome for the layout).
func CargoHome(tb testing.TB, crates ...Crate) string {
	tb.Helper()
	home := tb.TempDir()
	AddToCargoHome(tb, home, IndexDir, crates...)
	return home
}

// CargoHomeFromDir lays out a cargo home holding every crate version under root (see
// LoadCrates).
func CargoHomeFromDir(tb testing.TB, root string) string {
	tb.Helper()
	crates, err := LoadCrates(root)
	if err != nil {
		tb.Fatalf("cargotest: %v", err)
	}
	return CargoHome(tb, crates...)
}

// AddToCargoHome adds crates to the cargo home at home under the registry directory indexDir,
// as cargo leaves them after fetching (https://doc.rust-lang.org/cargo/guide/cargo-home.html):
//
//	registry/cache/<indexDir>/<name>-<version>.crate   the downloaded archive
//	registry/src/<indexDir>/<name>-<version>/…         its files, extracted
//	registry/src/<indexDir>/<name>-<version>/.cargo-ok {"v":1}, written once extraction finished
//	registry/index/<indexDir>/config.json              the index configuration
//
// plus the .package-cache lock file at the top.
func AddToCargoHome(tb testing.TB, home, indexDir string, crates ...Crate) {
	tb.Helper()
	write := func(p string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatalf("cargotest: %v", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			tb.Fatalf("cargotest: %v", err)
		}
	}
	write(filepath.Join(home, ".package-cache"), nil)
	write(filepath.Join(home, "registry", "index", indexDir, "config.json"), []byte(`{"dl":"https://static.crates.io/crates","api":"https://crates.io"}`))
	for _, c := range crates {
		base := c.Name + "-" + c.Version
		write(filepath.Join(home, "registry", "cache", indexDir, base+".crate"), c.Archive())
		dir := filepath.Join(home, "registry", "src", indexDir, base)
		for name, body := range c.Files {
			write(filepath.Join(dir, filepath.FromSlash(name)), []byte(body))
		}
		write(filepath.Join(dir, ".cargo-ok"), []byte(`{"v":1}`))
	}
}
