package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

var benchWords = strings.Fields(`goroutine error group context cancel wait limit semaphore weighted acquire release
http server handler request response router middleware json encode decode marshal stream buffer reader writer
file path walk glob read write sync atomic mutex channel select timer ticker deadline retry backoff token parse
flag command option argument subcommand help usage config yaml toml env logger level field hook format color`)

// synthetic returns n package versions of realistic shape: a README of 12 sections and 60
// symbols, in words drawn with Zipf frequencies.
func synthetic(n int) []*docidx.PackageDocs {
	rng := rand.New(rand.NewPCG(1, 2))
	// Word frequencies follow Zipf's law over a 20,000-word vocabulary, as prose does.
	zipf := rand.NewZipf(rng, 1.1, 1, 20000)
	vocab := func() string {
		// The words queries use rank from 100th on: common, not ubiquitous.
		n := zipf.Uint64()
		if n >= 100 && n < 100+uint64(len(benchWords)) {
			return benchWords[n-100]
		}
		return fmt.Sprintf("w%dx", n)
	}
	words := func(k int) string {
		var b strings.Builder
		for i := range k {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab())
		}
		return b.String()
	}
	var out []*docidx.PackageDocs
	for i := range n {
		d := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: fmt.Sprintf("pkg-%s-%d", benchWords[i%len(benchWords)], i), Version: "1.0.0", Description: words(12)}}
		var secs []docidx.Section
		for j := range 12 {
			secs = append(secs, docidx.Section{Heading: []string{"Title", words(2)}, Anchor: fmt.Sprint("s", j), Text: words(80), Plain: words(80)})
		}
		d.Documents = []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "Title", Sections: secs}}
		for j := range 60 {
			name := camel(words(2))
			d.Symbols = append(d.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: name, QualifiedName: fmt.Sprint(name, j),
				Signature: "func " + name + "(ctx context.Context) error", Doc: words(25)})
		}
		out = append(out, d)
	}
	return out
}

// BenchmarkCommit measures building a snapshot (store + search index) from 200 package versions,
// reported as sections+symbols indexed per second.
func BenchmarkCommit(b *testing.B) {
	docs := synthetic(200)
	items := 0
	for _, d := range docs {
		items += len(d.Symbols) + len(d.Documents[0].Sections)
	}
	b.ResetTimer()
	for range b.N {
		dir := b.TempDir()
		w, err := index.Create(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range docs {
			if err := w.Put(context.Background(), d); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Commit(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(items*b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkSearch measures one search over 1,000 synthetic package versions (84,000 hits' worth).
func BenchmarkSearch(b *testing.B) {
	dir := b.TempDir()
	commit(b, dir, synthetic(1000)...)
	r := open(b, dir)
	queries := []string{"cancel a group of goroutines on error", "ReadFile", "http middleware router", "parse yaml config", "semaphore"}
	b.ResetTimer()
	for i := range b.N {
		if _, err := r.Search(context.Background(), index.Query{Text: queries[i%len(queries)]}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures opening a snapshot of 1,000 package versions: the floor of serve's start-up.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	commit(b, dir, synthetic(1000)...)
	b.ResetTimer()
	for range b.N {
		r, err := index.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

// camel joins ASCII words in CamelCase.
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}
