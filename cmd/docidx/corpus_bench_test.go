package main

// Benchmarks over the real-input corpus that scripts/corpus.sh builds in $DOCIDX_CORPUS (a Go
// module cache and an npm node_modules tree). They skip when it is absent, so `make test` never
// needs it; `make bench` sets DOCIDX_CORPUS.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/registries/cargo"
	"github.com/docidx/docidx/registries/gomod"
	"github.com/docidx/docidx/registries/npm"
	"github.com/docidx/docidx/registries/pypi"
	"github.com/docidx/docidx/registries/swift"
	"github.com/docidx/docidx/serve"
)

// corpusQueries are plain-words and identifier questions of the kind assistants ask.
var corpusQueries = []string{
	"define a subcommand with persistent flags",
	"run goroutines and return the first error",
	"hash passwords with a salt",
	"parse command line flags",
	"validate a struct",
	"express router middleware",
	"structured logging",
	"PersistentFlags",
	"uuid",
	"read a yaml config file",
}

// corpusCaches opens the corpus's local caches (and this machine's Python site-packages, those
// DOCIDX_SITE_PACKAGES names or else python3's; and the cargo and Swift fixtures when the corpus
// lays them out), or skips b.
func corpusCaches(b testing.TB) []docidx.Cache {
	dir := os.Getenv("DOCIDX_CORPUS")
	if dir == "" {
		b.Skip("DOCIDX_CORPUS not set (scripts/corpus.sh builds the corpus)")
	}
	gm, nm := filepath.Join(dir, "gomodcache"), filepath.Join(dir, "npmproject", "node_modules")
	if !isDir(gm) || !isDir(nm) {
		b.Skipf("no corpus in %s (run scripts/corpus.sh)", dir)
	}
	mc, err := gomod.NewModCache(gm, gomod.ModCacheConfig{})
	if err != nil {
		b.Fatal(err)
	}
	nmc, err := npm.NewNodeModules(nm, npm.NodeModulesConfig{})
	if err != nil {
		b.Fatal(err)
	}
	caches := []docidx.Cache{mc, nmc}
	for _, dir := range corpusSitePackages(dir) {
		if sp, err := pypi.NewSitePackages(dir, pypi.SitePackagesConfig{}); err == nil {
			caches = append(caches, sp)
		}
	}
	// The corpus's cargo home: the crates cargo fetched and the cargo test fixtures; and the
	// Swift test fixtures (scripts/corpus.sh).
	if home := filepath.Join(dir, "cargohome"); isDir(home) {
		c, err := cargo.NewCache(home, cargo.CacheConfig{})
		if err != nil {
			b.Fatal(err)
		}
		caches = append(caches, c)
	}
	if project := filepath.Join(dir, "swiftproject"); isDir(project) {
		c, err := swift.NewCheckouts(project, swift.CheckoutsConfig{})
		if err != nil {
			b.Fatal(err)
		}
		caches = append(caches, c)
	}
	return caches
}

var (
	corpusOnce  sync.Once
	corpusIndex string
	corpusErr   error
)

// corpusSnapshot crawls the corpus once per test binary into a temporary index, or returns
// $DOCIDX_CORPUS_INDEX, a snapshot of it crawled before (docidx crawl --index DIR ...).
func corpusSnapshot(b testing.TB) string {
	if dir := os.Getenv("DOCIDX_CORPUS_INDEX"); dir != "" {
		return dir
	}
	caches := corpusCaches(b)
	corpusOnce.Do(func() {
		dir, err := os.MkdirTemp("", "docidx-bench-")
		if err != nil {
			corpusErr = err
			return
		}
		corpusIndex = filepath.Join(dir, "index")
		w, err := index.Create(corpusIndex)
		if err != nil {
			corpusErr = err
			return
		}
		if _, err := crawl.Run(context.Background(), w, crawl.Options{Caches: caches}); err != nil {
			w.Abort()
			corpusErr = err
			return
		}
		_, corpusErr = w.Commit(context.Background())
	})
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusIndex
}

// BenchmarkCorpusCrawl measures a whole offline crawl of the corpus, caches to published
// snapshot, in sections+symbols per second.
func BenchmarkCorpusCrawl(b *testing.B) {
	caches := corpusCaches(b)
	items := 0
	for range b.N {
		dir := b.TempDir()
		w, err := index.Create(dir)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := crawl.Run(context.Background(), w, crawl.Options{Caches: caches})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Commit(context.Background()); err != nil {
			b.Fatal(err)
		}
		items += sum.Sections + sum.Symbols
	}
	b.ReportMetric(float64(items)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkCorpusSearch measures index.Reader.Search over the corpus snapshot, with p50 and p99.
func BenchmarkCorpusSearch(b *testing.B) {
	r, err := index.Open(corpusSnapshot(b))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t := time.Now()
		if _, err := r.Search(context.Background(), index.Query{Text: corpusQueries[i%len(corpusQueries)]}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	reportPercentiles(b, lat)
}

// BenchmarkCorpusSearchTool measures a search_package_docs round trip through the MCP SDK's
// in-memory transport, without process or pipe overhead. It also counts the SDK client decoding
// each ~11 KB answer (about a third of the CPU) and, as in every test, the server checking each
// answer against the tool's output schema, which a served docidx does not: BenchmarkStdioSearch
// measures the served one.
func BenchmarkCorpusSearchTool(b *testing.B) {
	r, err := index.Open(corpusSnapshot(b))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	cs := connect(b, r)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t := time.Now()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_package_docs",
			Arguments: map[string]any{"query": corpusQueries[i%len(corpusQueries)], "limit": 10}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		lat = append(lat, time.Since(t))
	}
	reportPercentiles(b, lat)
}

// BenchmarkCorpusAnswerSearch measures the answer a search_package_docs call computes
// (answer.Service.Search: ranking, passages, deduplication, the markdown text) for the
// held-out dev questions, one after another, in process: without JSON-RPC, pipes or the
// SDK, which BenchmarkStdioSearchVaried counts. It reports p50-ms and p99-ms; for a CPU
// profile of what a search spends its time on:
//
//	DOCIDX_CORPUS_INDEX=/tmp/snap go test -run '^$' -bench CorpusAnswerSearch -cpuprofile cpu.out ./cmd/docidx
func BenchmarkCorpusAnswerSearch(b *testing.B) {
	var questions []string
	for _, q := range heldoutQuestions(b, "dev") {
		questions = append(questions, q.Question)
	}
	benchAnswerSearch(b, questions)
}

// BenchmarkCorpusAnswerSearchVaried is BenchmarkCorpusAnswerSearch over the questions
// BenchmarkStdioSearchVaried asks (variedQuestions): the search's own share of that round
// trip, in process.
func BenchmarkCorpusAnswerSearchVaried(b *testing.B) {
	benchAnswerSearch(b, variedQuestions(b, 3000))
}

// benchAnswerSearch asks answer.Service.Search the questions, one after another, b.N times in
// all, and reports p50-ms and p99-ms.
func benchAnswerSearch(b *testing.B, questions []string) {
	r, err := index.Open(corpusSnapshot(b))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	answers := serve.New(r, serve.Options{Version: docidx.Version}).Answers()
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t := time.Now()
		if _, _, err := answers.Search(ctx, answer.SearchInput{Query: questions[i%len(questions)]}); err != nil && !errors.Is(err, docidx.ErrNotFound) {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	reportPercentiles(b, lat)
}

// BenchmarkCorpusStartup measures opening the corpus snapshot and answering initialize.
func BenchmarkCorpusStartup(b *testing.B) {
	dir := corpusSnapshot(b)
	b.ResetTimer()
	for range b.N {
		r, err := index.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		cs := connect(b, r)
		cs.Close()
		r.Close()
	}
}

func connect(b testing.TB, r *index.Reader) *mcp.ClientSession {
	ct, st := mcp.NewInMemoryTransports()
	srv := serve.New(r, serve.Options{Version: docidx.Version})
	if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
