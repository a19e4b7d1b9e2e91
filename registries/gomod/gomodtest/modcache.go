package gomodtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/sumdb/dirhash"
)

// WriteModCache lays out a module cache (GOMODCACHE, https://go.dev/ref/mod#module-cache) holding
// mods in a new temporary directory of t and returns that directory:
//
//	<escaped path>@<escaped version>/...                     the zip's files, extracted
//	cache/download/<escaped path>/@v/list                    the versions, one per line
//	cache/download/<escaped path>/@v/<escaped version>.info  {"Version","Time"}
//	cache/download/<escaped path>/@v/<escaped version>.mod
//	cache/download/<escaped path>/@v/<escaped version>.zip
//	cache/download/<escaped path>/@v/<escaped version>.ziphash
//
// Unlike the go command's, the files stay writable so that t's cleanup can remove them. The
// cache/download tree is also a valid file:// GOPROXY.
func WriteModCache(t testing.TB, mods ...*Module) string {
	dir := t.TempDir()
	if err := writeModCache(dir, mods); err != nil {
		t.Fatalf("gomodtest: %v", err)
	}
	return dir
}

// WriteModCacheFromDir lays out a module cache holding every module version under dir (see Load).
func WriteModCacheFromDir(t testing.TB, dir string) string {
	mods, err := Load(dir)
	if err != nil {
		t.Fatalf("gomodtest: %v", err)
	}
	return WriteModCache(t, mods...)
}

func writeModCache(dir string, mods []*Module) error {
	lists := map[string][]string{}
	for _, m := range mods {
		esc, err := module.EscapePath(m.Path)
		if err != nil {
			return err
		}
		escVer, err := module.EscapeVersion(m.Version)
		if err != nil {
			return err
		}
		root := filepath.Join(dir, filepath.FromSlash(esc)+"@"+escVer)
		for name, data := range m.Files {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return err
			}
		}
		dl := filepath.Join(dir, "cache", "download", filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(dl, 0o755); err != nil {
			return err
		}
		base := filepath.Join(dl, escVer)
		for ext, data := range map[string][]byte{".info": m.info(), ".mod": m.Mod, ".zip": m.Zip} {
			if err := os.WriteFile(base+ext, data, 0o644); err != nil {
				return err
			}
		}
		sum, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+".ziphash", []byte(sum), 0o644); err != nil {
			return err
		}
		lists[dl] = append(lists[dl], m.Version)
	}
	for dl, versions := range lists {
		semver.Sort(versions)
		if err := os.WriteFile(filepath.Join(dl, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}
