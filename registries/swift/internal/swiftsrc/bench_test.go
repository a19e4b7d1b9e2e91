package swiftsrc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureSources reads every Swift file of the fixture packages in registries/swift/testdata.
func fixtureSources(tb testing.TB) [][]byte {
	tb.Helper()
	var srcs [][]byte
	root := filepath.Join("..", "..", "testdata", "packages")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".swift") {
			return err
		}
		b, err := os.ReadFile(p)
		srcs = append(srcs, b)
		return err
	})
	if err != nil || len(srcs) == 0 {
		tb.Fatalf("no fixture sources: %v", err)
	}
	return srcs
}

// BenchmarkScan tokenizes, scans and turns into symbols every fixture Swift file, reporting
// throughput in bytes (MB/s) and symbols per second.
func BenchmarkScan(b *testing.B) {
	srcs := fixtureSources(b)
	var size int64
	for _, s := range srcs {
		size += int64(len(s))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	symbols := 0
	for b.Loop() {
		files := make([]File, len(srcs))
		for i, s := range srcs {
			files[i] = File{Path: "f.swift", Module: "M" + string(rune('A'+i%26)), Decls: Parse(s)}
		}
		symbols += len(Symbols(files, Options{}).Symbols)
	}
	b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
}
