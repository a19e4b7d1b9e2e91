package index

// synonyms.go widens a question's words to the other forms documentation writes them in.
// Identifiers abbreviate the words a question spells out: "what is the largest message a server
// will receive" is answered by MaxRecvMsgSize, "the connection's context" by conn.Ctx. Each word
// of the question that has other forms (wordForms) is searched by them too, at altWeight of its
// weight, and a document that holds a word in any of its forms counts it once in the share of the
// question's words it holds: MaxRecvMsgSize holds "largest", "message" and "receive".

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// altWeight is the weight of a word's other form against the word as the question types it: a
// form is a likely reading, not what was asked. It scores only in documents that lack the word
// as typed. On testdata/answers (when it was set), 0.85 to 1.0 found the most facts (0.817 in
// the first answer, 0.850 after one read), 0.8 one fewer, 0.5 two fewer; the labelled relevance
// sets did not move.
const altWeight = 0.9

// wordForms are groups of words that documentation and code write for one another: an
// abbreviation common in identifiers and the words it stands for, and a few superlatives that a
// limit's name spells as max or min. A word may be in several groups ("auth"). Only general
// words of programming belong here, never a package's own vocabulary.
var wordForms = [][]string{
	{"max", "maximum", "largest", "biggest"},
	{"min", "minimum", "smallest", "fewest"},
	{"recv", "receive"},
	{"msg", "message"},
	{"buf", "buffer"},
	{"conn", "connection"},
	{"ctx", "context"},
	{"cfg", "conf", "config", "configuration"},
	{"addr", "address"},
	{"req", "request"},
	{"resp", "response"},
	{"err", "error"},
	{"len", "length"},
	{"num", "number"},
	{"cnt", "count"},
	{"auth", "authentication", "authn"},
	{"auth", "authorization", "authz"},
	{"env", "environment"},
	{"dir", "directory"},
	{"tmp", "temp", "temporary"},
	{"str", "string"},
	{"val", "value"},
	{"idx", "index"},
	{"srv", "server"},
	{"db", "database"},
	{"opt", "option"},
	{"param", "parameter"},
	{"arg", "argument"},
	{"attr", "attribute"},
	{"elem", "element"},
	{"fn", "func", "function"},
	{"info", "information"},
	{"repo", "repository"},
	{"pkg", "package"},
	{"lib", "library"},
	{"std", "standard"},
	{"spec", "specification"},
	{"impl", "implementation"},
	{"alloc", "allocation"},
	{"dst", "dest", "destination"},
	{"src", "source"},
	{"prev", "previous"},
	{"cur", "curr", "current"},
	{"pos", "position"},
	{"ptr", "pointer"},
	{"ref", "reference"},
	{"async", "asynchronous"},
	{"sync", "synchronous"},
	{"util", "utility"},
	{"stat", "statistic"},
	{"seq", "sequence"},
	{"char", "character"},
	{"img", "image"},
	{"pwd", "passwd", "password"},
	{"tx", "txn", "transaction"},
	{"proto", "protocol"},
	{"hdr", "header"},
	{"cert", "certificate"},
	{"cmd", "command"},
	{"cap", "capacity"},
	{"iter", "iterator"},
	{"obj", "object"},
	{"var", "variable"},
	{"dict", "dictionary"},
	{"regex", "regexp"},
	{"perm", "permission"},
	{"dep", "dependency"},
	{"ms", "msec", "millisecond"},
	{"ns", "nanosecond"},
	{"sec", "secs", "second"},
	{"thresh", "threshold"},
	{"gc", "garbage"},
}

// howForms are what "how <word>" asks for, as names and docs word it: "how long will Open
// wait" is answered by a Timeout, "how big is the pool" by a PoolSize.
var howForms = map[string][]string{
	"long":  {"timeout", "duration"},
	"big":   {"size"},
	"large": {"size"},
	"many":  {"count", "number"},
	"often": {"interval", "frequency"},
	"much":  {"size", "amount"},
}

// formIndex maps a term of the all field's analyzer (a stem) to the other words of its groups.
type formIndex map[string][]string

// forms returns the form index of the all field's analyzer, made on first use. The analyzer is
// part of the snapshot format (mapping.go), so one index serves every snapshot.
var forms = sync.OnceValue(func() formIndex { return buildForms(englishTerms) })

// englishAnalyzer is the all field's analyzer.
var englishAnalyzer = sync.OnceValue(func() analysis.Analyzer {
	a, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		panic("index: the English analyzer is not registered: " + err.Error())
	}
	return a
})

// englishTerms returns the terms the all field's analyzer makes of w.
func englishTerms(w string) []string {
	var out []string
	for _, tok := range englishAnalyzer().Analyze([]byte(w)) {
		out = append(out, string(tok.Term))
	}
	return out
}

// buildForms indexes wordForms by the stem that stem gives each word (so that "messages" finds
// the group of "message"): each stem maps to the words of its groups, its own excepted.
func buildForms(stem func(string) []string) formIndex {
	idx := formIndex{}
	for _, group := range wordForms {
		for _, w := range group {
			for _, s := range stem(w) {
				for _, o := range group {
					if o != w && !slices.Contains(idx[s], o) {
						idx[s] = append(idx[s], o)
					}
				}
			}
		}
	}
	return idx
}

// altTerm is a term that stands for a word of the question in another form: group numbers the
// question's word (alternatives returns each group's own terms).
type altTerm struct {
	term     string
	group    int
	compound bool // the compound of two of the question's words (group holds their terms)
}

// alternatives returns the terms of the other forms of the question's words (terms: the
// question's terms under both analyzers), without the question's own terms. A word's forms are
// analyzed as the question is, so that each is a term the index may hold.
func (r *reader) alternatives(words string, terms []string) (alts []altTerm, groups [][]string) {
	idx := forms()
	// What "how <word>" asks for, by the word's term.
	var how map[string][]string
	fields := strings.FieldsFunc(strings.ToLower(words), notWordRune)
	for i := 1; i < len(fields); i++ {
		if hs := howForms[fields[i]]; fields[i-1] == "how" && len(hs) > 0 {
			if how == nil {
				how = map[string][]string{}
			}
			for _, t := range englishTerms(fields[i]) {
				how[t] = hs
			}
		}
	}
	have := map[string]bool{}
	for _, t := range terms {
		have[t] = true
	}
	for _, t := range r.terms(fAll, words) {
		others := idx[t]
		if hs := how[t]; len(hs) > 0 {
			others = append(slices.Clip(others), hs...)
		}
		if len(others) == 0 {
			continue
		}
		g := len(groups)
		var added bool
		for _, o := range others {
			for _, at := range formTerms(r, o) {
				if !have[at] {
					have[at] = true
					alts = append(alts, altTerm{term: at, group: g})
					added = true
				}
			}
		}
		if added {
			groups = append(groups, []string{t})
		}
	}
	// Two words written apart are also the compound the documents may write them as: "thread
	// safe" is "threadsafe" ("The current method is not threadsafe", mpmath), "time out"
	// "timeout", "call back" "callback". The compound stands for both words. Only in a search
	// of a few words, as assistants write them: each compound is looked up in every segment,
	// and the pairs of a long question cost a large snapshot (16N) a tenth of its p50.
	for i := 1; i < len(fields) && len(fields) <= maxCompoundWords; i++ {
		w1, w2 := fields[i-1], fields[i]
		if len(w1) < 3 || len(w2) < 3 || passageStopWords[w1] || passageStopWords[w2] {
			continue
		}
		var parts []string
		for _, w := range []string{w1, w2} {
			parts = append(parts, r.terms(fAll, w)...)
		}
		g := len(groups)
		var added bool
		for _, ct := range r.terms(fAll, w1+w2) {
			if !have[ct] {
				have[ct] = true
				alts = append(alts, altTerm{term: ct, group: g, compound: true})
				added = true
			}
		}
		if added {
			groups = append(groups, parts)
		}
	}
	return alts, groups
}

// maxCompoundWords is the most words a search may have for its adjacent words to stand for
// their compounds as well (see alternatives).
const maxCompoundWords = 8

// formTermsCache holds the terms of the words of wordForms and howForms under both analyzers
// (questionTerms): they are the same for every snapshot, and need not be analyzed again for
// every question.
var formTermsCache struct {
	sync.Mutex
	terms map[string][]string
}

// formTerms returns questionTerms(w) for a word of wordForms or howForms, remembered.
func formTerms(r *reader, w string) []string {
	formTermsCache.Lock()
	t, ok := formTermsCache.terms[w]
	formTermsCache.Unlock()
	if ok {
		return t
	}
	t = r.questionTerms(w)
	formTermsCache.Lock()
	if formTermsCache.terms == nil {
		formTermsCache.terms = map[string][]string{}
	}
	formTermsCache.terms[w] = t
	formTermsCache.Unlock()
	return t
}

// altList is an alternative term found in the dictionary.
type altList struct {
	termList
	group int
}

// accumulateAlternatives adds to a the postings of the question's words' other forms (found,
// as altLists chose them; their words' own terms in groups; lists the question's own term
// lists, which accumulate added and left read in a.lists) at altWeight of their idf, rarest
// first, growing the documents held as accumulate does. A document counts a word of
// the question once whichever of its forms it holds: one that holds it as typed, or in an
// earlier form, gains nothing from another. It returns how many words were found only in another
// form (more question words for the coordination factor), and false on an unreadable list.
func (ri *rankIndex) accumulateAlternatives(a *accumulator, found []altList, groups [][]string, lists []termList, keep *docFilter) (int, bool) {
	if len(found) == 0 {
		return 0, true
	}
	return ri.addForms(a, found, groups, lists, keep)
}

// altLists returns the lists of the other forms of the question's words (alts, of groups) that
// accumulateAlternatives adds, by group and, within a group, rarest first; lists are the
// question's own.
func (ri *rankIndex) altLists(alts []altTerm, groups [][]string, lists []termList) []altList {
	var found []altList
	for _, at := range alts {
		// A form that most documents hold ("config", "error": as many as make a list dense,
		// see isDense) says little of the question: it is left out.
		l, ok := ri.lookup(at.term)
		if !ok || isDense(l.all, ri.docs) || at.compound && !rarerThanParts(l, groups[at.group], lists) {
			continue
		}
		found = append(found, altList{l, at.group})
	}
	slices.SortStableFunc(found, func(x, y altList) int {
		if x.group != y.group {
			return x.group - y.group
		}
		return x.df - y.df
	})
	return found
}

// rarerThanParts reports whether l, the list of the compound of two words, is no longer than
// the lists of the words' own terms (parts, among the question's lists as accumulate found
// them): a compound that is a term of its own ("threadsafe", "timeout") is rarer than its
// parts, and one that is rather a common word says nothing the two words do not, while its long
// list costs a question dearly in a large snapshot.
func rarerThanParts(l termList, parts []string, lists []termList) bool {
	for _, pl := range lists {
		if slices.Contains(parts, pl.term) && pl.all < l.all {
			return false
		}
	}
	return true
}

// addForms is accumulateAlternatives for the forms found in the dictionary, by group and then
// df: it adds each group's lists to a but in the documents that hold the group's word as typed
// (its lists of lists, as accumulate read them into a.lists) or in an earlier form.
func (ri *rankIndex) addForms(a *accumulator, found []altList, groups [][]string, lists []termList, keep *docFilter) (int, bool) {
	// held: the documents that hold the group's word already.
	hp := heldBits(denseWords(ri.docs))
	defer heldPool.Put(hp)
	held := *hp
	extra := 0
	for i := 0; i < len(found); {
		g := found[i].group
		clear(held)
		// When no form of the group may add documents a does not hold (grows), only those it
		// holds can gain, and only their bits of held are asked: the lists are read in the
		// runs of their skip tables that span one of them.
		// found[i] has the group's least df, and a only grows: it is the group's likeliest
		// form to grow a.
		grows := alternativeGrows(a, found[i].df, len(lists))
		origFound := false
		k := 0 // the list part in a.lists, as accumulate read them
		for _, l := range lists {
			if !slices.Contains(groups[g], l.term) {
				k += len(l.parts)
				continue
			}
			origFound = true
			for _, part := range l.parts {
				var runs []skipRun
				if !grows {
					runs = ri.skipsOf(part, a.lists[k])
				}
				if !ri.markHeld(a, held, part.seg, a.lists[k], part.list.dense, runs) {
					return 0, false
				}
				k++
			}
		}
		if !origFound {
			extra++
		}
		for ; i < len(found) && found[i].group == g; i++ {
			l := found[i]
			grow := alternativeGrows(a, l.df, len(lists))
			scale := float32(altWeight) * l.idf / 255
			for _, part := range l.parts {
				list := ri.postings(part)
				if list == nil {
					return 0, false
				}
				ok := false
				switch {
				case part.list.dense:
					// Dense in this segment (a small one), not in the snapshot: by document.
					ok = ri.addAlternativeDense(a, part.seg, list, held, scale, keep, grow)
				case !grow:
					ok = ri.addAlternative(a, part.seg, list, ri.skipsOf(part, list), held, scale, keep, grow)
				default:
					ok = ri.addAlternative(a, part.seg, list, nil, held, scale, keep, grow)
				}
				if !ok {
					return 0, false
				}
			}
		}
	}
	return extra, true
}

// heldPool holds the bitmaps of accumulateAlternatives, one bit per document of a rank index:
// allocating one for each search was a tenth of the time of searching other forms.
var heldPool sync.Pool

// heldBits returns a bitmap of n words from heldPool, or a new one; its bits are cleared by the
// caller.
func heldBits(n int) *[]uint64 {
	if b, ok := heldPool.Get().(*[]uint64); ok && len(*b) == n {
		return b
	}
	b := make([]uint64, n)
	return &b
}

// alternativeGrows reports whether a list of df documents of another form of a word of a
// question of n words may add documents a does not hold yet, as accumulate's lists do while
// the documents held and the list's stay within accumulatorLimitFor(n).
func alternativeGrows(a *accumulator, df, n int) bool {
	return len(a.touched) == 0 || len(a.touched)+df <= accumulatorLimitFor(n)
}

// markHeld sets in held (a bit per document of the snapshot) the bits of the documents of an
// encoded postings list of segment seg (dense when dense, see appendDense) and reports whether
// the list was whole. Given the list's skip table (runs), it sets only those of the runs that
// span a document a holds, up to the last page that holds one (heldEnd).
func (ri *rankIndex) markHeld(a *accumulator, held []uint64, seg int, list []byte, dense bool, runs []skipRun) bool {
	base, docs := ri.docBase[seg], uint32(ri.segs[seg].docs)
	if runs != nil {
		for r, run := range runs {
			stop := a.heldEnd(base+run.prev, base+runLast(runs, r, docs))
			if stop == 0 {
				continue
			}
			doc := run.prev
			for i, end := int(run.off), runEnd(runs, r, len(list)); i < end-1; {
				doc, _, i, _ = nextPosting(list, i, doc) // well formed: makeSkips read it
				d := base + doc
				if d >= stop {
					break
				}
				held[d/64] |= 1 << (d % 64)
			}
		}
		return true
	}
	if !dense {
		// Decoded here rather than through forEachPosting: a function call per document was
		// most of the cost of searching the other forms.
		var doc uint32
		i, ok := 0, true
		for i < len(list)-1 {
			if doc, _, i, ok = nextPosting(list, i, doc); !ok || doc >= docs {
				return false
			}
			d := base + doc
			held[d/64] |= 1 << (d % 64)
		}
		return i == len(list)
	}
	nw, nr := denseWords(int(docs)), denseRanks(int(docs))
	if len(list) < 8*nw+4*nr {
		return false
	}
	// Word by word, each shifted to the segment's first document (documents 0 to 63 of a
	// segment that starts at 100 are bits 36 to 63 of word 1 and 0 to 35 of word 2), rather
	// than bit by bit: a list whose bits past the segment's last document are clear and whose
	// impacts are one per bit, as forEachDense checks.
	if rest := docs % 64; rest != 0 && nw > 0 && binary.LittleEndian.Uint64(list[8*(nw-1):])>>rest != 0 {
		return false
	}
	at, shift := int(base/64), base%64
	n := 0
	for w := range nw {
		word := binary.LittleEndian.Uint64(list[8*w:])
		n += bits.OnesCount64(word)
		held[at+w] |= word << shift
		if shift != 0 && word>>(64-shift) != 0 {
			held[at+w+1] |= word >> (64 - shift)
		}
	}
	return n == len(list)-8*nw-4*nr
}

// addAlternative adds a sparse postings list of segment seg of another form of a question's
// word to a, each impact scaled by scale, except in the documents of held (which hold the word
// already, as typed or in another form; those it adds to join them). A document a does not
// hold yet is added when grow and keep allow, as add does. Given the list's skip table (runs)
// and not grow, it reads only the runs that span a document a holds, up to the last page that
// holds one (heldEnd). It reports whether the list was whole.
func (ri *rankIndex) addAlternative(a *accumulator, seg int, list []byte, runs []skipRun, held []uint64, scale float32, keep *docFilter, grow bool) bool {
	base, docs := ri.docBase[seg], uint32(ri.segs[seg].docs)
	if runs != nil && !grow {
		for r, run := range runs {
			stop := a.heldEnd(base+run.prev, base+runLast(runs, r, docs))
			if stop == 0 {
				continue
			}
			doc := run.prev
			var impact uint8
			for i, end := int(run.off), runEnd(runs, r, len(list)); i < end-1; {
				doc, impact, i, _ = nextPosting(list, i, doc) // well formed: makeSkips read it
				if base+doc >= stop {
					break
				}
				ri.addAlternativeDoc(a, base+doc, impact, held, scale, keep, false)
			}
		}
		return true
	}
	var doc uint32 // the first gap is the first document itself
	var impact uint8
	i, ok := 0, true
	for i < len(list)-1 {
		if gap := list[i]; gap < 0x80 { // nextPosting, inlined
			doc, impact, i = doc+uint32(gap), list[i+1], i+2
		} else if doc, impact, i, ok = nextPostingLong(list, i, doc); !ok {
			return false
		}
		if doc >= docs {
			return false
		}
		ri.addAlternativeDoc(a, base+doc, impact, held, scale, keep, grow)
	}
	return i == len(list)
}

// addAlternativeDense is addAlternative for a dense list (see appendDense) of segment seg. Not
// growing, it adds only to documents a holds, and tests their bits, as addDense does, rather
// than walking a list that may hold most of the segment: each document takes one posting of the
// list, so the order it is added in does not change the sums.
func (ri *rankIndex) addAlternativeDense(a *accumulator, seg int, list []byte, held []uint64, scale float32, keep *docFilter, grow bool) bool {
	base := ri.docBase[seg]
	if grow {
		return forEachDense(list, ri.segs[seg].docs, func(doc uint32, impact uint8) {
			ri.addAlternativeDoc(a, base+doc, impact, held, scale, keep, grow)
		})
	}
	return ri.forEachHeldDense(a, seg, list, func(g uint32, impact uint8) {
		ri.addAlternativeDoc(a, g, impact, held, scale, keep, false)
	})
}

// addAlternativeDoc adds one posting (doc numbered over the snapshot) of another form, its
// impact scaled by scale: nothing for a document of held, which holds the word already; a
// document no term matched yet joins a's documents only when grow and keep allow. Calling it for
// each posting rather than writing it out in the walks of the lists did not show in
// BenchmarkCorpusSearch (five alternating rounds of prebuilt test binaries: p50 0.170–0.209 ms
// against 0.174–0.197 ms written out).
func (ri *rankIndex) addAlternativeDoc(a *accumulator, doc uint32, impact uint8, held []uint64, scale float32, keep *docFilter, grow bool) {
	w, bit := doc/64, uint64(1)<<(doc%64)
	if held[w]&bit != 0 {
		return
	}
	p := a.pages[doc>>accPageShift]
	m := p.matched[doc&accPageMask]
	if m == 0 {
		if !grow || !keep.keep(doc) {
			return
		}
		p = a.touch(doc)
	}
	held[w] |= bit
	if m < math.MaxUint8 {
		p.matched[doc&accPageMask] = m + 1
	}
	p.score[doc&accPageMask] += scale * float32(impact)
}
