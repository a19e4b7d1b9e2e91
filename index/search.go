package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/docidx/docidx"
)

// MaxLimit is the largest page of hits Search returns.
const MaxLimit = 100

func (r *reader) search(ctx context.Context, q Query) (*Results, error) {
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return nil, errors.New("index: empty query: say what to search for")
	}
	if len(text) > 1000 {
		text = clip(text, 1000)
	}
	kind, err := normalizeKind(q.Kind)
	if err != nil {
		return nil, err
	}
	q.Kind = kind
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, MaxLimit)
	offset := max(q.Offset, 0)
	window := max(diversifyWindow, offset+limit)

	// A version filter that names the latest version of the package asked for is the rank
	// index's search under a package filter: the same model, as fast as without a version.
	if r.rank != nil && q.Version != "" && q.Version != "latest" && r.isLatest(q.Ecosystem, q.Package, q.Version) {
		q.Version = ""
	}
	if r.rank != nil && (q.Version == "" || q.Version == "latest") {
		if ranked, total, idf := r.rankSearch(text, q, window, offset+limit); total > 0 {
			return r.page(ranked, total, q, text, idf, offset, limit)
		}
		// Nothing matched, even with typos corrected: Bleve's path below may still find some.
	}

	df, closeDF, err := r.docFreq()
	if err != nil {
		return nil, err
	}
	defer closeDF()
	total, _ := r.idx.DocCount()
	// Small snapshots are fast anyway: below minCommon documents no word counts as common.
	common := max(uint64(float64(total)*commonShare), minCommon)

	// The words that name an ecosystem say where to look, as in rankSearch.
	ecos, words := ecosystemsNamed(text)
	words = withDefaultCue(words)
	if strings.TrimSpace(words) == "" {
		words = text
	}
	words = plainWords(words) // as rankSearch's searchTerms

	// Fields share two analyzers (English, identifiers): analyze text once per analyzer.
	// Terms are those of rankSearch's searchTerms: without one-letter fragments ("gRPC": "g");
	// fragmented says which analyzers made some, whose words a match query would analyze again.
	analyzed := map[string][]string{}
	fragmented := map[string]bool{}
	termsOf := func(field string) []string {
		name := r.idx.Mapping().AnalyzerNameForPath(field)
		t, ok := analyzed[name]
		if !ok {
			t = r.terms(field, words)
			n := len(t)
			t = withoutFragments(t, words)
			analyzed[name], fragmented[name] = t, len(t) < n
		}
		return t
	}

	var should []query.Query
	add := func(qq interface{ SetBoost(float64) }, boost float64) {
		qq.SetBoost(boost)
		should = append(should, qq.(query.Query))
	}
	// match adds the words of text in field. A word that most documents hold in that field is left
	// to the all field: walking its postings once more per field costs most of a search and barely
	// changes the order.
	match := func(field string, boost float64) {
		var tqs []query.Query
		terms := termsOf(field)
		for _, t := range terms {
			if field != fAll && df(field, t) > common {
				continue
			}
			tq := bleve.NewTermQuery(t)
			tq.SetField(field)
			tqs = append(tqs, tq)
		}
		switch {
		case len(tqs) == len(terms) && !fragmented[r.idx.Mapping().AnalyzerNameForPath(field)]:
			m := bleve.NewMatchQuery(words)
			m.SetField(field)
			add(m, boost)
		case len(tqs) > 0:
			add(bleve.NewDisjunctionQuery(tqs...), boost)
		}
	}
	// A name that matches one word of a long question says little: name fields must match at
	// least half of the question's words.
	nameMatch := func(field string, boost float64) {
		terms := termsOf(field)
		if len(terms) < 3 {
			match(field, boost)
			return
		}
		var tqs []query.Query
		for _, t := range terms {
			tq := bleve.NewTermQuery(t)
			tq.SetField(field)
			tqs = append(tqs, tq)
		}
		d := bleve.NewDisjunctionQuery(tqs...)
		d.SetMin(float64((len(terms) + 1) / 2))
		add(d, boost)
	}
	// The fields of the model that Bleve's query scores (see fieldWeights). The all field holds
	// title, headings, text and names together: its coordination factor (the share of the
	// question's words a document holds) lifts the page that answers the whole question over
	// one where a single word sits in a short heading.
	for _, f := range fieldWeights {
		switch {
		case !f.bleve:
		case f.name == fName || f.name == fPkgName:
			nameMatch(f.name, f.weight)
		case f.name == fSignature:
			if len(termsOf(fSignature)) < 3 {
				match(f.name, f.weight)
			}
		default:
			match(f.name, f.weight)
		}
	}
	if alt := r.alternativesQuery(words); alt != nil {
		add(alt, altWeight*weightOf(fAll))
	}
	for _, w := range exactCandidates(text) {
		t := bleve.NewTermQuery(w)
		t.SetField(fPkgExact)
		add(t, exactBoost)
	}
	if len(should) == 0 {
		return &Results{Hits: []docidx.Hit{}}, nil
	}
	scoring := query.Query(bleve.NewDisjunctionQuery(should...))

	// Filters select without scoring, checked only on the documents the words select.
	var filters []query.Query
	filter := func(field, value string) {
		t := bleve.NewTermQuery(value)
		t.SetField(field)
		filters = append(filters, t)
	}
	if q.Ecosystem != "" {
		filter(fEco, string(q.Ecosystem))
	}
	if q.Package != "" {
		name := q.Package
		if q.Ecosystem != "" {
			name = docidx.NormalizeName(q.Ecosystem, name)
		}
		filter(fPkg, name)
	}
	idx := r.idx
	if q.Version != "" && q.Version != "latest" {
		filter(fVersion, q.Version)
		idx = r.all
	}
	switch q.Kind {
	case "":
	case string(docidx.HitSection), string(docidx.HitSymbol):
		filter(fHit, q.Kind)
	default:
		filter(fKind, q.Kind)
	}

	withFilters := func(scoring query.Query) query.Query {
		if len(filters) == 0 {
			return scoring
		}
		b := bleve.NewBooleanQuery()
		b.AddMust(scoring)
		if len(filters) == 1 {
			b.AddFilter(filters[0])
		} else {
			b.AddFilter(bleve.NewConjunctionQuery(filters...))
		}
		return b
	}
	// Rank the first diversifyWindow hits with one package's later hits discounted, so a single
	// package does not fill the page; fetch stored fields only for the page returned.
	run := func(q query.Query) (*bleve.SearchResult, error) {
		req := bleve.NewSearchRequestOptions(withFilters(q), window, 0, false)
		req.Fields = []string{fKind} // for its prior
		res, err := idx.SearchInContext(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("index: search: %w", err)
		}
		return res, nil
	}
	res, err := run(scoring)
	if err != nil {
		return nil, err
	}
	// Nothing matched as typed: try the words with one or two typos each ("goroutnie").
	if res.Total == 0 {
		if fuzzy := fuzzyQuery(termsOf); fuzzy != nil {
			if res, err = run(fuzzy); err != nil {
				return nil, err
			}
		}
	}
	named := r.namedPackageKeys(words, ecos)
	r.applyPriors(res.Hits, ecos, named)
	// A dominant package is what the question is about, as in rankSearch (dominantPackage).
	if key, ok := dominant(len(res.Hits), func(i int) (string, float64) {
		return packageKey(res.Hits[i].ID), res.Hits[i].Score
	}); ok && !named[key] {
		named = maps.Clone(named)
		if named == nil {
			named = map[string]bool{}
		}
		named[key] = true
	}
	return r.page(diversify(res.Hits, named), int(res.Total), q, text, nil, offset, limit)
}

// applyPriors multiplies the scores of Bleve's hits by the priors of the relevance model (as
// rank.idx's search does): their kind's, their package's (priorSuperseded), and priorNamed for
// the ecosystems the question names, priorNamedPackage for the packages it names (named, keyed
// "ecosystem\x00name", see namedPackageKeys), and orders them by the result. A hit of a snapshot whose
// kind field is not stored takes its kind from its ID (overview, README) or none.
func (r *reader) applyPriors(hits search.DocumentMatchCollection, ecos map[docidx.Ecosystem]bool, named map[string]bool) {
	if len(ecos) == len(docidx.Ecosystems) {
		ecos = nil
	}
	superseded := r.supersededModules()
	for _, h := range hits {
		kind, _ := h.Fields[fKind].(string)
		if kind == "" {
			switch uri, _, _ := strings.Cut(h.ID, "#"); {
			case strings.HasSuffix(uri, "/"+docidx.PageOverview):
				kind = "overview"
			case strings.HasSuffix(uri, "/"+docidx.PageReadme):
				kind = string(docidx.DocReadme)
			}
		}
		prior := kindPriorOf(kind)
		pkg := packageOfID(h.ID)
		eco, name, _ := strings.Cut(pkg, "/")
		if at := strings.LastIndexByte(name, '@'); at > 0 {
			name = name[:at]
		}
		if eco == string(docidx.Go) && superseded[name] {
			prior *= priorSuperseded
		}
		if ecos[docidx.Ecosystem(eco)] {
			prior *= priorNamed
		}
		if kind != "overview" && named[eco+"\x00"+name] {
			prior *= priorNamedPackage // as rankIndex.prior: not the overview of a named package
		}
		h.Score *= prior
		h.Fields = nil // page reads the stored fields of the hits it returns
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
}

// isLatest reports whether version is the latest indexed version of package name in every
// ecosystem that has it (eco only, when given), and some ecosystem has it.
func (r *reader) isLatest(eco docidx.Ecosystem, name, version string) bool {
	if name == "" {
		return false
	}
	ecos := docidx.Ecosystems
	if eco != "" {
		ecos = []docidx.Ecosystem{eco}
	}
	found := false
	for _, e := range ecos {
		ref, err := r.resolve(docidx.Ref{Ecosystem: e, Name: docidx.NormalizeName(e, name)})
		if errors.Is(err, docidx.ErrNotFound) {
			continue
		}
		if err != nil || ref.Version != version {
			return false
		}
		found = true
	}
	return found
}

// page builds the hits of ranked[offset:offset+limit] from their stored fields: those rank.idx
// gave in Fields, else Bleve's. Each hit carries its passage for q (see passage.go), the first
// topPassageHits of the results a longer one; idf holds the idf of the question's terms when
// the rank index ranked them.
func (r *reader) page(ranked search.DocumentMatchCollection, total int, q Query, text string, idf map[string]float32, offset, limit int) (*Results, error) {
	out := &Results{Total: total, Hits: make([]docidx.Hit, 0, limit)}
	if offset >= len(ranked) {
		return out, nil
	}
	page := ranked[offset:min(offset+limit, len(ranked))]
	pq := newPassageQuery(text, r.wordWeight(text, idf))
	// A hit's passage budget goes by its rank among the page's distinct answers. Callers show
	// one hit per URI (the overloads of a function share one) and one per member inherited or
	// declared alike on several types (the same name, declaration and text), so such a repeat
	// must not push the hits after it below topPassageHits.
	uris := make(map[string]bool, len(page))
	twins := make(map[twinKey]bool, len(page))
	rank := offset
	for _, h := range page {
		fields, id := h.Fields, h.ID
		if fields == nil {
			var err error
			if id, fields, err = r.storedFields(h); err != nil {
				return nil, fmt.Errorf("index: search: %w", err)
			}
		}
		hit, text, ok := makeHit(id, fields, h.Score)
		if !ok {
			continue
		}
		hit.Snippet = passage(text, pq.forPackage(hit.Package), passageBudget(q.PassageBytes, rank))
		repeat := uris[hit.URI]
		uris[hit.URI] = true
		if hit.Kind == docidx.HitSymbol {
			k := twinKey{pkg: hit.Package, version: hit.Version, name: hit.Title[strings.LastIndexAny(hit.Title, ".:")+1:],
				section: hit.Section, text: maphash.String(twinSeed, text)}
			repeat = repeat || twins[k]
			twins[k] = true
		}
		if !repeat {
			rank++
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
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
// looked up.
func (r *reader) wordWeight(text string, idf map[string]float32) func(word string) float64 {
	if idf == nil {
		ri := r.rank
		if ri == nil {
			return nil
		}
		idf = map[string]float32{}
		var scratch []byte
		for _, t := range r.questionTerms(text) {
			if v, _, ok := ri.lookup(t, &scratch); ok {
				idf[t] = v
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

// diversify re-ranks hits: the k-th hit (from 0) of a package scores score·packageDecay^k,
// except the hits of the packages the question names (named, see namedPackageKeys). The
// order is stable for equal scores, so pages cut from the same window agree.
func diversify(hits search.DocumentMatchCollection, named map[string]bool) search.DocumentMatchCollection {
	seen := map[string]int{}
	out := make(search.DocumentMatchCollection, len(hits))
	copy(out, hits)
	for _, h := range out {
		pkg := packageOfID(h.ID)
		if len(named) > 0 {
			eco, name, _ := strings.Cut(pkg, "/")
			if at := strings.LastIndexByte(name, '@'); at > 0 {
				name = name[:at]
			}
			if named[eco+"\x00"+name] {
				continue // as rankIndex.diversify: the named package's hits keep their scores
			}
		}
		k := seen[pkg]
		seen[pkg] = k + 1
		h.Score *= packageDecayPow(k)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// packageKey returns the "ecosystem\x00name" key (see namedPackageKeys) of a document ID.
func packageKey(id string) string {
	eco, name, _ := strings.Cut(packageOfID(id), "/")
	if at := strings.LastIndexByte(name, '@'); at > 0 {
		name = name[:at]
	}
	return eco + "\x00" + name
}

// packageOfID returns the "ecosystem/package@version" part of a document ID (a page URI).
func packageOfID(id string) string {
	rest := strings.TrimPrefix(id, docidx.URIScheme+"://")
	for i := 1; i < len(rest); i++ {
		if rest[i] == '@' && rest[i-1] != '/' {
			if j := strings.IndexByte(rest[i:], '/'); j >= 0 {
				return rest[:i+j]
			}
			return rest
		}
	}
	return rest
}

// storedFields loads the ID and the stored fields that hit h is built from: for a hit of Bleve,
// from whichever of the two search indexes holds the document; for one of rank.idx whose
// stored fields could not be read when it was ranked (its ID empty, its IndexInternalID its
// number there, see rankHitID), again, for the error.
func (r *reader) storedFields(h *search.DocumentMatch) (string, map[string]any, error) {
	if h.ID == "" && r.rank != nil && len(h.IndexInternalID) == 4 {
		doc := binary.BigEndian.Uint32(h.IndexInternalID)
		if int(doc) >= r.rank.docs {
			return "", nil, fmt.Errorf("rank.idx document %d out of range", doc)
		}
		ir, err := r.latestReader()
		if err != nil {
			return "", nil, err
		}
		defer ir.Close()
		var scratch []byte
		return r.rank.storedHit(ir, doc, &scratch)
	}
	fields, err := r.bleveFields(h.ID)
	return h.ID, fields, err
}

// bleveFields loads the stored fields that hits are built from, by ID, from whichever of the
// two search indexes holds the document.
func (r *reader) bleveFields(id string) (map[string]any, error) {
	doc, err := r.idx.Document(id)
	if err == nil && doc == nil {
		doc, err = r.old.Document(id)
	}
	if err != nil || doc == nil {
		return nil, err
	}
	fields := map[string]any{}
	doc.VisitFields(func(f index.Field) {
		switch f.Name() {
		case fSTitle, fSSection, fSText, fSURI:
			fields[f.Name()] = string(f.Value())
		}
	})
	return fields, nil
}

// fuzzyQuery returns a query for the words of the question (terms gives them per field) with
// typos allowed (Levenshtein distance 1 for words of four to seven letters, 2 for longer ones) in
// the all field and in names, or nil when no word is long enough to correct.
func fuzzyQuery(terms func(field string) []string) query.Query {
	var qs []query.Query
	for _, f := range []struct {
		field string
		boost float64
	}{{fAll, weightOf(fAll)}, {fName, weightOf(fName)}} {
		for _, t := range terms(f.field) {
			n := utf8.RuneCountInString(t)
			if n < 4 {
				continue
			}
			fq := bleve.NewFuzzyQuery(t)
			fq.SetField(f.field)
			fq.SetFuzziness(1)
			if n >= 8 {
				fq.SetFuzziness(2)
			}
			fq.SetBoost(f.boost)
			qs = append(qs, fq)
		}
	}
	if len(qs) == 0 {
		return nil
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// commonShare is the share of the latest versions' documents above which a word counts as
// common in a field.
const commonShare = 0.02

// minCommon is the fewest documents that make a word common in a field.
const minCommon = 1000

// docFreq returns a function counting the documents of the latest-versions index that hold a
// term in a field, and a function releasing what it holds.
func (r *reader) docFreq() (func(field, term string) uint64, func(), error) {
	adv, err := r.idx.Advanced()
	if err != nil {
		return nil, nil, err
	}
	ir, err := adv.Reader()
	if err != nil {
		return nil, nil, err
	}
	f := func(field, term string) uint64 {
		tfr, err := ir.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
		if err != nil {
			return 0
		}
		defer tfr.Close()
		return tfr.Count()
	}
	return f, func() { ir.Close() }, nil
}

// terms returns the distinct terms that field's analyzer makes of text.
func (r *reader) terms(field, text string) []string {
	m := r.idx.Mapping()
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

// makeHit builds a Hit without its passage from a Bleve document's ID (its page URI, with "#n"
// for sections) and stored fields, and returns the stored text its passage is chosen from.
func makeHit(id string, fields map[string]any, score float64) (hit docidx.Hit, text string, ok bool) {
	uri := id
	if i := strings.LastIndexByte(uri, '#'); i >= 0 {
		uri = uri[:i]
	}
	ref, page, err := docidx.ParsePageURI(uri)
	if err != nil {
		return docidx.Hit{}, "", false
	}
	str := func(f string) string { s, _ := fields[f].(string); return s }
	kind := docidx.HitSection
	if strings.HasPrefix(page, docidx.PageSymbolPrefix) {
		kind = docidx.HitSymbol
	}
	return docidx.Hit{
		Ecosystem: ref.Ecosystem,
		Package:   ref.Name,
		Version:   ref.Version,
		PURL:      ref.PURL(),
		Title:     str(fSTitle),
		Section:   str(fSSection),
		Kind:      kind,
		Score:     score,
		URI:       str(fSURI),
	}, str(fSText), true
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
