package index_test

import (
	"bytes"
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/docidx/docidx/index"
)

// BenchmarkPack measures packing a snapshot of 300 synthetic package versions; b.SetBytes is the
// snapshot's size, so MB/s is snapshot bytes per second.
func BenchmarkPack(b *testing.B) {
	dir := build(b, synthetic(300)...)
	size := int64(len(pack(b, dir, index.Zstd)))
	r := open(b, dir)
	b.SetBytes(snapshotBytes(b, r))
	b.ReportMetric(float64(size), "archive-bytes")
	for b.Loop() {
		if _, err := index.Pack(io.Discard, dir, index.Zstd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtract measures unpacking that archive with every checksum checked.
func BenchmarkExtract(b *testing.B) {
	dir := build(b, synthetic(300)...)
	data := pack(b, dir, index.Zstd)
	b.SetBytes(snapshotBytes(b, open(b, dir)))
	tmp := b.TempDir()
	i := 0
	for b.Loop() {
		i++
		if _, err := index.Extract(bytes.NewReader(data), filepath.Join(tmp, strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func snapshotBytes(b *testing.B, r *index.Reader) int64 {
	v, err := index.Verify(b.Context(), r.Dir(), "")
	if err != nil {
		b.Fatal(err)
	}
	return v.Bytes
}
