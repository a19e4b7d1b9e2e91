package testutil

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"slices"
	"testing"
)

func TestArchiveNames(t *testing.T) {
	names := []string{"pkg/", "pkg/b.txt", "pkg/a.txt"}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	var tb bytes.Buffer
	gw := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gw)
	for _, n := range names {
		if _, err := zw.Create(n); err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{zw, tw, gw} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if got := ZipNames(t, zb.Bytes()); !slices.Equal(got, names) {
		t.Errorf("ZipNames = %q, want %q", got, names)
	}
	if got := TarNames(t, tb.Bytes()); !slices.Equal(got, names) {
		t.Errorf("TarNames = %q, want %q", got, names)
	}
	for name, f := range map[string]func(testing.TB, []byte) []string{"ZipNames": ZipNames, "TarNames": TarNames} {
		for _, data := range [][]byte{[]byte("not an archive"), tb.Bytes()[:tb.Len()/2]} {
			r := &fataler{TB: t}
			r.run(func() { f(r, data) })
			if !r.failed {
				t.Errorf("%s(%.10q) did not fail", name, data)
			}
		}
	}
}

// fataler is a testing.TB whose Fatal records the failure and stops only the function run runs.
type fataler struct {
	testing.TB
	failed bool
}

func (f *fataler) Helper() {}

func (f *fataler) Fatal(args ...any) {
	f.failed = true
	panic(f)
}

func (f *fataler) run(fn func()) {
	defer func() {
		if r := recover(); r != nil && r != any(f) {
			panic(r)
		}
	}()
	fn()
}
