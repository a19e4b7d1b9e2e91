// Package web is docidx's documentation browser for people: HTML pages over the snapshot that
// serve answers from, at the same paths as the docidx:// URIs (docidx://npm/zod@3.23.8/readme
// is /npm/zod@3.23.8/readme), so that a link an assistant gives is a link a person opens.
//
// The pages are built from package answer, docidx's answer layer (answer.Service's Search,
// Describe, List, Diff, GroupAPI for the API page) and from the index reader it answers from, so the
// HTML, the CLI and MCP never disagree. web does not import serve (deps_test.go): cmd/docidx
// hands New the Service of the server it mounts the pages on, which follows its reloads.
// They are html/template pages with embedded static files: no JavaScript build, no remote
// resource, and a Content-Security-Policy that forbids inline scripts. Markdown from package
// content is rendered with goldmark without raw HTML, and its links either stay inside the
// snapshot or are plain external links (see markdown.go); a search result's passage is that
// markdown too, a paragraph per unit, code highlighted and the question's words marked
// (passage.go).
// Control, bidi, zero-width and tag characters of package content are shown as their escapes
// (internal/safetext), in text and attributes alike (see execute).
//
// Routes:
//
//	/                                        search (?q=…&ecosystem=…&package=…&version=…&kind=…)
//	/{eco}/{name}                            redirect to the latest indexed version
//	/{eco}/{name}@{version}                  package overview
//	/{eco}/{name}@{version}/readme           the README; /…/doc/{path} another document
//	/{eco}/{name}@{version}/api              API outline, one anchor per symbol and member
//	/{eco}/{name}@{version}/symbol/{name}    one symbol with its members
//	/{eco}/{name}/diff?from=V1&to=V2         API difference between two versions
//	/snapshot                                what is indexed, when, from where
//	/static/…                                the stylesheet and the script
//
// The Handler does not check Host, Origin, token or rate: mount it as serve.HTTPOptions.Pages,
// which runs the checks of /mcp first.
package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// CSP is the Content-Security-Policy of every page: scripts and styles from this server's own
// files only (no inline ones), images from it or data: URLs, nothing remote, no framing.
const CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Handler serves the pages. It is safe for concurrent use.
type Handler struct {
	s      *answer.Service
	log    *slog.Logger
	pages  map[string]*template.Template
	static http.Handler
	hl     *highlighter // keeps highlighted code across pages (see highlight.go)

	mu      sync.Mutex
	listed  *index.Reader           // the reader list was made from
	list    []answer.PackageListing // every indexed package (see packages)
	keptFor *index.Reader           // the reader kept was rendered from
	kept    map[string][]byte       // pages by key (see renderKept)
}

// pageWords are the words of the answers the pages show (an error's advice, mostly): pages and
// links where MCP names tools and the CLI commands.
var pageWords = answer.Words{
	Read:           "open its page",
	ReadDocument:   "open the document from the package's page",
	DescribeSymbol: "open one from the API page",
	Outline:        "the package's API page lists its symbols",
	API:            "its API page lists its symbols instead",
	List:           "the snapshot page (/snapshot)",
	PassURI:        "follow a link of a search result or package page",
	Cursor:         "the next page link",
	NextCursor:     "the next page link of the previous page",
	Continue:       "follow the next page link",
	Names: map[string]string{
		answer.IssuerSearch: "search", answer.IssuerRead: "a page", answer.IssuerList: "the snapshot page",
		answer.IssuerGetDoc: "a document page",
	},
}

// Options configure a Handler. The zero value is usable.
type Options struct {
	// Logger receives errors that are the server's fault (a damaged snapshot). Nil discards.
	Logger *slog.Logger
}

// New returns the Handler of the pages answered by s, which follows the snapshot being served
// (see answer.New). It panics if the embedded templates do not parse,
// which is a programming error caught by any test.
func New(s *answer.Service, opts Options) *Handler {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{s: s.WithWords(pageWords), log: log, pages: map[string]*template.Template{}, hl: &highlighter{}}
	// code highlights a signature as a language (see highlight.go) in a <pre>.
	own := template.FuncMap{"code": h.hl.code}
	base := template.Must(template.New("layout.html").Funcs(funcs).Funcs(own).ParseFS(templateFS, "templates/layout.html"))
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	for _, n := range names {
		name := path.Base(n)
		if name == "layout.html" {
			continue
		}
		h.pages[strings.TrimSuffix(name, ".html")] = template.Must(template.Must(base.Clone()).ParseFS(templateFS, n))
	}
	sub, _ := fs.Sub(staticFS, "static")
	h.static = http.StripPrefix("/static/", http.FileServerFS(sub))
	return h
}

// funcs are the template functions.
var funcs = template.FuncMap{
	// pkg is the overview of a package version; eco is a string or a docidx.Ecosystem.
	"pkg": func(eco any, name, version string) string {
		return pagePath(docidx.Ref{Ecosystem: docidx.Ecosystem(fmt.Sprint(eco)), Name: name, Version: version}, docidx.PageOverview)
	},
	// sym is the page of the symbol qualified name of a package version.
	"sym": func(p *docidx.Package, name string) string { return pagePath(p.Ref(), docidx.PageSymbolPrefix+name) },
	// uri is the page of a docidx:// URI.
	"uri": uriPath,
	// inline is a line of package text with its code spans as <code> (see inlineCode).
	"inline": inlineCode,
	"date": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: the pages are read with GET", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/":
		h.search(w, r)
	case p == "/snapshot":
		h.snapshot(w, r)
	case strings.HasPrefix(p, "/static/"):
		hd.Set("Cache-Control", "public, max-age=3600")
		h.static.ServeHTTP(w, r)
	default:
		h.packagePage(w, r)
	}
}

// page is what every template gets: the page's own data and the layout's.
type page struct {
	Title string
	// Query fills the search box of the layout.
	Query string
	// Home leaves the layout's search box out: the page has its own.
	Home bool
	Data any
}

// render writes template name with p, answering status.
func (h *Handler) render(w http.ResponseWriter, status int, name string, p page) {
	if b, ok := h.execute(w, name, p); ok {
		writePage(w, status, b)
	}
}

// execute renders template name with p into a buffer, so that a template error is logged and
// answered 500 before anything is written; ok is false when it was.
//
// The page is text for people: every control, bidi, zero-width or tag character that package
// content brought into it, in text or in an attribute, is written as its escape (\x1b,
// \u202e; safetext.Text), which is ASCII without HTML meaning and so safe in any context of the
// page. The templates hold none of these characters themselves.
func (h *Handler) execute(w http.ResponseWriter, name string, p page) (b []byte, ok bool) {
	var buf bytes.Buffer
	if err := h.pages[name].Execute(&buf, p); err != nil {
		h.log.Error("web: render "+name, "error", err)
		http.Error(w, "internal error rendering the page (see the server log)", http.StatusInternalServerError)
		return nil, false
	}
	if safetext.IndexUnsafe(buf.String()) < 0 {
		return buf.Bytes(), true
	}
	return []byte(safetext.Text(buf.String())), true
}

// writePage answers status with the HTML page b.
func writePage(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	w.Write(b)
}

// renderKept is render for the pages that list every indexed package — the start page
// without a question (key "/" or "/?ecosystem=E" for an indexed E) and /snapshot — which are
// the same for every request on one reader: their HTML is kept until the reader is replaced,
// since rendering hundreds of packages was most of their time (5 to 7 ms on the corpus's 626).
// data makes the page when it is not kept.
func (h *Handler) renderKept(w http.ResponseWriter, key, name string, data func() (page, error)) {
	rd := h.reader()
	h.mu.Lock()
	if h.keptFor != rd {
		h.keptFor, h.kept = rd, map[string][]byte{}
	}
	b, ok := h.kept[key]
	h.mu.Unlock()
	if !ok {
		p, err := data()
		if err != nil {
			h.fail(w, err, nil)
			return
		}
		if b, ok = h.execute(w, name, p); !ok {
			return
		}
		h.mu.Lock()
		if h.keptFor == rd {
			h.kept[key] = b
		}
		h.mu.Unlock()
	}
	writePage(w, http.StatusOK, b)
}

// link is one link of a list: a did-you-mean, a version, a document.
type link struct {
	Href, Text, Note string
}

// notFoundData is the 404 page's data.
type notFoundData struct {
	Heading string
	Message string
	Suggest []link
}

// notFound answers 404 with msg and the pages that are close to what was asked.
func (h *Handler) notFound(w http.ResponseWriter, msg string, suggest []link) {
	h.render(w, http.StatusNotFound, "notfound", page{Title: "Not found", Data: notFoundData{Heading: "Not found", Message: msg, Suggest: suggest}})
}

// fail answers an error of the answer layer: 404 for what the snapshot does not hold (with
// suggest), 400 for bad arguments, 500 otherwise (logged).
func (h *Handler) fail(w http.ResponseWriter, err error, suggest []link) {
	switch {
	case errors.Is(err, docidx.ErrNotFound):
		h.notFound(w, err.Error(), suggest)
	case errors.Is(err, docidx.ErrUsage):
		h.render(w, http.StatusBadRequest, "notfound", page{Title: "Bad request", Data: notFoundData{Heading: "Bad request", Message: err.Error()}})
	default:
		h.log.Error("web: answer", "error", err)
		http.Error(w, "internal error: "+safetext.Text(err.Error()), http.StatusInternalServerError)
	}
}

// pagePath is the path of a page of a package version: its docidx:// URI without the scheme.
func pagePath(ref docidx.Ref, page string) string {
	if page == docidx.PageOverview {
		u := docidx.PageURI(ref.Ecosystem, ref.Name, ref.Version, "")
		return strings.TrimSuffix(strings.TrimPrefix(u, docidx.URIScheme+":/"), "/")
	}
	return strings.TrimPrefix(ref.PageURI(page), docidx.URIScheme+":/")
}

// uriPath is the page path of a docidx:// URI ("docidx://npm/x@1/readme#a" is
// "/npm/x@1/readme#a"); a URI of another scheme is returned as it is.
func uriPath(uri string) string {
	if uri == docidx.SnapshotURI {
		return "/snapshot"
	}
	if rest, ok := strings.CutPrefix(uri, docidx.URIScheme+"://"); ok {
		return "/" + strings.TrimSuffix(rest, "/"+docidx.PageOverview)
	}
	return uri
}

// packageBase is "/{eco}/{name}" with the name escaped as in URIs.
func packageBase(eco docidx.Ecosystem, name string) string {
	p := pagePath(docidx.Ref{Ecosystem: eco, Name: name, Version: "x"}, docidx.PageOverview)
	return strings.TrimSuffix(p, "@x")
}

// packagePage serves every path under /{eco}/.
func (h *Handler) packagePage(w http.ResponseWriter, r *http.Request) {
	raw := strings.TrimPrefix(r.URL.EscapedPath(), "/")
	ecoStr, rest, _ := strings.Cut(raw, "/")
	eco, err := docidx.ParseEcosystem(ecoStr)
	if err != nil || rest == "" {
		h.notFound(w, "no page "+r.URL.Path+": pages are /ECOSYSTEM/PACKAGE@VERSION/…; search from the start page", h.ecosystemSuggestions(ecoStr))
		return
	}
	if string(eco) != ecoStr { // an alias: go → golang
		http.Redirect(w, r, "/"+string(eco)+"/"+rest+queryOf(r), http.StatusMovedPermanently)
		return
	}
	at := versionAt(rest)
	if at < 0 {
		h.unversioned(w, r, eco, rest)
		return
	}
	ref, pg, err := docidx.ParsePageURI(docidx.URIScheme + "://" + raw)
	if err != nil {
		h.notFound(w, "no page "+r.URL.Path+": "+strings.TrimPrefix(err.Error(), "docidx: "), nil)
		return
	}
	// "latest", a partial version or a range ("4", "^4") redirects to the version it selects.
	if exact, err := h.reader().Resolve(ref); err == nil && exact.Version != ref.Version {
		http.Redirect(w, r, pagePath(exact, pg)+queryOf(r), http.StatusFound)
		return
	}
	switch {
	case pg == docidx.PageOverview:
		h.overview(w, r, ref)
	case pg == docidx.PageReadme:
		h.document(w, r, ref, "")
	case strings.HasPrefix(pg, docidx.PageDocPrefix):
		h.document(w, r, ref, strings.TrimPrefix(pg, docidx.PageDocPrefix))
	case pg == docidx.PageAPI:
		h.api(w, r, ref)
	case strings.HasPrefix(pg, docidx.PageSymbolPrefix):
		h.symbol(w, r, ref, strings.TrimPrefix(pg, docidx.PageSymbolPrefix))
	}
}

// versionAt is the index of the "@" that starts the version in the rest of a page path, the
// first one that does not open a segment (npm scopes do), or -1.
func versionAt(rest string) int {
	for i := 1; i < len(rest); i++ {
		if rest[i] == '@' && rest[i-1] != '/' {
			return i
		}
	}
	return -1
}

// queryOf is "?query" of r, or "".
func queryOf(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

// unversioned serves /{eco}/{name}/diff, redirects /{eco}/{name} (with ?version=V, the version
// switcher's form, which may be a range) to a version's overview, and /{eco}/{name}/{page} to
// the page of the latest version.
func (h *Handler) unversioned(w http.ResponseWriter, r *http.Request, eco docidx.Ecosystem, rest string) {
	name, err := url.PathUnescape(strings.TrimSuffix(rest, "/"))
	if err != nil || name == "" {
		h.notFound(w, "no page "+r.URL.Path+": bad package name", nil)
		return
	}
	rd := h.reader()
	if base, ok := strings.CutSuffix(name, "/diff"); ok {
		if vs, _ := rd.Versions(eco, name); len(vs) == 0 {
			h.diff(w, r, eco, base)
			return
		}
	}
	vs, err := rd.Versions(eco, name)
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		h.fail(w, err, nil)
		return
	}
	if len(vs) == 0 {
		// A page without a version ("/npm/zod/readme") is the page of the latest version.
		if ref, pg, err := docidx.ParsePageURI(docidx.URIScheme + "://" + string(eco) + "/" + rest); err == nil && pg != docidx.PageOverview {
			if exact, err := rd.Resolve(ref); err == nil {
				http.Redirect(w, r, pagePath(exact, pg)+queryOf(r), http.StatusFound)
				return
			}
		}
		h.notFound(w, "package "+name+" is not in the snapshot ("+string(eco)+")", h.packageSuggestions(eco, name))
		return
	}
	version := vs[len(vs)-1]
	if v := r.URL.Query().Get("version"); v != "" {
		version = v // not indexed: the version's page says so and lists the indexed ones
		if exact, err := rd.Resolve(docidx.Ref{Ecosystem: eco, Name: name, Version: v}); err == nil {
			version = exact.Version
		}
	}
	http.Redirect(w, r, pagePath(docidx.Ref{Ecosystem: eco, Name: name, Version: version}, docidx.PageOverview), http.StatusFound)
}

// reader is the snapshot reader being served.
func (h *Handler) reader() *index.Reader { return h.s.Reader() }

// packageSuggestions links the indexed packages whose names are close to name.
func (h *Handler) packageSuggestions(eco docidx.Ecosystem, name string) []link {
	var out []link
	for _, ref := range h.reader().Suggest(eco, name, 5) {
		href := packageBase(ref.Ecosystem, ref.Name) // redirects to the latest version
		if ref.Version != "" {
			href = pagePath(ref, docidx.PageOverview)
		}
		out = append(out, link{Href: href, Text: ref.Name, Note: ref.Version})
	}
	return out
}

// ecosystemSuggestions links the ecosystems whose names are close to s.
func (h *Handler) ecosystemSuggestions(s string) []link {
	var names []string
	for _, c := range h.reader().Counts() {
		names = append(names, string(c.Ecosystem))
	}
	var out []link
	for _, n := range index.Closest(s, names, 3) {
		out = append(out, link{Href: "/?ecosystem=" + url.QueryEscape(n), Text: n})
	}
	return out
}

// versionSuggestions links the indexed versions of a package close to version, or all of them.
func (h *Handler) versionSuggestions(ref docidx.Ref, pg string) []link {
	vs, _ := h.reader().Versions(ref.Ecosystem, ref.Name)
	close := index.Closest(ref.Version, vs, 5)
	if len(close) == 0 {
		close = vs
	}
	var out []link
	for _, v := range close {
		out = append(out, link{Href: pagePath(docidx.Ref{Ecosystem: ref.Ecosystem, Name: ref.Name, Version: v}, pg), Text: ref.Name + "@" + v})
	}
	return out
}

// lookup reads the package version ref names; when it is not indexed it answers 404 with the
// close packages or versions and returns nil.
func (h *Handler) lookup(w http.ResponseWriter, ref docidx.Ref, pg string) *docidx.Package {
	pkg, err := h.reader().Package(ref)
	if err == nil {
		return pkg
	}
	if !errors.Is(err, docidx.ErrNotFound) {
		h.fail(w, err, nil)
		return nil
	}
	if vs, _ := h.reader().Versions(ref.Ecosystem, ref.Name); len(vs) > 0 {
		h.notFound(w, "version "+ref.Version+" of "+ref.Name+" is not in the snapshot; indexed: "+strings.Join(vs, ", "), h.versionSuggestions(ref, pg))
		return nil
	}
	h.notFound(w, "package "+ref.Name+" is not in the snapshot ("+string(ref.Ecosystem)+"); crawl it with docidx crawl", h.packageSuggestions(ref.Ecosystem, ref.Name))
	return nil
}
