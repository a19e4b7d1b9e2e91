// Package cargotest fakes the cargo ecosystem for tests: a sparse registry over
// net/http/httptest serving crates built from a testdata tree, with hooks to inject failures, and
// cargo homes ($CARGO_HOME) laid out in a temporary directory the way cargo lays them out.
//
// Crate versions live in a directory tree, one directory per version holding the package's files
// as `cargo package` writes them (a normalized Cargo.toml, Cargo.toml.orig, sources, README …):
//
//	testdata/crates/ferris-json/1.1.0/Cargo.toml
//	testdata/crates/ferris-json/1.1.0/src/lib.rs
//	testdata/crates/ferris-json/yanked        (optional: versions to mark yanked, one per line)
//
// Each version is packed into a .crate as cargo does: a gzip-compressed tar whose entries all sit
// under "<name>-<version>/". The registry serves the sparse index protocol
// (https://doc.rust-lang.org/cargo/reference/registry-index.html): config.json and one index
// file per crate at the path cargo computes, with each version's sha256 checksum, and the .crate
// files at the URL config.json's dl gives. Faults and recorded responses are set through the
// embedded registrytest.Server. It imports the standard library, registries/registrytest and
// registries/cargo/internal/indexpath (the index-file rule the client shares), never package
// cargo, so cargo's own tests can use it.
package cargotest

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/docidx/docidx/registries/cargo/internal/indexpath"
	"github.com/docidx/docidx/registries/registrytest"
)

// Crate is one crate version: its files by slash path relative to the package root.
type Crate struct {
	Name    string            // as published, e.g. "ferris-json" or "Quux"
	Version string            // semantic version, e.g. "1.1.0"
	Files   map[string]string // file contents by slash path, e.g. "src/lib.rs"
	Yanked  bool              // the index marks the version yanked
}

// LoadCrates reads every crate version under root (root/<name>/<version>/…, see the package doc),
// sorted by name and version.
func LoadCrates(root string) ([]Crate, error) {
	versions, err := registrytest.ReadVersions(root, nil)
	if err != nil {
		return nil, err
	}
	var crates []Crate
	for _, v := range versions {
		c := Crate{Name: v.Name, Version: v.Version, Files: v.Files}
		if b, err := os.ReadFile(filepath.Join(root, v.Name, "yanked")); err == nil {
			c.Yanked = slices.Contains(strings.Fields(string(b)), v.Version)
		}
		crates = append(crates, c)
	}
	sort.Slice(crates, func(i, j int) bool {
		if crates[i].Name != crates[j].Name {
			return crates[i].Name < crates[j].Name
		}
		return registrytest.LessVersion(crates[i].Version, crates[j].Version)
	})
	return crates, nil
}

// Archive packs c as cargo packs a .crate: a gzip-compressed tar of its files, sorted, under
// "<name>-<version>/".
func (c Crate) Archive() []byte {
	return Crates.Build(registrytest.Files(c.Name+"-"+c.Version, c.Files))
}

// Crates builds .crate files from raw entries as cargo packs them: GNU tar headers with cargo's
// fixed modification time.
var Crates = registrytest.Tar{ModTime: time.Date(2006, 7, 24, 1, 21, 28, 0, time.UTC), Format: tar.FormatGNU}

// Checksum returns the checksum an index records for a .crate: its sha256 in lowercase hex.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// IndexPath returns the path of a crate's index file: the lowercased name under "1/", "2/",
// "3/<first char>/" or "<chars 1-2>/<chars 3-4>/", by the same rule the cargo client follows
// (registries/cargo/internal/indexpath).
func IndexPath(name string) string { return indexpath.Path(name) }

// indexPrefix is a download template's {prefix}: the directory of IndexPath, in the name's
// original case.
func indexPrefix(name string) string { return indexpath.Prefix(name) }
