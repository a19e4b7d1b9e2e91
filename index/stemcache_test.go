package index

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// TestStemCache checks that the rank index's analyzers with the stem cache give the same terms
// as the mapping's, word for word, the second time a word comes as the first, and that an
// analyzer without the Porter stemmer is left as it is.
func TestStemCache(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	text := "Connections are pooled; the pool retries connecting, and connected clients retry. " +
		"HTTPServer read_file running runs ran generously generous"
	terms := func(a analysis.Analyzer) []string {
		var out []string
		for _, tok := range a.Analyze([]byte(text + " " + strings.ToUpper(text))) {
			out = append(out, string(tok.Term))
		}
		return out
	}
	cache := &stemCache{stemmer: porter.NewPorterStemmer(), stems: map[string][]byte{}}
	for _, f := range []string{fAll, fName} {
		plain := im.AnalyzerNamed(im.AnalyzerNameForPath(f))
		cached := withStemCache(plain, cache)
		if cached == plain {
			t.Fatalf("field %s: the analyzer did not take the stem cache", f)
		}
		want := terms(plain)
		for round := range 2 {
			if got := terms(cached); !slices.Equal(got, want) {
				t.Errorf("field %s, round %d: %q, want %q", f, round, got, want)
			}
		}
	}
	if len(cache.stems) == 0 {
		t.Error("the cache remembered no stem")
	}
	kw := im.AnalyzerNamed("keyword")
	if withStemCache(kw, cache) != kw {
		t.Error("an analyzer without the stemmer changed")
	}
}
