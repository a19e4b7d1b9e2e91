package swift

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// BenchmarkCheckoutsFetch reads every package version of a .build laid out from the fixture
// packages, as a crawl of --swift-checkouts does, reporting symbols per second and milliseconds
// per package version.
func BenchmarkCheckoutsFetch(b *testing.B) {
	project, _ := writeTestBuild(b)
	benchCheckouts(b, project)
}

// BenchmarkCheckoutsFetchCorpus does the same over a real SwiftPM project in the docidx corpus
// ($DOCIDX_CORPUS/swiftproject, resolved with `swift package resolve`), when there is one.
func BenchmarkCheckoutsFetchCorpus(b *testing.B) {
	project := testutil.CorpusDir(b, "swiftproject")
	if _, err := os.Stat(filepath.Join(project, ".build")); err != nil {
		b.Skipf("no SwiftPM project in the corpus at %s", project)
	}
	benchCheckouts(b, project)
}

func benchCheckouts(b *testing.B, project string) {
	c, err := NewCheckouts(project, CheckoutsConfig{})
	refs := testutil.Listed(b, c, err)
	symbols := 0
	b.ReportAllocs()
	for b.Loop() {
		testutil.FetchEvery(b, c, refs, func(_ docidx.Ref, pd *docidx.PackageDocs) { symbols += len(pd.Symbols) })
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(symbols)/secs, "symbols/s")
	b.ReportMetric(float64(len(refs)), "versions/op")
	b.ReportMetric(secs*1e3/float64(b.N*len(refs)), "ms/version")
}

// BenchmarkRegistryFetch fetches a release from the fake registry: release metadata, archive
// download, checksum and in-memory extraction.
func BenchmarkRegistryFetch(b *testing.B) {
	srv := newFixtureServer(b)
	r := registryAt(b, srv.URL, srv.Client(), nil)
	symbols := 0
	b.ReportAllocs()
	for b.Loop() {
		symbols += len(testutil.Fetched(b, r, kitID, "1.3.0").Symbols)
	}
	b.ReportMetric(float64(symbols)/b.Elapsed().Seconds(), "symbols/s")
}
