package readme_test

import (
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
)

// BenchmarkParse parses every README under testdata/in once per iteration; MB/s is over their
// total size.
func BenchmarkParse(b *testing.B) {
	in := inputs(b)
	var total int64
	for _, f := range in {
		total += int64(len(f.src))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range in {
			readme.Parse("README.md", docidx.DocReadme, f.src)
		}
	}
}

// BenchmarkParseMaxInput parses one MaxInput-sized document made of the testdata READMEs
// repeated, the largest input Parse reads.
func BenchmarkParseMaxInput(b *testing.B) {
	var src []byte
	for len(src) < readme.MaxInput {
		for _, f := range inputs(b) {
			src = append(src, f.src...)
			src = append(src, '\n')
		}
	}
	src = src[:readme.MaxInput]
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		readme.Parse("README.md", docidx.DocReadme, src)
	}
}
