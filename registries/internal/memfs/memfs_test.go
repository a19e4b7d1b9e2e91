package memfs_test

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx/registries/internal/memfs"
)

func TestFS(t *testing.T) {
	for _, files := range []map[string][]byte{
		{"a.txt": []byte("A"), "d/e/f.md": []byte("F"), "d/g": []byte("G")},
		{"a/b/c.rs": []byte("x"), "a/d.md": []byte("yy"), "top": nil},
	} {
		names := slices.Collect(maps.Keys(files))
		if err := fstest.TestFS(memfs.New(files), names...); err != nil {
			t.Fatal(err)
		}
	}
	m := memfs.New(map[string][]byte{"a.txt": []byte("A")})
	if _, err := fs.Stat(m, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(missing) = %v", err)
	}
	// A file and a directory of one name: the file wins.
	m = memfs.New(map[string][]byte{"x": []byte("file"), "x/y": []byte("inside")})
	if data, err := fs.ReadFile(m, "x"); err != nil || string(data) != "file" {
		t.Errorf("ReadFile(x) = %q, %v", data, err)
	}
}
