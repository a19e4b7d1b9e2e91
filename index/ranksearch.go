package index

// ranksearch.go answers searches of the latest versions from rank.idx.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"maps"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	index "github.com/blevesearch/bleve_index_api"
	"github.com/blevesearch/vellum"
	lev "github.com/blevesearch/vellum/levenshtein"

	"github.com/docidx/docidx"
)

// rankSearch ranks the latest versions' documents for text under q's filters and returns the
// first need of the best window of them, re-ranked for diversity, those at the ranks (from 0)
// that records accepts with their stored fields read (the others with an empty record ID, for
// page to read), how many documents matched, and the idf of each question term found (for
// choosing passages). A total of 0 means no word of text is in the index, as typed or
// corrected. ri is r's rank index (see ranked).
func (r *reader) rankSearch(ri *rankIndex, text string, q Query, window, need int, records func(rank int) bool) ([]rankHit, int, map[string]float32) {
	keep := ri.filter(q)
	ecos, words := ecosystemsNamed(text)
	words = withDefaultCue(words)
	terms := r.searchTerms(ri.withoutVersions(words)) // question.go
	if len(terms) == 0 {
		// Nothing but the ecosystem's name is left to search ("python", "in Go", "node and
		// a"): the name is what the question is about.
		terms = r.questionTerms(text)
	}
	a := ri.acquire()
	defer ri.release(a)
	lists := ri.termLists(terms)
	if len(lists) == 0 {
		// No word is in the index as typed: take each at its likeliest correction
		// ("goroutnies": "goroutin"), as Bleve's fuzzy query does, and rank as usual.
		if lists = ri.termLists(r.corrections(terms)); len(lists) == 0 {
			return nil, 0, nil
		}
	}
	if !ri.accumulate(a, lists, keep) {
		return nil, 0, nil
	}
	// The other forms of the question's words (synonyms.go).
	alts, groups := r.alternatives(words, terms)
	found := ri.altLists(alts, groups, lists)
	altFound, ok := ri.accumulateAlternatives(a, found, groups, lists, keep)
	if !ok {
		return nil, 0, nil
	}
	// One search reads stored fields through one set of segment readers: the qualified names
	// directOf reads and the hits' records below.
	reads := &storedReads{r: r, ri: ri, readers: make([]index.IndexReader, len(ri.segs)), buf: a.stored}
	defer func() { a.stored = reads.close() }()
	owned := reads.directMembers(ri.ownedByName(words, r.wholeTerm), identifierOwners(words))
	names, namedPkgs, surePkgs := ri.questionPackages(r, text, words, ecos, owned, keep)
	if !ri.exactNamed(a, lists, found, groups, namedPkgs, keep) {
		return nil, 0, nil
	}
	bonus := ri.nameBonuses(reads, text, words, owned, namedPkgs, keep)
	pkgPrior, named := ri.packagePriors(ecos, namedPkgs, surePkgs, askedMajors(words))
	top, total := ri.best(a, bonus, len(lists)+altFound, pkgPrior, named, window)
	if q.Package == "" { // the search of one package: its documents are the whole window
		top = ri.thinCrowded(top, a.scores, a.touched, named, window)
	}
	ri.withinPackage(r, a, top, lists, words, names)
	named = ri.dominantPackage(top, named) // model.go
	ranked := ri.diversify(top, named, need)
	hits := make([]rankHit, len(ranked))
	for i, d := range ranked {
		hits[i].doc, hits[i].score = d.doc, d.score
		if !records(i) {
			continue
		}
		// A hit whose fields cannot be read keeps an empty ID: page reads it again, by its
		// rank.idx number, and reports the error.
		if err := reads.read(d.doc, &hits[i].rec); err != nil {
			hits[i].rec = hitRecord{}
		}
	}
	idf := make(map[string]float32, len(lists))
	for _, l := range lists {
		idf[l.term] = l.idf
	}
	return hits, total, idf
}

// maxExactNamed bounds the documents of the named packages that exactNamed scores again. 4,096
// and 8,192 left out go-redis (a set of questions kept outside the repository: one fact fewer
// anywhere and in the first 2 KB). 16,384 cost 4-8% of a search at N over 4,096, and 1-2% at
// 16N; with holds kept only for words with other forms, 0.96-1.01x of 4,096 without that.
const maxExactNamed = 16384

// exactNamed scores the documents of the packages the question names (named) with every word
// of the question and every other form of them (found, as altLists chose them for groups), as
// BM25 would score them without accumulate's bound: accumulate lets only the documents of the
// rarer words hold a score, and a named package's page that holds none of them was scored by
// few of its words or none ("range-parser hands me a plain number", whose README answers with
// "array" and "numbers", lost its words to the documents that say "plain" and "hands"). Each of
// their documents that keep accepts keeps the larger of the two scores (by matched words, then
// score). Only the named packages' parts of the lists are read: a list's skip table, when it
// has one, starts the reading at a package's first document. lists were read into a.lists by
// accumulate. It returns false on an unreadable or malformed list.
func (ri *rankIndex) exactNamed(a *accumulator, lists []termList, found []altList, groups [][]string, named []uint32, keep *docFilter) bool {
	ranges, ok := ri.pkgDocs()
	if !ok || len(named) == 0 {
		return true
	}
	n := 0
	for _, p := range named {
		n += int(ranges[p][1] - ranges[p][0])
	}
	if n > maxExactNamed {
		return true
	}
	for _, p := range named {
		lo, hi := ranges[p][0], ranges[p][1]
		if !keep.keepsIn(lo, hi) {
			continue
		}
		score := make([]float32, hi-lo)
		matched := make([]uint8, hi-lo)
		// holds has the documents of each list (from lo) whose word has other forms found.
		holds := make([][]uint32, len(lists))
		k := 0 // the list part in a.lists, as accumulate read them
		for i, l := range lists {
			scale := l.idf / 255
			formed := slices.ContainsFunc(found, func(f altList) bool { return slices.Contains(groups[f.group], l.term) })
			ok := ri.forEachIn(l, a.lists[k:k+len(l.parts)], lo, hi, func(doc uint32, impact uint8) {
				score[doc-lo] += scale * float32(impact)
				matched[doc-lo] = min(matched[doc-lo], math.MaxUint8-1) + 1
				if formed {
					holds[i] = append(holds[i], doc-lo)
				}
			})
			if !ok {
				return false
			}
			k += len(l.parts)
		}
		// A document counts a word's other forms once, and only when it lacks the word
		// (addForms).
		held := make([]bool, hi-lo)
		for j := 0; j < len(found); {
			g := found[j].group
			clear(held)
			for i, l := range lists {
				if slices.Contains(groups[g], l.term) {
					for _, d := range holds[i] {
						held[d] = true
					}
				}
			}
			for ; j < len(found) && found[j].group == g; j++ {
				l := found[j]
				scale := float32(altWeight) * l.idf / 255
				for _, part := range l.parts {
					list := ri.postings(part)
					if list == nil {
						return false
					}
					ok := ri.postingsIn(part, list, lo, hi, func(doc uint32, impact uint8) {
						if d := doc - lo; !held[d] {
							held[d] = true
							score[d] += scale * float32(impact)
							matched[d] = min(matched[d], math.MaxUint8-1) + 1
						}
					})
					if !ok {
						return false
					}
				}
			}
		}
		for d, m := range matched {
			doc := lo + uint32(d)
			old := a.matchedOf(doc)
			if m == 0 || old > m || old == m && a.scoreOf(doc) >= score[d] || !keep.keep(doc) {
				continue
			}
			pg := a.pages[doc>>accPageShift]
			if old == 0 {
				pg = a.touch(doc)
			}
			pg.matched[doc&accPageMask], pg.score[doc&accPageMask] = m, score[d]
		}
	}
	return true
}

// postingsIn calls fn for the postings of part (its list read into list) whose documents,
// numbered over the snapshot, are in [lo, hi), in document order, and reports whether they
// were well formed. A sparse list is read from the run of its skip table (skipsOf) that may
// hold lo, when it has one, and no further than hi; a dense one by the words of its bitmap
// that hold [lo, hi), its impacts counted from its rank directory.
func (ri *rankIndex) postingsIn(part termPart, list []byte, lo, hi uint32, fn func(doc uint32, impact uint8)) bool {
	base, docs := ri.docBase[part.seg], uint32(ri.segs[part.seg].docs)
	if base+docs <= lo || base >= hi {
		return true
	}
	from, to := max(lo, base)-base, min(hi-base, docs) // [from, to) in the segment
	if part.list.dense {
		nw, nr := denseWords(int(docs)), denseRanks(int(docs))
		if len(list) < 8*nw+4*nr {
			return false
		}
		le := binary.LittleEndian
		words, ranks, impacts := list[:8*nw], list[8*nw:8*nw+4*nr], list[8*nw+4*nr:]
		w := int(from / 64)
		first := w - w%denseRankWords
		r := int(le.Uint32(ranks[4*(first/denseRankWords):])) // the impacts before word w
		for j := first; j < w; j++ {
			r += bits.OnesCount64(le.Uint64(words[8*j:]))
		}
		for ; w < nw && uint32(64*w) < to; w++ {
			word := le.Uint64(words[8*w:])
			for ; word != 0; word &= word - 1 {
				doc := uint32(64*w + bits.TrailingZeros64(word))
				if r >= len(impacts) {
					return false
				}
				if doc >= from && doc < to {
					fn(base+doc, impacts[r])
				}
				r++
			}
		}
		return true
	}
	i, doc := 0, uint32(0)
	if runs := ri.skipsOf(part, list); runs != nil {
		r := sort.Search(len(runs), func(r int) bool { return runLast(runs, r, docs) >= from })
		if r == len(runs) {
			return true
		}
		i, doc = int(runs[r].off), runs[r].prev
	}
	for i < len(list)-1 {
		var impact uint8
		var ok bool
		if doc, impact, i, ok = nextPosting(list, i, doc); !ok || doc >= docs {
			return false
		}
		if doc >= to {
			return true
		}
		if doc >= from {
			fn(base+doc, impact)
		}
	}
	return true
}

// rankHit is a hit of rankSearch: its rank.idx document, its score and what it is made of.
type rankHit struct {
	doc   uint32
	score float64
	rec   hitRecord // its id "" when the stored fields could not be read
}

// storedReads reads the stored fields of one search's documents (storedHit): each segment's
// reader is opened on first use and kept until close, and buf is reused from read to read.
type storedReads struct {
	r       *reader
	ri      *rankIndex // r's rank index
	readers []index.IndexReader
	buf     []byte
}

// read reads the ID and stored fields of document doc (numbered over the snapshot) into rec.
func (s *storedReads) read(doc uint32, rec *hitRecord) error {
	var err error
	s.buf, err = s.r.storedHit(s.ri, doc, s.readers, rec, s.buf)
	return err
}

// close closes the readers read opened and returns its scratch storage, for reuse.
func (s *storedReads) close() []byte {
	closeReaders(s.readers)
	return s.buf
}

// closeReaders closes the readers storedHit opened.
func closeReaders(readers []index.IndexReader) {
	for _, ir := range readers {
		if ir != nil {
			ir.Close()
		}
	}
}

// storedHit reads the ID and stored fields of document doc (numbered over the snapshot) into
// rec, from its segment's search.bleve, through readers[segment], opened on first use; the
// caller closes the readers. buf is scratch storage, returned for reuse. ri is r's rank index.
func (r *reader) storedHit(ri *rankIndex, doc uint32, readers []index.IndexReader, rec *hitRecord, buf []byte) ([]byte, error) {
	i, local := ri.segOf(doc)
	if readers[i] == nil {
		adv, err := r.segs[i].idx.Advanced()
		if err != nil {
			return buf, err
		}
		if readers[i], err = adv.Reader(); err != nil {
			return buf, err
		}
	}
	return ri.segs[i].storedHit(readers[i], local, rec, buf)
}

// corrections returns, for each of terms long enough to correct, the term of the latest
// versions' all or name field within the edit distance fuzzyQuery allows (1 for four to seven
// letters, 2 for longer) that the most documents hold.
func (r *reader) corrections(terms []string) []string {
	// Segments written since format 6 hold their dictionaries in rank.idx; older ones are
	// read from search.bleve.
	var fzs []index.IndexReaderFuzzy
	var own []*rankSegment
	for i, seg := range r.segs {
		if rs := r.rank.segs[i]; rs.hasFuzzy() {
			own = append(own, rs)
			continue
		}
		adv, err := seg.idx.Advanced()
		if err != nil {
			continue
		}
		ir, err := adv.Reader()
		if err != nil {
			continue
		}
		defer ir.Close()
		if fz, ok := ir.(index.IndexReaderFuzzy); ok {
			fzs = append(fzs, fz)
		}
	}
	var out []string
	for _, t := range terms {
		n := utf8.RuneCountInString(t)
		if n < 4 {
			continue
		}
		fuzziness := 1
		if n >= 8 {
			fuzziness = 2
		}
		// The counts of every segment's dictionary, summed: the most frequent correction over
		// the snapshot, as one index would find it.
		counts := map[string]uint64{}
		for _, fz := range fzs {
			for _, field := range fuzzyFields {
				d, err := fz.FieldDictFuzzy(field, t, fuzziness, "")
				if err != nil {
					continue
				}
				for de, err := d.Next(); err == nil && de != nil; de, err = d.Next() {
					counts[field+"\x00"+de.Term] += de.Count
				}
				d.Close()
			}
		}
		if len(own) > 0 {
			if a, err := levenshteinDFA(t, fuzziness); err == nil {
				for _, rs := range own {
					for i, field := range fuzzyFields {
						fst, err := rs.fuzzy(i)
						if err != nil {
							continue
						}
						it, err := fst.Search(a, nil, nil)
						for err == nil {
							term, n := it.Current()
							counts[field+"\x00"+string(term)] += n
							err = it.Next()
						}
					}
				}
			}
		}
		best, bestCount := "", uint64(0)
		for k, c := range counts {
			_, term, _ := strings.Cut(k, "\x00")
			if c > bestCount || c == bestCount && term < best {
				best, bestCount = term, c
			}
		}
		if best != "" {
			out = append(out, best)
		}
	}
	return out
}

// levenshteinBuilders build the automata of terms within edit distance 1 and 2, counting a
// transposition as one edit, as Bleve's fuzzy dictionaries do; they are made on first use (each
// takes some milliseconds to build).
var levenshteinBuilders = sync.OnceValues(func() ([2]*lev.LevenshteinAutomatonBuilder, error) {
	var lbs [2]*lev.LevenshteinAutomatonBuilder
	for i := range lbs {
		lb, err := lev.NewLevenshteinAutomatonBuilder(uint8(i+1), true)
		if err != nil {
			return lbs, err
		}
		lbs[i] = lb
	}
	return lbs, nil
})

// levenshteinDFA returns the automaton of the terms within fuzziness (1 or 2) edits of term.
func levenshteinDFA(term string, fuzziness int) (vellum.Automaton, error) {
	lbs, err := levenshteinBuilders()
	if err != nil {
		return nil, err
	}
	return lbs[fuzziness-1].BuildDfa(term, uint8(fuzziness))
}

// questionTerms returns the distinct terms of text under both analyzers: prose words and
// identifier parts meet in one dictionary.
func (r *reader) questionTerms(text string) []string {
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
	return terms
}

// wholeTerm returns the term the name field indexes a lower-cased identifier by: its stem as a
// whole ("envfilt" for "envfilter"; its parts are terms of their own), or ident itself when the
// analyzer leaves nothing.
func (r *reader) wholeTerm(ident string) string {
	if ts := r.terms(fName, ident); len(ts) > 0 {
		return ts[0]
	}
	return ident
}

// termLists looks terms up and returns those found, rarest first.
func (ri *rankIndex) termLists(terms []string) []termList {
	var lists []termList
	for _, t := range terms {
		if l, ok := ri.lookup(t); ok {
			lists = append(lists, l)
		}
	}
	slices.SortStableFunc(lists, func(a, b termList) int { return cmp.Compare(a.df, b.df) })
	return lists
}

// firstListRooms bounds, in accumulator limits, the documents the rarest list of a question
// adds whole: a longer one admits those of its highest impacts (admit), as a later list too long
// for the room left does. A question of common words ("web application routing", the mixes of
// BenchmarkStdioSearchVaried) otherwise scored every document of its rarest word, whose list
// grows with the snapshot: at 16 times the corpus that was most of such a search. With a single
// limit "web application with routing and templates in python" lost werkzeug from hit 1. 8
// limits (40,000 documents for a question of up to limitTerms terms) left the top ten of every
// labelled question as they were with none; so do 2 (10,000), over the 780 questions of
// testdata/answers, testdata/heldout, testdata/relevance and two sets kept outside the
// repository, while 154 of the 3,000 word mixes order their hits otherwise. Every document the
// first list adds is scored by every later list and then by best: at 16N, 2 limits took the
// varied mix's in-process search from 1.20-1.21 to 1.04-1.05 ms p50, and over stdio from
// 2.09-2.57 to 1.82-2.02 times N's (three rounds of 1,000), with N's unchanged.
const firstListRooms = 2

// accumulate adds the lists' scores into a, rarest first. The rarest adds its documents, at
// most firstListRooms limits of them whole. While fewer than the question's
// accumulatorLimitFor documents hold a score a list may add documents; after that the remaining
// (more common) terms only add to those: a document that holds none of the rarer words is seldom among the
// best, and not growing the set keeps a question of common words cheap (the "continue" strategy
// of Moffat and Zobel, "Self-indexing inverted files for fast text retrieval", TOIS 1996). A list
// too long for the room left fills it with its documents of the highest impact (admit), as
// impact-ordered evaluation admits the postings that can matter most (Anh and Moffat, "Pruned
// query evaluation using pre-computed impacts", SIGIR 2006): without it, the rarest word of a
// question took every place, and "get a value from JSON by path without unmarshalling" scored
// only documents that say "unmarshal", none of them gjson's README. A list of one document in 16
// of the snapshot or more (one that a snapshot of a single segment writes dense) admits none: its
// word is too common to choose documents by, and reading it whole would cost a question of
// common words the whole of its lists. A list adds documents in all its segments or in none, and
// whether it admits depends on its length in the snapshot, not in its segments, so the documents
// scored do not depend on how they fell into segments.
// It returns false on an unreadable list. The lists read stay in a.lists, in the order of lists
// and their parts, for accumulateAlternatives.
func (ri *rankIndex) accumulate(a *accumulator, lists []termList, keep *docFilter) bool {
	limit := accumulatorLimitFor(len(lists))
	k := 0 // the list part read
	for _, l := range lists {
		first := k
		for _, part := range l.parts {
			if k == len(a.lists) {
				a.lists = append(a.lists, nil)
			}
			if a.lists[k] = ri.postings(part); a.lists[k] == nil {
				return false
			}
			k++
		}
		// The rarest list always adds: whole when it is short enough (firstListRooms), else its
		// documents of the highest impacts.
		growAt := growNone
		switch {
		case len(a.touched) == 0 && l.df <= firstListRooms*limit || len(a.touched)+l.df <= limit:
			growAt = growAll
		case len(a.touched) == 0 || len(a.touched) < limit && !isDense(l.all, ri.docs):
			if !ri.admit(a, l, a.lists[first:k], keep, limit-len(a.touched)) {
				return false
			}
			continue
		}
		for j, part := range l.parts {
			buf := a.lists[first+j]
			var ok bool
			var runs []skipRun // a skip table only where it is read: adding to the held documents
			if growAt == growNone {
				runs = ri.skipsOf(part, buf)
			}
			switch {
			case part.list.dense:
				ok = ri.addDense(a, part.seg, buf, l.idf, keep, growAt == growAll)
			case runs != nil:
				ri.addHeld(a, part.seg, buf, runs, l.idf)
				ok = true
			default:
				ok = ri.add(a, part.seg, buf, l.idf, keep, growAt)
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// admit adds l, a list too long for the room left in a (bufs are its parts as read), as
// accumulate's floor asks: to every document a holds, as add does, and to those it does not
// hold yet (and keep accepts) of the highest impacts, at most room of them. Those are the ones
// of impact floor or more, floor the least impact at which they number at most room over all
// its parts (none when its highest impact alone has more). It reads the lists once: the
// postings of the documents not held wait in a.cands until the floor is known, and then are
// added in list order, as add would have added them. Only those at or above the floor so far
// wait (the floor only rises as more wait): of a list a hundred times the room, most postings
// fall below it and are dropped at once, and a run of its skip table whose highest impact is
// below the floor only adds to the documents held (addRunHeld). A part dense in its segment is
// read by admitDense (accumulate admits no list dense in the snapshot as a whole). It returns
// false on a malformed list.
func (ri *rankIndex) admit(a *accumulator, l termList, bufs [][]byte, keep *docFilter, room int) bool {
	ad := admission{cands: a.cands[:0], room: room, keep: keep}
	scale := l.idf / 255
	for j, part := range l.parts {
		base, docs := ri.docBase[part.seg], uint32(ri.segs[part.seg].docs)
		list := bufs[j]
		if part.list.dense {
			if !admitDense(a, &ad, list, base, docs, scale) {
				return false
			}
			continue
		}
		// The list is read in the runs of its skip table (skipsOf), passing over those that
		// hold no document a holds and no posting of impact floor or more, or whole.
		runs := ri.skipsOf(part, list)
		spans := runs
		if runs == nil {
			whole := [1]skipRun{{max: math.MaxUint8}}
			spans = whole[:]
		}
		for r, run := range spans {
			end := runEnd(spans, r, len(list))
			if runs != nil && int(run.max) < ad.floor {
				// No posting of the run can wait: it adds to the documents held, if any.
				if held := a.heldEnd(base+run.prev, base+runLast(runs, r, docs)); held != 0 {
					addRunHeld(a.pages, list[:end], run, base, held, scale)
				}
				continue
			}
			doc := run.prev
			var impact uint8
			i, ok := int(run.off), true
			for i < end-1 {
				if gap := list[i]; gap < 0x80 { // nextPosting, inlined as in add
					doc, impact, i = doc+uint32(gap), list[i+1], i+2
				} else if doc, impact, i, ok = nextPostingLong(list, i, doc); !ok {
					return false
				}
				if doc >= docs {
					return false
				}
				ad.posting(a, base+doc, impact, scale)
			}
			if runs == nil && i != len(list) {
				return false
			}
		}
	}
	a.cands = ad.cands
	for _, c := range ad.cands {
		if impact := uint8(c); int(impact) >= ad.floor {
			doc := uint32(c >> 8)
			p := a.touch(doc)
			p.matched[doc&accPageMask] = 1
			p.score[doc&accPageMask] += scale * float32(impact)
		}
	}
	return true
}

// admission is what admit has found of a list so far: the postings of documents not held that
// wait for the floor (document<<8 | impact, in list order), how many wait at each impact, and
// the floor, the least impact at which at most room of them wait (above of them).
type admission struct {
	hist         [math.MaxUint8 + 1]int
	cands        []uint64
	floor, above int
	room         int
	keep         *docFilter
}

// posting admits the posting of document g (over the snapshot) of impact, weighed by scale: to
// a document a holds it adds, as add does; one it does not hold waits (wait) when its impact
// reaches the floor so far. A call per posting, not written out in admit's two loops, did not
// show in BenchmarkCorpusAnswerSearch at 16N (three alternated runs each: p50 4.26-5.03 ms
// against 4.50-4.96 ms).
func (ad *admission) posting(a *accumulator, g uint32, impact uint8, scale float32) {
	p := a.pages[g>>accPageShift]
	m := p.matched[g&accPageMask]
	if m == 0 {
		if int(impact) >= ad.floor {
			ad.wait(g, impact)
		}
		return
	}
	if m < math.MaxUint8 {
		p.matched[g&accPageMask] = m + 1
	}
	p.score[g&accPageMask] += scale * float32(impact)
}

// wait keeps the posting of document g (over the snapshot), not held, of impact at least the
// floor, when keep accepts g, and raises the floor while more than room wait.
func (ad *admission) wait(g uint32, impact uint8) {
	if !ad.keep.keep(g) {
		return
	}
	ad.hist[impact]++
	ad.cands = append(ad.cands, uint64(g)<<8|uint64(impact))
	for ad.above++; ad.above > ad.room; ad.floor++ {
		ad.above -= ad.hist[ad.floor]
	}
}

// admitDense is admit's reading of a list dense in its segment (see appendDense), of docs
// documents numbered from base over the snapshot, weighed by scale, and reports whether it was
// well formed. It reads the list in place, a word of its bitmap (64 documents) at a time, and
// passes over a word that holds no document a holds when none of its impacts reaches the floor:
// its postings could add nothing.
func admitDense(a *accumulator, ad *admission, list []byte, base, docs uint32, scale float32) bool {
	nw, nr := denseWords(int(docs)), denseRanks(int(docs))
	if len(list) < 8*nw+4*nr {
		return false
	}
	words, impacts := list[:8*nw], list[8*nw+4*nr:]
	k := 0 // the impact of the word's first document
	for w := range nw {
		word := binary.LittleEndian.Uint64(words[8*w:])
		if word == 0 {
			continue
		}
		n := bits.OnesCount64(word)
		first := uint32(64 * w)
		if k+n > len(impacts) || docs-first < 64 && word>>(docs-first) != 0 {
			return false
		}
		if !a.holdsIn(base+first, base+min(first+63, docs-1)) && !reaches(impacts[k:k+n], ad.floor) {
			k += n
			continue
		}
		for ; word != 0; word &= word - 1 {
			g := base + first + uint32(bits.TrailingZeros64(word))
			impact := impacts[k]
			k++
			ad.posting(a, g, impact, scale)
		}
	}
	return k == len(impacts)
}

// reaches reports whether an impact of impacts is at least floor.
func reaches(impacts []byte, floor int) bool {
	for _, b := range impacts {
		if int(b) >= floor {
			return true
		}
	}
	return false
}

// forEach calls fn for every (document, impact) of l's lists, documents numbered over the
// snapshot, and reports whether the lists were read and well formed.
func (ri *rankIndex) forEach(l termList, fn func(doc uint32, impact uint8)) bool {
	for _, part := range l.parts {
		seg := ri.segs[part.seg]
		data := ri.postings(part)
		if data == nil {
			return false
		}
		base := ri.docBase[part.seg]
		in := func(doc uint32, impact uint8) {
			if int(doc) < seg.docs {
				fn(base+doc, impact)
			}
		}
		if part.list.dense {
			if !forEachDense(data, seg.docs, in) {
				return false
			}
		} else {
			forEachPosting(data, in)
		}
	}
	return true
}

// nameBonuses returns what text's names add to documents that keep accepts: exactBonus to the
// overview of a package text spells exactly, symbolBonus to the symbols named as an identifier
// of words, text without its ecosystem names ("useState hook": react.useState), ownedBonus
// instead to those it names with their owner's path (owned, see ownedByName), and symbolBonus to the
// members words name beside their owner (memberBonuses; reads.r.wholeTerm gives an identifier's
// term as the name field indexes it). Bonuses do not count as matched terms. A question that names
// packages (named, sorted) means their symbols by a bare name when they have one of that name:
// "in dayjs, … .month(12)" is dayjs's month, not chrono's or jiff's; and of those, the ones
// whose owner is a word of the question when there are such (directOf reads their qualified
// names through reads).
func (ri *rankIndex) nameBonuses(reads *storedReads, text, words string, owned map[string][]uint32, named []uint32, keep *docFilter) map[uint32]float32 {
	bonus := map[uint32]float32{}
	add := func(doc uint32, b float32) {
		if keep.keep(doc) {
			bonus[doc] = max(bonus[doc], b)
		}
	}
	for _, w := range exactCandidates(text) {
		// A package named w itself comes before those w is the last part of the name of:
		// "express" is express, not @types/express; "chi", named by no package, is
		// github.com/go-chi/chi/v5.
		var whole, part []uint32
		for i, seg := range ri.segs {
			if e := seg.exact.find([]byte(w)); e >= 0 {
				base := ri.docBase[i]
				forEachPosting(seg.exactPostings(e), func(doc uint32, _ uint8) {
					if int(doc) >= seg.docs {
						return
					}
					_, name, _ := strings.Cut(ri.pkgKey(ri.pkgOf(base+doc)), "\x00")
					if strings.EqualFold(name, w) {
						whole = append(whole, base+doc)
					} else {
						part = append(part, base+doc)
					}
				})
			}
		}
		if len(whole) == 0 {
			whole = part
		}
		for _, doc := range whole {
			add(doc, exactBonus)
		}
	}
	// A bare name's symbols whose owner is a word of the question are the ones meant ("MaxRetries
	// in go-redis options": Options', not ClusterOptions').
	plain := slices.Collect(maps.Keys(questionNames(words)))
	asWritten, possessed := namesAsWritten(words)
	ownersOf := identifierOwners(words)
	idents := make([]string, len(asWritten)) // identifierWords, without reading words again
	for k, w := range asWritten {
		idents[k] = strings.ToLower(w)
	}
	// A name written in a Rust path ("std::process::exit") is a crate's: its bonuses go to
	// Rust's symbols only, not to @types/node's NodeJS.Process.exit.
	rust := rustPathNames(words)
	addRust := func(doc uint32, b float32) {
		if strings.HasPrefix(ri.pkgKey(ri.pkgOf(doc)), string(docidx.Cargo)+"\x00") {
			add(doc, b)
		}
	}
	for k, written := range asWritten {
		name := idents[k]
		add := add
		if rust[name] {
			add = addRust
		}
		spelled := ri.spelledAs(written, name)
		if docs := spelled.of(owned[name]); len(docs) > 0 {
			for _, doc := range docs {
				add(doc, ownedBonus)
			}
			continue
		}
		// A name written as a member ("Cargo.toml") is not a package's root.
		member := len(ownersOf[name]) > 0
		addName := func(doc uint32, b float32) {
			if !member || !ri.isPackageRoot(doc, name) {
				add(doc, b)
			}
		}
		if l, ok := ri.lookup(symbolNamePrefix + name); ok {
			var ofNamed []uint32
			var few fewPackages
			if len(named) > 0 {
				ri.forEach(l, func(doc uint32, _ uint8) {
					p := ri.pkgOf(doc)
					if _, in := slices.BinarySearch(named, p); in {
						ofNamed = append(ofNamed, doc)
					}
					few.add(ri.pkgKey(p))
				})
			}
			// A question that names packages, none of which has a symbol of the name, means
			// another package's symbol only when the name is nearly its own: "camelCase keys"
			// of "protojson.Marshal gives me camelCase keys" is a word, not type-fest's type.
			if len(ofNamed) == 0 && (len(named) == 0 || !few.more) {
				var all []uint32 // ascending, as forEach walks the segments in order
				ri.forEach(l, func(doc uint32, _ uint8) { all = append(all, doc) })
				for _, doc := range ri.freeFirst(reads.directOf(spelled.of(all), name, plain), member) {
					addName(doc, symbolBonus)
				}
			}
			for _, doc := range ri.freeFirst(reads.directOf(spelled.of(ofNamed), name, plain), member) {
				addName(doc, symbolBonus)
			}
		}
	}
	// Names the question says as words, of the packages it names: "clap default value" is
	// Arg::default_value, not its default_values or default_missing_value (see wordNames).
	if len(named) > 0 {
		spelledNames := map[string]bool{}
		for _, n := range idents {
			spelledNames[n] = true
		}
		for _, name := range wordNames(words) {
			if spelledNames[name] {
				continue
			}
			spelledNames[name] = true
			if l, ok := ri.lookup(symbolNamePrefix + name); ok {
				ri.forEach(l, func(doc uint32, _ uint8) {
					if _, in := slices.BinarySearch(named, ri.pkgOf(doc)); in {
						add(doc, wordsBonus)
					}
				})
			}
		}
	}
	// Only a type or a package owns members: "reserve on a BytesMut", "prompt_toolkit" and its
	// PromptSession, not "write my dict" beside yaml.dump().
	var owners, rustOwners []string
	for k, w := range asWritten {
		if isPascal(w) && !possessed[k] || len(ri.packagesNamed(idents[k])) > 0 || len(ri.aliasOf(idents[k])) > 0 {
			if rust[idents[k]] {
				rustOwners = append(rustOwners, idents[k])
			} else {
				owners = append(owners, idents[k])
			}
		}
	}
	ri.memberBonuses(owners, words, reads.r.wholeTerm, add)
	ri.memberBonuses(rustOwners, words, reads.r.wholeTerm, addRust)
	return bonus
}

// wordNames returns the names a question says as words: each run of two or three adjacent
// plain words (lower-case letters and digits, none a word passages leave out, not across
// punctuation) joined with "_" and with nothing, as a developer says an identifier aloud:
// "default value" is default_value or defaultValue, "max header size" max_header_size (the
// dictionary holds symbol names lowercased, see symbolNamePrefix).
func wordNames(words string) []string {
	var out, run []string
	for _, f := range strings.Fields(words) {
		w := strings.ToLower(f)
		trimmed := strings.TrimRight(w, ".,;:!?)\"'")
		if !plainWord(trimmed) || passageStopWords[trimmed] {
			run = run[:0]
			continue
		}
		run = append(run, trimmed)
		for n := 2; n <= 3 && n <= len(run); n++ {
			part := run[len(run)-n:]
			out = append(out, strings.Join(part, "_"), strings.Join(part, ""))
		}
		if trimmed != w {
			run = run[:0]
		}
	}
	return out
}

// plainWord reports whether w is a word of at least two lower-case ASCII letters and digits
// that starts with a letter.
func plainWord(w string) bool {
	if len(w) < 2 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// freeFirst returns, of docs (the symbols a name names), those that are not methods when some
// are and the question wrote the name without an owner (member false): code calls a method
// with its receiver and a free function by its bare name, so "tokio spawn_blocking" is
// tokio::task::spawn_blocking, not Runtime's or Builder's method of that name. Otherwise it
// returns docs.
func (ri *rankIndex) freeFirst(docs []uint32, member bool) []uint32 {
	if member || len(docs) < 2 {
		return docs
	}
	method := string(docidx.KindMethod)
	var free []uint32
	methods := 0
	for _, doc := range docs {
		if ri.kindOf(doc) == method {
			methods++
		} else {
			free = append(free, doc)
		}
	}
	if methods == 0 || len(free) == 0 {
		return docs
	}
	return free
}

// spelling restricts the symbols of a name to those spelled as a question writes it (see
// rankIndex.spelledAs); nil restricts nothing.
type spelling struct {
	ri   *rankIndex
	name string // the name lowercased
	// lists are the symbols whose name is spelled as written or, for a name written in lower
	// case (lower), those whose name has capitals, which it leaves out.
	lists []termList
	lower bool
}

// spelledAs returns the spelling of a name as written (name is it lowercased): for a name
// written with capitals, the symbols that write it so when there are such ("tower::Layer" is
// the trait, not the module tower::layer or the methods called layer); for one written in lower
// case, the symbols that write it so too when there are such ("yaml.dump()" is PyYAML's dump,
// not go-yaml's Token.Dump, though go-yaml is named "yaml" as well); and every symbol of that
// name when there are none. It is nil when no symbol is spelled otherwise.
func (ri *rankIndex) spelledAs(written, name string) *spelling {
	if written == name {
		sp := &spelling{ri: ri, name: name, lower: true}
		for _, v := range []string{strings.ToUpper(name[:1]) + name[1:], strings.ToUpper(name)} {
			if l, ok := ri.lookup(symbolNamePrefix + v); ok && !slices.ContainsFunc(sp.lists, func(o termList) bool { return o.term == l.term }) {
				sp.lists = append(sp.lists, l)
			}
		}
		if len(sp.lists) == 0 {
			return nil
		}
		return sp
	}
	l, ok := ri.lookup(symbolNamePrefix + written)
	if !ok {
		return nil
	}
	return &spelling{ri: ri, name: name, lists: []termList{l}}
}

// of returns the documents of docs (ascending, numbered over the snapshot) spelled so, if any,
// else docs. The root of a package named so as well is spelled so (indexmap's crate doc is about
// its IndexMap), and so is a symbol of a segment written before names were kept as written,
// which says nothing of how its symbols write theirs.
func (sp *spelling) of(docs []uint32) []uint32 {
	if sp == nil {
		return docs
	}
	ri := sp.ri
	var same []uint32
	if sp.lower {
		var capital []uint32
		for _, l := range sp.lists {
			capital = ri.intersect(capital, docs, l)
		}
		slices.Sort(capital)
		for _, doc := range docs {
			if _, c := slices.BinarySearch(capital, doc); !c {
				same = append(same, doc)
			}
		}
		if len(same) == 0 || len(capital) == 0 {
			return docs
		}
	} else if same = ri.intersect(nil, docs, sp.lists[0]); len(same) == 0 {
		return docs
	}
	for _, doc := range docs {
		if s, _ := ri.segOf(doc); !ri.segs[s].cased || ri.isPackageRoot(doc, sp.name) {
			same = append(same, doc)
		}
	}
	slices.Sort(same)
	return slices.Compact(same)
}

// isPackageRoot reports whether doc is the doc of its package's root (a symbol of kind
// package: a Go package, a Python module, a crate) and name, lowercased, is a name of that
// package (packageNames): the crate indexmap for "indexmap".
func (ri *rankIndex) isPackageRoot(doc uint32, name string) bool {
	if !ri.isSymbol(doc) || ri.kindOf(doc) != string(docidx.KindPackage) {
		return false
	}
	eco, pkg, _ := strings.Cut(ri.pkgKey(ri.pkgOf(doc)), "\x00")
	return slices.Contains(packageNames(docidx.Ecosystem(eco), pkg), name)
}

// questionPackages returns the names of a question (questionNames of words, its text without
// the ecosystems' words) that name its subject, and the packages they and its calls name (sorted;
// see namedPackages and callPackages). A package is called so before the ecosystem's words go:
// "the log crate" calls log a package and names Rust's packages, both. A word in capitals ("a
// wrapper CLI in pflag") names its package only when nothing else the question writes names one:
// then it is a concept, and the question's subject is the package it names by name; "generate a
// random UUID" still names uuid. The owner of a dotted word that the question writes nowhere
// else (dottedOwners) is no name when the packages it names have an API without any of its
// members: "time.Duration" does not name golang.org/x/time. sure, a subset of named, are the
// packages a name names surely (surelyNames): the question is about them.
func (ri *rankIndex) questionPackages(r *reader, text, words string, ecos map[docidx.Ecosystem]bool, owned map[string][]uint32, keep *docFilter) (names map[string]bool, named, sure []uint32) {
	names = questionNames(words)
	called := calledPackages(text)
	mixed := mixedCase(text)
	if len(ecos) == 0 {
		ecos = ri.pathEcosystem(names)
	}
	for o, members := range dottedOwners(words) {
		ps := slices.DeleteFunc(slices.Clone(ri.packagesNamed(o)), func(p uint32) bool {
			eco, _, _ := strings.Cut(ri.pkgKey(p), "\x00")
			return len(ecos) > 0 && !ecos[docidx.Ecosystem(eco)]
		})
		if names[o] && len(ps) > 0 && !ri.holdsSymbolOf(ps, members) && ri.allHaveAPI(ps) {
			delete(names, o)
		}
	}
	// A package called as a function ("ms()", "cors()") is named as "the ms package" names it,
	// when it holds a symbol of its own name: the function its module exports.
	for _, w := range bareCalls(words) {
		if ps := ri.packagesNamed(w); names[w] && len(ps) > 0 && ri.holdsSymbolOf(ps, []string{w}) {
			if called == nil {
				called = map[string]bool{}
			}
			called[w] = true
		}
	}
	owners := possessives(words)
	commanded := calledCommands(text)
	named, sure = ri.namedPackages(r, names, called, commanded, owners, mixed, ecos)
	if acr := acronyms(text); len(acr) > 0 {
		plain := maps.Clone(names)
		for w := range acr {
			if !called[w] && !compoundName(w) {
				delete(plain, w)
			}
		}
		if len(plain) < len(names) {
			if ps, ss := ri.namedPackages(r, plain, called, commanded, owners, mixed, ecos); len(ps) > 0 {
				names, named, sure = plain, ps, ss
			}
		}
	}
	named = append(named, ri.callPackages(words, owned, keep)...)
	named = append(named, ri.aliasPackages(words, owners)...)
	for _, o := range typeOwners(words) {
		if len(ri.aliasOf(o)) == 0 {
			named = append(named, ri.typePackages(o)...)
		}
	}
	named = append(named, ri.pathCrates(words, ecos)...)
	slices.Sort(named)
	named = slices.Compact(named)
	if len(ecos) == 0 {
		named = ri.symbolEcosystem(named, words)
	}
	sure = slices.DeleteFunc(sure, func(p uint32) bool {
		_, in := slices.BinarySearch(named, p)
		return !in
	})
	return names, named, sure
}

// allHaveAPI reports whether every package of pkgs has symbols other than its packages' roots,
// so that a member missing from them is missing from their API: one indexed from its README
// alone (cacheable without its types) may still have the member a question calls.
func (ri *rankIndex) allHaveAPI(pkgs []uint32) bool {
	has := make([]bool, len(pkgs))
	for r, p := range ri.runPkg {
		i := slices.Index(pkgs, p)
		if i < 0 || has[i] {
			continue
		}
		for doc := ri.runStart[r]; doc < ri.runStart[r+1] && !has[i]; doc++ {
			has[i] = ri.isSymbol(doc) && ri.kindOf(doc) != string(docidx.KindPackage)
		}
	}
	return !slices.Contains(has, false)
}

// holdsSymbolOf reports whether a package of pkgs holds a symbol whose own name is one of names
// (lowercased).
func (ri *rankIndex) holdsSymbolOf(pkgs []uint32, names []string) bool {
	held := false
	for _, name := range names {
		l, ok := ri.lookup(symbolNamePrefix + name)
		if !ok {
			continue
		}
		ri.forEach(l, func(doc uint32, _ uint8) {
			held = held || slices.Contains(pkgs, ri.pkgOf(doc))
		})
		if held {
			return true
		}
	}
	return false
}

// symbolEcosystem keeps, of the packages a question names (named, sorted), those of the one
// ecosystem whose named packages hold a symbol an identifier of the question names, when they
// are of several ecosystems and the identifiers' symbols are in the named packages of exactly
// one: a question is asked in one ecosystem, and "idna's domain_to_ascii_cow" names the crate
// idna, which has that function, and not PyPI's idna nor golang.org/x/net (whose package idna
// its name also names), as pathEcosystem places a question by a path it writes. Otherwise it
// returns named as it is.
func (ri *rankIndex) symbolEcosystem(named []uint32, words string) []uint32 {
	ecoOf := func(p uint32) string {
		eco, _, _ := strings.Cut(ri.pkgKey(p), "\x00")
		return eco
	}
	if len(named) < 2 || !slices.ContainsFunc(named[1:], func(p uint32) bool { return ecoOf(p) != ecoOf(named[0]) }) {
		return named
	}
	holding := map[string]bool{} // the ecosystems of the named packages that hold a named symbol
	for _, name := range identifierWords(words) {
		l, ok := ri.lookup(symbolNamePrefix + name)
		if !ok {
			continue
		}
		ri.forEach(l, func(doc uint32, _ uint8) {
			if p := ri.pkgOf(doc); len(holding) < 2 {
				if _, in := slices.BinarySearch(named, p); in {
					holding[ecoOf(p)] = true
				}
			}
		})
	}
	if len(holding) != 1 {
		return named
	}
	return slices.DeleteFunc(named, func(p uint32) bool { return !holding[ecoOf(p)] })
}

// pathEcosystem returns the ecosystem of the packages that the names among names written as
// paths name ("golang.org/x/mod", "@babel/core", "spf13/cobra"), when they are all of one: a
// question is asked in one ecosystem, and a path places it there, so that its plain names are
// read there too: "semver" of "semver.IsValid in golang.org/x/mod" is not npm's semver. A name
// only compound ("Content-Type", "urllib3") may be a word of the question and places nothing.
// It returns nil when no path names a package or they name packages of several ecosystems.
func (ri *rankIndex) pathEcosystem(names map[string]bool) map[docidx.Ecosystem]bool {
	var eco string
	for w := range names {
		if !strings.ContainsAny(w, "/@") {
			continue
		}
		for _, p := range ri.packagesNamed(w) {
			e, _, _ := strings.Cut(ri.pkgKey(p), "\x00")
			if eco != "" && e != eco {
				return nil
			}
			eco = e
		}
	}
	if eco == "" {
		return nil
	}
	return map[docidx.Ecosystem]bool{docidx.Ecosystem(eco): true}
}

// pathCrates returns the crates (their live versions) that the Rust paths a question writes start
// with: a path's first segment is a crate ("log" of "log::info!", "serde_json" of
// "serde_json::from_str"), however common a word its name is. ecos, the ecosystems the question
// names, may leave Rust out.
func (ri *rankIndex) pathCrates(words string, ecos map[docidx.Ecosystem]bool) []uint32 {
	if len(ecos) > 0 && !ecos[docidx.Cargo] {
		return nil
	}
	var out []uint32
	for _, w := range strings.Fields(words) {
		path := rustPath(w)
		if path == nil {
			continue
		}
		for _, p := range ri.packagesNamed(strings.ToLower(path[0])) {
			if eco, _, _ := strings.Cut(ri.pkgKey(p), "\x00"); eco == string(docidx.Cargo) {
				out = append(out, p)
			}
		}
	}
	return out
}

// maxCallPackages is the most packages a call the question writes with its owner may name
// (callPackages): more, and the owner is a word many packages' symbols are written with.
const maxCallPackages = 2

// callPackages returns the packages (their versions) whose symbols the words of a question
// call with their owner (owned, by identifier of words; see ownedByName): "validator.New()" names
// go-playground/validator, whose New's doc holds "validator", though "validator" is a word too
// common to name it alone (see namedPackages); "protojson.Marshal()" names the module
// google.golang.org/protobuf, whose package protojson no package name says. A call whose
// owned symbols are in more than maxCallPackages packages names none.
func (ri *rankIndex) callPackages(words string, owned map[string][]uint32, keep *docFilter) []uint32 {
	var out []uint32
	for _, name := range identifierWords(words) {
		var pkgs []uint32
		for _, doc := range owned[name] {
			if keep.keep(doc) {
				pkgs = append(pkgs, ri.pkgOf(doc))
			}
		}
		if len(pkgs) > 0 && len(ri.distinctPackages(pkgs)) <= maxCallPackages {
			out = append(out, pkgs...)
		}
	}
	return out
}

// ownedByName returns the owned symbols (ownedSymbols) of each identifier of words
// (identifierWords) written with an owner (identifierOwners), by identifier; none for an
// identifier without owners or without owned symbols. A package's root is no one's member:
// the crate toml is not what "Cargo.toml" names, though its doc says "Cargo". nameBonuses and
// callPackages both read them, and a common owner's list is long: they are found once a
// question.
func (ri *rankIndex) ownedByName(words string, term func(string) string) map[string][]uint32 {
	owners := identifierOwners(words)
	types := typeOwners(words)
	owned := map[string][]uint32{}
	for _, name := range identifierWords(words) {
		if len(owners[name]) == 0 {
			continue
		}
		if l, ok := ri.lookup(symbolNamePrefix + name); ok {
			docs := ri.ownedSymbols(l, owners[name], types, term)
			docs = slices.DeleteFunc(docs, func(doc uint32) bool { return ri.isPackageRoot(doc, name) })
			if len(docs) > 0 {
				owned[name] = docs
			}
		}
	}
	return owned
}

// maxDirectCheck bounds the symbols of one name whose qualified names directOf reads: each is a
// stored-field read, and a name that many symbols have ("New") says little of which is meant.
const maxDirectCheck = 32

// directMembers keeps, of the symbols owned[name] (ownedByName) of each name the question writes
// with an owner (owners, identifierOwners), those the owner holds directly (directOf):
// "shlex::split" is the crate's split, not shlex::bytes::split, and "term.ReadPassword" the
// package's function, not term.Terminal.ReadPassword, though the crate and the package own both.
// It returns owned, changed in place.
func (s *storedReads) directMembers(owned map[string][]uint32, owners map[string][]string) map[string][]uint32 {
	for name, docs := range owned {
		owned[name] = s.directOf(docs, name, owners[name])
	}
	return owned
}

// directOf returns the symbols of docs (ascending; symbols of the name name, lowercased) whose
// qualified names end with one of owners (lowercased) and the name, and the package roots of
// docs, or docs when no member does or there are more than maxDirectCheck of them. A symbol
// whose fields cannot be read is not one.
func (s *storedReads) directOf(docs []uint32, name string, owners []string) []uint32 {
	// The name is not its own symbols' owner: "indexmap" names the crate, its IndexMap and its
	// indexmap! alike.
	if len(docs) < 2 || len(docs) > maxDirectCheck || !slices.ContainsFunc(owners, func(o string) bool { return o != name }) {
		return docs
	}
	var rec hitRecord
	var direct, roots []uint32
	for _, doc := range docs {
		if s.ri.isPackageRoot(doc, name) {
			roots = append(roots, doc) // no one's member, and kept (the crate indexmap for "IndexMap")
			continue
		}
		if err := s.read(doc, &rec); err != nil || rec.id == "" {
			continue
		}
		parts := strings.FieldsFunc(strings.ToLower(rec.title), func(c rune) bool { return c == '.' || c == ':' })
		if len(parts) >= 2 && parts[len(parts)-1] == name && parts[len(parts)-2] != name && slices.Contains(owners, parts[len(parts)-2]) {
			direct = append(direct, doc)
		}
	}
	if len(direct) == 0 {
		return docs
	}
	direct = append(direct, roots...)
	slices.Sort(direct)
	return direct
}

// ownedSymbols returns the symbols of l, the list of a symbol name, that owners own, the paths a
// question wrote the name with (lowercased; types are those written as a type's name,
// typeOwners): the symbols of the packages an owner is the alias of (aliasOf: "fr" of
// "fr.merge" for a package whose docs import it as fr); for an owner that is not a type, those
// of the packages it names (packagesNamed: "validator" of "validator.New()") and no others when
// they have such a symbol; else those whose documents hold the owner, as term gives its term
// ("IndexMap" of "IndexMap::remove": its members' docs name it). The result is sorted. It
// returns nil when there are no owners or no such symbol (an alias no package's documents use,
// "np" of "np.round" without numpy, then names every symbol of that name, as the name alone
// does).
func (ri *rankIndex) ownedSymbols(l termList, owners, types []string, term func(string) string) []uint32 {
	if len(owners) == 0 {
		return nil
	}
	var named []uint32 // ascending: forEach walks the segments in order, each list ascending
	ri.forEach(l, func(doc uint32, _ uint8) { named = append(named, doc) })
	var owned []uint32
	for _, owner := range owners {
		// An alias ("fr" of "import frames as fr") owns the symbols of its packages.
		ps := ri.aliasOf(owner)
		asPackage := !slices.Contains(types, owner)
		if asPackage {
			// An owner written in lower case that names packages ("validator" of
			// "validator.New()") owns their symbols, and no other package's: the symbols
			// called New whose docs say "valid" (quicktest.New, baggage.New) are not
			// validator's.
			ps = append(slices.Clip(ps), ri.packagesNamed(owner)...)
		}
		n := len(owned)
		for _, doc := range named {
			if slices.Contains(ps, ri.pkgOf(doc)) {
				owned = append(owned, doc)
			}
		}
		if asPackage && len(owned) > n {
			continue
		}
		// Not bounded as memberBonuses bounds owners: the owner is a word of the question,
		// whose list accumulate walks as well.
		if ol, ok := ri.lookup(term(owner)); ok {
			owned = ri.intersect(owned, named, ol)
		}
	}
	slices.Sort(owned)
	return slices.Compact(owned)
}

// intersect appends to out the documents of docs (ascending, numbered over the snapshot) that
// l's lists hold, in order. A common owner's list is far longer than the symbols of one name
// (at 16N, hundreds of thousands of documents against a few thousand), so it reads no more of
// it than it must: no part of a segment without one of docs, a dense part by testing its bits,
// a sparse one up to the last of docs in its segment. A list it cannot read holds nothing.
func (ri *rankIndex) intersect(out, docs []uint32, l termList) []uint32 {
	for _, part := range l.parts {
		base, end := ri.docBase[part.seg], ri.docBase[part.seg+1]
		lo, _ := slices.BinarySearch(docs, base)
		hi, _ := slices.BinarySearch(docs, end)
		if lo == hi {
			continue
		}
		in := docs[lo:hi]
		list := ri.postings(part)
		n := ri.segs[part.seg].docs
		if part.list.dense {
			if len(list) < 8*denseWords(n) {
				continue
			}
			for _, d := range in {
				local := d - base
				if binary.LittleEndian.Uint64(list[8*(local/64):])&(1<<(local%64)) != 0 {
					out = append(out, d)
				}
			}
			continue
		}
		last := in[len(in)-1] - base
		var doc uint32
		j := 0
		for i, ok := 0, true; i < len(list)-1; {
			if doc, _, i, ok = nextPosting(list, i, doc); !ok || doc > last {
				break
			}
			for j < len(in) && in[j]-base < doc {
				j++
			}
			if in[j]-base == doc {
				out = append(out, in[j])
			}
		}
	}
	return out
}

// identifierOwners returns, by identifier of text (as identifierWords lowercases it), the
// lowercased paths text writes it with: "validator" for "validator.New()", "indexmap" for
// "IndexMap::remove", "yaml" for "yaml.safe_load" — the last part of the path before the name.
func identifierOwners(text string) map[string][]string {
	var out map[string][]string
	for _, w := range codeFields(text) {
		owner, name, ok := codeOwner(codeWord(w))
		if !ok {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		name = strings.ToLower(name)
		out[name] = append(out[name], strings.ToLower(owner))
	}
	return out
}

// codeOwner splits a word of code into the last part of its path before its name and the name,
// as written ("IndexMap", "remove" of "indexmap::IndexMap::remove"), and false when w is not a
// path of identifiers: not a struct tag's `validate:"required"` nor a JSONPath.
func codeOwner(w string) (owner, name string, ok bool) {
	i := strings.LastIndexAny(w, ".:")
	if i <= 0 || i == len(w)-1 {
		return "", "", false
	}
	owner = strings.TrimRight(w[:i], ":")
	if j := strings.LastIndexAny(owner, ".:/"); j >= 0 {
		owner = owner[j+1:]
	}
	if utf8.RuneCountInString(owner) < 2 || !strings.ContainsFunc(owner, unicode.IsLetter) ||
		!isIdentifier(owner) || !isIdentifier(w[i+1:]) {
		return "", "", false
	}
	return owner, w[i+1:], true
}

// typeOwners returns the owners a question writes in the form of a type's name (PascalCase:
// "BeautifulSoup", "IndexMap", not "ctx" or "HTTP"), lowercased: of a path ("IndexMap::remove"),
// or in the possessive before code ("BeautifulSoup's get_text()", which codeFields reads as a
// path). A variable ("ctx.subdomains", "req.body") is written in lower case, and is no
// package's type.
func typeOwners(words string) []string {
	var out []string
	for _, w := range codeFields(words) {
		if o, _, ok := codeOwner(codeWord(w)); ok && isPascal(o) && !slices.Contains(out, strings.ToLower(o)) {
			out = append(out, strings.ToLower(o))
		}
	}
	return out
}

// isPascal reports whether w is written as a type's name: an upper-case letter first and a
// lower-case letter after it.
func isPascal(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && strings.ContainsFunc(w, unicode.IsLower)
}

// maxMemberDocs bounds the symbols of one name, and maxOwnerDocs the documents holding an
// owner's word, that memberBonuses reads: a name as common as "new" or "get" says little of
// which member is meant, and the bound keeps the cost of a question small.
const (
	maxMemberDocs = 4096
	maxOwnerDocs  = 16384
)

// memberBonuses adds symbolBonus to the members that words name by a plain word beside their
// owner's identifier, as people write them: "call reserve on a BytesMut" for
// bytes::BytesMut::reserve, which holds the owner's name among its words. idents are the
// identifiers of words that may own members (nameBonuses: a type's name or a package's, not a
// function's); term gives an identifier's term in the index (the stem "envfilt" for
// "envfilter").
func (ri *rankIndex) memberBonuses(idents []string, words string, term func(string) string, add func(doc uint32, b float32)) {
	if len(idents) == 0 {
		return
	}
	var members []uint32 // sorted
	for _, w := range strings.FieldsFunc(strings.ToLower(plainWords(words)), notWordRune) {
		if len(w) < 3 || passageStopWords[w] || slices.Contains(idents, w) {
			continue
		}
		l, ok := ri.lookup(symbolNamePrefix + w)
		if !ok || l.all > maxMemberDocs {
			continue
		}
		ri.forEach(l, func(doc uint32, _ uint8) { members = append(members, doc) })
	}
	if len(members) == 0 {
		return
	}
	slices.Sort(members)
	for _, owner := range idents {
		l, ok := ri.lookup(term(owner))
		if !ok || l.all > maxOwnerDocs {
			continue
		}
		ri.forEach(l, func(doc uint32, _ uint8) {
			if _, ok := slices.BinarySearch(members, doc); ok {
				add(doc, symbolBonus)
			}
		})
	}
}

// best returns the window best documents of a, with their final scores, and how many documents
// matched. A document's score is its BM25F sum times the coordination factor of the found
// question terms it holds and its prior (prior: its kind's, its package's and priorUndocumented
// for a symbol without a doc comment), plus its bonus, which priorUndocumented does not lower: a
// symbol the question spells still ranks with it.
func (ri *rankIndex) best(a *accumulator, bonus map[uint32]float32, found int, pkgPrior []float32, named []bool, window int) (scoreHeap, int) {
	// By matched count: a document holds at most the found terms (add caps the count at 255).
	var coord [256]float32
	for m := range coord {
		if m > found {
			coord[m] = 1
			continue
		}
		coord[m] = float32(math.Pow(float64(m)/float64(found), coordPower))
	}
	// Documents with a bonus are scored after the others, and those of the packages the
	// question names by prior itself; the flags say which they are.
	table, namedRanges, ok := ri.queryPriors(pkgPrior, named)
	for _, r := range namedRanges {
		a.flagRange(r[0], r[1])
	}
	for doc := range bonus {
		a.flag(doc)
	}
	defer func() {
		for _, r := range namedRanges {
			a.unflagRange(r[0], r[1])
		}
		for doc := range bonus {
			a.unflag(doc)
		}
	}()
	// Two passes: the first scores every document and finds, from a histogram of the scores, a
	// threshold that about window of them reach; the second offers only those to the heap. One
	// pass with a heap of the best so far offered most documents, each offer a heap update, when
	// scores rise as they are met.
	pages := a.pages
	scores := a.scores[:0]
	var top0 float32
	switch {
	case ok && len(bonus) == 0 && len(namedRanges) == 0:
		// Each document's prior is its class's.
		class := ri.classes.class
		for _, doc := range a.touched {
			p := pages[doc>>accPageShift]
			s := p.score[doc&accPageMask] * coord[p.matched[doc&accPageMask]] * table[class[doc]]
			scores = append(scores, s)
			if s > top0 { // not max: the builtin's NaN and signed-zero rules cost a third of this loop
				top0 = s
			}
		}
	case ok:
		class := ri.classes.class
		for _, doc := range a.touched {
			p := pages[doc>>accPageShift]
			var s float32
			if !a.flagged(doc) {
				s = p.score[doc&accPageMask] * coord[p.matched[doc&accPageMask]] * table[class[doc]]
			} else if _, b := bonus[doc]; b {
				s = -1 // scored below, with its bonus
			} else { // a document of a package the question names
				s = p.score[doc&accPageMask] * coord[p.matched[doc&accPageMask]] * ri.prior(doc, pkgPrior, named)
			}
			scores = append(scores, s)
			if s > top0 {
				top0 = s
			}
		}
	default:
		for _, doc := range a.touched {
			p := pages[doc>>accPageShift]
			s := p.score[doc&accPageMask] * coord[p.matched[doc&accPageMask]] * ri.prior(doc, pkgPrior, named)
			if len(bonus) > 0 && a.flagged(doc) {
				s = -1 // scored below, with its bonus
			}
			scores = append(scores, s)
			if s > top0 {
				top0 = s
			}
		}
	}
	a.scores = scores
	const buckets = 256
	scale, from := float32(0), 0 // offered: documents whose bucket int(s·scale) is from or above
	if len(scores) > window && top0 > 0 {
		var hist [buckets]int32
		scale = (buckets - 1) / top0
		for _, s := range scores {
			if s > 0 {
				hist[int(s*scale)]++
			}
		}
		n := 0
		for from = buckets - 1; from > 0; from-- {
			if n += int(hist[from]); n >= window {
				break
			}
		}
	}
	top := make(scoreHeap, 0, window)
	// int(s·scale) >= from, for a whole from and s·scale >= 0, without a conversion per score.
	least := float32(from)
	for i, s := range scores {
		if s >= 0 && s*scale >= least {
			doc := a.touched[i]
			top.offer(scored{doc, ri.orderOf(doc), float64(s)}, window)
		}
	}
	total := len(a.touched)
	for doc, b := range bonus {
		s := b
		if m := a.matchedOf(doc); m > 0 {
			// prior lowers an undocumented symbol: of two the question spells, the documented first.
			s += a.scoreOf(doc) * coord[m] * ri.prior(doc, pkgPrior, named)
		} else {
			total++ // a named document that holds none of the words
		}
		top.offer(scored{doc, ri.orderOf(doc), float64(s)}, window)
	}
	return top, total
}

// crowdShare bounds the share of a search's window (best) that the documents of one package
// version the question does not name may take: at most window/crowdShare of them. diversify
// lowers the k-th document of a package by packageDecay^k (0.55^33 is 3·10⁻⁹), so the
// documents past that share of a crowded package rank below any other package's; held in the
// window they only keep the others out. "unit compression observables Python" filled its
// window of 100 with OpenTelemetry's 2,000 alike `…Observable.Unit` methods, which the answer
// layer shows as one hit: the answer listed 4 results after paging through 2,000 ranked hits.
const crowdShare = 3

// thinCrowded returns top, the window best documents as best chose them, with the documents of
// each package version the question does not name (named) beyond window/crowdShare of top
// given up for the best documents of other packages below top, when there are such; any room
// left goes back to the best of those given up, so that the window stays as full as before and
// paging reaches as deep. scores are the accumulator's documents touched as best scored them
// (-1 for those scored apart, with a bonus, which only top holds). A window that every
// document fits in, or that no package crowds, is top as it is.
func (ri *rankIndex) thinCrowded(top scoreHeap, scores []float32, touched []uint32, named []bool, window int) scoreHeap {
	limit := max(window/crowdShare, 1)
	if len(top) < window || len(scores) <= window {
		return top
	}
	// The package versions of top, sorted, counted by runs: most windows hold dozens of
	// packages and none crowds.
	pkgs := make([]uint32, len(top))
	for i, d := range top {
		pkgs[i] = ri.pkgOf(d.doc)
	}
	slices.Sort(pkgs)
	var crowded map[uint32]scored // by package version: the worst of its documents that stay
	for i := 0; i < len(pkgs); {
		p, j := pkgs[i], i
		for j < len(pkgs) && pkgs[j] == p {
			j++
		}
		if j-i > limit && (named == nil || !named[p]) {
			own := make([]scored, 0, j-i)
			for _, d := range top {
				if ri.pkgOf(d.doc) == p {
					own = append(own, d)
				}
			}
			slices.SortFunc(own, func(a, b scored) int { return cmpScored(b, a) })
			if crowded == nil {
				crowded = map[uint32]scored{}
			}
			crowded[p] = own[limit-1]
		}
		i = j
	}
	if crowded == nil {
		return top
	}
	stays := func(d scored) bool {
		c, ok := crowded[ri.pkgOf(d.doc)]
		return !ok || cmpScored(d, c) >= 0
	}
	// The others below top: the best window of the documents that stay, as best chose top.
	thinned := make(scoreHeap, 0, window)
	var out scoreHeap // top's documents given up, the best of those that do not stay
	for _, d := range top {
		if stays(d) {
			thinned.offer(d, window)
		} else {
			out = append(out, d)
		}
	}
	worst := top[0] // top is a heap: its root is its worst
	for i, s := range scores {
		if s <= 0 || float64(s) > worst.score {
			continue // scored apart or not at all, or in top already
		}
		doc := touched[i]
		if _, ok := crowded[ri.pkgOf(doc)]; ok {
			continue // below top, so below its cutoff
		}
		if len(thinned) == window && float64(s) < thinned[0].score {
			continue // no better than the window holds
		}
		d := scored{doc, ri.orderOf(doc), float64(s)}
		if cmpScored(d, worst) >= 0 {
			continue
		}
		thinned.offer(d, window)
	}
	if len(thinned) < window {
		out.sortBestFirst()
		for _, d := range out[:min(len(out), window-len(thinned))] {
			thinned.offer(d, window)
		}
	}
	return thinned
}

// diversify returns the best need of the kept documents, best first, with the k-th document of
// a package (from 0) scoring score·packageDecay^k, as diversify does for Bleve's hits; the
// documents of the packages the question names (named, nil for none) keep their scores.
// The heap's storage is reused for the result.
func (ri *rankIndex) diversify(top scoreHeap, named []bool, need int) []scored {
	top.sortBestFirst()
	out := []scored(top)
	seen := make([]uint8, ri.npkgs) // hits of each package so far, up to 255
	for i := range out {
		p := ri.pkgOf(out[i].doc)
		if named != nil && named[p] {
			continue // the package the question is about: all its hits compete as they are
		}
		if k := seen[p]; k > 0 {
			out[i].score *= packageDecayPow(int(k))
		}
		seen[p] = min(seen[p]+1, math.MaxUint8)
	}
	// Only the best need are asked for: they are selected with a heap in out[:need], then
	// sorted. Sorting the whole window again was half of diversify (cmpScored orders every two
	// documents, so the result is the same).
	best := scoreHeap(out[:max(0, min(need, len(out)))])
	if len(best) == 0 {
		return best
	}
	best.init()
	for _, d := range out[len(best):] {
		if cmpScored(d, best[0]) > 0 {
			best[0] = d
			best.down(0)
		}
	}
	best.sortBestFirst()
	return best
}

// init makes h a heap.
func (h scoreHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// sortBestFirst sorts h best first (a heapsort: the weakest goes last, then the next weakest
// before it …); h need not be a heap.
func (h scoreHeap) sortBestFirst() {
	h.init()
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		h[:n].down(0)
	}
}

// packagePriors returns each package's multiplier for a question naming ecos and the packages
// named (namedPackages): ri.pkgPrior, with the packages of the ecosystems it names
// ("… in python") raised by priorNamed and the packages it names raised by priorNamedPackage;
// when it names some surely (sure), every other package is lowered by priorNamedPackage /
// priorSurePackage, so that those stand priorSurePackage above the packages it does not name.
// The result is ri.pkgPrior itself when it names no package and none or all of the ecosystems;
// callers must not change it. named, nil when no package is named, marks the named packages
// (whose overviews prior leaves out of priorNamedPackage, and diversify does not discount).
//
// A question that writes a major version of a Go module it names (majors, askedMajors: "the
// go-redis v6 client", "urfave/cli v2") names that major only: the module of that major version
// is not superseded (priorSuperseded), and the modules of its other majors are not named.
func (ri *rankIndex) packagePriors(ecos map[docidx.Ecosystem]bool, namedPkgs, sure []uint32, majors map[int]bool) (pkgPrior []float32, named []bool) {
	if len(ecos) == len(docidx.Ecosystems) {
		ecos = nil
	}
	var asked []uint32 // the named modules of the majors asked
	if len(majors) > 0 {
		bases := map[string]bool{} // their module paths without the major
		for _, p := range namedPkgs {
			if base, major, ok := ri.goMajor(p); ok && majors[major] {
				bases[base] = true
				asked = append(asked, p)
			}
		}
		namedPkgs = slices.DeleteFunc(slices.Clone(namedPkgs), func(p uint32) bool {
			base, major, ok := ri.goMajor(p)
			return ok && bases[base] && !majors[major]
		})
	}
	if len(ecos) == 0 && len(namedPkgs) == 0 {
		return ri.pkgPrior, nil
	}
	out := slices.Clone(ri.pkgPrior)
	for _, p := range asked {
		out[p] = 1
	}
	for eco := range ecos {
		for _, p := range ri.ecoPkgs[eco] {
			out[p] *= float32(priorNamed)
		}
	}
	if len(namedPkgs) > 0 {
		named = make([]bool, ri.npkgs)
		for _, p := range namedPkgs {
			out[p] *= float32(priorNamedPackage)
			named[p] = true
		}
		// The packages named surely stand priorSurePackage / priorNamedPackage above the rest:
		// the rest go down, so that within a named package its names' bonuses weigh as much
		// against its words as before.
		if len(sure) > 0 {
			down := float32(priorNamedPackage / priorSurePackage)
			for p := range out {
				if _, in := slices.BinarySearch(sure, uint32(p)); !in {
					out[p] *= down
				}
			}
		}
	}
	return out, named
}

// askedMajors returns the major versions a question writes as Go writes them, "v" and a number
// of at least 1 ("go-redis v6", "yaml v2", "urfave/cli v1": the module path without a major
// suffix), or nil: a version a module path or a tag spells.
func askedMajors(words string) map[int]bool {
	var out map[int]bool
	for _, w := range strings.Fields(words) {
		w = strings.TrimRight(w, ".,;:!?)'\"")
		if len(w) < 2 || w[0] != 'v' && w[0] != 'V' {
			continue
		}
		if n, err := strconv.Atoi(w[1:]); err == nil && n >= 1 && w[1] != '0' && w[1] != '+' {
			if out == nil {
				out = map[int]bool{}
			}
			out[n] = true
		}
	}
	return out
}

// goMajor returns the module path without its major version suffix (splitMajor) of package
// version p, a Go module, and the major version of its version ("v6.15.9+incompatible": 6),
// and false for a package of another ecosystem or a version that is not vN.N.N.
func (ri *rankIndex) goMajor(p uint32) (base string, major int, ok bool) {
	eco, name, _ := strings.Cut(ri.pkgKey(p), "\x00")
	if eco != string(docidx.Go) || int(p) >= len(ri.versions) {
		return "", 0, false
	}
	v, _, _ := strings.Cut(strings.TrimPrefix(ri.versions[p], "v"), ".")
	major, err := strconv.Atoi(v)
	if err != nil {
		return "", 0, false
	}
	base, _ = splitMajor(name)
	return base, major, true
}

// prior is the product of a document's kind prior and its package's (pkgPrior), except that the
// overview of a package the question names (named) does not take priorNamedPackage: a
// question that names a package asks something of it, which its overview does not answer, and
// a question that names it in passing ("a lightweight http router") is not about it; and times
// priorUndocumented for a symbol without a doc comment.
func (ri *rankIndex) prior(doc uint32, pkgPrior []float32, named []bool) float32 {
	p := ri.pkgOf(doc)
	k, undocumented := ri.docKind(doc)
	return ri.priorOf(k&0x7f, pkgPrior[p], named != nil && named[p], undocumented)
}

// priorOf is prior for a document of kind k in a package version of prior pkgPrior, named by
// the question or not, undocumented or not: the one computation of a prior, so that a class's
// (queryPriors) is the same float32 as each of its documents'.
func (ri *rankIndex) priorOf(k uint8, pkgPrior float32, named, undocumented bool) float32 {
	prior := ri.kindPrior[k] * pkgPrior
	if named && int(k) == ri.overviewKind {
		prior /= float32(priorNamedPackage)
	}
	if undocumented {
		prior *= priorUndocumented
	}
	return prior
}

// priorClasses sorts the documents into the classes that decide their prior for any question
// but those of the packages it names: a class is a combination of a kind, an undocumented
// symbol or not, and a group of package versions, those of one ecosystem and one prior before
// the question (ri.pkgPrior). packagePriors changes a package version's prior by its ecosystem
// and by whether the question names it, so the versions of a group the question does not name
// share their prior.
type priorClasses struct {
	class []uint8 // per document
	// per class, its kind, its group and whether its documents are undocumented symbols
	kind   []uint8
	group  []uint8
	undoc  []bool
	groups [][]uint32 // per group, its package versions
}

// priorClasses returns the documents' classes, made on first use; ok is false when the
// documents make more than 256 classes or the package versions more than 256 groups.
func (ri *rankIndex) priorClasses() (pc *priorClasses, ok bool) {
	ri.classesOnce.Do(func() {
		type groupKey struct {
			eco   string
			prior float32
		}
		groupOf := map[groupKey]int{}
		pkgGroup := make([]uint8, ri.npkgs)
		var groups [][]uint32
		for p := range ri.npkgs {
			eco, _, _ := strings.Cut(ri.pkgKey(uint32(p)), "\x00")
			k := groupKey{eco, ri.pkgPrior[p]}
			g, seen := groupOf[k]
			if !seen {
				if len(groups) == 256 {
					return
				}
				g = len(groups)
				groupOf[k] = g
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], uint32(p))
			pkgGroup[p] = uint8(g)
		}
		// By group and then kind | undocumented<<7: its class, plus one (0: none yet). The
		// documents are walked run by run, in their segments' tables: a run's group is its
		// package version's.
		classOf := new([256][256]uint16)
		pc := &priorClasses{class: make([]uint8, ri.docs), groups: groups}
		for r, p := range ri.runPkg {
			s, g := ri.runSeg[r], pkgGroup[p]
			for doc := ri.runStart[r]; doc < ri.runStart[r+1]; doc++ {
				k, u := ri.segKind(s, doc-ri.docBase[s])
				k &= 0x7f
				kb := k
				if u {
					kb |= 0x80
				}
				n := classOf[g][kb]
				if n == 0 {
					if len(pc.kind) == 256 {
						return
					}
					pc.kind, pc.group, pc.undoc = append(pc.kind, k), append(pc.group, g), append(pc.undoc, u)
					n = uint16(len(pc.kind))
					classOf[g][kb] = n
				}
				pc.class[doc] = uint8(n - 1)
			}
		}
		ri.classes = pc
	})
	return ri.classes, ri.classes != nil
}

// queryPriors returns each class's prior (priorClasses) for a question that gives the package
// versions the priors pkgPrior and names those of named (nil for none), and the ranges of the
// documents of the versions it names, whose priors are not their class's (see prior). ok is
// false when the documents have no classes, or the named versions' documents are not numbered
// together (pkgDocs); callers then take each document's prior.
func (ri *rankIndex) queryPriors(pkgPrior []float32, named []bool) (table *[256]float32, namedRanges [][2]uint32, ok bool) {
	pc, ok := ri.priorClasses()
	if !ok {
		return nil, nil, false
	}
	if named != nil {
		ranges, ok := ri.pkgDocs()
		if !ok {
			return nil, nil, false
		}
		for p, n := range named {
			if n && ranges[p][0] < ranges[p][1] {
				namedRanges = append(namedRanges, ranges[p])
			}
		}
	}
	// Each group's prior, from a version of it the question does not name (a group of named
	// versions only has no document scored by its class).
	var groupPrior [256]float32
	for g, pkgs := range pc.groups {
		for _, p := range pkgs {
			if named == nil || !named[p] {
				groupPrior[g] = pkgPrior[p]
				break
			}
		}
	}
	table = new([256]float32)
	for c, k := range pc.kind {
		table[c] = ri.priorOf(k, groupPrior[pc.group[c]], false, pc.undoc[c])
	}
	return table, namedRanges, true
}

// namedPackages returns the packages that the words of a question (questionNames) name as
// their own: words that are a package's name (packageNames) and either compound (compoundName)
// or a word whose rarest term is mostly that package's (namedShare of the latest versions'
// documents that hold it are the package's). A package name that is also a common word of
// documentation ("router", "yaml", "uuid", "decorator") is then a word of the question, not its
// subject, unless the question calls it a package (called, see calledPackages). When the
// question names ecosystems (ecos), only their packages are named: in "the
// MongoDB Go driver", "MongoDB" does not name npm's mongodb. Otherwise the name most its
// packages' own places the question in their ecosystem, a name the question calls a package or
// writes in the possessive (owners: "subtle's constant-time behaviour") counting as wholly its
// packages'. A word that is a command packages install (commandOf) names them surely when the
// question calls it a command (commanded, see calledCommands), else as an alias does. The
// result is sorted.
func (ri *rankIndex) namedPackages(r *reader, names, called, commanded, owners, mixed map[string]bool, ecos map[docidx.Ecosystem]bool) (named, sure []uint32) {
	// The parts of a path that names a package whole are that package's ("mattn" and
	// "go-sqlite3" of "mattn/go-sqlite3"), not names of their own: the owner "mattn" names every
	// module of mattn's.
	var parts map[string]bool
	for w := range names {
		if strings.IndexByte(w, '/') > 0 && len(ri.packagesNamed(w)) > 0 {
			if parts == nil {
				parts = map[string]bool{}
			}
			for part := range strings.SplitSeq(w, "/") {
				parts[part] = true
			}
		}
	}
	type naming struct {
		pkgs  []uint32
		share float64
		eco   string // the ecosystem of all of pkgs, or "" when they are of several
		sure  bool   // the name is the package's more than a word (surelyNames), or called so
	}
	var found []naming
	best := -1 // the naming whose name is most its packages' own
	consider := func(w string, ps []uint32, share float64, alias bool) {
		n := naming{share: share, sure: !alias && surelyNames(w, share, mixed)}
		if called[w] || owners[w] {
			n.share = 1 // the question says what it is
			n.sure = true
		}
		for i, p := range ps {
			eco, _, _ := strings.Cut(ri.pkgKey(p), "\x00")
			if len(ecos) > 0 && !ecos[docidx.Ecosystem(eco)] {
				continue
			}
			n.pkgs = append(n.pkgs, p)
			if i == 0 || eco == n.eco {
				n.eco = eco
			} else {
				n.eco = ""
			}
		}
		if len(n.pkgs) == 0 {
			return
		}
		found = append(found, n)
		if best < 0 || n.share > found[best].share {
			best = len(found) - 1
		}
	}
	for w := range names {
		if parts[w] {
			continue
		}
		if ps := ri.packagesNamed(w); len(ps) > 0 && (called[w] || owners[w] || ri.ownWord(r, w, ps)) {
			consider(w, ps, ri.nameShare(r, w, ps), false)
		}
		// A command a package installs names it when the question calls it a command ("the
		// normalizer command"), and as a plain word as an alias does: a tool's name is often
		// a common word (x/tools' "bundle").
		if ps := ri.commandOf(w); len(ps) > 0 {
			if n := len(found); commanded[w] {
				if consider(w, ps, 1, false); len(found) > n {
					found[n].sure = true
				}
			} else if share := ri.nameShare(r, commandPrefix+w, ps); share >= aliasNameShare {
				consider(w, ps, share, true)
			}
		}
		// A name a package's code binds it to (aliasOf: "gzhttp", a package of
		// klauspost/compress; "iconv" of iconv-lite) names it as a plain word too when the
		// question calls it a package, or when most documents holding the word are its own: not
		// "server" or "argv", which some README binds a package to.
		if ps := ri.aliasOf(w); len(ps) > 0 {
			if share := ri.nameShare(r, aliasPrefix+w, ps); called[w] || share >= aliasNameShare {
				consider(w, ps, share, true)
			}
		}
	}
	for _, n := range found {
		// A question is asked in one ecosystem: the name that is most its packages' own places
		// it, and a name of another ecosystem's packages that is less theirs is a word of the
		// question ("marked" of "a variant marked #[from]" beside thiserror, "redis" beside
		// cacheable's own name).
		if len(ecos) == 0 && found[best].eco != "" && n.eco != found[best].eco && n.share < found[best].share {
			continue
		}
		named = append(named, n.pkgs...)
		if n.sure {
			sure = append(sure, n.pkgs...)
		}
	}
	slices.Sort(named)
	slices.Sort(sure)
	return slices.Compact(named), slices.Compact(sure)
}

// surelyNames reports whether a name that names packages (share: nameShare) names them surely,
// as more than a word of the question: spelled as no plain word is (compoundName: "go-colorable",
// "wrap-ansi"), or a word at least sureNameShare of whose documents are theirs ("arrayvec",
// "tzdata", "six"; not "requests", 2.7%), unless the question writes it with a capital inside
// (mixed, mixedCase: "MongoDB", the database more than npm's mongodb).
func surelyNames(w string, share float64, mixed map[string]bool) bool {
	if compoundName(w) {
		return true
	}
	return share >= sureNameShare && !mixed[w]
}

// mixedCase returns the words text writes with a capital letter after their first letter
// ("MongoDB", "GraphQL", "JSON"), lowercased: names of products and concepts, which a registry
// spells in lower case when a package takes them.
func mixedCase(text string) map[string]bool {
	var out map[string]bool
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		_, first := utf8.DecodeRuneInString(w)
		if !strings.ContainsFunc(w[first:], unicode.IsUpper) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[strings.ToLower(w)] = true
	}
	return out
}

// ownWord reports whether the name w is its packages' (ps) own word: compound (compoundName),
// or namedShare of the documents holding its rarest term are theirs (nameShare).
func (ri *rankIndex) ownWord(r *reader, w string, ps []uint32) bool {
	return compoundName(w) || ri.nameShare(r, w, ps) >= namedShare
}

// nameShare returns the share of the documents holding the rarest term of the name key that are
// its packages' (ps): 1 for a path ("mattn/go-sqlite3", "@babel/core"), which no word of prose is
// spelled as, and 0 when no document holds the term. key is the name, or aliasPrefix
// (commandPrefix) and the name for the packages an alias (a command) names. The share is a property of the snapshot: it is
// remembered, for at most maxOwnNames keys.
func (ri *rankIndex) nameShare(r *reader, key string, ps []uint32) float64 {
	w := strings.TrimPrefix(strings.TrimPrefix(key, aliasPrefix), commandPrefix)
	if strings.ContainsAny(w, "/@") {
		return 1
	}
	ri.namedMu.Lock()
	share, known := ri.ownName[key]
	ri.namedMu.Unlock()
	if known {
		return share
	}
	share = 0
	if lists := ri.termLists(r.questionTerms(w)); len(lists) > 0 && lists[0].df > 0 { // rarest first
		in := make(map[uint32]bool, len(ps))
		for _, p := range ps {
			in[p] = true
		}
		// A name the analyzer folds into another word's stem ("optionator" into "option",
		// "commander" into "command") shares its term with every form of that word: the
		// term's documents then say how common that word is, not the name. When the other
		// packages' documents of the term do not write the name itself (literalHeld), the
		// share is over those that do.
		folded := plainWord(w) && lists[0].term != w
		n := 0
		var others []uint32
		ri.forEach(lists[0], func(doc uint32, _ uint8) {
			if in[ri.pkgOf(doc)] {
				n++
			} else if folded {
				others = append(others, doc)
			}
		})
		share = float64(n) / float64(lists[0].df)
		if folded && n > 0 && len(others) > 0 {
			if held, ok := ri.literalHeld(r, w, others); ok {
				share = float64(n) / (float64(n) + held)
			}
		}
	}
	ri.namedMu.Lock()
	if ri.ownName == nil {
		ri.ownName = make(map[string]float64)
	}
	if len(ri.ownName) < maxOwnNames {
		ri.ownName[key] = share
	}
	ri.namedMu.Unlock()
	return share
}

// literalSample is how many of the other packages' documents literalHeld reads at most: 128
// found "optionator" and "commander" in none of the documents of "option" and "command", and
// "requests", "packaging" and "validator" in 21, 1 and 8 of those of their stems.
const literalSample = 128

// literalHeld tells whether the name w, folded into the term of docs (other packages' documents
// holding that term), is written as itself in almost none of them, and if so about how many:
// it reads up to literalSample of them, spread evenly over docs in document order, for w as a
// whole word of their title, section or text in any letter case, and stops at the first that
// holds it (ok false: the term's documents are the measure, as for any word). When none does,
// held is what a sample without it still allows, half a document of those read, scaled to
// len(docs); 0 when every document was read. A document that cannot be read leaves the sample
// unproven (ok false): the term's documents are the measure then too, and a damaged segment
// never makes a name look rarer than it is.
func (ri *rankIndex) literalHeld(r *reader, w string, docs []uint32) (held float64, ok bool) {
	k := min(len(docs), literalSample)
	reads := &storedReads{r: r, ri: ri, readers: make([]index.IndexReader, len(ri.segs))}
	defer reads.close()
	var rec hitRecord
	for i := range k {
		if reads.read(docs[i*len(docs)/k], &rec) != nil {
			return 0, false
		}
		if holdsWord(rec.title, w) || holdsWord(rec.section, w) || holdsWord(rec.text, w) {
			return 0, false
		}
	}
	if k == len(docs) {
		return 0, true
	}
	return float64(len(docs)) * 0.5 / float64(k), true
}

// holdsWord reports whether text holds w (lower-case ASCII) as a whole word in any letter case:
// not inside a longer run of letters and digits ("optionator" in "Optionator's", not in
// "optionators").
func holdsWord(text, w string) bool {
	for i := 0; i+len(w) <= len(text); {
		j := indexFold(text[i:], w)
		if j < 0 {
			return false
		}
		lo, hi := i+j, i+j+len(w)
		if (lo == 0 || !isWordByte(text[lo-1])) && (hi == len(text) || !isWordByte(text[hi])) {
			return true
		}
		i = lo + 1
	}
	return false
}

// maxOwnNames bounds the names whose nameShare a rank index remembers.
const maxOwnNames = 4096

// packagesNamed returns the packages that w names (packageNames), from an index of every
// package's names made on first use.
func (ri *rankIndex) packagesNamed(w string) []uint32 {
	ri.namedOnce.Do(func() {
		ri.byName = make(map[string][]uint32, ri.npkgs)
		for p := range ri.npkgs {
			if !ri.live[p] {
				continue
			}
			eco, name, _ := strings.Cut(ri.pkgKey(uint32(p)), "\x00")
			for _, n := range packageNames(docidx.Ecosystem(eco), name) {
				ri.byName[n] = append(ri.byName[n], uint32(p))
			}
		}
		// The names their code imports them as (codeNames).
		for n, ps := range ri.codeNamed(modulePrefix) {
			for _, p := range ps {
				if !slices.Contains(ri.byName[n], p) {
					ri.byName[n] = append(ri.byName[n], p)
				}
			}
		}
	})
	return ri.byName[w]
}

// aliasPackages returns the packages (their live versions) that the owners of the calls a
// question writes ("pd" of "pd.merge(…)", see identifierOwners) name as the names their own
// documentation imports them by (codeNames' aliases), each owner naming at most maxCallPackages
// packages; so do the words it writes in the possessive (owners: "testscript's"), which own what
// follows them as well, and the calls it writes without an owner ("createError(…)"). Here an
// alias names its package only as code writes it: "server" and "argv" are what some README binds
// a package to, and words of any question (namedPackages takes an alias as a plain word only
// when the word is mostly its packages' own).
func (ri *rankIndex) aliasPackages(words string, owners map[string]bool) []uint32 {
	var out []uint32
	seen := map[string]bool{}
	name := func(o string) {
		if !seen[o] {
			out = append(out, ri.aliasOf(o)...)
		}
		seen[o] = true
	}
	for _, paths := range identifierOwners(words) {
		for _, o := range paths {
			name(o)
		}
	}
	// A call without an owner calls what the alias names: a package whose export is a function
	// is called by the name its docs bind it to ("createError(503, …)" of
	// "var createError = require('http-errors')").
	for _, f := range codeFields(words) {
		if strings.HasSuffix(f, "()") && !strings.ContainsAny(strings.TrimSuffix(f, "()"), ".:") {
			if w := strings.ToLower(codeWord(f)); isIdentifier(w) {
				name(w)
			}
		}
	}
	// A possessive writes an owner too: "testscript's $WORK directory" (owners, possessives).
	for o := range owners {
		if isIdentifier(o) {
			name(o)
		}
	}
	return out
}

// typePackages returns the packages (their versions) of the types named name (a symbol's own
// name lowercased, see ownName: classes, structs, interfaces, enums, traits, protocols, Go
// types), or nil when they are of more than maxCallPackages packages: an owner the question writes as
// code that no alias names is a type of its own package ("BeautifulSoup's get_text()" names
// beautifulsoup4, whose class it is), unless many packages define a type of that name
// ("Router's ServeHTTP").
func (ri *rankIndex) typePackages(name string) []uint32 {
	l, ok := ri.lookup(symbolNamePrefix + name)
	if !ok {
		return nil
	}
	var ps []uint32
	var few fewPackages
	ri.forEach(l, func(doc uint32, _ uint8) {
		if !few.more && typeKinds[docidx.SymbolKind(ri.kindOf(doc))] {
			p := ri.pkgOf(doc)
			ps = append(ps, p)
			few.add(ri.pkgKey(p))
		}
	})
	if few.more {
		return nil
	}
	return ps
}

// fewPackages tells whether the packages added to it (their keys, see pkgKey) are at most
// maxCallPackages, without a map: more is set at the first one past them.
type fewPackages struct {
	keys [maxCallPackages]string
	n    int
	more bool
}

// add adds the package key k.
func (f *fewPackages) add(k string) {
	if f.more || slices.Contains(f.keys[:f.n], k) {
		return
	}
	if f.n == len(f.keys) {
		f.more = true
		return
	}
	f.keys[f.n] = k
	f.n++
}

// typeKinds are the kinds of symbols that own members.
var typeKinds = map[docidx.SymbolKind]bool{
	docidx.KindType: true, docidx.KindClass: true, docidx.KindInterface: true, docidx.KindStruct: true,
	docidx.KindEnum: true, docidx.KindTrait: true, docidx.KindProtocol: true,
}

// aliasOf returns the packages (their live versions) whose documentation imports them as
// alias (codeNames), or nil when it names more than maxCallPackages packages.
func (ri *rankIndex) aliasOf(alias string) []uint32 {
	ri.aliasOnce.Do(func() { ri.byAlias = ri.codeNamed(aliasPrefix) })
	if ps := ri.byAlias[alias]; len(ri.distinctPackages(ps)) <= maxCallPackages {
		return ps
	}
	return nil
}

// commandOf returns the live package versions that install the command name (commandNames),
// when they are versions of at most maxCallPackages packages.
func (ri *rankIndex) commandOf(name string) []uint32 {
	ri.commandOnce.Do(func() { ri.byCommand = ri.codeNamed(commandPrefix) })
	if ps := ri.byCommand[name]; len(ps) > 0 && len(ri.distinctPackages(ps)) <= maxCallPackages {
		return ps
	}
	return nil
}

// codeNamed returns the live package versions of each of the names their code calls them by
// (codeNames) that prefix marks among the segments' exact names, where they sort first.
func (ri *rankIndex) codeNamed(prefix string) map[string][]uint32 {
	out := map[string][]uint32{}
	for i, seg := range ri.segs {
		for e := 0; e < seg.exact.n; e++ {
			entry := seg.exact.at(e)
			if len(entry) == 0 || entry[0] > commandPrefix[0] {
				break
			}
			name, ok := bytes.CutPrefix(entry, []byte(prefix))
			if !ok {
				continue
			}
			forEachPosting(seg.exactPostings(e), func(doc uint32, _ uint8) {
				if int(doc) >= seg.docs {
					return
				}
				p := ri.pkgOf(ri.docBase[i] + doc)
				if ps := out[string(name)]; ri.live[p] && !slices.Contains(ps, p) {
					out[string(name)] = append(ps, p)
				}
			})
		}
	}
	return out
}

// distinctPackages returns the names (ecosystem and name) of package versions ps.
func (ri *rankIndex) distinctPackages(ps []uint32) map[string]bool {
	names := map[string]bool{}
	for _, p := range ps {
		names[ri.pkgKey(p)] = true
	}
	return names
}

// ecosystemWords are the words by which questions name an ecosystem ("parse yaml in python",
// "node cli framework"). "go" names Go only after one of goNamers ("in go", "a Go CLI") or as
// the last of several words ("http router go"): elsewhere it is a verb.
var ecosystemWords = map[string]docidx.Ecosystem{
	"golang": docidx.Go,
	"python": docidx.PyPI, "pypi": docidx.PyPI, "pip": docidx.PyPI,
	"node": docidx.NPM, "nodejs": docidx.NPM, "npm": docidx.NPM, "javascript": docidx.NPM,
	"typescript": docidx.NPM, "js": docidx.NPM, "ts": docidx.NPM,
	"rust": docidx.Cargo, "cargo": docidx.Cargo, "crate": docidx.Cargo,
	"swift": docidx.Swift, "swiftpm": docidx.Swift,
}

// goNamers are the words after which "go" is the language; so is "Go" capitalized inside a
// sentence ("the MongoDB Go driver"), which the verb seldom is.
var goNamers = []string{"in", "for", "with", "using", "a", "the", "my", "our", "from"}

// ecosystemsNamed returns the ecosystems text names and text without the words that name them:
// those words say where to look, not what to look for ("JavaScript" would otherwise find
// bson.JavaScript). A word counts when all its parts name ecosystems ("Node.js").
func ecosystemsNamed(text string) (map[docidx.Ecosystem]bool, string) {
	fields := strings.Fields(text)
	ecos := map[docidx.Ecosystem]bool{}
	rest := make([]string, 0, len(fields))
	prev := ""
	for i, f := range fields {
		// A possessive in capitals names its ecosystem as the word does ("Node's url module",
		// "Rust's"); one in lower case is a noun's ("a yaml node's line").
		word := f
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsUpper(r) {
			word = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(f, ",.;:?!)"), "'s"), "’s")
		}
		parts := strings.FieldsFunc(strings.ToLower(word), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		var named []docidx.Ecosystem
		for _, p := range parts {
			eco, ok := ecosystemWords[p]
			if !ok && p == "go" && i > 0 && (i == len(fields)-1 || slices.Contains(goNamers, prev) || strings.HasPrefix(f, "Go")) {
				eco, ok = docidx.Go, true
			}
			if !ok {
				named = nil
				break
			}
			named = append(named, eco)
		}
		for _, eco := range named {
			ecos[eco] = true
		}
		if len(named) == 0 {
			rest = append(rest, f)
		}
		if len(parts) > 0 {
			prev = parts[len(parts)-1]
		}
	}
	return ecos, strings.Join(rest, " ")
}

// rustPathNames returns the identifiers, lowercased, of the Rust paths text writes (rustPath):
// "std", "process" and "exit" of "std::process::exit".
func rustPathNames(text string) map[string]bool {
	var out map[string]bool
	for _, f := range strings.Fields(text) {
		for _, part := range rustPath(f) {
			if isIdentifier(part) {
				if out == nil {
					out = map[string]bool{}
				}
				out[strings.ToLower(part)] = true
			}
		}
	}
	return out
}

// rustPath returns the segments of the Rust path that word, a field of a question, writes as
// code names it (codeWord): "std", "process", "exit" of "std::process::exit()", "tokio",
// "select" of "tokio::select!"; nil when word is no path of identifiers joined by "::" (a
// pytest node ID, "tests/test_io.py::test_read", starts with a file name).
func rustPath(word string) []string {
	parts := strings.Split(codeWord(word), "::")
	if len(parts) < 2 || !isIdentifier(parts[0]) {
		return nil
	}
	return parts
}

// docFilter is the test a document must pass to be scored, under a query's filters (see
// rankIndex.filter): a concrete type rather than a func, so that the test inlines into the
// loops over postings, which call it for every document they add.
type docFilter struct {
	// docOK has a bit per document that passes the filters: one memory access per test, in a
	// table 32 times smaller than the package version of each document (docPkg) that it was
	// tested through before.
	docOK []uint64
}

// keep reports whether document doc passes f. A nil f passes every document.
func (f *docFilter) keep(doc uint32) bool {
	return f == nil || f.docOK[doc>>6]>>(doc&63)&1 != 0
}

// keepsIn reports whether a document of [lo, hi) passes f.
func (f *docFilter) keepsIn(lo, hi uint32) bool {
	if f == nil {
		return lo < hi
	}
	for doc := lo; doc < hi; {
		if doc%64 == 0 && hi-doc >= 64 {
			if f.docOK[doc/64] != 0 {
				return true
			}
			doc += 64
			continue
		}
		if f.keep(doc) {
			return true
		}
		doc++
	}
	return false
}

// keepKind reports whether document doc is of kind, a kind filter.
func (ri *rankIndex) keepKind(doc uint32, kind string) bool {
	switch kind {
	case string(docidx.HitSymbol):
		return ri.isSymbol(doc)
	case string(docidx.HitSection):
		return !ri.isSymbol(doc)
	}
	return ri.kindOf(doc) == kind
}

// filter returns the test a document must pass under q's ecosystem, package, version and kind
// filters. Without a version a document must be live (its package's latest version, searched
// in this segment); with one, of that version and searched in this segment. It is nil when
// every document passes.
//
// Most searches filter by no package and no version: their filter, which depends on the
// ecosystem and kind only, is made once and shared.
func (ri *rankIndex) filter(q Query) *docFilter {
	version := q.Version
	if version == "latest" {
		version = ""
	}
	if version != "" || q.Package != "" {
		return ri.makeFilter(q.Ecosystem, q.Package, version, q.Kind)
	}
	key := filterKey{q.Ecosystem, q.Kind}
	ri.filterMu.Lock()
	defer ri.filterMu.Unlock()
	f, ok := ri.filters[key]
	if !ok {
		f = ri.makeFilter(q.Ecosystem, "", "", q.Kind)
		if ri.filters == nil {
			ri.filters = make(map[filterKey]*docFilter)
		}
		if len(ri.filters) < maxCachedFilters {
			ri.filters[key] = f
		}
	}
	return f
}

// filterKey is what the filter of a search by no package and no version depends on.
type filterKey struct {
	eco  docidx.Ecosystem
	kind string
}

// maxCachedFilters bounds the filters a rank index keeps (each a bit per document): the
// ecosystems and kinds are few, but a Query's are the caller's strings.
const maxCachedFilters = 32

// makeFilter is filter without its shared filters: the test of the documents of kind in the
// package versions of eco, named name, of version ("" for the live ones).
func (ri *rankIndex) makeFilter(eco docidx.Ecosystem, name, version, kind string) *docFilter {
	if eco != "" && name != "" {
		name = docidx.NormalizeName(eco, name)
	}
	pkgOK := make([]bool, ri.npkgs)
	all := true
	for p := range pkgOK {
		e, pkg, _ := strings.Cut(ri.pkgKey(uint32(p)), "\x00")
		ok := ri.live[p]
		if version != "" {
			ok = ri.where[p] && ri.versions[p] == version
		}
		pkgOK[p] = ok && (eco == "" || e == string(eco)) && (name == "" || pkg == name)
		all = all && pkgOK[p]
	}
	if all && kind == "" {
		return nil
	}
	return &docFilter{docOK: ri.docsOf(pkgOK, kind)}
}

// docsOf returns a bit per document, set for the documents of kind ("" for any) of the package
// versions pkgOK marks. A package version's documents are numbered together (see pkgDocs), so
// that without a kind whole words of bits are set at a time, and a search by package tests
// only that package's documents.
func (ri *rankIndex) docsOf(pkgOK []bool, kind string) []uint64 {
	out := make([]uint64, (ri.docs+63)/64)
	set := func(doc uint32) {
		if kind == "" || ri.keepKind(doc, kind) {
			out[doc/64] |= 1 << (doc % 64)
		}
	}
	ranges, ok := ri.pkgDocs()
	if !ok {
		for r, p := range ri.runPkg {
			if pkgOK[p] {
				for doc := ri.runStart[r]; doc < ri.runStart[r+1]; doc++ {
					set(doc)
				}
			}
		}
		return out
	}
	for p, in := range pkgOK {
		if !in {
			continue
		}
		for doc, end := ranges[p][0], ranges[p][1]; doc < end; {
			if kind == "" && doc%64 == 0 && end-doc >= 64 {
				out[doc/64] = ^uint64(0)
				doc += 64
				continue
			}
			set(doc)
			doc++
		}
	}
	return out
}

// pkgDocs returns the range [first, end) of the documents of each package version, when each
// version's documents are numbered consecutively (rankBuilder.documents writes them together,
// and newRankIndex numbers a segment's documents in its order); ok is false when they are
// not, and callers go through the runs instead.
func (ri *rankIndex) pkgDocs() (ranges [][2]uint32, ok bool) {
	ri.pkgDocsOnce.Do(func() {
		ranges := make([][2]uint32, ri.npkgs)
		seen := make([]bool, ri.npkgs)
		for r, p := range ri.runPkg {
			if seen[p] {
				return // a second run of documents of one version
			}
			seen[p] = true
			ranges[p] = [2]uint32{ri.runStart[r], ri.runStart[r+1]}
		}
		ri.pkgRanges = ranges
	})
	return ri.pkgRanges, ri.pkgRanges != nil
}

// forEachPosting calls fn for every (document, impact) of an encoded postings list.
func forEachPosting(list []byte, fn func(doc uint32, impact uint8)) {
	var doc uint32
	var impact uint8
	for i, ok := 0, true; i < len(list)-1; {
		if doc, impact, i, ok = nextPosting(list, i, doc); !ok {
			return
		}
		fn(doc, impact)
	}
}

// scored is a document with its score and its place in rankIndex.order.
type scored struct {
	doc   uint32
	ord   uint32
	score float64
}

// cmpScored orders by score, then by the documents' order (rankIndex.order) first, so that
// results depend neither on the order documents were seen nor on the segments they are in.
func cmpScored(a, b scored) int {
	switch {
	case a.score < b.score:
		return -1
	case a.score > b.score:
		return 1
	case a.ord > b.ord:
		return -1
	case a.ord < b.ord:
		return 1
	}
	return 0
}

// scoreHeap is a min-heap of scored documents: its root is the weakest of the best kept.
type scoreHeap []scored

// offer keeps d if the heap holds fewer than n documents or d beats the weakest, and reports
// whether it kept d.
func (h *scoreHeap) offer(d scored, n int) bool {
	if len(*h) < n {
		*h = append(*h, d)
		h.up(len(*h) - 1)
		return true
	}
	if cmpScored(d, (*h)[0]) <= 0 {
		return false
	}
	(*h)[0] = d
	h.down(0)
	return true
}

func (h scoreHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if cmpScored(h[i], h[p]) >= 0 {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h scoreHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && cmpScored(h[r], h[l]) < 0 {
			m = r
		}
		if cmpScored(h[m], h[i]) >= 0 {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// decayPows[k] is packageDecay^k.
var decayPows = func() (p [256]float64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = p[k-1] * packageDecay
	}
	return p
}()

func packageDecayPow(k int) float64 { return decayPows[min(k, len(decayPows)-1)] }

// identifierWords returns the lowercased identifiers of text that name symbols: words written as
// identifiers (camelCase, snake_case, or qualified, of which the last part) and the capitalized
// words of two letters or more right beside one ("HandleFunc Methods"; not the "I" of "If I
// call limit.clearQueue()", which named every symbol called I) or in a search of two words
// ("tower Layer"), or the one word of a one-word question.
func identifierWords(text string) []string {
	out := identifierNames(text)
	for i, w := range out {
		out[i] = strings.ToLower(w)
	}
	return out
}

// identifierNames returns the identifiers of identifierWords as text writes them, in the same
// order.
func identifierNames(text string) []string {
	out, _ := namesAsWritten(text)
	return out
}

// namesAsWritten returns identifierNames(text) and, for each, whether it is only a capitalized
// word after a possessive ("Limited" of "http-body-util's Limited"): a name of the owner's, but
// too plain a word to find its members by (memberBonuses).
func namesAsWritten(text string) (out []string, possessed []bool) {
	words := codeFields(text)
	ident := make([]bool, len(words))
	trimmed := make([]string, len(words))
	for k, w := range words {
		call := strings.Contains(w, "(") || macroCall(w)
		w = codeWord(w)
		member := false
		if i := strings.LastIndexAny(w, ".:/"); i >= 0 {
			member = qualifiedMember(w, i)
			w = w[i+1:]
		}
		trimmed[k] = w
		if w != "" && (len(words) == 1 || strings.ContainsRune(w, '_') || isCamel(w) || member || call && len(w) > 2) {
			out = append(out, w)
			possessed = append(possessed, false)
			ident[k] = true
		}
	}
	for k, w := range trimmed {
		if ident[k] || utf8.RuneCountInString(w) < 2 || !unicode.IsUpper([]rune(w)[0]) {
			continue
		}
		// A search of two words is a lookup, not a sentence ("ryu Buffer", "tower Layer"):
		// a capital there is the name's own, not a sentence's. Nor is one after a possessive:
		// "http-body-util's Limited" names the owner's type.
		beside := k > 0 && ident[k-1] || k+1 < len(words) && ident[k+1] || len(words) == 2
		owned := false
		if k > 0 && isIdentifier(w) {
			_, owned = possessive(words[k-1])
		}
		if beside || owned {
			out = append(out, w)
			possessed = append(possessed, !beside)
		}
	}
	return out, possessed
}

// macroCall reports whether the word w of a question writes a Rust macro's invocation as code
// calls one: a snake_case name and "!" ("select!", "tokio::select!", "info!,", "debug!/trace!",
// "json!({"). Like a call written with parentheses, it names the symbol. A capitalized word
// ("Help!") is English's exclamation: Rust's macros are named in snake case.
func macroCall(w string) bool {
	for i := strings.IndexByte(w, '!'); i > 0; i = strings.IndexByte(w, '!') {
		name := w[:i]
		if j := strings.LastIndexFunc(name, func(r rune) bool { return !isIdentByte(byte(r)) || r > 0x7f }); j >= 0 {
			name = name[j+1:]
		}
		if name != "" && name[0] >= 'a' && name[0] <= 'z' && (i+1 == len(w) || strings.IndexByte("/,;:.?)([{", w[i+1]) >= 0) {
			return true
		}
		w = w[i+1:]
	}
	return false
}

// codeFields returns the words of text as strings.Fields has them, except that a word writing
// a call with arguments stands for two: the call without its arguments ("semver.IsValid()" of
// `semver.IsValid("1.2.3")`, "pd.merge()" of "pd.merge(df,"; splitCall), then the words of its
// arguments ("load_default=None" of "fields.Str(load_default=None,"). Arguments are values, not
// the path that names the symbol: their dots and quotes would make "3" of `IsValid("1.2.3")` the
// name and "2" its owner. A parenthesis that follows no name is punctuation: "(readFileSync)"
// is one word. A possessive before code is the code's owner (possessive).
func codeFields(text string) []string {
	fields := strings.Fields(text)
	out := fields[:0:0]
	for k := 0; k < len(fields); k++ {
		f := fields[k]
		// "BeautifulSoup's get_text()" writes the member of an owner as "BeautifulSoup.get_text()"
		// does: the possessive names the owner of the code that follows it.
		if owner, ok := possessive(f); ok && k+1 < len(fields) && codeLike(fields[k+1]) {
			k++
			f = owner + "." + fields[k]
		}
		path, args := splitCall(f)
		if path == f {
			out = append(out, f)
			continue
		}
		out = append(out, path+"()")
		out = append(out, strings.FieldsFunc(args, func(r rune) bool { return r == ',' || r == '(' || r == ')' })...)
	}
	return out
}

// possessives returns the words text writes in the possessive, lowercased ("subtle" of "subtle's
// constant-time behaviour"): what the question says owns something, a package or a type.
func possessives(text string) map[string]bool {
	var out map[string]bool
	for _, w := range strings.Fields(text) {
		if o, ok := possessive(strings.TrimRight(w, ",.;:?!")); ok {
			if out == nil {
				out = map[string]bool{}
			}
			out[strings.ToLower(o)] = true
		}
	}
	return out
}

// possessive returns the word w writes in the possessive ("BeautifulSoup" of "BeautifulSoup's",
// "parking_lot" of "parking_lot’s"), and false when w is not one: also when it is a pronoun's or
// a question word's contraction of "is" or "has" ("it's", "what's", "there's").
func possessive(w string) (string, bool) {
	for _, s := range []string{"'s", "’s"} {
		if owner, ok := strings.CutSuffix(w, s); ok && owner != "" && isIdentByte(owner[len(owner)-1]) && !contracts[strings.ToLower(owner)] {
			return owner, true
		}
	}
	return "", false
}

// contracts are the English words whose "'s" is "is", "has" or "us" ("it's", "let's"), not a
// possessive.
var contracts = map[string]bool{
	"it": true, "that": true, "this": true, "what": true, "there": true, "here": true, "who": true,
	"where": true, "when": true, "how": true, "why": true, "let": true, "he": true, "she": true,
	"everything": true, "nothing": true, "something": true,
}

// codeLike reports whether a word of a question is written as code: a call, a path
// ("Condvar::wait", "os.path"), or an identifier in snake_case or camelCase.
func codeLike(w string) bool {
	w = strings.TrimRight(w, ",.;:?!")
	return strings.Contains(w, "(") || strings.Contains(w, "::") || strings.Contains(w, "_") ||
		strings.Contains(strings.Trim(w, "."), ".") || isCamel(w)
}

// splitCall returns w without the argument lists of the calls it writes ("logger.V.Error" of
// "logger.V(4).Error(...)"; a list the word does not close ends it), and what they hold.
func splitCall(w string) (path, args string) {
	if !strings.Contains(w, "(") {
		return w, ""
	}
	p := make([]byte, 0, len(w))
	var a []byte
	depth := 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '(' && (depth > 0 || i > 0 && (isIdentByte(w[i-1]) || w[i-1] == ')')):
			if depth > 0 {
				a = append(a, c)
			} else {
				a = append(a, ',')
			}
			depth++
		case c == ')' && depth > 0:
			if depth--; depth > 0 {
				a = append(a, c)
			}
		case depth == 0:
			p = append(p, c)
		default:
			a = append(a, c)
		}
	}
	return string(p), string(a)
}

// bareCalls returns the names text calls without an owner, lowercased: "ms" of "ms()" and of
// "ms('2 days')", not "parse" of "yaml.parse()".
func bareCalls(text string) []string {
	var out []string
	for _, f := range codeFields(text) {
		if !strings.Contains(f, "(") {
			continue
		}
		if w := codeWord(f); isIdentifier(w) && strings.HasPrefix(strings.TrimLeft(f, "`'\"("), w+"(") {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// codeWord returns the identifier path a word of a question writes, as code names it: without
// a call's arguments (splitCall), generic arguments ("SmallVec" of "SmallVec<[u8; 4]>"),
// the value given to a name ("load_default" of "load_default=None", "CGO_ENABLED" of
// "CGO_ENABLED=0"), a possessive or contraction ("parking_lot" of "parking_lot's") and the
// punctuation around it (quotes, brackets, a sentence's full stop).
func codeWord(w string) string {
	w, _ = splitCall(w)
	for i := 1; i < len(w); i++ {
		if (w[i] == '<' || w[i] == '=') && isIdentByte(w[i-1]) {
			w = w[:i]
			break
		}
	}
	w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	// "parking_lot's", "shareReplay'd": what follows the apostrophe is English, not the name.
	if i := strings.IndexAny(w, "'’"); i > 0 && isIdentByte(w[i-1]) {
		w = w[:i]
	}
	return w
}

// isIdentifier reports whether s is written as an identifier: letters, digits and underscores,
// not starting with a digit.
func isIdentifier(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// qualifiedMember reports whether w, whose last separator is at i, spells a member by its
// owner's path the way code does: Rust's "IndexMap::remove", a type's member "Request.args"
// (an owner that starts upper-case, a member of three letters or more, so that "README.md" and
// "e.g" are not).
func qualifiedMember(w string, i int) bool {
	last := w[i+1:]
	if last == "" || !unicode.IsLetter([]rune(last)[0]) {
		return false
	}
	if i > 0 && w[i] == ':' && w[i-1] == ':' {
		return true
	}
	if w[i] != '.' || len(last) < 3 {
		return false
	}
	owner := w[:i]
	if j := strings.LastIndexAny(owner, ".:/"); j >= 0 {
		owner = owner[j+1:]
	}
	return isPascal(owner)
}

// restShare returns the share of a document's score raw that words other than the package's
// names gave it, named being what those names gave: (raw-named)/raw, and 0 when that is below
// minRestShare. raw and named are float32 sums of the same impacts added in other orders
// (accumulate's and withinPackage's), so a document that holds only the names has a rest of a
// few units in their last place rather than 0; scaled up to the package's best score, that
// rounding put on-exit-leak-free's three undocumented symbols above its README for
// "on-exit-leak-free version", once other documents had changed the order the sums were made in.
func restShare(raw, named float64) float64 {
	share := max(0, raw-named) / raw
	if share < minRestShare {
		return 0
	}
	return share
}

// minRestShare is the least share of a score restShare tells from rounding: float32 sums of a
// dozen impacts differ by about 1e-6 of their value; a word of a question adds at least about
// 1e-3 of a document's score.
const minRestShare = 1e-4

// isCamel reports whether w has an upper-case letter after a lower-case one ("useState",
// "NewWeighted", "readFileSync").
func isCamel(w string) bool {
	lower := false
	for _, r := range w {
		if unicode.IsUpper(r) && lower {
			return true
		}
		lower = unicode.IsLower(r)
	}
	return false
}

// withinPackage orders the best package's documents among top (the window best documents, their
// final scores) without the words that name the package: those say which package the question
// is about, and they chose it, but among its own pages they lift the ones that repeat its name
// (an install section, the package doc) over the one that answers. Each of its documents keeps
// the share of its score that the question's other words gave it, scaled so that the package's
// best score is what it was: the package ranks against the others as before. names are
// questionNames(words); lists are the question's, as accumulate read them into a.lists.
func (ri *rankIndex) withinPackage(r *reader, a *accumulator, top scoreHeap, lists []termList, words string, names map[string]bool) {
	if len(top) == 0 {
		return
	}
	best := 0
	for i := range top {
		if cmpScored(top[i], top[best]) > 0 {
			best = i
		}
	}
	pkg := ri.pkgOf(top[best].doc)
	eco, name, _ := strings.Cut(ri.pkgKey(pkg), "\x00")
	own := packageNames(docidx.Ecosystem(eco), name)
	// Most questions do not name the best package: those are done without looking at each word.
	if !slices.ContainsFunc(own, func(n string) bool { return names[n] }) {
		return
	}
	// The naming words are the package's names as the question writes them: a word, or the
	// owner of a call ("cacheable" of "cacheable.set()", whose member "set" is a word of the
	// question like any other). A path ("BurntSushi/toml") is taken in the question's letter
	// case, so that its terms are the question's: "burnt", "sushi", "burntsushi" and "toml",
	// which the import paths of the module's packages hold, and not only "burntsushi" and
	// "toml". A plain name keeps its parts ("IndexMap" is also the words "index" and "map", of
	// the type's own docs).
	var naming []string
	for _, f := range strings.Fields(words) {
		lower := strings.ToLower(f)
		for w := range questionNames(f) {
			if slices.Contains(own, w) {
				if i := strings.Index(lower, w); i >= 0 && len(lower) == len(f) && strings.Contains(w, "/") {
					w = f[i : i+len(w)]
				}
				naming = append(naming, w)
			}
		}
	}
	nameTerms := map[string]bool{}
	for _, t := range r.searchTerms(strings.Join(naming, " ")) {
		nameTerms[t] = true
	}
	// A question of nothing but the package's names ("pyyaml", "serde_urlencoded") leaves its
	// documents nothing else to be ordered by: they keep their scores, and the overview the
	// name spells comes first.
	if !slices.ContainsFunc(lists, func(l termList) bool { return !nameTerms[l.term] }) {
		return
	}
	in := map[uint32]int{} // document -> its index in top, for the package's documents
	lo, hi := uint32(math.MaxUint32), uint32(0)
	for i := range top {
		if doc := top[i].doc; ri.pkgOf(doc) == pkg {
			in[doc] = i
			lo, hi = min(lo, doc), max(hi, doc+1)
		}
	}
	named := make(map[uint32]float32, len(in))
	k := 0 // the list part in a.lists, as accumulate read them
	for _, l := range lists {
		parts := a.lists[k : k+len(l.parts)]
		k += len(l.parts)
		// Every naming word counts, however many documents hold it: a list read only over
		// the package's documents is short to walk, dense or not (postingsIn), and skipping
		// the dense ones made the order hang on whether a word ("3" of xxh3) held one
		// document in 16 of the snapshot.
		if !nameTerms[l.term] {
			continue
		}
		ri.forEachIn(l, parts, lo, hi, func(doc uint32, impact uint8) {
			if _, ok := in[doc]; ok {
				named[doc] += l.idf * float32(impact) / 255
			}
		})
	}
	if len(named) == 0 {
		return
	}
	// When none of the package's documents holds another word of the question, they keep
	// their scores.
	share := make(map[uint32]float64, len(in))
	var oldMax, newMax float64
	for doc, i := range in {
		oldMax = max(oldMax, top[i].score)
		share[doc] = 1
		if raw := float64(a.scoreOf(doc)); raw > 0 {
			share[doc] = restShare(raw, float64(named[doc]))
		}
		newMax = max(newMax, top[i].score*share[doc])
	}
	if newMax <= 0 {
		return
	}
	for doc, i := range in {
		top[i].score *= share[doc] * oldMax / newMax
	}
}
