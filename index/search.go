package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	index "github.com/blevesearch/bleve_index_api"
	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/purl"
)

// MaxLimit is the largest page of hits Search returns.
const MaxLimit = 100

func (r *reader) search(ctx context.Context, q Query) (*Results, error) {
	res, ps, err := r.searchDeferred(ctx, q)
	if err != nil || ps == nil {
		return res, err
	}
	for i := range res.Hits {
		res.Hits[i].Snippet = ps.at(i)
	}
	return res, nil
}

// SearchDeferred runs q as Search does, but leaves each hit's Snippet empty: ps.At(i) returns
// the passage of res.Hits[i], the one Search would give it, chosen when asked. A caller that
// shows fewer hits than it asks for (one more to know whether more follow, a few more in case
// some repeat a hit) chooses only the passages it shows; choosing them was a fifth of a search.
// A caller that leaves a hit out (ps.Skip) gives the hits after it the budgets of their places
// among the hits it shows. ps works on copies of the hits' stored text: it may be used from any
// goroutine, and after the Reader is closed.
func (r *Reader) SearchDeferred(ctx context.Context, q Query) (res *Results, ps *Passages, err error) {
	defer guard(&err, r.r.dir)()
	if err := r.r.checkMapped(); err != nil {
		return nil, nil, err
	}
	res, p, err := r.r.searchDeferred(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	return res, &Passages{p: p}, nil
}

// Passages are the passages of a page of hits that SearchDeferred left to choose.
type Passages struct {
	p *passages // nil when the page has no hits
}

// At returns the passage of hit i, choosing it on the first call.
func (ps *Passages) At(i int) string {
	if ps.p == nil {
		return ""
	}
	return ps.p.at(i)
}

// Skip tells that hit i is not shown (it repeats a hit above it): the hits after it take its
// place in the passage budgets (passageBudget), and its words no longer count as shown above
// them. Call it before the passages of the hits after i are chosen.
func (ps *Passages) Skip(i int) {
	if ps.p == nil {
		return
	}
	ps.p.mu.Lock()
	defer ps.p.mu.Unlock()
	ps.p.hits[i].repeat = true
}

// Passage returns the passage of text that answers query within about budget bytes, chosen as
// a search hit's is (passage.go): whole sentences, list items, table rows and code blocks where
// the query's words, weighed by their rarity in the snapshot, stand closest, and the sentences
// elsewhere that add words the first lacks. It is "" when text holds none of query's words. It
// is for reading one page for a question (answer's Read with a query).
func (r *Reader) Passage(text, query string, budget int) (p string, err error) {
	defer guard(&err, r.r.dir)()
	ri, err := r.r.ranked()
	if err != nil {
		return "", err
	}
	pq := newPassageQuery(query, r.r.wordWeight(ri, query, nil))
	if pq.score(^uint64(0)) == 0 {
		return "", nil
	}
	// As a doc comment is stored (storeDoc): paragraphs wrapped over lines joined into one, so
	// that a passage starts at a sentence, not at a line break inside one.
	text = storeDoc(text, len(text)+1)
	if pq.shownWords(text)&^(1<<numberBit) == 0 {
		return "", nil
	}
	return passage(text, pq, budget), nil
}

// searchDeferred is search with the hits' passages left to choose (nil when there are no hits).
func (r *reader) searchDeferred(ctx context.Context, q Query) (*Results, *passages, error) {
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return nil, nil, errors.New("index: empty query: say what to search for")
	}
	if len(text) > 1000 {
		text = clip(text, 1000)
	}
	kind, err := NormalizeKind(q.Kind)
	if err != nil {
		return nil, nil, err
	}
	q.Kind = kind
	q.Version = r.searchVersion(q)
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, MaxLimit)
	offset := max(q.Offset, 0)
	window := max(diversifyWindow, offset+limit)

	ri, err := r.ranked()
	if err != nil {
		return nil, nil, err
	}
	key := rankingKey{text: text, eco: q.Ecosystem, pkg: q.Package, version: q.Version, kind: q.Kind}
	rk, ok := r.rankings.get(key, offset+limit)
	var read map[uint32]*readText // the texts byProximity read, for the page's passages
	if !ok {
		// The first proximityHits are ordered again (byProximity) whatever the page's size, so
		// that pages of any size agree. The ranking goes RankingDepth deep, for the pages after
		// this one, but only the hits of this page and of byProximity are read: not those of the
		// pages before it, which a caller asking for page after page as it leaves hits out (the
		// answer layer's twins: an OpenTelemetry question met 2,000 alike Unit methods) read
		// already, each read again on every page.
		records := func(rank int) bool { return rank < proximityHits || offset <= rank && rank < offset+limit }
		ranked, total, idf := r.rankSearch(ri, text, q, window, max(offset+limit, proximityHits, RankingDepth), records)
		if total == 0 {
			return &Results{Hits: []docidx.Hit{}}, nil, nil
		}
		pq := newPassageQuery(text, r.wordWeight(ri, text, idf))
		read = byProximity(ri, ranked, pq)
		rk = ranking{ranked: ranked, total: total, pq: pq}
		defer r.rankings.put(key, rk) // once page has read the records of this page's hits
	}
	return r.page(ri, rk.ranked, rk.total, q, rk.pq, offset, limit, read)
}

// RankingDepth is how many hits a search ranks at least, for the pages that follow: a caller
// that leaves out hits repeating others (the answer layer's twins and repeats) asks for the next
// ones at once, and they come from the ranking kept in the reader's rankings, not from ranking
// the question again. A page that ends deeper ranks the question again, as deep as it ends.
const RankingDepth = 40

// maxRankings is how many rankings a reader keeps (rankings), the most recently used.
const maxRankings = 16

// rankingKey is what decides a search's ranking: its question and its filters.
type rankingKey struct {
	text               string
	eco                docidx.Ecosystem
	pkg, version, kind string
}

// ranking is a search's ranking kept for the pages that follow: the hits ranked (those with a
// record read), how many documents matched, and the question's passage query. It is not
// changed once kept; get hands out a copy of its hits, whose records page may fill.
type ranking struct {
	ranked []rankHit
	total  int
	pq     *passageQuery
}

// rankings are the rankings of a reader's latest searches, the most recently used last. A
// reader reads one snapshot, which never changes, so a ranking holds as long as the reader.
type rankings struct {
	mu   sync.Mutex
	keys []rankingKey
	vals []ranking
}

// get returns a copy of the ranking kept for key, when it ranks upTo hits or all it matched.
func (rs *rankings) get(key rankingKey, upTo int) (ranking, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for i, k := range rs.keys {
		if k != key {
			continue
		}
		rk := rs.vals[i]
		if len(rk.ranked) < min(upTo, rk.total) {
			return ranking{}, false
		}
		// Most recently used last.
		rs.keys = append(append(rs.keys[:i], rs.keys[i+1:]...), k)
		rs.vals = append(append(rs.vals[:i], rs.vals[i+1:]...), rk)
		rk.ranked = slices.Clone(rk.ranked)
		return rk, true
	}
	return ranking{}, false
}

// put keeps a copy of rk as key's ranking, dropping the least recently used beyond maxRankings.
func (rs *rankings) put(key rankingKey, rk ranking) {
	rk.ranked = slices.Clone(rk.ranked)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if i := slices.Index(rs.keys, key); i >= 0 {
		rs.keys = slices.Delete(rs.keys, i, i+1)
		rs.vals = slices.Delete(rs.vals, i, i+1)
	}
	if len(rs.keys) == maxRankings {
		rs.keys = slices.Delete(rs.keys, 0, 1)
		rs.vals = slices.Delete(rs.vals, 0, 1)
	}
	rs.keys = append(rs.keys, key)
	rs.vals = append(rs.vals, rk)
}

// proximityHits is how many of the first hits byProximity orders again, and proximityWeight how
// much a hit's score grows with the share of the question its passage's core holds. Measured
// again once symbols showed what their package's prose says of them (withMention), fact
// anywhere / in hit 1 / in the first 2 KB on the dev half of testdata/heldout: 0.5 .803 / .496
// / .667; 1.0, 1.25 and 1.5 .812 / .526 / .679; 2.0 .812 / .521 / .662; 3.0 .808 / .521 /
// .658. testdata/answers had two fewer in hit 1 at 0.5 and 1.0, one fewer at 3.0, and the
// same from 1.25 to 2.0; the set kept outside the repository answered alike but for one more
// in hit 1 at 0.5. 1.5 is the middle of the plateau, and was 2.0's neighbour. 15 hits rather
// than 10 let a long page whose one paragraph answers (keyv's option list, xxh3's Uint128)
// climb from below the first page: one fact more anywhere on the dev half, on
// testdata/answers and on a set of 100 questions written outside the repository in session 56,
// and one more in that set's first 2 KB; 20 and 30 found as many, with one fact fewer in the
// first 2 KB of the dev half.
//
// cueWeight is how much more it grows for each answer cue of the question (answerCues) that the
// core states: a number when the question asks one ("how long", "the largest …"), the word
// "default" when it asks for a default ("by default", "unless I set it"). The option's
// description that says "Defaults to 60" answers; its sibling that only repeats the question's
// words does not. A cue counts beside its share of the question's weight, which the core's
// share holds already and which a long question dilutes. On the dev half of testdata/heldout,
// the number's cue took hit 1 from 49.6% to 50.4% (0.5: 50.0%; 2 and 4: 50.4%, with
// testdata/answers 60.0% and 56.7% against 61.7% at 1), the default's from 50.4% to 51.3%
// (0.5: 50.9%, 2: 51.7% with testdata/answers one fewer); no fact left the first 2 KB.
//
// headingNameWeight is how much more a section grows whose heading is written as code and is a
// word of the question (codeHeading): the section documents that name, as a symbol of the name
// does. On the dev half of testdata/heldout, 0.5 and 1.0 found one fact more (sonic-boom's
// SonicBoom(opts) section, anywhere .825 -> .829, hit 1 .521 -> .526), testdata/answers one more
// in hit 1, the outside set of session 44 one more in hit 1, and none fewer.
const (
	proximityHits     = 15
	proximityWeight   = 1.5
	cueWeight         = 1.0
	headingNameWeight = 0.5
)

// byProximity orders the first proximityHits of ranked (ri's documents) again by their scores
// grown by how much of the question's weight (pq, the question's passage query) the core of each
// hit's passage holds (passageCore: the best window of corePassageBytes): as proximity models of
// retrieval credit a document where the question's words stand together over one where they are
// scattered, the hit with one paragraph about the question over the one that names its words in
// passing. Only the first hits are ordered again, so that the pages after them hold what they
// held; a hit whose record was not read is ordered by its score alone. It returns the texts it
// read, by document, for their passages to be chosen from (page): reading a text for the
// question is a third of what choosing its passage costs.
func byProximity(ri *rankIndex, ranked []rankHit, pq *passageQuery) map[uint32]*readText {
	n := min(len(ranked), proximityHits)
	if n < 2 {
		return nil
	}
	// Each package keeps the places its hits held, and each place its score, so that scores stay
	// in rank order: proximity orders a package's hits, and the model that ranked them (its
	// fields, priors and names) says which package answers. A package with one hit among them
	// has nothing to order.
	byPkg := map[uint32][]int{}
	var order []uint32
	for i := range ranked[:n] {
		p := ri.pkgOf(ranked[i].doc)
		if byPkg[p] == nil {
			order = append(order, p)
		}
		byPkg[p] = append(byPkg[p], i)
	}
	var weights [maxPassageWords]float64
	var read map[uint32]*readText
	grown := make([]float64, n)
	for i := range ranked[:n] {
		h := &ranked[i]
		grown[i] = h.score
		if len(byPkg[ri.pkgOf(h.doc)]) < 2 {
			continue
		}
		hit, stored, said, ok := makeHit(&h.rec, h.score)
		if !ok || h.rec.id == "" {
			continue
		}
		hq := pq.forHit(hit.Package, hit.Title, hit.Section, weights[:0])
		total := hq.score(^uint64(0))
		if total <= 0 {
			continue
		}
		rt := newReadText(stored, &hq)
		if pt := &rt.pt; len(pt.segs) > 0 {
			_, _, held := passageCore(pt.text, pt.segs, &pt.pq, corePassageBytes)
			// The names of the sibling members that point to it are words it answers by, as
			// the mention field ranked it by them: werkzeug's query_string says "use `args`
			// for the parsed values", and args answers "read a query string parameter".
			held.prose |= hq.shownWords(mentioningNames(said, hit.Title))
			// A hit whose title spells every word of the question the package's name leaves
			// is what the question names: it holds them all, though its text does not repeat
			// them ("ryu::Buffer" is the Buffer struct, whose doc does not say its name, not
			// the Float trait, whose doc says "Buffer").
			if hq.titleHoldsAll() {
				held.prose |= hq.named
			}
			grow := 1 + proximityWeight*min(1, held.score(&hq)/total)
			words := held.prose | held.code
			if words&(1<<numberBit) != 0 {
				grow += cueWeight // the question asks for a number, and the core states one
			}
			if d := slices.Index(hq.stems, "default"); d >= 0 && words&(1<<d) != 0 {
				grow += cueWeight // the question asks for a default, and the core speaks of one
			}
			// A section whose heading is the name, written as code, of what the question
			// asks about documents it (sonic-boom's "SonicBoom(opts)" for "when SonicBoom
			// opens a file"), as a symbol of that name does.
			if hit.Kind != docidx.HitSymbol {
				if name := codeHeading(hit.Section); name != "" && slices.Contains(pq.stems, lightStem(name)) {
					grow += headingNameWeight
				}
			}
			grown[i] *= grow
			if read == nil {
				read = make(map[uint32]*readText, n)
			}
			read[h.doc] = rt
		} else {
			rt.pt.release()
		}
	}
	var moved []int
	var hits []rankHit
	for _, p := range order {
		at := byPkg[p]
		moved = append(moved[:0], at...)
		slices.SortStableFunc(moved, func(a, b int) int { return cmp.Compare(grown[b], grown[a]) })
		hits = hits[:0]
		for _, i := range moved {
			hits = append(hits, ranked[i])
		}
		for k, i := range at {
			score := ranked[i].score
			ranked[i] = hits[k]
			ranked[i].score = score
		}
	}
	return read
}

// readText is a hit's stored text read for a question: its segments with the question's words
// marked (passageText), and the hit's passage query (passageQuery.forHit), by which the passage
// chosen from it is weighed again. byProximity reads the first hits' texts so, and choose takes
// the reading rather than making it again.
type readText struct {
	pt      passageText
	pq      passageQuery
	weights [maxPassageWords]float64 // pq's weights
}

// newReadText reads text for hq, a hit's passage query, which it copies; rt.pt.release gives
// the reading's storage back.
func newReadText(text string, hq *passageQuery) *readText {
	rt := &readText{pq: *hq}
	if hq.weights != nil {
		rt.pq.weights = append(rt.weights[:0], hq.weights...)
	}
	rt.pt.init(text, &rt.pq)
	return rt
}

// page builds the hits of ranked[offset:offset+limit] (ri's documents) from their stored fields.
// Each hit's passage for q (see passage.go), chosen by pq (the question's passage query) with the
// budget of its rank among the results (passageBudget), is left to choose from ps.
func (r *reader) page(ri *rankIndex, ranked []rankHit, total int, q Query, pq *passageQuery, offset, limit int, read map[uint32]*readText) (_ *Results, ps *passages, _ error) {
	// The texts byProximity read that no hit of the page takes give their storage back.
	defer func() {
		for _, rt := range read {
			rt.pt.release()
		}
	}()
	out := &Results{Total: total, Hits: make([]docidx.Hit, 0, limit)}
	if offset >= len(ranked) {
		return out, nil, nil
	}
	page := ranked[offset:min(offset+limit, len(ranked))]
	ps = &passages{pq: pq, perHit: q.PassageBytes, offset: offset}
	// A hit's passage budget goes by its rank among the page's distinct answers (see choose).
	// Callers show one hit per URI (the overloads of a function share one) and one per member
	// inherited or declared alike on several types (the same name, declaration and text), so
	// such a repeat must not push the hits after it below topPassageHits.
	uris := make(map[string]bool, len(page))
	twins := make(map[twinKey]int, len(page)) // the first hit of each twinKey
	for i := range page {
		h := &page[i]
		if h.rec.id == "" {
			if err := r.storedFields(ri, h); err != nil {
				return nil, nil, fmt.Errorf("index: search: %w", err)
			}
		}
		hit, text, said, ok := makeHit(&h.rec, h.score)
		if !ok {
			continue
		}
		repeat := uris[hit.URI]
		uris[hit.URI] = true
		twin := 0
		if hit.Kind == docidx.HitSymbol {
			k := twinKey{pkg: hit.Package, version: hit.Version, name: hit.Title[strings.LastIndexAny(hit.Title, ".:")+1:],
				section: hit.Section, text: maphash.String(twinSeed, text)}
			if j, ok := twins[k]; ok {
				repeat, twin = true, j+1
			} else {
				twins[k] = len(ps.hits)
			}
		}
		rt := read[h.doc] // read from this same record by byProximity
		delete(read, h.doc)
		ps.hits = append(ps.hits, deferredPassage{text: text, said: said, repeat: repeat, twin: twin,
			pkg: hit.Package, title: hit.Title, section: hit.Section, read: rt})
		out.Hits = append(out.Hits, hit)
	}
	return out, ps, nil
}

// passages are the passages of a page of hits, chosen when asked (see Reader.SearchDeferred).
// A pointer hit's passage depends on the words the passages of the hits above it show, so
// those are chosen first, once each, whatever order the hits are asked in.
type passages struct {
	pq     *passageQuery
	perHit int               // hit 1's budget (Query.PassageBytes)
	offset int               // the rank of the page's first hit among the results
	hits   []deferredPassage // by hit

	mu     sync.Mutex
	chosen []bool   // by hit: its passage is in shown
	shown  []string // by hit: its passage, once chosen
	words  []uint64 // by hit: the question's stems its passage shows, once chosen
}

// deferredPassage is what a hit's passage is chosen from: its stored text, whether it repeats a
// hit above it (or its caller leaves it out: Passages.Skip), and the package, title and section
// whose words weigh less (see forHit).
type deferredPassage struct {
	text   string
	said   string // what its sibling members and its package's prose say of it (splitMentions)
	repeat bool
	// twin is 1 + the index of the hit above it whose twin it is (twinKey: the same member
	// declared alike on another type), whose passage it shows, so that callers see the two as
	// one; 0 for none.
	twin                int
	pkg, title, section string
	read                *readText // its text as byProximity read it, until choose takes it; nil for none
}

// at returns the passage of hit i.
func (ps *passages) at(i int) string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.chosen == nil {
		ps.chosen = make([]bool, len(ps.hits))
		ps.shown = make([]string, len(ps.hits))
		ps.words = make([]uint64, len(ps.hits))
	}
	return ps.choose(i)
}

// choose returns the passage of hit i, choosing it if it was not: a pointer hit (one with a
// pointer budget) gets its full budget only when that passage shows a word of the question, in
// any of its forms, that none of the passages of the hits above it (repeats left out) shows;
// else its pointer, one sentence. ps.mu is held.
func (ps *passages) choose(i int) string {
	if ps.chosen[i] {
		return ps.shown[i]
	}
	h := &ps.hits[i]
	if h.twin > 0 {
		p := ps.choose(h.twin - 1)
		ps.chosen[i], ps.shown[i], ps.words[i] = true, p, ps.words[h.twin-1]
		return p
	}
	var weights [maxPassageWords]float64
	var pq passageQuery
	var local passageText // both passages of a pointer hit are chosen from one reading of its text
	pt := &local
	if rt := h.read; rt != nil {
		h.read = nil
		pq, pt = rt.pq, &rt.pt
	} else {
		pq = ps.pq.forHit(h.pkg, h.title, h.section, weights[:0])
		pt.init(h.text, &pq)
	}
	defer pt.release()
	rank := ps.offset
	for j := range i {
		if !ps.hits[j].repeat {
			rank++
		}
	}
	hb := passageBudget(ps.perHit, rank)
	budget := hb.passage
	if len(h.text) <= hb.whole {
		budget = max(budget, len(h.text)+len(h.text)/8)
	}
	p := pt.passage(budget)
	words := pq.shownWords(p)
	if hb.pointer > 0 {
		var above uint64
		for j := range i {
			if !ps.hits[j].repeat {
				ps.choose(j)
				above |= ps.words[j]
			}
		}
		if !pq.addsWords(words, above) {
			p = pt.passage(hb.pointer)
			words = pq.shownWords(p)
		}
	}
	if h.said != "" {
		p, words = withMention(p, words, h.said, &pq)
	}
	ps.chosen[i], ps.shown[i], ps.words[i] = true, p, words
	return p
}

// twinKey identifies a symbol hit that callers show once among its twins: a member declared
// alike on several types of a package version (same name, declaration and stored text, the
// text by its hash so that a page of hits does not copy up to 8 KiB each).
type twinKey struct {
	pkg, version, name, section string
	text                        uint64
}

// twinSeed seeds the hashes of twinKey.
var twinSeed = maphash.MakeSeed()

// wordWeight returns the weight of a question's word in choosing passages: the idf of its term
// in the rank index (so that "milliseconds" outweighs "value"), at least minWordWeight. A word's
// term is the longest of the question's terms it starts with (the analyzers' stems are
// prefixes of their words but for a few endings: those words weigh 1, as every word does
// without a rank index). idf holds the question's terms as rank.idx found them; nil, they are
// looked up in ri, r's rank index.
func (r *reader) wordWeight(ri *rankIndex, text string, idf map[string]float32) func(word string) float64 {
	if idf == nil {
		idf = map[string]float32{}
		for _, t := range r.questionTerms(text) {
			if l, ok := ri.lookup(t); ok {
				idf[t] = l.idf
			}
		}
	}
	return func(word string) float64 {
		best, w := "", float32(0)
		for t, v := range idf {
			if len(t) > len(best) && len(t) >= 3 && strings.HasPrefix(word, t) {
				best, w = t, v
			}
		}
		if best == "" {
			return 1
		}
		return max(float64(w), minWordWeight)
	}
}

// minWordWeight is the least weight of a word in choosing passages: a word nearly every document
// holds still tells a passage that has it from one that has not.
const minWordWeight = 0.3

// storedFields reads the ID and the stored fields of a hit of rank.idx that could not be read
// when it was ranked again, for the error. ri is r's rank index.
func (r *reader) storedFields(ri *rankIndex, h *rankHit) error {
	if int(h.doc) >= ri.docs {
		return fmt.Errorf("rank.idx document %d out of range", h.doc)
	}
	readers := make([]index.IndexReader, len(r.segs))
	defer closeReaders(readers)
	_, err := r.storedHit(ri, h.doc, readers, &h.rec, nil)
	return err
}

// terms returns the distinct terms that field's analyzer makes of text.
func (r *reader) terms(field, text string) []string {
	m := r.mapping
	a := m.AnalyzerNamed(m.AnalyzerNameForPath(field))
	if a == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, tok := range a.Analyze([]byte(text)) {
		if t := string(tok.Term); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// makeHit builds a Hit without its passage from a document's hitRecord, and returns the stored
// text its passage is chosen from and what its package's prose says of it (see splitMentions).
func makeHit(rec *hitRecord, score float64) (hit docidx.Hit, text, said string, ok bool) {
	uri := rec.id
	if i := strings.LastIndexByte(uri, '#'); i >= 0 {
		uri = uri[:i]
	}
	ref, page, err := docidx.ParsePageURI(uri)
	if err != nil {
		return docidx.Hit{}, "", "", false
	}
	text, said = splitMentions(rec.text)
	kind := docidx.HitSection
	if strings.HasPrefix(page, docidx.PageSymbolPrefix) {
		kind = docidx.HitSymbol
	}
	return docidx.Hit{
		Ecosystem: ref.Ecosystem,
		Package:   ref.Name,
		Version:   ref.Version,
		PURL:      purl.Format(ref),
		Title:     rec.title,
		Section:   rec.section,
		Kind:      kind,
		Score:     score,
		URI:       rec.uri,
	}, text, said, true
}

// exactCandidates returns the lowercased forms of text that could be a package name typed
// whole: the text itself when it is one word.
func exactCandidates(text string) []string {
	t := strings.ToLower(text)
	if strings.ContainsFunc(t, unicode.IsSpace) {
		return nil
	}
	return []string{t}
}

// snippet returns up to n bytes of text around the first place where a query word (or its first
// five letters, to meet stemmed forms) occurs, starting at a word boundary, with runs of white
// space as single spaces. collapsed says text has them so already (CollapseSpace). passage cuts
// a sentence or code line longer than its budget with it.
func snippet(text string, words []string, n int, collapsed bool) string {
	cutBefore, cutAfter := false, false
	if len(text) > 3*n && !collapsed {
		// Only the part around the first match becomes the snippet: collapsing a whole section
		// for each hit was a fifth of a results page's time. The window holds what the snippet
		// can reach: n/3 before the match and a sentence end up to n/3 before that, n after.
		lo, hi := 0, 2*n
		if pos := indexFirstFold(text, words); pos > 0 {
			lo, hi = max(0, pos-n), min(len(text), pos+2*n)
		}
		for lo > 0 && lo < len(text) && text[lo]&0xC0 == 0x80 {
			lo++
		}
		for hi < len(text) && hi > lo && text[hi]&0xC0 == 0x80 {
			hi--
		}
		cutBefore, cutAfter = lo > 0, hi < len(text)
		text = text[lo:hi]
	}
	if !collapsed {
		text = CollapseSpace(text)
	}
	if len(text) <= n && !cutBefore && !cutAfter {
		return text
	}
	pos := indexFirstFold(text, words)
	start := 0
	if pos > n/3 {
		start = pos - n/3
		if i := strings.LastIndexAny(text[:start], ".!?"); i >= 0 && start-i < n/3 {
			start = i + 1
		} else if i := strings.IndexByte(text[start:], ' '); i >= 0 && i < 20 {
			start += i + 1
		}
		for start < len(text) && (text[start] == ' ' || text[start]&0xC0 == 0x80) {
			start++
		}
	}
	end := min(start+n, len(text))
	if end < len(text) {
		if i := strings.LastIndexByte(text[start:end], ' '); i > n/2 {
			end = start + i
		}
		for end > start && text[end-1]&0xC0 == 0xC0 {
			end--
		}
	}
	s := clip(text[start:], end-start)
	if start > 0 || cutBefore {
		s = "…" + s
	}
	if end < len(text) || cutAfter {
		s += "…"
	}
	return s
}

// CollapseSpace returns s with each run of white space (as unicode.IsSpace has it, newlines
// included) as one space and none at either end: strings.Join(strings.Fields(s), " ") in one
// pass, copying runs of other bytes whole, and s itself when there is nothing to collapse.
func CollapseSpace(s string) string {
	if isCollapsed(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		// Skip white space.
		for i < len(s) {
			if c := s[i]; c < utf8.RuneSelf {
				if !asciiSpace[c] {
					break
				}
				i++
			} else if r, size := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
				i += size
			} else {
				break
			}
		}
		if i == len(s) {
			break
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		// Copy a word.
		j := i
		for j < len(s) {
			if c := s[j]; c < utf8.RuneSelf {
				if asciiSpace[c] {
					break
				}
				j++
			} else if r, size := utf8.DecodeRuneInString(s[j:]); !unicode.IsSpace(r) {
				j += size
			} else {
				break
			}
		}
		b = append(b, s[i:j]...)
		i = j
	}
	return string(b)
}

// isCollapsed reports whether CollapseSpace has nothing to do to s: no white space but single
// spaces between other characters.
func isCollapsed(s string) bool {
	prevSpace := true // a leading space is to collapse
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' && !prevSpace:
				prevSpace = true
			case asciiSpace[c]:
				return false
			default:
				prevSpace = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		prevSpace = false
		i += size
	}
	return !prevSpace || s == "" // no trailing space
}

// asciiSpace holds the ASCII bytes unicode.IsSpace reports as white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// indexFirstFold returns the first byte offset in text where one of words (lower case), or its
// first five letters, occurs in any letter case, or -1. snippet looks for the same.
func indexFirstFold(text string, words []string) int {
	pos := -1
	for _, w := range words {
		if len(w) > 5 {
			w = w[:5]
		}
		if i := indexFold(text, w); i >= 0 && (pos < 0 || i < pos) {
			pos = i
		}
	}
	return pos
}

// indexFold is strings.Index(strings.ToLower(text), w) for a lower-case w, without lowering
// text when w is ASCII: candidates are found with strings.IndexByte for the first letter in
// either case.
func indexFold(text, w string) int {
	if w == "" {
		return 0
	}
	for i := range len(w) {
		if w[i] >= utf8.RuneSelf {
			// Not strings.ToLower(text): lowering may change lengths (invalid UTF-8, "İ"), and
			// the offset must be text's.
			for j := 0; j+len(w) <= len(text); j++ {
				if utf8.RuneStart(text[j]) && strings.EqualFold(text[j:j+len(w)], w) {
					return j
				}
			}
			return -1
		}
	}
	first, upper := w[0], w[0]
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	// nextLo and nextUp are the next offsets of first and upper at or after i (-1: none left).
	nextLo, nextUp := strings.IndexByte(text, first), -1
	if upper != first {
		nextUp = strings.IndexByte(text, upper)
	}
	for {
		i := nextLo
		if i < 0 || (nextUp >= 0 && nextUp < i) {
			i = nextUp
		}
		if i < 0 || i+len(w) > len(text) {
			return -1
		}
		if equalFoldASCII(text[i+1:i+len(w)], w[1:]) {
			return i
		}
		if i == nextLo {
			if k := strings.IndexByte(text[i+1:], first); k >= 0 {
				nextLo = i + 1 + k
			} else {
				nextLo = -1
			}
		} else {
			if k := strings.IndexByte(text[i+1:], upper); k >= 0 {
				nextUp = i + 1 + k
			} else {
				nextUp = -1
			}
		}
	}
}

// equalFoldASCII reports whether s, with ASCII upper case lowered, equals the lower-case w of
// the same length.
func equalFoldASCII(s, w string) bool {
	for j := range len(w) {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// searchVersion is the exact version q searches: with a package, the indexed version its Version
// selects (see ResolveVersion) in the first ecosystem that has one; else Version as given, which
// then matches no package when it is not an exact version.
func (r *reader) searchVersion(q Query) string {
	if q.Package == "" || !exactVersion(q.Version) {
		return q.Version
	}
	ecos := docidx.Ecosystems
	if q.Ecosystem != "" {
		ecos = []docidx.Ecosystem{q.Ecosystem}
	}
	for _, eco := range ecos {
		if ref, err := r.resolve(docidx.Ref{Ecosystem: eco, Name: q.Package, Version: q.Version}); err == nil {
			return ref.Version
		}
	}
	return q.Version
}

// codeHeading returns, lowercased, the name that the last heading of a section's heading path
// writes as code: "namespace" of ".namespace", "sonicboom" of "SonicBoom(opts)", "reopen" of
// "SonicBoom#reopen([file])", "timeout" of "`timeout`". It returns "" for a heading of prose
// ("Options", "Parsing Objects").
func codeHeading(path string) string {
	h := path
	if i := strings.LastIndex(h, " › "); i >= 0 {
		h = h[i+len(" › "):]
	}
	h = strings.TrimSpace(h)
	code := strings.HasPrefix(h, ".") || strings.HasPrefix(h, "`") || strings.Contains(h, "(") || strings.Contains(h, "#")
	if i := strings.IndexAny(h, "(["); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexAny(h, ".#"); i >= 0 {
		h = h[i+1:]
	}
	h = strings.Trim(h, "` ")
	if !code || h == "" || strings.ContainsAny(h, " ") {
		return ""
	}
	return strings.ToLower(h)
}
