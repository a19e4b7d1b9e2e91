package index

// ranksearch.go answers searches of the latest versions from rank.idx.

import (
	"bytes"
	"container/heap"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/docidx/docidx"
)

// Relevance model of the rank path, on top of each document's BM25F sum:
var (
	priorOverview   = 2.0
	priorReadme     = 1.5
	priorSuperseded = 0.6
	priorPackageDoc = 1.5
	priorMember     = 0.7
	// priorNamed multiplies the documents of an ecosystem the question names ("… in python").
	priorNamed = 1.5
	// exactBonus is added to the overview of a package whose name the question spells exactly
	// ("zod", "cobra", "github.com/spf13/cobra"): about one rare word's worth.
	exactBonus float32 = 10.0
	// coordPower shapes the coordination factor (m/n)^coordPower for a document holding m of
	// the question's n terms: the page that answers the whole question beats one that repeats
	// a single word of it.
	coordPower = 1.0
)

// rankSearch ranks the latest versions' documents for text under q's filters and returns the
// best window of them, re-ranked for diversity, and how many documents matched. A total of 0
// means no word of text is in the index as typed.
func (r *reader) rankSearch(text string, q Query, window int) (search.DocumentMatchCollection, int) {
	ri := r.rank
	keep := ri.filter(q)
	// The question's terms under both analyzers: prose words and identifier parts meet in one
	// dictionary.
	seen := map[string]bool{}
	var terms []string
	for _, f := range []string{fAll, fName} {
		for _, t := range r.terms(f, text) {
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
	}
	a := ri.acquire()
	defer ri.release(a)
	found := 0
	for _, t := range terms {
		i := ri.terms.find([]byte(t))
		if i < 0 {
			continue
		}
		found++
		idf := math.Float32frombits(binary.LittleEndian.Uint32(ri.idfs[4*i:]))
		if !ri.add(a, ri.postingsOf(ri.termOffs, i), idf, keep) {
			return nil, 0
		}
	}
	if found == 0 {
		return nil, 0
	}
	// Exact package names add to the overview only, and do not count as matched terms.
	exact := map[uint32]bool{}
	for _, w := range exactCandidates(text) {
		if i := ri.exact.find([]byte(w)); i >= 0 {
			forEachPosting(ri.postingsOf(ri.exactOffs, i), func(doc uint32, _ uint8) {
				if doc < uint32(ri.docs) && (keep == nil || keep(doc)) {
					exact[doc] = true
				}
			})
		}
	}

	// Per package and per kind multipliers, and the coordination factor per number of terms
	// matched, are computed once per search rather than once per document.
	pkgPrior := ri.packagePriors(text)
	var kindPrior [128]float32
	for k := range ri.nkinds {
		kindPrior[k] = float32(kindPriorOf(string(ri.kinds.at(k))))
	}
	coord := make([]float32, found+1)
	for m := range coord {
		coord[m] = float32(math.Pow(float64(m)/float64(found), coordPower))
	}
	top := &scoreHeap{}
	push := func(doc uint32, s float64) {
		if top.Len() < window {
			heap.Push(top, scored{doc, s})
		} else if s > (*top)[0].score {
			(*top)[0] = scored{doc, s}
			heap.Fix(top, 0)
		}
	}
	for _, doc := range a.touched {
		s := a.score[doc] * coord[min(int(a.matched[doc]), found)] * kindPrior[ri.docKind[doc]&0x7f] * pkgPrior[ri.pkgOf(doc)]
		if exact[doc] {
			s += exactBonus
			delete(exact, doc)
		}
		push(doc, float64(s))
	}
	total := len(a.touched)
	for doc := range exact { // an exact name whose overview holds none of the words
		push(doc, float64(exactBonus))
		total++
	}
	hits := make(search.DocumentMatchCollection, top.Len())
	for i := len(hits) - 1; i >= 0; i-- {
		s := heap.Pop(top).(scored)
		hits[i] = &search.DocumentMatch{ID: string(ri.ids.at(int(s.doc))), Score: s.score}
	}
	if packageSupport > 0 {
		support := map[string]float64{}
		best := map[string]float64{}
		for _, h := range hits {
			p := packageOfID(h.ID)
			support[p] += h.Score
			best[p] = max(best[p], h.Score)
		}
		for _, h := range hits {
			p := packageOfID(h.ID)
			if h.Score == best[p] {
				h.Score += packageSupport * (support[p] - best[p])
				best[p] = -1
			}
		}
	}
	return diversify(hits), total
}

var packageSupport = 0.0

// kindPriorOf is the standing of a document of a kind before any word of the question: a
// package's overview, README and package doc say what it is for; a constant or a property
// seldom answers a question by itself.
func kindPriorOf(kind string) float64 {
	switch kind {
	case "overview":
		return priorOverview
	case string(docidx.DocReadme):
		return priorReadme
	case string(docidx.KindPackage):
		return priorPackageDoc
	case string(docidx.KindConst), string(docidx.KindVar), string(docidx.KindProperty):
		return priorMember
	}
	return 1
}

// packagePriors returns each package's multiplier for text: an older major version of a Go
// module ("chi" beside "chi/v5") stands behind its successor, and the ecosystems text names
// ("… in python") stand before the others.
func (ri *rankIndex) packagePriors(text string) []float32 {
	named := ri.namedEcosystems(text)
	out := make([]float32, ri.npkgs)
	for p := range out {
		out[p] = 1
		if ri.superseded[p] {
			out[p] *= float32(priorSuperseded)
		}
		if named != nil && named[p] {
			out[p] *= float32(priorNamed)
		}
	}
	return out
}

// ecosystemWords are the words by which questions name an ecosystem ("parse yaml in python",
// "node cli framework"). "go" names Go only after in, for, with or using: alone it is a verb.
var ecosystemWords = map[string]docidx.Ecosystem{
	"golang": docidx.Go,
	"python": docidx.PyPI, "pypi": docidx.PyPI, "pip": docidx.PyPI,
	"node": docidx.NPM, "nodejs": docidx.NPM, "npm": docidx.NPM, "javascript": docidx.NPM,
	"typescript": docidx.NPM, "js": docidx.NPM, "ts": docidx.NPM,
	"rust": docidx.Cargo, "cargo": docidx.Cargo, "crate": docidx.Cargo,
	"swift": docidx.Swift, "swiftpm": docidx.Swift,
}

// namedEcosystems returns, per package, whether its ecosystem is named in text, or nil when
// text names none.
func (ri *rankIndex) namedEcosystems(text string) []bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	ecos := map[string]bool{}
	for i, w := range words {
		if eco, ok := ecosystemWords[w]; ok {
			ecos[string(eco)] = true
		} else if w == "go" && i > 0 && slices.Contains([]string{"in", "for", "with", "using"}, words[i-1]) {
			ecos[string(docidx.Go)] = true
		}
	}
	if len(ecos) == 0 || len(ecos) == len(docidx.Ecosystems) {
		return nil
	}
	out := make([]bool, ri.npkgs)
	for p := range out {
		eco, _, _ := bytes.Cut(ri.pkgKey(uint32(p)), []byte{0})
		out[p] = ecos[string(eco)]
	}
	return out
}

// filter returns the test a document must pass under q's ecosystem, package and kind filters,
// or nil when q has none.
func (ri *rankIndex) filter(q Query) func(doc uint32) bool {
	if q.Ecosystem == "" && q.Package == "" && q.Kind == "" {
		return nil
	}
	var pkgOK []bool
	if q.Ecosystem != "" || q.Package != "" {
		name := q.Package
		if q.Ecosystem != "" && name != "" {
			name = docidx.NormalizeName(q.Ecosystem, name)
		}
		pkgOK = make([]bool, ri.npkgs)
		for p := range pkgOK {
			eco, pkg, _ := bytes.Cut(ri.pkgKey(uint32(p)), []byte{0})
			pkgOK[p] = (q.Ecosystem == "" || string(eco) == string(q.Ecosystem)) && (name == "" || string(pkg) == name)
		}
	}
	kind := []byte(q.Kind)
	return func(doc uint32) bool {
		if pkgOK != nil && !pkgOK[ri.pkgOf(doc)] {
			return false
		}
		switch q.Kind {
		case "":
			return true
		case string(docidx.HitSymbol):
			return ri.isSymbol(doc)
		case string(docidx.HitSection):
			return !ri.isSymbol(doc)
		default:
			return bytes.Equal(ri.kindOf(doc), kind)
		}
	}
}

// forEachPosting calls fn for every (document, impact) of an encoded postings list.
func forEachPosting(list []byte, fn func(doc uint32, impact uint8)) {
	doc, first := uint32(0), true
	for len(list) > 0 {
		gap, n := binary.Uvarint(list)
		if n <= 0 || n >= len(list) {
			return
		}
		if first {
			doc, first = uint32(gap), false
		} else {
			doc += uint32(gap)
		}
		fn(doc, list[n])
		list = list[n+1:]
	}
}

type scored struct {
	doc   uint32
	score float64
}

// scoreHeap is a min-heap of scores: its root is the weakest of the best kept so far. Ties
// keep the lower document number, so results do not depend on the order documents were seen.
type scoreHeap []scored

func (h scoreHeap) Len() int { return len(h) }
func (h scoreHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].doc > h[j].doc
}
func (h scoreHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *scoreHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *scoreHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
