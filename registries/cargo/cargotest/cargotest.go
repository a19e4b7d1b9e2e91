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
// files at the URL config.json's dl gives. It imports only the standard library, never package
// cargo, so cargo's own tests can use it.
package cargotest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
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
	names, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var crates []Crate
	for _, n := range names {
		if !n.IsDir() {
			continue
		}
		dir := filepath.Join(root, n.Name())
		yanked := map[string]bool{}
		if b, err := os.ReadFile(filepath.Join(dir, "yanked")); err == nil {
			for _, l := range strings.Fields(string(b)) {
				yanked[l] = true
			}
		}
		versions, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, v := range versions {
			if !v.IsDir() {
				continue
			}
			files, err := ReadTree(filepath.Join(dir, v.Name()))
			if err != nil {
				return nil, err
			}
			crates = append(crates, Crate{Name: n.Name(), Version: v.Name(), Files: files, Yanked: yanked[v.Name()]})
		}
	}
	sort.Slice(crates, func(i, j int) bool {
		if crates[i].Name != crates[j].Name {
			return crates[i].Name < crates[j].Name
		}
		return lessVersion(crates[i].Version, crates[j].Version)
	})
	return crates, nil
}

// ReadTree reads every regular file under dir into a map keyed by slash path.
func ReadTree(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return files, err
}

// Archive packs c as cargo packs a .crate: a gzip-compressed tar of its files, sorted, under
// "<name>-<version>/".
func (c Crate) Archive() []byte {
	names := make([]string, 0, len(c.Files))
	for n := range c.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	entries := make([]Entry, 0, len(names))
	for _, n := range names {
		entries = append(entries, Entry{Name: path.Join(c.Name+"-"+c.Version, n), Body: c.Files[n]})
	}
	return Archive(entries)
}

// Entry is one raw tar entry for Archive. Name is written as is (no prefix, no cleaning), so
// tests can build hostile archives ("x-1.0.0/../../etc/passwd", "/abs", "other-dir/file").
type Entry struct {
	Name     string
	Body     string
	Typeflag byte // 0 means tar.TypeReg
	Linkname string
}

// Archive builds a gzip-compressed tar from raw entries, with cargo's fixed modification time.
func Archive(entries []Entry) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.Typeflag
		if typ == 0 {
			typ = tar.TypeReg
		}
		size := int64(len(e.Body))
		if typ != tar.TypeReg {
			size = 0
		}
		hdr := &tar.Header{Name: e.Name, Mode: 0o644, Size: size, Typeflag: typ, Linkname: e.Linkname,
			ModTime: time.Date(2006, 7, 24, 1, 21, 28, 0, time.UTC), Format: tar.FormatGNU}
		if err := tw.WriteHeader(hdr); err != nil {
			panic(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.Body)); err != nil {
				panic(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Checksum returns the checksum an index records for a .crate: its sha256 in lowercase hex.
func Checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// IndexPath returns the path of a crate's index file: the lowercased name under "1/", "2/",
// "3/<first char>/" or "<chars 1-2>/<chars 3-4>/"
// (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files).
func IndexPath(name string) string {
	n := strings.ToLower(name)
	switch len(n) {
	case 1:
		return "1/" + n
	case 2:
		return "2/" + n
	case 3:
		return "3/" + n[:1] + "/" + n
	}
	return n[:2] + "/" + n[2:4] + "/" + n
}

// indexPrefix is a download template's {prefix}: the directory of IndexPath, in the name's
// original case.
func indexPrefix(name string) string {
	switch len(name) {
	case 1, 2:
		return strconv.Itoa(len(name))
	case 3:
		return "3/" + name[:1]
	}
	return name[:2] + "/" + name[2:4]
}

// lessVersion orders "1.2.3-pre" style versions well enough for fixtures.
func lessVersion(a, b string) bool {
	pa, pb := strings.SplitN(a, "-", 2), strings.SplitN(b, "-", 2)
	na, nb := strings.Split(pa[0], "."), strings.Split(pb[0], ".")
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			if len(na[i]) != len(nb[i]) {
				return len(na[i]) < len(nb[i])
			}
			return na[i] < nb[i]
		}
	}
	if len(pa) != len(pb) {
		return len(pa) > len(pb) // a pre-release sorts first
	}
	return a < b
}
