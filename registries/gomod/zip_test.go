package gomod

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

func zipOf(t testing.TB, entries ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(entries); i += 2 {
		w, err := zw.Create(entries[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(entries[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestOpenZip(t *testing.T) {
	data := zipOf(t, "m.example/a@v1.0.0/go.mod", "module m.example/a\n", "m.example/a@v1.0.0/x/y.go", "package x\n")
	fsys, err := openZip(data, "m.example/a", "v1.0.0", DefaultLimits.MaxZip)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(fsys, "x/y.go")
	if err != nil || string(got) != "package x\n" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	for name, entries := range map[string][]string{
		"backslash":   {`m.example/a@v1.0.0/x\..\..\y.go`, ""},
		"dot-dot":     {"m.example/a@v1.0.0/x/../../../y.go", ""},
		"not clean":   {"m.example/a@v1.0.0/x//y.go", ""},
		"other root":  {"m.example/b@v1.0.0/y.go", ""},
		"version":     {"m.example/a@v1.0.1/y.go", ""},
		"nested mod":  {"m.example/a@v1.0.0/x/go.mod", ""},
		"case fold":   {"m.example/a@v1.0.0/README", "", "m.example/a@v1.0.0/readme", ""},
		"dot element": {"m.example/a@v1.0.0/./y.go", ""},
	} {
		_, err := openZip(zipOf(t, entries...), "m.example/a", "v1.0.0", DefaultLimits.MaxZip)
		if !errors.Is(err, docidx.ErrUnsafePath) {
			t.Errorf("%s: err = %v, want ErrUnsafePath", name, err)
		}
	}
	if _, err := openZip(data, "m.example/a", "v1.0.0", 10); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("small limit: err = %v, want ErrTooLarge", err)
	}
	if _, err := openZip([]byte("not a zip"), "m.example/a", "v1.0.0", DefaultLimits.MaxZip); err == nil {
		t.Error("garbage accepted")
	}
}

// FuzzOpenZip feeds arbitrary bytes as a module zip: openZip must never panic, and whatever it
// accepts must be readable within the limit.
func FuzzOpenZip(f *testing.F) {
	f.Add(zipOf(f, "m.example/a@v1.0.0/go.mod", "module m.example/a\n", "m.example/a@v1.0.0/a.go", "package a\n"))
	f.Add(zipOf(f, "m.example/a@v1.0.0/../a.go", "package a\n"))
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, err := openZip(data, "m.example/a", "v1.0.0", 1<<20)
		if err != nil {
			return
		}
		fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				memfs.ReadLimited(fsys, p, 1<<20)
			}
			return nil
		})
	})
}
