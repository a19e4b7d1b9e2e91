package index

// stemcache.go memoizes the Porter stemmer for the analysis of a segment's texts: rank.idx
// analyses every field of every document (rankAcc.add), and stemming a word is a fifth of that
// analysis, while documentation repeats a few thousand words over and over. What a word comes
// to is remembered as the accumulator of its stem's term, or as a stop word (rankAcc.termOf), so
// that a word seen before costs one lookup, not one in the stop words, one in the stems and one
// in the terms.

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
)

// maxStems bounds the words a rankAcc remembers the stems of: enough for the vocabulary of a
// segment's prose, and a bound on its memory (about 48 bytes a word) for a segment of odd texts.
const maxStems = 1 << 16

// analysisTail returns a copy of a without the filters that end it and that termOf applies
// itself, and those filters: bleve's Porter stemmer (stemmer_porter) when it is a's last token
// filter, and a stop filter just before it. For any other analyzer it returns a, nil and false.
func analysisTail(a analysis.Analyzer) (head analysis.Analyzer, stopFilter analysis.TokenFilter, stem bool) {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) == 0 {
		return a, nil, false
	}
	last := len(d.TokenFilters) - 1
	if _, ok := d.TokenFilters[last].(*porter.PorterStemmer); !ok {
		return a, nil, false
	}
	if last > 0 {
		if f, ok := d.TokenFilters[last-1].(*stop.StopTokensFilter); ok {
			stopFilter, last = f, last-1
		}
	}
	cp := *d
	cp.TokenFilters = d.TokenFilters[:last:last]
	return &cp, stopFilter, true
}

// stopWord stands in wordCache for a word the stop filter drops.
var stopWord = new(termAcc)

// wordCache remembers what termOf made of the words of the fields whose analyzers end with the
// same filters (analysisTail): the accumulator of each word's stem, or stopWord.
type wordCache struct {
	stop  analysis.TokenFilter // nil for none
	words map[string]*termAcc
}

// termOf returns the accumulator of the term tok of field (an index into fieldWeights) stands
// for, made when new, as the analyzer's filters that analysisTail took off would give it: nil
// when its stop filter drops tok, else its stem (unless tok is a keyword). A word seen before
// costs one lookup, not a lookup of its stop word, of its stem and then of the stem's term.
func (a *rankAcc) termOf(tok *analysis.Token, field int) *termAcc {
	c := a.caches[field]
	if c == nil {
		return a.term(tok.Term)
	}
	if !tok.KeyWord {
		if t, ok := c.words[string(tok.Term)]; ok {
			if t == stopWord {
				return nil
			}
			return t
		}
	}
	word := string(tok.Term)
	a.one[0] = tok
	in := a.one[:]
	if c.stop != nil {
		in = c.stop.Filter(in)
	}
	t := stopWord
	if len(in) > 0 {
		if !tok.KeyWord {
			a.stemmer.Filter(in)
		}
		t = a.term(tok.Term)
	}
	a.one[0] = nil
	if !tok.KeyWord && len(c.words) < maxStems {
		c.words[word] = t
	}
	if t == stopWord {
		return nil
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
