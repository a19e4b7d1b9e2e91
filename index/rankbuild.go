package index

// rankbuild.go builds a segment's ranking index from its search documents as they are put, with
// Bleve's analyzers but not through a Bleve index: each field is analysed once, here, and
// search.bleve keeps only the stored fields (see storedValuesOf). Terms, frequencies and field
// lengths are what Bleve's postings would hold (a field's length is its number of tokens, its
// norm 1/sqrt(length) rounded to float32, as zapx stores it), so the scores are those of a rank
// index derived from a Bleve index of the same documents.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/vellum"

	"github.com/docidx/docidx"
)

// termAcc is what a segment's build knows of one term: its postings so far, in the order
// documents were added, as (uvarint document gap, u8 impact) pairs, and how many documents
// hold it in the fields typos are corrected from (see fuzzyFields).
type termAcc struct {
	postings []byte
	wtf      float64
	last     uint32 // the document of the last posting
	df       uint32
	fuzzy    [len(fuzzyFields)]uint32

	// What the document being added holds of the term: its weighted frequency (BM25F, wtf)
	// over the fields so far, and its frequency in the field being read; valid while docStamp
	// and fieldStamp are rankAcc.stamp (and fieldIndex the field's). 64 bytes in all: a
	// segment's build holds one per distinct word of its documents.
	docStamp, fieldStamp uint32
	freq                 uint32
	fieldIndex           uint8
}

// termSlab is how many term accumulators a build allocates at once.
const termSlab = 4096

// fuzzyFields are the fields whose dictionaries spelling corrections come from (reader's
// corrections), each with the number of documents holding each term, written to rank.idx as
// finite state transducers (vellum, as Bleve's own dictionaries).
var fuzzyFields = [...]string{fAll, fName}

// fuzzySections are the rank.idx sections of fuzzyFields' dictionaries, in the same order.
var fuzzySections = [...]string{secFuzzAll, secFuzzName}

// rankAcc accumulates a segment's ranking index, one search document at a time.
type rankAcc struct {
	analyzers []analysis.Analyzer // per field of fieldWeights, without the filters termOf applies
	caches    []*wordCache        // per field of fieldWeights, for termOf; nil: no filter taken off
	ids       []string            // per document added, its ID
	docPkg    []uint32
	docKind   []uint8
	undoc     []uint64
	symName   map[uint32]string // symbol document -> its own name as written (ownName)
	pkgs      []string
	pkgOrd    map[string]uint32
	kinds     []string
	kindOrd   map[string]uint8
	terms     map[string]*termAcc
	exact     map[string][]uint32
	stemmer   *porter.PorterStemmer
	one       [1]*analysis.Token // the token being stemmed

	slab  []termAcc  // term accumulators not yet used
	stamp uint32     // the number of documents added, marking their terms in termAcc
	order []*termAcc // the terms of the document being added, in first-seen order
	field []*termAcc // the terms of the field being read, in first-seen order
	arena tokenArena // the tokens of the field being read
	text  []byte     // the text of the field being read
}

// newRankAcc returns an empty accumulator analysing with im's analyzers.
func newRankAcc(im mapping.IndexMapping) (*rankAcc, error) {
	a := &rankAcc{
		analyzers: make([]analysis.Analyzer, len(fieldWeights)),
		caches:    make([]*wordCache, len(fieldWeights)),
		stemmer:   porter.NewPorterStemmer(),
		symName:   map[uint32]string{},
		pkgOrd:    map[string]uint32{},
		kindOrd:   map[string]uint8{},
		terms:     map[string]*termAcc{},
		exact:     map[string][]uint32{},
	}
	for i, f := range fieldWeights {
		an := im.AnalyzerNamed(im.AnalyzerNameForPath(f.name))
		if an == nil {
			return nil, fmt.Errorf("index: no analyzer for field %s", f.name)
		}
		var stop analysis.TokenFilter
		var stem bool
		a.analyzers[i], stop, stem = analysisTail(withTokenArena(an, &a.arena))
		if !stem {
			continue
		}
		// Fields whose analyzers end alike share a cache.
		for _, c := range a.caches[:i] {
			if c != nil && c.stop == stop {
				a.caches[i] = c
			}
		}
		if a.caches[i] == nil {
			a.caches[i] = &wordCache{stop: stop, words: map[string]*termAcc{}}
		}
	}
	return a, nil
}

// add adds a search document as the next document of the segment. Documents may come in any
// order; build numbers them in ID order.
func (a *rankAcc) add(sd *searchDoc) error {
	if len(a.ids) >= math.MaxUint32 {
		return fmt.Errorf("index: more than %d documents in a segment", uint32(math.MaxUint32))
	}
	doc := uint32(len(a.ids))
	a.ids = append(a.ids, sd.id)
	str := func(name string) string { s, _ := sd.fields[name].(string); return s }

	key := str(fEco) + "\x00" + str(fPkg) + "\x00" + str(fVersion)
	p, ok := a.pkgOrd[key]
	if !ok {
		p = uint32(len(a.pkgs))
		a.pkgOrd[key] = p
		a.pkgs = append(a.pkgs, key)
	}
	a.docPkg = append(a.docPkg, p)
	kind := str(fKind)
	k, ok := a.kindOrd[kind]
	if !ok {
		if len(a.kinds) >= 127 {
			return fmt.Errorf("index: more than 127 document kinds")
		}
		k = uint8(len(a.kinds))
		a.kindOrd[kind] = k
		a.kinds = append(a.kinds, kind)
	}
	if str(fHit) == string(docidx.HitSymbol) {
		k |= 0x80
		if name := ownName(str(fSTitle)); name != "" { // the qualified name
			a.symName[doc] = name
		}
	}
	a.docKind = append(a.docKind, k)
	if int(doc/64) >= len(a.undoc) {
		a.undoc = append(a.undoc, 0)
	}
	if str(fUndoc) == undocumented {
		a.undoc[doc/64] |= 1 << (doc % 64)
	}
	if names, ok := sd.fields[fPkgExact].([]string); ok {
		for i, n := range names {
			if !slices.Contains(names[:i], n) {
				a.exact[n] = append(a.exact[n], doc)
			}
		}
	}

	// BM25F: each field's frequency of a term, weighted and normalized by the field's length,
	// summed over the fields in fieldWeights' order (the order of the sum is part of the score).
	a.stamp++ // marks what this document's fields touched; never 0
	a.order = a.order[:0]
	for i, f := range fieldWeights {
		text := str(f.name)
		if text == "" {
			continue
		}
		a.arena.reset()
		a.text = append(a.text[:0], text...)
		tokens := a.analyzers[i].Analyze(a.text)
		if len(tokens) == 0 {
			continue
		}
		a.field = a.field[:0]
		length := 0 // the field's tokens but its stop words
		for _, tok := range tokens {
			t := a.termOf(tok, i)
			if t == nil {
				continue
			}
			length++
			if t.fieldStamp != a.stamp || t.fieldIndex != uint8(i) {
				t.fieldStamp, t.fieldIndex, t.freq = a.stamp, uint8(i), 0
				a.field = append(a.field, t)
			}
			t.freq++
		}
		if length == 0 {
			continue
		}
		fieldNorm := float64(float32(1.0 / math.Sqrt(float64(length))))
		normLength := 1 / (fieldNorm * fieldNorm)
		norm := 1 - f.b + f.b*normLength/f.pivot
		fuzzy := slices.Index(fuzzyFields[:], f.name)
		for _, t := range a.field {
			if fuzzy >= 0 {
				t.fuzzy[fuzzy]++
			}
			if t.docStamp != a.stamp {
				t.docStamp, t.wtf = a.stamp, 0
				a.order = append(a.order, t)
			}
			t.wtf += f.weight * float64(t.freq) / norm
		}
	}
	for _, t := range a.order {
		gap := doc - t.last
		if t.df == 0 {
			gap = doc
		}
		t.postings = binary.AppendUvarint(t.postings, uint64(gap))
		t.postings = append(t.postings, quantize(t.wtf/(rankK1+t.wtf)))
		t.last = doc
		t.df++
	}
	return nil
}

// build numbers the documents in ID order — a package version's documents are then together
// and in the same order in every segment that holds them, which rankIndex.order ranks equal
// scores by — and returns the rank builder that writes them. bleveNums maps each document ID to
// its number in the segment's search.bleve; nil leaves the numbers out, for a run that
// mergeRuns numbers.
func (a *rankAcc) build(bleveNums map[string]uint32) (*rankBuilder, error) {
	n := len(a.ids)
	byID := make([]uint32, n) // final number -> the number add gave
	for i := range byID {
		byID[i] = uint32(i)
	}
	slices.SortFunc(byID, func(x, y uint32) int { return strings.Compare(a.ids[x], a.ids[y]) })
	ord := make([]uint32, n) // the number add gave -> final number
	identity := true
	for final, added := range byID {
		ord[added] = uint32(final)
		identity = identity && added == uint32(final)
	}
	b := &rankBuilder{pkgs: a.pkgs, kinds: a.kinds, ids: make([]string, n)}
	b.docPkg = make([]uint32, n)
	b.docKind = make([]uint8, n)
	b.undoc = make([]uint64, (n+63)/64)
	for added, final := range ord {
		b.ids[final] = a.ids[added]
		b.docPkg[final] = a.docPkg[added]
		b.docKind[final] = a.docKind[added]
		if a.undoc[added/64]&(1<<(added%64)) != 0 {
			b.undoc[final/64] |= 1 << (final % 64)
		}
	}
	if bleveNums != nil {
		b.nums = make([]uint32, n)
		numsIdentity := true
		for d, id := range b.ids {
			num, ok := bleveNums[id]
			if !ok {
				return nil, fmt.Errorf("index: document %s is not in the search index", id)
			}
			b.nums[d] = num
			numsIdentity = numsIdentity && num == uint32(d)
		}
		if len(bleveNums) != n {
			return nil, fmt.Errorf("index: the search index holds %d documents, the ranking index %d", len(bleveNums), n)
		}
		if numsIdentity {
			b.nums = nil // the table says nothing
		}
	}
	b.pkgTerms = make([][][2]uint32, len(b.pkgs))

	// The symbol names' entries, then the words: "\x01…" sorts first.
	byName := map[string][]posting{}
	for added, name := range a.symName {
		p := posting{doc: ord[added], impact: 255}
		lower := strings.ToLower(name)
		byName[lower] = append(byName[lower], p)
		if name != lower {
			byName[name] = append(byName[name], p)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		list := byName[name]
		slices.SortFunc(list, func(x, y posting) int { return int(x.doc) - int(y.doc) })
		b.addTerm(symbolNamePrefix+name, list)
	}

	type entry struct {
		term string
		acc  *termAcc
	}
	terms := make([]entry, 0, len(a.terms))
	for term, t := range a.terms {
		terms = append(terms, entry{term, t})
	}
	slices.SortFunc(terms, func(x, y entry) int { return strings.Compare(x.term, y.term) })
	var list []posting
	// perPkg counts a term's documents in each package version; counted lists the versions
	// counted, in the order first met.
	perPkg := make([]uint32, len(b.pkgs))
	var counted []uint32
	for _, e := range terms {
		term, t := e.term, e.acc
		list = list[:0]
		doc := uint32(0)
		for i, buf := 0, t.postings; i < len(buf); {
			gap, k := binary.Uvarint(buf[i:])
			doc += uint32(gap)
			list = append(list, posting{doc: ord[doc], impact: buf[i+k]})
			i += k + 1
		}
		if !identity {
			slices.SortFunc(list, func(x, y posting) int { return int(x.doc) - int(y.doc) })
		}
		counted = counted[:0]
		for _, p := range list {
			pkg := b.docPkg[p.doc]
			if perPkg[pkg] == 0 {
				counted = append(counted, pkg)
			}
			perPkg[pkg]++
		}
		for _, p := range counted {
			b.pkgTerms[p] = append(b.pkgTerms[p], [2]uint32{uint32(b.nterms), perPkg[p]})
			perPkg[p] = 0
		}
		b.addTerm(term, list)
		t.postings = nil // what is written is held once
	}
	b.blockOffs = append(b.blockOffs, uint64(len(b.dict)))

	b.exact = slices.Sorted(maps.Keys(a.exact))
	for _, name := range b.exact {
		docs := a.exact[name]
		list = list[:0]
		for _, d := range docs {
			list = append(list, posting{doc: ord[d], impact: 255})
		}
		slices.SortFunc(list, func(x, y posting) int { return int(x.doc) - int(y.doc) })
		b.exactOffs = append(b.exactOffs, uint64(len(b.postings)))
		b.appendPostings(list)
	}
	b.exactOffs = append(b.exactOffs, uint64(len(b.postings)))

	for i := range fuzzyFields {
		var buf bytes.Buffer
		fst, err := vellum.New(&buf, nil)
		if err != nil {
			return nil, err
		}
		for _, e := range terms {
			if n := e.acc.fuzzy[i]; n > 0 {
				if err := fst.Insert([]byte(e.term), uint64(n)); err != nil {
					return nil, fmt.Errorf("index: spelling dictionary: %w", err)
				}
			}
		}
		if err := fst.Close(); err != nil {
			return nil, fmt.Errorf("index: spelling dictionary: %w", err)
		}
		b.fuzzy[i] = buf.Bytes()
	}
	return b, nil
}

// eachBleveNumber calls fn with the ID and the number in idx (a segment's search.bleve, of one
// zap segment) of each of its documents.
func eachBleveNumber(idx bleve.Index, fn func(id string, num uint32)) error {
	adv, err := idx.Advanced()
	if err != nil {
		return err
	}
	ir, err := adv.Reader()
	if err != nil {
		return err
	}
	defer ir.Close()
	dr, err := ir.DocIDReaderAll()
	if err != nil {
		return err
	}
	defer dr.Close()
	for {
		id, err := dr.Next()
		if err != nil {
			return err
		}
		if id == nil {
			return nil
		}
		if len(id) != 8 {
			return fmt.Errorf("index: unexpected Bleve internal ID %x: want scorch's 8-byte document numbers", []byte(id))
		}
		n := binary.BigEndian.Uint64(id)
		if n > math.MaxUint32 {
			return fmt.Errorf("index: Bleve document number %d does not fit in 32 bits", n)
		}
		ext, err := ir.ExternalID(id)
		if err != nil {
			return err
		}
		fn(ext, uint32(n))
	}
}
