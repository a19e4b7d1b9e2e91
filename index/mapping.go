package index

// mapping.go defines the Bleve index: one document per section and one per symbol, with keyword
// fields for filters, an English analyzer for prose and an identifier analyzer for names.

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	_ "github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

// Analyzer and filter names registered with Bleve. They are part of the snapshot format: an index
// written with them is read back with the same names.
const (
	identFilterName   = "docidx_ident_split"
	identAnalyzerName = "docidx_ident"
)

// Bleve field names.
const (
	fEco       = "eco"       // keyword: ecosystem
	fPkg       = "pkg"       // keyword: package name as written
	fVersion   = "ver"       // keyword
	fHit       = "hit"       // keyword: "section" or "symbol"
	fKind      = "kind"      // keyword: doc kind (readme, doc, example) or symbol kind (func, type …)
	fPkgName   = "pkgname"   // ident: package name, split
	fPkgExact  = "pkgexact"  // keyword: lowercased package name and its last path segment
	fTitle     = "title"     // en: document title
	fHeading   = "heading"   // en: heading path
	fName      = "name"      // ident: symbol name and qualified name
	fSignature = "signature" // ident: symbol signature
	fAll       = "all"       // en: title, headings, text and names split into words; selects documents
	fUndoc     = "undoc"     // keyword: "1" for a symbol without a doc comment, absent otherwise
	fMention   = "mention"   // en: what sibling members' docs and the package's prose say of a symbol (mention.go)
	// Stored only, to build hits without reading store.db.
	fSTitle   = "s_title"
	fSSection = "s_section"
	fSText    = "s_text"
	fSURI     = "s_uri"
)

// storedOnly are the fields search.bleve stores and does not index: a hit's text.
var storedOnly = [...]string{fSTitle, fSSection, fSText, fSURI}

func init() {
	if err := registry.RegisterTokenFilter(identFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return identSplitter{}, nil
	}); err != nil {
		panic(err)
	}
}

// identSplitter is a token filter that keeps each identifier token and adds its parts split at
// underscores, dots, dashes, digit boundaries and camelCase humps ("HTTPServer" -> "HTTPServer",
// "HTTP", "Server"; "read_file" -> "read_file", "read", "file"), all at the token's position.
// The parts and the list are allocated, or with an arena (the rank index's analyzers, see
// withTokenArena), taken from it.
type identSplitter struct{ arena *tokenArena }

func (f identSplitter) Filter(in analysis.TokenStream) analysis.TokenStream {
	out := f.arena.stream(1)
	for _, tok := range in {
		out = append(out, tok)
		parts := splitIdent(tok.Term)
		if len(parts) < 2 {
			continue
		}
		for _, p := range parts {
			part := f.arena.token()
			part.Start, part.End = tok.Start+p[0], tok.Start+p[1]
			part.Term, part.Position, part.Type = tok.Term[p[0]:p[1]:p[1]], tok.Position, tok.Type
			out = append(out, part)
		}
	}
	return f.arena.keep(1, out)
}

// splitIdent returns the byte ranges of the words of an identifier, nil for an identifier of one
// word.
func splitIdent(s []byte) [][2]int {
	if oneWord(s) {
		return nil // most tokens: allocating the one part cost a crawl 2% of its CPU
	}
	return identParts(s)
}

// oneWord reports whether s is an ASCII word that identParts leaves whole: letters all lower
// case after the first ("the", "The", "connection"), all upper case ("HTTP"), or digits ("443").
func oneWord(s []byte) bool {
	lower, upper, digits := true, true, true
	for i, c := range s {
		switch {
		case 'a' <= c && c <= 'z':
			upper, digits = false, false
		case 'A' <= c && c <= 'Z':
			lower, digits = lower && i == 0, false
		case '0' <= c && c <= '9':
			lower, upper = false, false
		default:
			return false
		}
	}
	return lower || upper || digits
}

// identParts is splitIdent without its shortcut for one word.
func identParts(s []byte) [][2]int {
	var parts [][2]int
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, [2]int{start, end})
		}
		start = -1
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			prev = r
			i += n
			continue
		}
		if start >= 0 {
			boundary := false
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				boundary = true // fooBar
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				boundary = true // utf8Decode, v2
			case unicode.IsUpper(r) && unicode.IsUpper(prev):
				// HTTPServer: the "S" starts a word when a lower-case letter follows.
				if next, _ := utf8.DecodeRune(s[i+n:]); i+n < len(s) && unicode.IsLower(next) {
					boundary = true
				}
			}
			if boundary {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
		i += n
	}
	flush(len(s))
	if len(parts) == 1 && parts[0] == [2]int{0, len(s)} {
		return nil
	}
	return dedupeRanges(s, parts)
}

func dedupeRanges(s []byte, parts [][2]int) [][2]int {
	out := parts[:0]
	for i, p := range parts {
		dup := false
		for _, q := range parts[:i] {
			if bytes.Equal(s[p[0]:p[1]], s[q[0]:q[1]]) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// storedMapping is the mapping Bleve's offline builder writes a segment's search.bleve with: im
// itself, as its JSON and every lookup of it show, whose MapDocument maps a hit's stored fields
// (a *storedValues) straight to the document fields im's own MapDocument makes of them by walking
// a map with reflection, which was 2–3% of a crawl's CPU and 5% of what it allocated.
type storedMapping struct {
	*mapping.IndexMappingImpl
	analyzer analysis.Analyzer // the stored fields' own, keyword (see newMapping)
}

// newStoredMapping returns the storedMapping of im, a mapping newMapping made.
func newStoredMapping(im mapping.IndexMapping) (storedMapping, error) {
	impl, ok := im.(*mapping.IndexMappingImpl)
	if !ok {
		return storedMapping{}, fmt.Errorf("index: mapping %T is not Bleve's", im)
	}
	a := impl.AnalyzerNamed(keyword.Name)
	if a == nil {
		return storedMapping{}, fmt.Errorf("index: no %s analyzer", keyword.Name)
	}
	return storedMapping{impl, a}, nil
}

// storedValues are the stored fields of a hit (storedOnly), those it has.
type storedValues struct {
	value [len(storedOnly)]string
	has   [len(storedOnly)]bool
}

// storedValuesOf returns the fields of a search document that search.bleve holds: only the
// stored ones, which hits are read from. Every other field is analysed once, by rankAcc.
func storedValuesOf(fields map[string]any) *storedValues {
	var v storedValues
	for i, name := range storedOnly {
		if s, ok := fields[name].(string); ok {
			v.value[i], v.has[i] = s, true
		}
	}
	return &v
}

// MapDocument adds data's fields to doc: those of a *storedValues as text fields that are
// stored, not indexed, as im maps storedOnly fields; any other data as im maps it.
func (m storedMapping) MapDocument(doc *document.Document, data any) error {
	v, ok := data.(*storedValues)
	if !ok {
		return m.IndexMappingImpl.MapDocument(doc, data)
	}
	for i, name := range storedOnly {
		if v.has[i] {
			doc.AddField(document.NewTextFieldCustom(name, nil, []byte(v.value[i]), index.StoreField, m.analyzer))
		}
	}
	doc.SetIndexed()
	return nil
}

// newMapping returns the index mapping of docs/ARCHITECTURE.md §4: keyword filters, English prose,
// identifier names.
func newMapping() (mapping.IndexMapping, error) {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(identAnalyzerName, map[string]any{
		"type":          "custom",
		"tokenizer":     unicodetok.Name,
		"token_filters": []any{identFilterName, lowercase.Name, en.StopName, porter.Name},
	}); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = en.AnalyzerName
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	text := func(analyzer string) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	stored := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		// Bleve analyses a field whether or not it indexes it: the keyword analyzer makes one
		// token of the value, at no cost.
		f.Analyzer = keyword.Name
		f.Index = false
		f.Store = true
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}

	dm := bleve.NewDocumentStaticMapping()
	for _, name := range []string{fEco, fPkg, fVersion, fHit, fKind, fPkgExact, fUndoc} {
		dm.AddFieldMappingsAt(name, kw())
	}
	dm.AddFieldMappingsAt(fPkgName, text(identAnalyzerName))
	dm.AddFieldMappingsAt(fName, text(identAnalyzerName))
	dm.AddFieldMappingsAt(fSignature, text(identAnalyzerName))
	dm.AddFieldMappingsAt(fTitle, text(en.AnalyzerName))
	dm.AddFieldMappingsAt(fHeading, text(en.AnalyzerName))
	dm.AddFieldMappingsAt(fAll, text(en.AnalyzerName))
	dm.AddFieldMappingsAt(fMention, text(en.AnalyzerName))
	for _, name := range storedOnly {
		dm.AddFieldMappingsAt(name, stored())
	}
	// Bleve's composite _all field would hold nothing (no field is included in it) yet cost an
	// analysis of every document: fAll is docidx's own.
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	im.DefaultMapping = dm
	im.DefaultField = fAll
	return im, nil
}
