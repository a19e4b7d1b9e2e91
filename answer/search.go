package answer

// search.go is Search (MCP's search_package_docs): ranked hits with the passage that answers, deduplicated per
// section and paged within max_tokens.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/module"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// SearchInput is the arguments of search_package_docs.
type SearchInput struct {
	Query     string `json:"query" jsonschema:"words to look for in READMEs, docs and API symbols, e.g. 'wait for goroutines errgroup' or 'express router middleware'"`
	Ecosystem string `json:"ecosystem,omitempty" jsonschema:"only this ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Package   string `json:"package,omitempty" jsonschema:"only this package: a Go module path (or an import path inside one: its module, or the path's last element when no other package has that name, cpuid, or the end of the path, jpillora/backoff) or npm/PyPI/crate name, or ecosystem:name (pypi:msgpack), either with @version (zod@4: the same as version)"`
	Version   string `json:"version,omitempty" jsonschema:"only this version: exact (4.29.1), or, with package or a package the query names, partial (4) or a range (^4, ~4.2), the newest indexed match; without it only each package's default version is searched: the one the project resolves (node_modules' top-level copy) when the crawl marked one, else the latest"`
	Kind      string `json:"kind,omitempty" jsonschema:"only hits of this kind: section (prose), symbol (any API item), a document kind (overview, readme, doc, example) or a symbol kind (package, func, method, type, const, var, class, interface, struct, enum, trait, macro, protocol, property, field); long names (function, constant, variable, module, attribute), plurals and any letter case are accepted"`
	Limit     int    `json:"limit,omitempty" jsonschema:"results per page, 1 to 50 (default 10)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same search, to continue it"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); results beyond it continue with nextCursor"`
}

// SearchOutput is the structured result of search_package_docs.
type SearchOutput struct {
	SchemaVersion int            `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	Results       []SearchResult `json:"results" jsonschema:"hits, best first, at most one per package version and resource URI"`
	NextCursor    string         `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// SearchResult is one search hit: a document section or an API symbol of one package version.
//
// The package version is the purl alone in JSON: an assistant reads every search result whole (most
// MCP clients hand the model the structured content, not the text), and the ecosystem, name and
// version written beside it again were a tenth of the bytes of a dev-half answer (schemaVersion 2).
type SearchResult struct {
	PURL    string   `json:"purl" jsonschema:"Package URL of the package version the hit is in (pkg:TYPE/NAME@VERSION, TYPE one of golang, npm, pypi, cargo, swift)"`
	Title   string   `json:"title" jsonschema:"document title, or the symbol's qualified name"`
	Section string   `json:"section" jsonschema:"heading path of the section joined with ' › ', or the symbol's kind and signature"`
	Kind    string   `json:"kind" jsonschema:"section or symbol"`
	Snippet string   `json:"snippet" jsonschema:"the passage of the hit that answers the query: the sentences, list items or code where its words concentrate; a symbol's signature first"`
	Score   float64  `json:"score" jsonschema:"relevance, higher is better; comparable within one search only"`
	URI     string   `json:"uri" jsonschema:"docidx:// resource URI of the page to read more"`
	Also    []string `json:"also,omitempty" jsonschema:"the hits this one stands for: qualified names of the same member on other types or overloads with the same passage, URIs of the same symbol with the same passage in another major version of a Go module, and names (symbols) or URIs (pages) of the package version's hits whose passage repeats this one's"`
}

// jsonSize returns the size of r as JSON with the comma after it, as jsonSize(r) would (for a
// score written in decimals, as reportedScore's are), without encoding it: a search weighs each
// hit so, and encoding ten results cost 2.7% of an in-process search.
func (r *SearchResult) jsonSize() int {
	// {"purl":,"title":,"section":,"kind":,"snippet":,"score":,"uri":} and the comma
	n := len(`{"purl":,"title":,"section":,"kind":,"snippet":,"score":,"uri":},`)
	for _, s := range [...]string{r.PURL, r.Title, r.Section, r.Kind, r.Snippet, r.URI} {
		n += jsonStringSize(s)
	}
	var num [32]byte
	n += len(strconv.AppendFloat(num[:0], r.Score, 'f', -1, 64))
	if len(r.Also) > 0 {
		n += len(`,"also":[]`) + len(r.Also) - 1
		for _, a := range r.Also {
			n += jsonStringSize(a)
		}
	}
	return n
}

// Ref returns the package version of the hit, read from its URI (docidx.ParsePageURI, the
// section's #anchor left out); the zero Ref when the URI is not a docidx page URI (a result
// docidx did not write).
func (r SearchResult) Ref() docidx.Ref {
	page, _, _ := strings.Cut(r.URI, "#")
	ref, _, err := docidx.ParsePageURI(page)
	if err != nil {
		return docidx.Ref{}
	}
	return ref
}

// reportedScore returns a hit's score to two decimals, as the text of a result shows it. Scores
// are float32 sums: the further digits of their float64 form ("18.987749099731445") are noise,
// and cost a result of ten hits some 140 bytes. Hits are ordered before the rounding.
func reportedScore(s float64) float64 { return math.Round(s*100) / 100 }

// Search answers search_package_docs: the hits of in.Query, best first, each with the passage
// that answers it, cut at a hit boundary within in.MaxTokens. It returns the markdown text, the
// structured results, and an error: an *ArgumentError (docidx.ErrUsage) for bad arguments, an
// *InternalError when the snapshot cannot be read, else an error wrapping docidx.ErrNotFound (or
// context.DeadlineExceeded) whose message says what to try.
func (s *Service) Search(ctx context.Context, in SearchInput) (string, SearchOutput, error) {
	out := SearchOutput{SchemaVersion: docidx.SchemaVersion}
	text := strings.TrimSpace(in.Query)
	if text == "" {
		return "", out, missingArgument("query", "query is empty")
	}
	eco, err := parseEcosystem(in.Ecosystem, false)
	if err != nil {
		return "", out, err
	}
	kind, err := index.NormalizeKind(in.Kind) // "function" is func, as on every front end
	if err != nil {
		return "", out, badArgument("kind", "%v", strings.TrimPrefix(err.Error(), "index: "))
	}
	version := strings.TrimSpace(in.Version)
	pkg := strings.TrimSpace(in.Package)
	// "zod@4", as show and crawl write a package, names its version too (a scope's "@" is
	// the name's first byte, "@types/node@20").
	if i := strings.LastIndexByte(pkg, '@'); i > 0 {
		named := strings.TrimSpace(pkg[i+1:])
		if named == "" {
			return "", out, badArgument("package", "package %s ends in @ without a version: write NAME@VERSION (zod@4), or NAME alone", docidx.Quote(pkg))
		}
		if version != "" && version != named {
			return "", out, badArgument("package", "package %s names version %s, but version is %s: give the version once", docidx.Quote(pkg), docidx.Quote(named), docidx.Quote(version))
		}
		pkg, version = pkg[:i], named
	}
	if version == "latest" {
		version = ""
	}
	limit := in.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	// "pypi:msgpack", as show and crawl write a package, names its ecosystem too.
	if prefix, name, ok := strings.Cut(pkg, ":"); ok && name != "" {
		if e, err := docidx.ParseEcosystem(prefix); err == nil {
			if eco != "" && e != eco {
				return "", out, badArgument("package", "package %s is in %s, but ecosystem is %s", docidx.Quote(pkg), e, eco)
			}
			eco, pkg = e, name
		}
	}
	q := index.Query{Text: text, Ecosystem: eco, Package: pkg, Version: version, Kind: kind,
		PassageBytes: s.passageBytes(in.MaxTokens, limit)}
	if q.Package != "" { // a bare name ("goldmark") filters by the package it names
		refs, err := s.reader().FindPackages(eco, q.Package)
		if err != nil {
			return "", out, internalError("find package", err)
		}
		exact := len(refs) > 0 && refs[0].Name == docidx.NormalizeName(refs[0].Ecosystem, q.Package)
		switch {
		case len(refs) == 1:
			q.Package = refs[0].Name
		case len(refs) > 1 && !exact:
			return "", out, ambiguousName(q.Package, refs)
		case len(refs) == 0:
			// A Go import path ("golang.org/x/text/cases") searches the module that holds it.
			mod, err := s.importPathModule(eco, q.Package)
			if err != nil {
				return "", out, err
			}
			if mod != "" {
				q.Ecosystem, q.Package = docidx.Go, mod
			}
		}
	}
	named := false // the version searched is the one the question names
	switch {
	case q.Package == "" && q.Version == "":
		// "with lru-cache 5 and maxAge set, …": the question names an indexed version older
		// than the latest, which is what it is about.
		if ref, ok := s.versionInQuestion(eco, text, ""); ok {
			q.Ecosystem, q.Package, q.Version = ref.Ecosystem, ref.Name, ref.Version
			named = true
		}
	case q.Package == "":
		// "zod parse vs safeParse" with version 4: the version is the named package's, and a
		// partial one or a range picks its newest match, as with a package filter.
		if ref, ok := s.versionInQuestion(eco, text, q.Version); ok {
			q.Ecosystem, q.Package, q.Version = ref.Ecosystem, ref.Name, ref.Version
		}
	}
	hash := RequestHash(IssuerSearch, q.Text, string(q.Ecosystem), q.Package, q.Version, q.Kind)
	c, err := s.DecodeCursor(in.Cursor, IssuerSearch, hash)
	if err != nil {
		return "", out, err
	}
	if c.Byte != 0 || c.Unit > maxSearchDepth {
		return "", out, s.badCursor("out of range")
	}
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	s.progress(ctx, "searching")
	hits, more, err := s.search(ctx, q, c.Unit, limit)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return "", out, notFoundf("search timed out after %s; use fewer words or add filters (ecosystem, package)", searchTimeout)
		}
		if errors.Is(err, index.ErrUnknownKind) {
			return "", out, badArgument("kind", "%v", strings.TrimPrefix(err.Error(), "index: "))
		}
		return "", out, internalError("search failed", err)
	}
	if len(hits) == 0 && c.Unit == 0 {
		return "", out, s.noHits(q)
	}

	s.progress(ctx, fmt.Sprintf("rendering %d hits", len(hits)))
	// Cut at a hit boundary within the budget; the first hit always goes in. The hits are
	// rendered into one buffer, a hit that does not fit cut off again.
	budget := s.Budget(in.MaxTokens)
	bp := renderBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= maxRenderBuf {
			renderBufs.Put(bp)
		}
	}()
	b := (*bp)[:0]
	out.Results = make([]SearchResult, 0, len(hits))
	spent := 0 // the hits' bytes, each the larger of its text and its result as JSON (cutPage)
	for i := range hits {
		h := &hits[i]
		mark := len(b)
		var prev *docidx.Hit
		if i > 0 {
			prev = &hits[i-1]
		}
		b = appendHit(b, c.Unit+i+1, h, prev)
		res := SearchResult{
			PURL:  h.PURL,
			Title: h.Title, Section: h.Section, Kind: string(h.Kind), Snippet: h.Snippet, Score: reportedScore(h.Score), URI: h.URI,
			Also: h.Also,
		}
		if spent += max(len(b)-mark, res.jsonSize()); i > 0 && spent > budget {
			b = b[:mark]
			more = true
			break
		}
		out.Results = append(out.Results, res)
	}
	nextUnit := c.Unit + len(out.Results)
	if more && nextUnit < maxSearchDepth {
		out.NextCursor = Cursor{Tool: IssuerSearch, Hash: hash, Unit: nextUnit}.Encode()
	}

	var t strings.Builder
	scope := "default versions"
	switch {
	case named:
		scope = q.Package + "@" + q.Version + ", the version the question names"
	case q.Version != "":
		scope = "version " + q.Version
	}
	// One line ends every page: how to continue it when more follows, and how to read a hit
	// in full. An assistant reads it on every call, so it is one short line.
	foot := "---\nA hit in full: " + s.opts.Words.Read + ".\n"
	if out.NextCursor != "" {
		foot = "---\n" + s.opts.Words.more(out.NextCursor) + " A hit in full: " + s.opts.Words.Read + ".\n"
	}
	*bp = b
	t.Grow(len(scope) + 40 + len(b) + len(foot))
	fmt.Fprintf(&t, "Results %d–%d (%s):\n\n", c.Unit+1, nextUnit, scope)
	t.Write(b)
	t.WriteString(foot)
	return t.String(), out, nil
}

// search returns the deduplicated hits [off, off+limit) of q — at most one per package version
// and URI, one per member declared alike on several types (same name, declaration and passage),
// none whose passage repeats a kept hit's of its package version (repeatOf), and one per type of
// its undocumented members, the best-ranked kept — and whether more follow. A symbol with no
// passage (no doc comment, no prose that mentions it) whose name the question does not write
// follows the hits of its page that have one: its declaration alone does not answer a question
// in words. It stays on its page, so that a page holds the hits it holds by rank (a named
// package whose best pages are such symbols still shows them) and pages cut from different
// calls agree. Deduplication runs
// over every hit up to the page, so pages never repeat a hit of an earlier page. A hit's passage is chosen only
// when it is shown or needed to tell a member's twins apart or a repeat from a kept hit of its
// package version (index.Reader.SearchDeferred): not for the hit after the page, which only says
// that more follow, nor for the hits asked for in case some repeat.
func (s *Service) search(ctx context.Context, q index.Query, off, limit int) ([]docidx.Hit, bool, error) {
	want := off + limit + 1
	// Keys of the hits' fields themselves, not strings joined from them: three strings a hit,
	// one of them holding its passage, were a fifth of what serving a search allocated.
	seen := make(map[hitKey]bool, want)
	members := make(map[memberHit][]*foundHit)
	kept := make(map[versionKey][]*foundHit)
	bare := make(map[memberHit]*foundHit) // by package version and parent: an undocumented member shown
	hits := make([]*foundHit, 0, want)
	spelled := questionWords(q.Text)
	const maxRaw = maxSearchDepth * 4 // the most ranked hits one search looks through
	for raw := 0; len(hits) < want; {
		// Ask for what is still missing plus a little room for duplicates (overloads share a
		// URI; about one hit in forty repeats another's passage), in pages of at most
		// rawSearchPage; the loop asks again if that was not enough. Within the ranking the
		// reader keeps (index.RankingDepth) a page costs its hits; one that ends deeper ranks
		// the question again, so past it the pages are rawSearchPage long: a question that
		// meets hundreds of alike members ("unit … observables": OpenTelemetry's Unit methods,
		// one answer) asked 200 pages of 9, ranking it 200 times.
		need := want - len(hits)
		n := need + 2
		if raw+n > index.RankingDepth {
			n = min(rawSearchPage, maxRaw-raw)
		}
		q.Offset, q.Limit = raw, min(rawSearchPage, n)
		res, passages, err := s.reader().SearchDeferred(ctx, q)
		if err != nil {
			return nil, false, err
		}
		for i, h := range res.Hits {
			key := hitKey{h.Ecosystem, h.Package, h.Version, h.URI}
			if seen[key] {
				continue
			}
			f := &foundHit{Hit: h, passages: passages, i: i}
			if h.Kind == docidx.HitSymbol {
				// The same member on sibling types (WriteBufferSize of Options, ClusterOptions,
				// RingOptions …; safeParse of ZodString, ZodNumber …) is one answer: its first
				// hit stands for the others and names them (Also). So is the same symbol of
				// another major version of a Go module (majorOf), named by its URI.
				m := memberHit{h.Ecosystem, h.Package, h.Version, lastSegment(h.Title)}
				if base, ok := majorOf(h); ok {
					m.pkg, m.version = base, ""
				}
				if twin := f.twinOf(members[m]); twin != nil {
					name := h.Title
					if twin.Package != h.Package {
						name = h.URI
					}
					twin.Also = append(twin.Also, name)
					passages.Skip(i)
					continue
				}
				members[m] = append(members[m], f)
			}
			if len(hits) == want-1 {
				// The hit after the page only says that more follow: its passage is not
				// chosen.
				hits = append(hits, f)
				break
			}
			// A page whose passage repeats what a kept hit of the same package version shows
			// (a README section copied into a typings file's JSDoc, a docstring rendered again
			// in the docs) is that hit's answer again: it names it instead.
			version := versionKey{h.Ecosystem, h.Package, h.Version}
			if o := f.repeatOf(kept[version]); o != nil {
				name := h.Title
				if h.Kind != docidx.HitSymbol {
					name = h.URI
				}
				o.Also = append(o.Also, name)
				passages.Skip(i)
				seen[key] = true
				continue
			}
			// Undocumented members of one type (afero's CacheOnReadFs.Name, .Remove, .Create …
			// for a question that spells the type) are one hit: none has a passage to tell it
			// from the others.
			if h.Kind == docidx.HitSymbol && f.snippet() == "" {
				k := memberHit{h.Ecosystem, h.Package, h.Version, parentName(h.Title)}
				if o := bare[k]; o != nil {
					o.Also = append(o.Also, h.Title)
					passages.Skip(i)
					seen[key] = true
					continue
				}
				bare[k] = f
				// One the question does not name follows, in its page, the hits that have a
				// passage; those take its place in the passage budgets.
				if !spelled[strings.ToLower(strings.TrimSuffix(lastSegment(h.Title), "!"))] {
					f.unnamedBare = true
					passages.Skip(i)
				}
			}
			kept[version] = append(kept[version], f)
			seen[key] = true
			hits = append(hits, f)
		}
		raw += len(res.Hits)
		if len(res.Hits) == 0 || raw >= res.Total || raw >= maxRaw {
			break
		}
	}
	sortHits(hits)
	if off >= len(hits) {
		return nil, false, nil
	}
	end := min(off+limit, len(hits))
	// Within the page, and only there, so that a page holds the hits it would hold anyway.
	slices.SortStableFunc(hits[off:end], func(a, b *foundHit) int { return falseFirst(a.unnamedBare, b.unnamedBare) })
	page := make([]docidx.Hit, 0, end-off)
	for _, f := range hits[off:end] {
		f.snippet()
		page = append(page, f.Hit)
	}
	return page, len(hits) > end, nil
}

// sortHits orders hits by score, ties by URI and then version: the index may return equal
// scores in any order, and pages cut from different calls must agree.
func sortHits(hits []*foundHit) {
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].URI != hits[j].URI {
			return hits[i].URI < hits[j].URI
		}
		return hits[i].Version < hits[j].Version
	})
}

// questionWords returns the words of a question as code writes names, lower-cased, for telling
// whether it names a symbol: "semver.IsValid(\"1.2.3\")" gives "semver", "isvalid", "1", "2" and
// "3".
func questionWords(text string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '$'
	}) {
		words[strings.ToLower(w)] = true
	}
	return words
}

// foundHit is a hit of search whose passage (Snippet) is chosen when first needed.
type foundHit struct {
	docidx.Hit
	passages *index.Passages // of the search that found it
	i        int             // its number in that search's hits
	chosen   bool            // Snippet is its passage
	// unnamedBare marks a symbol with no passage whose name the question does not write: it
	// follows the page's hits that have a passage.
	unnamedBare bool
	// Its passage's word hashes, in order and in a Bloom filter, and its word and trigram
	// hashes sorted, once repeatOf needed them.
	hashes       []uint64
	bloom        wordBloom
	vocab, grams []uint64
}

// snippet returns f's passage, chosen on the first call.
func (f *foundHit) snippet() string {
	if !f.chosen {
		f.Snippet, f.chosen = f.passages.At(f.i), true
	}
	return f.Snippet
}

// twinOf returns the hit of others, the hits kept of the same member (memberHit), that f is the
// twin of, or nil: one with the same passage, and either the same declaration or a passage that
// is not empty; or one with the same declaration whose passage holds f's or is held in it, two
// cuts of one doc (a hit found on a later page of the index gets its passage chosen at another
// rank). Two undocumented overloads with different parameters are two answers; one documented
// method on two types, or one undocumented declaration on two, is one: a Go method's
// declaration is compared without its receiver, which names the type (the UnmarshalVT that
// vtprotobuf generates for every message is one answer).
func (f *foundHit) twinOf(others []*foundHit) *foundHit {
	if len(others) == 0 {
		return nil
	}
	p := f.snippet()
	decl := withoutReceiver(f.Section)
	for _, o := range others {
		op := o.snippet()
		same := withoutReceiver(o.Section) == decl
		if op == p && (p != "" || same) {
			return o
		}
		if same && p != "" && op != "" {
			a, b := uncut(p), uncut(op)
			if len(a) >= minTwinCut && len(b) >= minTwinCut && (strings.Contains(a, b) || strings.Contains(b, a)) {
				return o
			}
		}
	}
	return nil
}

// withoutReceiver returns a Go method's declaration without its receiver ("func UnmarshalVT(dAtA
// []byte) error" of "func (m *Msg) UnmarshalVT(dAtA []byte) error"), and any other declaration
// as it is.
func withoutReceiver(decl string) string {
	rest, ok := strings.CutPrefix(decl, "func (")
	if !ok {
		return decl
	}
	if i := strings.Index(rest, ") "); i >= 0 {
		return "func " + rest[i+2:]
	}
	return decl
}

// minTwinCut is the shortest passage, in bytes, that twinOf finds inside another: a shorter one
// (a first sentence many docs open with) says too little of the doc it was cut from.
const minTwinCut = 80

// uncut returns a passage without the "…" that marks where it was cut and the white space
// around it, and with its lines joined by spaces: the text two cuts of one doc share.
func uncut(p string) string {
	p = strings.ReplaceAll(p, "\n", " ")
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(p), "…"))
}

// repeatOf returns the hit of others whose passage repeats f's, or nil: one that holds at least
// repeatShare of f's word trigrams and every word of f's but at most repeatNewWords, none of
// them with a digit. "If this is not set, gRPC uses the default limit." and "… the default
// 4MB." differ in the one word that answers, so neither repeats the other.
func (f *foundHit) repeatOf(others []*foundHit) *foundHit {
	if len(others) == 0 {
		return nil
	}
	words := appendWordHashes(nil, f.snippet())
	if len(words) < minRepeatWords {
		return nil
	}
	for _, o := range others {
		if o.hashes == nil {
			o.hashes = appendWordHashes(make([]uint64, 0, 64), o.snippet())
			for _, w := range o.hashes {
				o.bloom.add(w &^ digitBit)
			}
		}
		// Most pairs of passages differ in their first few words: a Bloom filter of the other's
		// words tells so without sorting them.
		fresh := 0
		for _, w := range words {
			if !o.bloom.has(w&^digitBit) && w&digitBit == 0 {
				if fresh++; fresh > repeatNewWords {
					break
				}
			}
		}
		if fresh > repeatNewWords {
			continue
		}
		if o.vocab == nil {
			o.vocab, o.grams = passageShape(o.hashes)
		}
		held := 0
		fresh = 0
		digit := false // a new word with a digit: the answer, never a repeat
		for i, w := range words {
			if _, ok := slices.BinarySearch(o.vocab, w&^digitBit); !ok {
				if digit = w&digitBit != 0; digit {
					break
				}
				if fresh++; fresh > repeatNewWords {
					break
				}
			}
			if i+2 < len(words) {
				if _, ok := slices.BinarySearch(o.grams, trigram(words[i:i+3])); ok {
					held++
				}
			}
		}
		if !digit && fresh <= repeatNewWords && float64(held) >= repeatShare*float64(len(words)-2) {
			return o
		}
	}
	return nil
}

// Repeated passages (repeatOf): the share of a passage's word trigrams, and the number of its
// words, another passage must hold and may lack; passages of fewer words are never repeats.
const (
	repeatShare    = 0.9
	repeatNewWords = 2
	minRepeatWords = 6
)

// digitBit marks the hash of a word that holds a digit (appendWordHashes).
const digitBit = 1 << 63

// appendWordHashes appends to hs a hash of each word of s, a run of letters and digits
// compared without case (ASCII), with digitBit set when it holds a digit. The "…" a passage
// marks a cut with is no word: two cuts of one text differ only in where they start and end.
func appendWordHashes(hs []uint64, s string) []uint64 {
	const offset, prime = 14695981039346656037, 1099511628211 // FNV-1a
	h, digit, in := uint64(offset), false, false
	for i := 0; i <= len(s); i++ {
		var c byte
		if i < len(s) {
			c = s[i]
			if c == 0xE2 && strings.HasPrefix(s[i:], "…") {
				c, i = ' ', i+len("…")-1
			}
		}
		word := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
		if word {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h = (h ^ uint64(c)) * prime
			digit = digit || '0' <= c && c <= '9'
			in = true
			continue
		}
		if in {
			h &^= digitBit
			if digit {
				h |= digitBit
			}
			hs = append(hs, h)
		}
		h, digit, in = offset, false, false
	}
	return hs
}

// trigram returns one hash of three word hashes.
func trigram(w []uint64) uint64 {
	return (w[0]&^digitBit)*31*31 + (w[1]&^digitBit)*31 + w[2]&^digitBit
}

// passageShape returns the sorted word hashes (digitBit cleared) and trigram hashes of the
// words of a passage (appendWordHashes), each once.
func passageShape(hashes []uint64) (vocab, grams []uint64) {
	words := slices.Clone(hashes)
	grams = make([]uint64, 0, max(len(words)-2, 0))
	for i := 0; i+2 < len(words); i++ {
		grams = append(grams, trigram(words[i:i+3]))
	}
	for i := range words {
		words[i] &^= digitBit
	}
	slices.Sort(words)
	slices.Sort(grams)
	return slices.Compact(words), slices.Compact(grams)
}

// wordBloom is a Bloom filter of 256 bits over word hashes, two bits a word.
type wordBloom [4]uint64

func (b *wordBloom) add(h uint64) {
	b[h>>6&3] |= 1 << (h & 63)
	b[h>>14&3] |= 1 << (h >> 8 & 63)
}

func (b *wordBloom) has(h uint64) bool {
	return b[h>>6&3]&(1<<(h&63)) != 0 && b[h>>14&3]&(1<<(h>>8&63)) != 0
}

// hitKey is a hit's page in a package version: search shows one hit per key.
type hitKey struct {
	eco                   docidx.Ecosystem
	pkg, version, pageURI string
}

// versionKey is a hit's package version: search names a hit whose passage repeats another's of
// the same version (repeatOf) in that hit's also.
type versionKey struct {
	eco          docidx.Ecosystem
	pkg, version string
}

// majorOf returns the module path without its major version suffix of a Go hit's module
// ("github.com/cenkalti/backoff" of github.com/cenkalti/backoff/v4, "gopkg.in/yaml" of
// gopkg.in/yaml.v3; golang.org/x/mod/module.SplitPathVersion), and false for a hit of another
// ecosystem: the majors of one module are one project, and a symbol both declare alike, with
// the same passage, is one answer.
func majorOf(h docidx.Hit) (string, bool) {
	if h.Ecosystem != docidx.Go {
		return "", false
	}
	base, _, ok := module.SplitPathVersion(h.Package)
	return base, ok
}

// memberHit is a symbol hit's package version and a name: its own name, for search to show one
// member declared alike, with the same passage, on several types (see twinOf); or its parent's,
// to show the undocumented members of one type as one hit.
type memberHit struct {
	eco                docidx.Ecosystem
	pkg, version, name string
}

// noHits is the not-found error for a search that found nothing: an unknown package filter gets the
// did-you-mean of unknownPackage, anything else advice on widening the search.
func (s *Service) noHits(q index.Query) error {
	if q.Package != "" {
		ecos := docidx.Ecosystems
		if q.Ecosystem != "" {
			ecos = []docidx.Ecosystem{q.Ecosystem}
		}
		known := false
		for _, eco := range ecos {
			if vs, err := s.reader().Versions(eco, q.Package); err == nil && len(vs) > 0 {
				known = true
				if q.Version != "" {
					if _, err := s.reader().Resolve(docidx.Ref{Ecosystem: eco, Name: q.Package, Version: q.Version}); err != nil {
						return s.unknownPackage(eco, q.Package, q.Version)
					}
				}
			}
		}
		if !known {
			eco := q.Ecosystem
			return s.unknownPackage(eco, q.Package, "")
		}
	}
	var filters []string
	for _, f := range []struct{ name, v string }{
		{"ecosystem", string(q.Ecosystem)}, {"package", q.Package}, {"version", q.Version}, {"kind", q.Kind},
	} {
		if f.v != "" {
			filters = append(filters, f.name+"="+f.v)
		}
	}
	msg := "no results for " + docidx.Quote(q.Text)
	// An assistant that finds nothing in a package searches it again and again in other words;
	// what the snapshot holds of it tells when the answer cannot be there. With a kind filter,
	// the kind may be what left nothing: the filters say so below.
	if q.Kind == "" {
		if held := s.packageHolds(q); held != "" {
			return notFoundf("%s. %s, none with these words: what its docs do not say is not indexed. Try other words, or search without the package.", msg, held)
		}
	}
	if len(filters) > 0 {
		msg += " with " + strings.Join(filters, ", ") + "; try without some filters"
	} else {
		msg += "; try other or fewer words"
	}
	return notFoundf("%s. %s shows what is indexed.", msg, s.opts.Words.List)
}

// packageHolds returns a sentence saying what the snapshot holds of the one package version q
// searched ("pip@23.2.1 has 1 document (README.rst; 1 section) and 2 API symbols in the
// snapshot"), or "" when q names none, or a name of several ecosystems, or one not indexed.
func (s *Service) packageHolds(q index.Query) string {
	if q.Package == "" {
		return ""
	}
	eco := q.Ecosystem
	if eco == "" {
		refs, err := s.reader().FindPackages("", q.Package)
		if err != nil || len(refs) != 1 {
			return ""
		}
		eco = refs[0].Ecosystem
	}
	ref, err := s.reader().Resolve(docidx.Ref{Ecosystem: eco, Name: q.Package, Version: q.Version})
	if err != nil {
		return ""
	}
	docs, err := s.reader().Documents(ref)
	if err != nil {
		return ""
	}
	syms, err := s.reader().Symbols(ref)
	if err != nil {
		return ""
	}
	sections := 0
	var paths []string
	for _, d := range docs {
		sections += len(d.Sections)
		if len(paths) < 3 {
			paths = append(paths, d.Path)
		}
	}
	docsPart := plural(len(docs), "document")
	if len(docs) > 0 {
		list := strings.Join(paths, ", ")
		if len(docs) > len(paths) {
			list += ", …"
		}
		docsPart += " (" + list + "; " + plural(sections, "section") + ")"
	}
	return ref.Name + "@" + ref.Version + " has " + docsPart + " and " + plural(len(syms), "API symbol") + " in the snapshot"
}

// plural returns n and noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// passageBytes is the passage size of the first hit for an answer of maxTokens and limit hits
// (the hits below get shares of it, see index.Query.PassageBytes): the index's default at the
// default budget, in proportion to a larger one; for a smaller one, the default while a page of
// limit hits at the default passages fits it, else the share of the default that does. An
// assistant asking for two hits in 500 tokens (2,000 bytes) got 120-byte passages, one
// sentence, cut before the one that answered, and read the page again to see it.
func (s *Service) passageBytes(maxTokens, limit int) int {
	if maxTokens <= 0 || maxTokens == s.opts.DefaultMaxTokens {
		return index.DefaultPassageBytes
	}
	if maxTokens > s.opts.DefaultMaxTokens {
		return min(index.DefaultPassageBytes*maxTokens/s.opts.DefaultMaxTokens, index.MaxPassageBytes)
	}
	budget := s.Budget(maxTokens)
	need := index.PageBytes(index.DefaultPassageBytes, limit) + limit*hitLinesBytes
	if budget >= need {
		return index.DefaultPassageBytes
	}
	return max(index.DefaultPassageBytes*budget/need, 120)
}

// hitLinesBytes is about what a search hit's text takes besides its passage: its title, heading
// path or signature and URI lines (2.1 KB of the dev questions' 5.2 KB answers of ten hits).
const hitLinesBytes = 210

// parentName returns a qualified name without its last dot- or colon-separated part: the type
// of a member ("afero.CacheOnReadFs" of "afero.CacheOnReadFs.Name"), "" for a name of one part.
func parentName(q string) string {
	i := strings.LastIndexAny(q, ".:")
	if i < 0 {
		return ""
	}
	return strings.TrimRight(q[:i], ".:")
}

// lastSegment returns the last dot- or colon-separated part of a qualified name: a symbol's own
// name ("PoolSize" of "redis.Options.PoolSize", "port" of "netconf::Config::port").
func lastSegment(q string) string { return q[strings.LastIndexAny(q, ".:")+1:] }

// renderBufs holds the buffers search results are rendered into, for reuse: a page of hits is
// about 5 KB, built for every search.
var renderBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxRenderBuf bounds the buffers kept in renderBufs: a page at a large max_tokens is not.
const maxRenderBuf = 64 << 10

// maxAlsoNames is how many of the hits a hit stands for (docidx.Hit.Also) its text names; the
// structured result names them all.
const maxAlsoNames = 4

// appendAlso appends the line that names the hits a hit stands for: "   also: A, B and 7 more".
func appendAlso(b []byte, also []string) []byte {
	b = append(b, "   also: "...)
	for i, name := range also[:min(len(also), maxAlsoNames)] {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, name...)
	}
	if n := len(also) - maxAlsoNames; n > 0 {
		b = append(b, " and "...)
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, " more"...)
	}
	return append(b, '\n')
}

// appendHit appends search hit number n as a markdown list item to b: its title, its package
// version unless it is prev's (the hit listed before it, or nil), its heading path or signature,
// the hits it stands for, its passage and its URI. Its kind and score are in the structured
// result only: the URI says what it is, and a score compares nothing a reader sees.
func appendHit(b []byte, n int, h, prev *docidx.Hit) []byte {
	// Appended piece by piece rather than with fmt: ten of these are in every results page.
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ". **"...)
	b = append(b, h.Title...)
	b = append(b, "**"...)
	if prev == nil || prev.Ecosystem != h.Ecosystem || prev.Package != h.Package || prev.Version != h.Version {
		b = append(b, " — "...)
		b = append(b, h.Package...)
		b = append(b, '@')
		b = append(b, h.Version...)
	}
	b = append(b, '\n')
	if h.Section != "" && !(h.Kind == docidx.HitSymbol && declarationShown(h.Section, h.Snippet)) {
		b = append(b, "   "...)
		b = append(b, Clip(index.CollapseSpace(h.Section), 300)...)
		b = append(b, '\n')
	}
	if len(h.Also) > 0 {
		b = appendAlso(b, h.Also)
	}
	// The passage, quoted line by line: its list items, table rows and code keep their lines.
	for line := range strings.Lines(h.Snippet) {
		b = append(b, "   > "...)
		b = append(b, strings.TrimRight(line, "\n")...)
		b = append(b, '\n')
	}
	b = append(b, "   "...)
	b = append(b, h.URI...)
	return append(b, "\n\n"...)
}

// declarationShown reports whether passage opens with a code block that holds the declaration
// decl (a symbol hit's signature line) whole: a passage chosen for the words of a long
// declaration (pyyaml's dump_all, whose sort_keys=True answers "why are my keys sorted") shows
// it in full, and the signature line above it, clipped, would say it again. White space is
// not compared (the line is the declaration on one line), nor a comma that ends a wrapped list
// of parameters, nor the "…" that ends a clipped line. The kind that opens a section whose
// signature starts with no declaration word (index's symbolSection: "field engine_config_types:
// Mapping[str, Any] = …" of a Python class attribute) is not part of the declaration.
func declarationShown(decl, passage string) bool {
	code, ok := strings.CutPrefix(passage, "```")
	if !ok {
		return false
	}
	if nl := strings.IndexByte(code, '\n'); nl >= 0 {
		code = code[nl+1:] // the fence's info string
	}
	if end := strings.Index(code, "```"); end >= 0 {
		code = code[:end]
	}
	squeeze := func(s string) string {
		s = strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
		return strings.NewReplacer(",)", ")", ",]", "]").Replace(s)
	}
	decl = strings.TrimSuffix(strings.TrimSpace(decl), "…") // a long one comes clipped
	code = squeeze(code)
	if d := squeeze(decl); d != "" && strings.Contains(code, d) {
		return true
	}
	kind, sig, ok := strings.Cut(decl, " ")
	lower := strings.IndexFunc(kind, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
	return ok && lower && strings.TrimSpace(sig) != "" && strings.Contains(code, squeeze(sig))
}

// versionInQuestion returns the package version a question names when it is not the one a
// search reads by default (the package's root version, else its latest): a package's exact
// name followed by a version ("lru-cache 5", "lru-cache v5.1", "lru-cache@5"), which selects the
// newest indexed version it matches (index.ResolveVersion's rules). ok is false when the
// question names none, or names the default one (then every package is searched as usual), or
// the name is ambiguous across ecosystems. With given, a version the caller asked for, the
// first package the question names exactly whose indexed versions match given is the one, at
// its newest match, default or not.
func (s *Service) versionInQuestion(eco docidx.Ecosystem, text, given string) (ref docidx.Ref, ok bool) {
	words := strings.Fields(text)
	for i, w := range words {
		name, version := strings.TrimRight(strings.TrimLeft(w, "(\"'`"), ",.;:?!)\"'`"), ""
		if at := strings.LastIndexByte(name, '@'); at > 0 {
			name, version = name[:at], name[at+1:]
		} else if i+1 < len(words) {
			version = strings.TrimRight(words[i+1], ",.;:?!)\"'`")
		}
		if given != "" {
			version = given
		} else if !index.VersionWord(version) {
			continue
		}
		refs, err := s.reader().FindPackages(eco, name)
		if err != nil || len(refs) != 1 || refs[0].Name != docidx.NormalizeName(refs[0].Ecosystem, name) {
			continue
		}
		versions, err := s.reader().Versions(refs[0].Ecosystem, refs[0].Name)
		if err != nil || len(versions) < 2 && given == "" {
			continue
		}
		named, err := index.ResolveVersion(refs[0].Ecosystem, versions, version)
		searched, err2 := s.reader().Resolve(docidx.Ref{Ecosystem: refs[0].Ecosystem, Name: refs[0].Name})
		if err != nil || err2 != nil || named == searched.Version && given == "" {
			continue
		}
		return docidx.Ref{Ecosystem: refs[0].Ecosystem, Name: refs[0].Name, Version: named}, true
	}
	return docidx.Ref{}, false
}
