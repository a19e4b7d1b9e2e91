// Package gomodtest fakes the Go module ecosystem for tests: a module proxy that serves module
// versions built from a testdata tree, on the registrytest kit (its faults and request log), and
// a module cache (GOMODCACHE) laid out in a temporary directory from the same modules.
//
// Module versions live in a directory tree, one directory per version, named by the module path
// (with its original capitals) and version:
//
//	testdata/mod/example.com/hello@v1.1.0/go.mod
//	testdata/mod/example.com/hello@v1.1.0/hello.go
//	testdata/mod/github.com/Azure/go-sample@v0.1.0/...
//
// Each version is zipped as cmd/go would (golang.org/x/mod/zip.Create: nested modules and vendor
// directories left out). The proxy serves the protocol of https://go.dev/ref/mod#goproxy-protocol
// with case-encoded paths; a request whose path is not properly encoded gets 404, as from a real
// proxy. It imports the standard library, golang.org/x/mod and registries/registrytest, never
// package gomod, so gomod's own tests can use it.
package gomodtest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"

	"github.com/docidx/docidx/registries/registrytest"
)

// Module is one module version as the proxy serves it.
type Module struct {
	Path    string    // module path, original case, e.g. "github.com/Azure/go-sample"
	Version string    // canonical version, e.g. "v1.1.0"
	Time    time.Time // reported in .info
	Mod     []byte    // the .mod file: go.mod from the zip, or "module <path>\n" when it has none
	Zip     []byte    // the .zip file
	// Files holds what the zip holds, by slash path relative to the module root. It is empty for
	// a module whose Zip was set by hand (see RawZip).
	Files map[string][]byte
}

// Load reads every module version directory (a directory named <last path element>@<version>)
// under dir, returning them sorted by path and version with times from BaseTime.
func Load(dir string) ([]*Module, error) {
	var mods []*Module
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || !strings.Contains(d.Name(), "@") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		modPath, version, _ := strings.Cut(filepath.ToSlash(rel), "@")
		files := map[string][]byte{}
		err = filepath.WalkDir(p, func(fp string, fd fs.DirEntry, err error) error {
			if err != nil || fd.IsDir() {
				return err
			}
			data, err := os.ReadFile(fp)
			if err != nil {
				return err
			}
			frel, _ := filepath.Rel(p, fp)
			files[filepath.ToSlash(frel)] = data
			return nil
		})
		if err != nil {
			return err
		}
		m, err := NewModule(modPath, version, files)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		mods = append(mods, m)
		return filepath.SkipDir
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(mods, func(i, j int) bool {
		if mods[i].Path != mods[j].Path {
			return mods[i].Path < mods[j].Path
		}
		return semver.Compare(mods[i].Version, mods[j].Version) < 0
	})
	day := 0
	for i, m := range mods {
		if i > 0 && mods[i-1].Path != m.Path {
			day = 0
		}
		m.Time = registrytest.Published(day)
		day++
	}
	return mods, nil
}

// NewModule builds module path@version from files (slash path relative to the module root →
// contents), zipping them with golang.org/x/mod/zip.Create, which drops nested modules and vendor
// directories and rejects invalid paths. Time is registrytest.BaseTime.
func NewModule(modPath, version string, files map[string][]byte) (*Module, error) {
	var list []modzip.File
	for name, data := range files {
		list = append(list, memFile{name: name, data: data})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path() < list[j].Path() })
	var buf bytes.Buffer
	if err := modzip.Create(&buf, module.Version{Path: modPath, Version: version}, list); err != nil {
		return nil, err
	}
	m := &Module{Path: modPath, Version: version, Time: registrytest.BaseTime, Zip: buf.Bytes(), Files: map[string][]byte{}}
	zr, err := zip.NewReader(bytes.NewReader(m.Zip), int64(len(m.Zip)))
	if err != nil {
		return nil, err
	}
	prefix := modPath + "@" + version + "/"
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		m.Files[strings.TrimPrefix(zf.Name, prefix)] = data
	}
	m.Mod = m.Files["go.mod"]
	if m.Mod == nil {
		m.Mod = []byte("module " + modPath + "\n")
	}
	return m, nil
}

// RawZip builds a zip whose entries are named exactly as given, in sorted order, without any of
// the module zip checks: for testing how malformed or hostile zips are rejected.
func RawZip(entries map[string]string) []byte {
	names := slices.Sorted(maps.Keys(entries))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			panic(err)
		}
		io.WriteString(w, entries[n])
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// info is the JSON of a .info reply.
func (m *Module) info() []byte {
	data, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, m.Time})
	return data
}

// memFile is a modzip.File held in memory.
type memFile struct {
	name string
	data []byte
}

func (f memFile) Path() string                 { return f.name }
func (f memFile) Lstat() (os.FileInfo, error)  { return memInfo(f), nil }
func (f memFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.data)), nil }

type memInfo memFile

func (i memInfo) Name() string       { return path.Base(i.name) }
func (i memInfo) Size() int64        { return int64(len(i.data)) }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
