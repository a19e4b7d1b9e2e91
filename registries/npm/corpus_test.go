package npm

import (
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// corpusNodeModules returns the real node_modules tree of the docidx corpus (scripts/corpus.sh),
// or skips the test or benchmark when it is absent.
func corpusNodeModules(tb testing.TB) string {
	tb.Helper()
	return testutil.CorpusDir(tb, "npmproject", "node_modules")
}

// TestCorpusNodeModules reads every package of the real corpus tree: nothing may fail and the
// well-known packages must show their API.
func TestCorpusNodeModules(t *testing.T) {
	dir := corpusNodeModules(t)
	start := time.Now()
	nm, refs := listTree(t, dir, NodeModulesConfig{})
	listed := time.Since(start)
	symbols, docs, withAPI := 0, 0, 0
	bySym := map[string]map[string]docidx.Symbol{}
	testutil.FetchEvery(t, nm, refs, func(r docidx.Ref, pd *docidx.PackageDocs) {
		symbols += len(pd.Symbols)
		docs += len(pd.Documents)
		if len(pd.Symbols) > 0 {
			withAPI++
		}
		// A README without a level-1 heading is titled by its package, never by its first
		// section ("Table of contents" in axios' and express').
		if want, ok := map[string]string{"axios": "axios", "express": "express"}[r.Name]; ok {
			if len(pd.Documents) == 0 || pd.Documents[0].Kind != docidx.DocReadme || pd.Documents[0].Title != want {
				t.Errorf("%s: want a README titled %q first", r.Name, want)
			}
		}
		bySym[r.Name] = testutil.ByName(pd.Symbols)
	})
	t.Logf("%d package versions (listed in %v), %d with an API, %d symbols, %d documents, total %v",
		len(refs), listed, withAPI, symbols, docs, time.Since(start))
	for pkg, names := range map[string][]string{
		"commander":      {"Command", "Command.option", "program"},
		"@types/express": {"express", "express.Router", "express.json"},
		"@types/node":    {"fs.readFile", "fs/promises.readFile", "path.path.join", "http.createServer"},
		"zod":            {"string", "object", "ZodType"},
		// Through @types (no bundled declarations) and cross-package re-exports.
		"ws":      {"ws.ServerOptions.maxPayload", "ws.send", "ws.Server"},
		"express": {"express", "express.Router"},
		"cors":    {"cors", "cors.CorsOptions.origin"},
		"react":   {"react.useState", "react.Component.setState"},
		"vue":     {"createApp", "ref"},
		"zustand": {"createStore", "StoreApi.getState"},
	} {
		for _, q := range names {
			if _, ok := bySym[pkg][q]; !ok && bySym[pkg] != nil {
				t.Errorf("%s: symbol %s missing", pkg, q)
			}
		}
	}
}

func BenchmarkCorpusNodeModules(b *testing.B) {
	dir := corpusNodeModules(b)
	for b.Loop() {
		nm, refs := listTree(b, dir, NodeModulesConfig{})
		testutil.FetchEvery(b, nm, refs, nil)
	}
}
