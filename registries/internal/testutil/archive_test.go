package testutil

import (
	"archive/zip"
	"bytes"
	"slices"
	"testing"
)

func TestZipNames(t *testing.T) {
	names := []string{"pkg/", "pkg/b.txt", "pkg/a.txt"}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range names {
		if _, err := zw.Create(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if got := ZipNames(t, b.Bytes()); !slices.Equal(got, names) {
		t.Errorf("ZipNames = %q, want %q", got, names)
	}
	for _, data := range [][]byte{[]byte("not an archive"), b.Bytes()[:b.Len()-1]} {
		r := &fataler{TB: t}
		r.run(func() { ZipNames(r, data) })
		if !r.failed {
			t.Errorf("ZipNames(%.10q) did not fail", data)
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
