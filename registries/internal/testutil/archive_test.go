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
		r := &fatalRecorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			ZipNames(r, data)
		}()
		<-done
		if !r.failed {
			t.Errorf("ZipNames(%.10q) did not fail", data)
		}
	}
}
