package index

import (
	"slices"
	"strings"
	"testing"
)

// TestStemCache checks that the terms rank.idx's build counts a field's words under are the
// mapping's analyzer's, word for word, stop words dropped, the second time a word comes as the
// first, and that an analyzer without the Porter stemmer is left as it is.
func TestStemCache(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("Connections are pooled; the pool retries connecting, and connected clients retry. " +
		"HTTPServer read_file running runs ran generously generous. It is what it is, or not")
	text = append(append(text, ' '), strings.ToUpper(string(text))...)
	a, err := newRankAcc(im)
	if err != nil {
		t.Fatal(err)
	}
	termOf := map[*termAcc]string{}
	for _, f := range []string{fAll, fName} {
		i := slices.IndexFunc(fieldWeights, func(w fieldWeight) bool { return w.name == f })
		if c := a.caches[i]; c == nil || c.stop == nil {
			t.Fatalf("field %s: the analyzer's stop filter and stemmer were not taken off", f)
		}
		var want []string
		for _, tok := range im.AnalyzerNamed(im.AnalyzerNameForPath(f)).Analyze(text) {
			want = append(want, string(tok.Term))
		}
		for round := range 2 {
			var got []string
			for _, tok := range a.analyzers[i].Analyze(text) {
				acc := a.termOf(tok, i)
				if acc == nil {
					continue // a stop word
				}
				if termOf[acc] == "" {
					for term, ta := range a.terms {
						if ta == acc {
							termOf[acc] = term
						}
					}
				}
				got = append(got, termOf[acc])
			}
			if !slices.Equal(got, want) {
				t.Errorf("field %s, round %d: %q, want %q", f, round, got, want)
			}
		}
		if len(a.caches[i].words) == 0 {
			t.Errorf("field %s: no word was remembered", f)
		}
	}
	kw := im.AnalyzerNamed("keyword")
	if got, stop, stem := analysisTail(kw); got != kw || stop != nil || stem {
		t.Error("an analyzer without the stemmer changed")
	}
}
