package web

import (
	"context"
	"errors"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
)

// searchLimit is the number of hits on one page of results.
const searchLimit = 20

// pageTokens is the answer budget the pages ask the answer layer for: its largest, since a page
// is read by a person who scrolls, not by a model with a context window.
const pageTokens = 100_000

// searchData is the search page's data.
type searchData struct {
	Q, Ecosystem, Package, Version, Kind string
	Ecosystems                           []string
	Kinds                                []string
	Results                              []hit
	Message                              string // no hits, or a bad filter
	More                                 string // link to the next page of results
	Packages                             []answer.PackageListing
}

// hit is one search result as the page shows it.
type hit struct {
	answer.SearchResult // its Ref names the package version the page shows
	Href                string
	Overview            string
	Passage             template.HTML // Snippet rendered as markdown (see passage.go)
	Others              []link        // the hits it stands for (Also), each linked to its page
}

// alsoLinks links the hits a result stands for (SearchResult.Also) to their pages: a page's URI
// by its page path within the package version, a symbol's qualified name by its symbol page.
func alsoLinks(ref docidx.Ref, also []string) []link {
	links := make([]link, 0, len(also))
	for _, a := range also {
		if strings.HasPrefix(a, docidx.URIScheme+"://") {
			text := a
			if _, after, ok := strings.Cut(a, "@"+ref.Version+"/"); ok {
				text = after
			}
			links = append(links, link{Href: uriPath(a), Text: text})
			continue
		}
		links = append(links, link{Href: pagePath(ref, docidx.PageSymbolPrefix+a), Text: a})
	}
	return links
}

// segment is a piece of a passage's text, marked when it is one of the query's words.
type segment struct {
	Text string
	Mark bool
}

// searchKinds are the kind filter's choices.
var searchKinds = []string{"section", "symbol", "func", "method", "type", "class", "interface", "const", "var", "field", "property"}

func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := searchData{Q: q.Get("q"), Ecosystem: q.Get("ecosystem"), Package: q.Get("package"), Version: q.Get("version"), Kind: q.Get("kind"), Kinds: searchKinds}
	for _, c := range h.reader().Counts() {
		d.Ecosystems = append(d.Ecosystems, string(c.Ecosystem))
	}
	status := http.StatusOK
	if strings.TrimSpace(d.Q) == "" {
		// The start page lists what is indexed, for browsing without a question.
		data := func() (page, error) {
			pkgs, err := h.packages(r)
			for _, p := range pkgs {
				if d.Ecosystem == "" || p.Ecosystem == d.Ecosystem {
					d.Packages = append(d.Packages, p)
				}
			}
			return page{Title: "docidx", Home: true, Data: d}, err
		}
		if (d.Ecosystem == "" || slices.Contains(d.Ecosystems, d.Ecosystem)) && d.Package+d.Version+d.Kind == "" {
			h.renderKept(w, "/?ecosystem="+d.Ecosystem, "search", data)
			return
		}
		p, err := data()
		if err != nil {
			h.fail(w, err, nil)
			return
		}
		h.render(w, status, "search", p)
		return
	}
	_, out, err := h.s.Search(r.Context(), answer.SearchInput{Query: d.Q, Ecosystem: d.Ecosystem, Package: d.Package,
		Version: d.Version, Kind: d.Kind, Limit: searchLimit, Cursor: q.Get("cursor"), MaxTokens: pageTokens})
	switch {
	case err == nil:
	case errors.Is(err, docidx.ErrNotFound), errors.Is(err, context.DeadlineExceeded): // no hits, or none in time
		d.Message = err.Error()
	case errors.Is(err, docidx.ErrUsage):
		d.Message, status = err.Error(), http.StatusBadRequest
	default:
		h.fail(w, err, nil)
		return
	}
	words := queryWords(d.Q)
	md := h.passageMarkdown(words)
	for _, res := range out.Results {
		ref := res.Ref()
		d.Results = append(d.Results, hit{SearchResult: res, Href: uriPath(res.URI), Overview: pagePath(ref, docidx.PageOverview),
			Passage: md.passage(res.Snippet), Others: alsoLinks(ref, res.Also)})
	}
	if out.NextCursor != "" {
		next := url.Values{}
		for k, v := range q {
			next[k] = v
		}
		next.Set("cursor", out.NextCursor)
		d.More = "/?" + next.Encode()
	}
	h.render(w, status, "search", page{Title: d.Q + " — docidx", Home: true, Data: d})
}

// queryWords are the lower-cased words of a query, two letters or longer.
func queryWords(q string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(q), notWordRune) {
		if len([]rune(f)) >= 2 && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }

// highlight splits text into segments, marking its words that match one of words: equal, or
// starting with it (a query's "limit" marks "limiter"), or, for words of four letters or more,
// a prefix of it ("limiters" marks "limiter"), the way an English stemmer would have matched
// them. Camel-case identifiers are matched whole.
func highlight(text string, words []string) []segment {
	var out []segment
	start, plain := 0, 0
	flush := func(end int, mark bool) {
		if plain < start {
			out = append(out, segment{Text: text[plain:start]})
		}
		out = append(out, segment{Text: text[start:end], Mark: mark})
		plain = end
	}
	inWord := false
	for i, r := range text + " " {
		isWord := !notWordRune(r)
		switch {
		case isWord && !inWord:
			start, inWord = i, true
		case !isWord && inWord:
			inWord = false
			if matches(strings.ToLower(text[start:i]), words) {
				flush(i, true)
			}
		}
	}
	if plain < len(text) {
		out = append(out, segment{Text: text[plain:]})
	}
	return out
}

func matches(tok string, words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(tok, w) || (len(tok) >= 4 && strings.HasPrefix(w, tok)) {
			return true
		}
	}
	return false
}

// overviewData is the package overview's data.
type overviewData struct {
	answer.DescribeOutput
	Base      string // /{eco}/{name}
	Readme    string
	API       string
	Docs      []link
	Compare   string // the diff page from the previous version, when there is one
	Published string
	Outline   []outlineGroup
}

// outlineGroup is the outline entries of one declaring package.
type outlineGroup struct {
	Package string
	Entries []answer.OutlineEntry
}

func (h *Handler) overview(w http.ResponseWriter, r *http.Request, ref docidx.Ref) {
	if h.lookup(w, ref, docidx.PageOverview) == nil {
		return
	}
	// The answer's first page, as a model gets it: the metadata, README summary and documents,
	// and the start of the outline; the API page has the rest.
	_, out, err := h.s.Describe(r.Context(), ref.Ecosystem, answer.DescribeInput{Package: ref.Name, Version: ref.Version})
	if err != nil {
		h.fail(w, err, h.versionSuggestions(ref, docidx.PageOverview))
		return
	}
	d := overviewData{DescribeOutput: out, Base: packageBase(ref.Ecosystem, ref.Name), API: pagePath(ref, docidx.PageAPI), Published: out.Published}
	for _, doc := range out.Documents {
		href := uriPath(doc.URI)
		if doc.Kind == string(docidx.DocReadme) {
			d.Readme = href
		}
		d.Docs = append(d.Docs, link{Href: href, Text: doc.Path, Note: doc.Title})
	}
	if i := slices.Index(out.Versions, out.Version); i > 0 {
		d.Compare = packageBase(ref.Ecosystem, ref.Name) + "/diff?" + url.Values{"from": {out.Versions[i-1]}, "to": {out.Version}}.Encode()
	}
	for _, e := range out.Outline {
		if n := len(d.Outline); n == 0 || d.Outline[n-1].Package != e.Package {
			d.Outline = append(d.Outline, outlineGroup{Package: e.Package})
		}
		g := &d.Outline[len(d.Outline)-1]
		g.Entries = append(g.Entries, e)
	}
	h.render(w, http.StatusOK, "overview", page{Title: ref.Name + "@" + ref.Version, Data: d})
}

// documentData is a rendered document's data.
type documentData struct {
	Ref      docidx.Ref
	Overview string
	Doc      *docidx.Document
	Contents []link
	Body     template.HTML
	// TitleAnchor is the anchor of the first section when its heading is the document's
	// title, which the page's h1 then shows and carries.
	TitleAnchor string
}

func (h *Handler) document(w http.ResponseWriter, r *http.Request, ref docidx.Ref, docPath string) {
	if h.lookup(w, ref, docidx.PageReadme) == nil {
		return
	}
	docs, err := h.s.Documents(ref)
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		h.fail(w, err, nil)
		return
	}
	doc := index.FindDocument(docs, docPath) // "" is the README
	if doc == nil {
		// The answer layer's message says what the package has instead.
		_, _, err := h.s.GetDoc(r.Context(), answer.DocInput{Ecosystem: string(ref.Ecosystem), Package: ref.Name, Version: ref.Version, Path: docPath, MaxTokens: 50})
		msg := "no such document"
		if err != nil {
			msg = err.Error()
		}
		var paths []string
		for i := range docs {
			paths = append(paths, docs[i].Path)
		}
		var sug []link
		for _, p := range index.Closest(docPath, paths, 5) {
			sug = append(sug, link{Href: docHref(ref, index.FindDocument(docs, p)), Text: p})
		}
		h.notFound(w, msg, sug)
		return
	}
	md := newMarkdown(h.hl, ref, doc.Path, docs)
	d := documentData{Ref: ref, Overview: pagePath(ref, docidx.PageOverview), Doc: doc}
	var body strings.Builder
	for i := range doc.Sections {
		sec := &doc.Sections[i]
		if sec.Anchor != "" && len(sec.Heading) > 0 {
			d.Contents = append(d.Contents, link{Href: "#" + sec.Anchor, Text: sec.Title(), Note: strings.Repeat("  ", len(sec.Heading)-1)})
		}
		if i == 0 && len(sec.Heading) == 1 && sec.Title() == doc.Title {
			// The README's own title ("# hello") is the page's h1, which takes its anchor,
			// rather than a second heading of the same words under it.
			d.TitleAnchor = sec.Anchor
			body.WriteString(string(md.text(sec.Text)))
			continue
		}
		body.WriteString(string(md.section(sec)))
	}
	d.Body = template.HTML(body.String()) // goldmark without raw HTML, links filtered: see markdown.go
	title := doc.Title
	if title == "" {
		title = doc.Path
	}
	h.render(w, http.StatusOK, "document", page{Title: title + " — " + ref.Name + "@" + ref.Version, Data: d})
}

// docHref is the page of document d of ref: the readme page for the README (the rule of
// the docidx:// page URIs).
func docHref(ref docidx.Ref, d *docidx.Document) string {
	if d.Kind == docidx.DocReadme {
		return pagePath(ref, docidx.PageReadme)
	}
	return pagePath(ref, docidx.PageDocPrefix+d.Path)
}

// apiData is the API outline's data.
type apiData struct {
	Ref      docidx.Ref
	Overview string
	Packages []apiPackage
	// Index lists the declaring packages, each linking to its outline, instead of Packages,
	// when the version has more than apiPageSymbols symbols.
	Index []link
	// Focus is the declaring package shown (?package=), when one is.
	Focus string
}

// apiPageSymbols is the most symbols one API outline page shows: a module of thousands of
// symbols (a generated API, such as Envoy's 90,000) is outlined package by package instead, the
// whole being megabytes of HTML that take a second to serve and longer to display.
const apiPageSymbols = 3000

// apiPackage is the symbols of one declaring package (a Go package, a Python module).
type apiPackage struct {
	Name    string
	Doc     template.HTML
	Symbols []apiSymbol
	Entries template.HTML // Symbols as HTML (see apiSymbol.writeHTML)
}

// apiSymbol is one outline entry: a symbol and its members.
type apiSymbol struct {
	*docidx.Symbol
	Href     string
	Synopsis string
	Members  []apiSymbol
	// Overloads are the later declarations of the name, whose signatures follow Signature.
	Overloads []*docidx.Symbol
	Internal  bool   // marked @internal: listed after the others, with a badge
	lang      string // the language of the signature, for highlighting
}

func (h *Handler) api(w http.ResponseWriter, r *http.Request, ref docidx.Ref) {
	if h.lookup(w, ref, docidx.PageAPI) == nil {
		return
	}
	syms, err := h.s.Symbols(ref)
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		h.fail(w, err, nil)
		return
	}
	d := apiData{Ref: ref, Overview: pagePath(ref, docidx.PageOverview), Focus: r.URL.Query().Get("package")}
	if d.Focus != "" {
		var in []docidx.Symbol
		for i := range syms {
			if syms[i].Package == d.Focus {
				in = append(in, syms[i])
			}
		}
		if len(in) == 0 {
			h.notFound(w, "no API symbols of package "+d.Focus+" in "+ref.Name+"@"+ref.Version, []link{{Href: pagePath(ref, docidx.PageAPI), Text: "API of " + ref.Name}})
			return
		}
		syms = in
	} else if len(syms) > apiPageSymbols {
		counts := map[string]int{}
		var order []string
		for i := range syms {
			p := syms[i].Package
			if counts[p] == 0 {
				order = append(order, p)
			}
			counts[p]++
		}
		slices.Sort(order)
		for _, p := range order {
			d.Index = append(d.Index, link{Href: pagePath(ref, docidx.PageAPI) + "?" + url.Values{"package": {p}}.Encode(), Text: p, Note: fmt.Sprintf("%d symbols", counts[p])})
		}
		h.render(w, http.StatusOK, "api", page{Title: "API of " + ref.Name + "@" + ref.Version, Data: d})
		return
	}
	md := newMarkdown(h.hl, ref, "", nil)
	lang := ecosystemLanguage[ref.Ecosystem]
	var entries func([]answer.APIEntry) []apiSymbol
	entries = func(es []answer.APIEntry) []apiSymbol {
		var out []apiSymbol
		for _, e := range es {
			out = append(out, apiSymbol{Symbol: e.Symbol, Href: pagePath(ref, docidx.PageSymbolPrefix+e.Symbol.QualifiedName),
				Synopsis: e.Synopsis(), Members: entries(e.Members), Overloads: e.Overloads, Internal: e.Internal, lang: lang})
		}
		return out
	}
	for _, g := range answer.GroupAPI(syms) { // members under their type, as answer groups them
		p := apiPackage{Name: g.Package, Symbols: entries(g.Symbols)}
		if g.Doc != nil {
			p.Doc = md.text(g.Doc.Doc)
		}
		d.Packages = append(d.Packages, p)
	}
	for i := range d.Packages {
		var b strings.Builder
		for _, e := range d.Packages[i].Symbols {
			e.writeHTML(&b, h.hl)
		}
		d.Packages[i].Entries = template.HTML(b.String()) // every value escaped by writeHTML
	}
	h.render(w, http.StatusOK, "api", page{Title: "API of " + ref.Name + "@" + ref.Version, Data: d})
}

// writeHTML writes the outline entry of s and its members. It is written here rather than by
// a template because the outline is the one page with hundreds of entries (express's 370):
// html/template's reflective escaping took two thirds of its time, 5 of 7.6 ms.
// Every value is escaped with html.EscapeString, right for text and for quoted attributes.
func (s *apiSymbol) writeHTML(b *strings.Builder, hl *highlighter) {
	esc := html.EscapeString
	b.WriteString(`<div class="symbol`)
	if s.Deprecated {
		b.WriteString(` deprecated`)
	}
	if s.Internal {
		b.WriteString(` internal`)
	}
	b.WriteString(`" id="` + esc(s.QualifiedName) + `">` + "\n")
	b.WriteString(`<h3><a href="` + esc(s.Href) + `">` + esc(s.QualifiedName) + `</a> <span class="note">` + esc(string(s.Kind)) + `</span>`)
	if s.Deprecated {
		b.WriteString(` <span class="badge">deprecated</span>`)
	}
	if s.Internal {
		b.WriteString(` <span class="badge internal" title="its doc says @internal: not meant for the package's users">internal</span>`)
	}
	if n := len(s.Overloads); n > 0 {
		b.WriteString(` <span class="note">` + strconv.Itoa(n+1) + ` overloads</span>`)
	}
	b.WriteString("</h3>\n")
	sig := s.Signature
	for _, o := range s.Overloads { // one block: the name once, its signatures one a line
		sig = strings.TrimRight(sig, "\n") + "\n" + o.Signature
	}
	hl.writeCode(b, s.lang, sig)
	if s.Synopsis != "" {
		b.WriteString("<p>" + string(inlineCode(s.Synopsis)) + "</p>\n")
	}
	if len(s.Members) > 0 {
		b.WriteString(`<div class="members">`)
		for i := range s.Members {
			s.Members[i].writeHTML(b, hl)
		}
		b.WriteString("</div>\n")
	}
	b.WriteString("</div>\n")
}

// symbolData is one symbol's page data.
type symbolData struct {
	Ref      docidx.Ref
	Overview string
	API      string
	Symbols  []symbolView
}

// symbolView is a symbol or member on the symbol page.
type symbolView struct {
	answer.SymbolDetail
	ID      string
	Href    string
	DocHTML template.HTML
	// SignatureHTML is the signature highlighted as the ecosystem's language.
	SignatureHTML template.HTML
	// ValuesHTML is Values, one a line, highlighted as the ecosystem's language; "" if none.
	ValuesHTML template.HTML
	// ExamplesHTML is the code of each of Examples, highlighted as its language.
	ExamplesHTML []template.HTML
	Member       bool
	Internal     bool // its doc says @internal (answer.Internal)
}

func (h *Handler) symbol(w http.ResponseWriter, r *http.Request, ref docidx.Ref, name string) {
	if h.lookup(w, ref, docidx.PageAPI) == nil {
		return
	}
	_, out, err := h.s.Describe(r.Context(), ref.Ecosystem, answer.DescribeInput{Package: ref.Name, Version: ref.Version, Symbol: name, MaxTokens: pageTokens})
	if err != nil {
		var sug []link
		if errors.Is(err, docidx.ErrNotFound) {
			syms, _ := h.s.Symbols(ref)
			var names []string
			for i := range syms {
				if syms[i].Kind != docidx.KindPackage {
					names = append(names, syms[i].QualifiedName)
				}
			}
			for _, n := range index.Closest(name, names, 5) {
				sug = append(sug, link{Href: pagePath(ref, docidx.PageSymbolPrefix+n), Text: n})
			}
		}
		h.fail(w, err, sug)
		return
	}
	md := newMarkdown(h.hl, ref, "", nil)
	d := symbolData{Ref: ref, Overview: pagePath(ref, docidx.PageOverview), API: pagePath(ref, docidx.PageAPI)}
	lang := ecosystemLanguage[ref.Ecosystem]
	for _, s := range out.Symbols {
		v := symbolView{SymbolDetail: s, ID: s.QualifiedName, Href: uriPath(s.URI), DocHTML: md.text(docWithParams(&s)), Member: s.Parent != "" && len(d.Symbols) > 0,
			SignatureHTML: h.hl.code(lang, s.Signature), Internal: answer.Internal(&docidx.Symbol{Doc: s.Doc})}
		if len(s.Values) > 0 {
			v.ValuesHTML = h.hl.code(lang, strings.Join(s.Values, "\n")+"\n")
		}
		for _, e := range s.Examples {
			el := e.Lang
			if el == "" {
				el = lang
			}
			v.ExamplesHTML = append(v.ExamplesHTML, h.hl.code(el, e.Code))
		}
		d.Symbols = append(d.Symbols, v)
	}
	h.render(w, http.StatusOK, "symbol", page{Title: name + " — " + ref.Name + "@" + ref.Version, Data: d})
}

// diffData is the API difference page's data.
type diffData struct {
	*answer.APIDiff
	Lang     string // the language of the signatures, for highlighting
	Base     string
	Versions []string
	FromHref string
	ToHref   string
}

func (h *Handler) diff(w http.ResponseWriter, r *http.Request, eco docidx.Ecosystem, name string) {
	q := r.URL.Query()
	vs, _ := h.reader().Versions(eco, name)
	if len(vs) == 0 {
		h.notFound(w, "package "+name+" is not in the snapshot ("+string(eco)+")", h.packageSuggestions(eco, name))
		return
	}
	from, to := q.Get("from"), q.Get("to")
	if from == "" {
		from = vs[0]
		if len(vs) > 1 {
			from = vs[len(vs)-2]
		}
	}
	d, err := h.s.Diff(eco, name, from, to)
	if err != nil {
		var sug []link
		for _, v := range vs {
			sug = append(sug, link{Href: packageBase(eco, name) + "/diff?" + url.Values{"from": {v}, "to": {vs[len(vs)-1]}}.Encode(), Text: v + " → " + vs[len(vs)-1]})
		}
		h.fail(w, err, sug)
		return
	}
	data := diffData{APIDiff: d, Lang: ecosystemLanguage[eco], Base: packageBase(eco, name), Versions: vs,
		FromHref: pagePath(d.From.Ref(), docidx.PageAPI), ToHref: pagePath(d.To.Ref(), docidx.PageAPI)}
	h.render(w, http.StatusOK, "diff", page{Title: name + " " + d.From.Version + " → " + d.To.Version, Data: data})
}

// snapshotData is the snapshot page's data.
type snapshotData struct {
	Manifest *index.Manifest
	Packages []answer.PackageListing
}

func (h *Handler) snapshot(w http.ResponseWriter, r *http.Request) {
	h.renderKept(w, "/snapshot", "snapshot", func() (page, error) {
		pkgs, err := h.packages(r)
		d := snapshotData{Manifest: h.reader().Manifest(), Packages: pkgs}
		return page{Title: "Snapshot — docidx", Data: d}, err
	})
}

// packages lists every indexed package, from ListPackages. The list is kept until the snapshot
// is replaced: it is the same for every request on one reader, and listing hundreds of
// packages page by page took most of the snapshot page's time (10 ms of 11 on the corpus).
func (h *Handler) packages(r *http.Request) ([]answer.PackageListing, error) {
	rd := h.reader()
	h.mu.Lock()
	if h.listed == rd {
		defer h.mu.Unlock()
		return h.list, nil
	}
	h.mu.Unlock()
	var list []answer.PackageListing
	in := answer.ListInput{Limit: 200, MaxTokens: pageTokens}
	for {
		_, out, err := h.s.List(r.Context(), in)
		if err != nil {
			if errors.Is(err, docidx.ErrNotFound) {
				break
			}
			return nil, err
		}
		list = append(list, out.Packages...)
		if out.NextCursor == "" {
			break
		}
		in.Cursor = out.NextCursor
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.listed, h.list = rd, list
	return list, nil
}

// docWithParams is a symbol's documentation as search shows it (docidx.Symbol.DocWithParams):
// its doc, then the parameters it does not already document, then the errors its code makes.
// Its values are left to the page's template, which shows them as code.
func docWithParams(s *answer.SymbolDetail) string {
	return (&docidx.Symbol{Doc: s.Doc, Params: s.Params, Errors: s.Errors}).DocWithParams()
}
