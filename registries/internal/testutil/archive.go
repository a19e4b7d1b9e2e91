package testutil

import (
	"archive/zip"
	"bytes"
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
