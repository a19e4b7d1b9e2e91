package index_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// fuzzFiles are the snapshot files FuzzOpenSnapshot replaces, by the input's first byte.
// Paths are relative to the generation: its segments are beside it.
var fuzzFiles = []string{"../seg-000001/" + index.RankFile, index.ManifestFile, index.StoreFile, "../seg-000001/search.bleve/index_meta.json", "../CURRENT", "../seg-000001/" + index.DocsFile}

// FuzzOpenSnapshot replaces one file of a snapshot with the input and opens and searches the
// snapshot: whatever the bytes, the result is answers or an error (ErrCorrupt, ErrFormat for a
// manifest of a newer format, ErrNoSnapshot for an empty CURRENT's), never a panic or a hang.
// The seed corpus — each file whole, halved, emptied, and with its header flipped — runs in
// go test.
func FuzzOpenSnapshot(f *testing.F) {
	dir := build(f, goModule("v0.6.0"), goModule("v0.7.0"),
		npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"))
	name, err := index.Current(dir)
	if err != nil {
		f.Fatal(err)
	}
	gen := filepath.Join(dir, name)
	good := make([][]byte, len(fuzzFiles))
	for i, file := range fuzzFiles {
		if good[i], err = os.ReadFile(filepath.Join(gen, filepath.FromSlash(file))); err != nil {
			f.Fatal(err)
		}
		data := good[i]
		flipped := append([]byte(nil), data...)
		for j := range min(len(flipped), 64) {
			flipped[j] ^= 0x5a
		}
		for _, seed := range [][]byte{data, data[:len(data)/2], nil, flipped, append(append([]byte(nil), data[:len(data)/2]...), flipped...)} {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		i := int(which) % len(fuzzFiles)
		path := filepath.Join(gen, filepath.FromSlash(fuzzFiles[i]))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := os.WriteFile(path, good[i], 0o644); err != nil {
				t.Fatal(err)
			}
		}()
		r, err := index.Open(dir)
		if err != nil {
			if !errors.Is(err, index.ErrCorrupt) && !errors.Is(err, docidx.ErrFormat) && !errors.Is(err, docidx.ErrNoSnapshot) &&
				!errors.Is(err, fs.ErrPermission) {
				t.Fatalf("Open: %v, want ErrCorrupt", err)
			}
			return
		}
		defer r.Close()
		for _, q := range []index.Query{{Text: "errgroup goroutines"}, {Text: "commander options", Ecosystem: docidx.NPM}, {Text: "Group", Version: "v0.6.0"}} {
			r.Search(context.Background(), q) // an error is fine; a panic or a hang is not
		}
		r.Package(goModule("v0.7.0").Package.Ref())
		r.Documents(goModule("v0.6.0").Package.Ref())
		r.Symbols(goModule("v0.6.0").Package.Ref())
		r.List("", "", "", 10)
	})
}
