package index

// stemcache.go memoizes the Porter stemmer for the analysis of a segment's texts: rank.idx
// analyses every field of every document (rankAcc.add), and stemming a word is a fifth of that
// analysis, while documentation repeats a few thousand words over and over.

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// maxStems bounds the words a stemCache remembers: enough for the vocabulary of a segment's
// prose, and a bound on its memory (about 64 bytes a word) for a segment of odd texts.
const maxStems = 1 << 16

// stemCache is a Porter stemmer (bleve's stemmer_porter) that remembers the stems of the
// words it has stemmed. It gives the same terms as the stemmer it stands for; it is not safe
// for concurrent use.
type stemCache struct {
	stemmer *porter.PorterStemmer
	stems   map[string][]byte
	one     [1]*analysis.Token
}

// Filter stems the tokens of input that are not keywords, as porter.PorterStemmer.Filter does.
// A token's term may share its storage with other tokens' terms: the stem is the last filter
// of the analyzers it stands in.
func (c *stemCache) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, tok := range input {
		if tok.KeyWord {
			continue
		}
		if stem, ok := c.stems[string(tok.Term)]; ok {
			tok.Term = stem
			continue
		}
		word := string(tok.Term)
		c.one[0] = tok
		c.stemmer.Filter(c.one[:])
		if len(c.stems) < maxStems {
			c.stems[word] = tok.Term
		}
	}
	c.one[0] = nil
	return input
}

// withStemCache returns a, or when a is an analysis.DefaultAnalyzer whose last token filter is
// bleve's Porter stemmer, a copy of it that stems through cache.
func withStemCache(a analysis.Analyzer, cache *stemCache) analysis.Analyzer {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) == 0 {
		return a
	}
	last := len(d.TokenFilters) - 1
	if _, ok := d.TokenFilters[last].(*porter.PorterStemmer); !ok {
		return a
	}
	cp := *d
	cp.TokenFilters = append([]analysis.TokenFilter(nil), d.TokenFilters...)
	cp.TokenFilters[last] = cache
	return &cp
}
