package index

import (
	"slices"
	"strings"
	"testing"
)

// TestStemCache checks that the terms rank.idx's build counts a field's words under are the
// mapping's analyzer's, word for word, the second time a word comes as the first, and that an
// analyzer without the Porter stemmer is left as it is.
func TestStemCache(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	text := []byte("Connections are pooled; the pool retries connecting, and connected clients retry. " +
		"HTTPServer read_file running runs ran generously generous")
	text = append(append(text, ' '), strings.ToUpper(string(text))...)
	a, err := newRankAcc(im)
	if err != nil {
		t.Fatal(err)
	}
	termOf := map[*termAcc]string{}
	for _, f := range []string{fAll, fName} {
		i := slices.IndexFunc(fieldWeights, func(w fieldWeight) bool { return w.name == f })
		if !a.stem[i] {
			t.Fatalf("field %s: the analyzer's stemmer was not taken off", f)
		}
		var want []string
		for _, tok := range im.AnalyzerNamed(im.AnalyzerNameForPath(f)).Analyze(text) {
			want = append(want, string(tok.Term))
		}
		for round := range 2 {
			var got []string
			for _, tok := range a.analyzers[i].Analyze(text) {
				acc := a.termOf(tok, a.stem[i])
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
	}
	if len(a.byWord) == 0 {
		t.Error("no stem was remembered")
	}
	kw := im.AnalyzerNamed("keyword")
	if got, stem := withoutStemmer(kw); got != kw || stem {
		t.Error("an analyzer without the stemmer changed")
	}
}
