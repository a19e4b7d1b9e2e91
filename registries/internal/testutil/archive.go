package testutil

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// ZipNames returns the names of the entries of the zip archive data, in the archive's order. It
// fails tb when data is not a zip archive.
func ZipNames(tb testing.TB, data []byte) []string {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	return names
}

// TarNames returns the names of the entries of the gzip-compressed tar archive data, in the
// archive's order. It fails tb when data is not one, or is cut short.
func TarNames(tb testing.TB, data []byte) []string {
	tb.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, h.Name)
	}
}
