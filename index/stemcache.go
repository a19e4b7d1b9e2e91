package index

// stemcache.go memoizes the Porter stemmer for the analysis of a segment's texts: rank.idx
// analyses every field of every document (rankAcc.add), and stemming a word is a fifth of that
// analysis, while documentation repeats a few thousand words over and over. A word's stem is
// remembered as the accumulator of its term (rankAcc.termOf), so that a word seen before costs
// one lookup, not a lookup of its stem and then one of the stem's term.

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// maxStems bounds the words a rankAcc remembers the stems of: enough for the vocabulary of a
// segment's prose, and a bound on its memory (about 48 bytes a word) for a segment of odd texts.
const maxStems = 1 << 16

// withoutStemmer returns a copy of a without its last token filter, and true, when a is an
// analysis.DefaultAnalyzer whose last token filter is bleve's Porter stemmer (stemmer_porter);
// else a and false. The caller stems what the copy's tokens give (see rankAcc.termOf).
func withoutStemmer(a analysis.Analyzer) (analysis.Analyzer, bool) {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) == 0 {
		return a, false
	}
	last := len(d.TokenFilters) - 1
	if _, ok := d.TokenFilters[last].(*porter.PorterStemmer); !ok {
		return a, false
	}
	cp := *d
	cp.TokenFilters = d.TokenFilters[:last:last]
	return &cp, true
}

// termOf returns the accumulator of the term tok stands for, made when new: its stem when stem
// says its analyzer ends with the Porter stemmer (withoutStemmer) and tok is not a keyword, as
// the stemmer would give it, else its term as it is.
func (a *rankAcc) termOf(tok *analysis.Token, stem bool) *termAcc {
	if !stem || tok.KeyWord {
		return a.term(tok.Term)
	}
	if t, ok := a.byWord[string(tok.Term)]; ok {
		return t
	}
	word := string(tok.Term)
	a.one[0] = tok
	a.stemmer.Filter(a.one[:])
	a.one[0] = nil
	t := a.term(tok.Term)
	if len(a.byWord) < maxStems {
		a.byWord[word] = t
	}
	return t
}

// term returns the accumulator of term, made when new.
func (a *rankAcc) term(term []byte) *termAcc {
	t := a.terms[string(term)]
	if t == nil {
		if len(a.slab) == 0 {
			a.slab = make([]termAcc, termSlab)
		}
		t, a.slab = &a.slab[0], a.slab[1:]
		a.terms[string(term)] = t
	}
	return t
}
