package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources (DESIGN.md §6). Every page of every package version in the snapshot is a resource
// with a docidx:// URI (docidx.PageURI):
//
//	docidx://snapshot                                   what is indexed and when (JSON)
//	docidx://{ecosystem}/{package}@{version}/overview    metadata, README summary, documents
//	docidx://{ecosystem}/{package}@{version}/readme      the filtered README
//	docidx://{ecosystem}/{package}@{version}/api         the API outline
//	docidx://{ecosystem}/{package}@{version}/doc/{path}  one docs/ or examples/ file
//	docidx://{ecosystem}/{package}@{version}/symbol/{qualified name}
//
// The version may be "latest", a partial version or a range ("4", "^4", see
// index.ResolveVersion), or left out with its "@" ("docidx://npm/zod/readme" reads the latest;
// see docidx.ParsePageURI). resources/list is answered from the store by a receiving
// middleware (listResources): the SDK pages only resources registered in memory, and
// registering one per page would make start-up time and memory grow with the snapshot. The
// templates are registered with the SDK, which lists them; resources/read is answered by the
// middleware too (readResource), so that an unknown URI gets the error its session's protocol
// revision asks for.

// ResourcePageSize is the number of resources in one page of resources/list.
const ResourcePageSize = 100

// maxResourceBytes bounds the text of one resource read; a longer page (the API outline of a
// very large module) is cut at a unit boundary with a note saying how to read the rest.
const maxResourceBytes = 4 << 20

// MIME types of resources.
const (
	mimeMarkdown = "text/markdown"
	mimeJSON     = "application/json"
)

// codeResourceNotFound is the resource-not-found code of MCP revisions up to 2025-11-25; from
// 2026-07-28 on (SEP-2164) it is -32602, invalid params.
const codeResourceNotFound = -32002

// protocolSEP2164 is the first protocol revision that reports an unknown resource as -32602.
const protocolSEP2164 = "2026-07-28"

// resourceTemplates are the URI templates (RFC 6570) of every resource shape. The package name
// and the page path use reserved expansion ({+…}) because they contain slashes.
var resourceTemplates = []*mcp.ResourceTemplate{
	{
		Name: "package-overview", Title: "Package overview", MIMEType: mimeMarkdown,
		URITemplate: "docidx://{ecosystem}/{+package}@{version}/overview",
		Description: "Metadata (versions, license, links, purl), README summary, documents and API size of one indexed package version. version may be 'latest'.",
	},
	{
		Name: "package-readme", Title: "Package README", MIMEType: mimeMarkdown,
		URITemplate: "docidx://{ecosystem}/{+package}@{version}/readme",
		Description: "The filtered README of one indexed package version (install, usage, API, examples, configuration), as markdown.",
	},
	{
		Name: "package-api", Title: "Package API outline", MIMEType: mimeMarkdown,
		URITemplate: "docidx://{ecosystem}/{+package}@{version}/api",
		Description: "Every API symbol of one indexed package version with its signature and first sentence, grouped by package and kind.",
	},
	{
		Name: "package-document", Title: "Package document",
		URITemplate: "docidx://{ecosystem}/{+package}@{version}/doc/{+path}",
		Description: "One file of a package version's docs/ or examples/ (or its README by path), e.g. doc/docs/guide.md. Binary files come as a base64 blob.",
	},
	{
		Name: "package-symbol", Title: "API symbol", MIMEType: mimeMarkdown,
		URITemplate: "docidx://{ecosystem}/{+package}@{version}/symbol/{+name}",
		Description: "One API symbol in full: signature, doc comment, examples, file:line. name is the qualified name (errgroup.Group.Go) or a shorter key (Group.Go).",
	},
}

// addResources registers the resource templates. Their handler is never reached (the
// middleware answers resources/read first); it is there because the SDK requires one.
func (s *Server) addResources() {
	for _, t := range resourceTemplates {
		s.mcp.AddResourceTemplate(t, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return s.readResource(ctx, req)
		})
	}
}

// resourceNotFound is the error for a URI that names no resource: -32002 for sessions on
// protocol revisions up to 2025-11-25, -32602 from 2026-07-28 on (SEP-2164), data.uri set in
// both. why says what was missing, for the people reading logs and the model.
func resourceNotFound(protocol, uri, why string) error {
	code := int64(codeResourceNotFound)
	if protocol >= protocolSEP2164 {
		code = codeInvalidParams
	}
	data, _ := json.Marshal(map[string]string{"uri": docidx.Clip(uri), "reason": why})
	return &jsonrpc.Error{Code: code, Message: "Resource not found: " + why, Data: data}
}

// readResource answers resources/read.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if req.Params == nil || req.Params.URI == "" {
		return nil, invalidParams(map[string]any{"missing": []string{"uri"}}, "resources/read needs a uri")
	}
	uri := req.Params.URI
	proto := requestProtocol(req)
	c, err := s.resourceContents(uri)
	if err != nil {
		var nf *notFoundError
		if errors.As(err, &nf) {
			return nil, resourceNotFound(proto, uri, nf.why)
		}
		return nil, err
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
	res.CacheScope = "public" // what the SDK would set; the snapshot is the same for every client
	return res, nil
}

// notFoundError says why a URI names no resource.
type notFoundError struct{ why string }

func (e *notFoundError) Error() string { return e.why }

func notFoundf(format string, args ...any) error {
	return &notFoundError{why: fmt.Sprintf(format, args...)}
}

// resourceContents returns the contents of the resource uri names, or a *notFoundError.
func (s *Server) resourceContents(uri string) (*mcp.ResourceContents, error) {
	if uri == docidx.SnapshotURI {
		text, err := s.snapshotJSON()
		if err != nil {
			return nil, err
		}
		return &mcp.ResourceContents{URI: uri, MIMEType: mimeJSON, Text: text}, nil
	}
	// Search hits name sections as page URIs with the section's anchor as a fragment; reading
	// one returns that section and its subsections.
	base, anchor, _ := strings.Cut(uri, "#")
	ref, page, err := docidx.ParsePageURI(base)
	if err != nil {
		return nil, notFoundf("not a docidx resource URI (want docidx://snapshot or docidx://ECOSYSTEM/PACKAGE@VERSION/PAGE)")
	}
	r := s.reader()
	pkg, err := r.Package(ref)
	if err != nil {
		if !errors.Is(err, docidx.ErrNotFound) {
			return nil, s.internalError("read package", err)
		}
		version := ref.Version
		if version == "latest" {
			version = ""
		}
		return nil, notFoundf("%s", s.unknownPackage(ref.Ecosystem, ref.Name, version).Error())
	}
	ref = pkg.Ref()
	switch {
	case page == docidx.PageOverview, page == docidx.PageAPI:
		want := loadOverview
		if page == docidx.PageAPI {
			want = loadAll
		}
		v, err := s.loadVersion(pkg, want)
		if err != nil {
			return nil, err
		}
		text := v.overview
		if page == docidx.PageAPI {
			text = v.api
		}
		return &mcp.ResourceContents{URI: uri, MIMEType: mimeMarkdown, Text: capText(text, uri)}, nil
	case page == docidx.PageReadme:
		docs, err := s.documentsCached(r, ref)
		if err != nil {
			return nil, err
		}
		if d := index.FindDocument(docs, "readme"); d != nil {
			cut, err := sectionOf(ref, d, anchor)
			if err != nil {
				return nil, notFoundf("%s", err.Error())
			}
			return &mcp.ResourceContents{URI: uri, MIMEType: mimeMarkdown, Text: capText(renderDocument(cut), uri)}, nil
		}
		return nil, notFoundf("%s@%s has no README", ref.Name, ref.Version)
	case strings.HasPrefix(page, docidx.PageDocPrefix):
		p := strings.TrimPrefix(page, docidx.PageDocPrefix)
		docs, err := s.documentsCached(r, ref)
		if err != nil {
			return nil, err
		}
		d := index.FindDocument(docs, p)
		if d == nil {
			return nil, notFoundf("%s@%s has no document %s", ref.Name, ref.Version, docidx.Quote(p))
		}
		cut, err := sectionOf(ref, d, anchor)
		if err != nil {
			return nil, notFoundf("%s", err.Error())
		}
		c := documentContents(cut)
		c.URI = uri
		if c.Text != "" {
			c.Text = capText(c.Text, uri)
		}
		return c, nil
	default: // symbol/
		name := strings.TrimPrefix(page, docidx.PageSymbolPrefix)
		syms, err := s.symbolsCached(r, ref)
		if err != nil {
			return nil, err
		}
		matches := index.MatchSymbols(syms, name)
		if len(matches) == 0 {
			return nil, notFoundf("%s@%s has no symbol %s", ref.Name, ref.Version, docidx.Quote(name))
		}
		// The symbols and their members, as describe and read_package_doc give them.
		_, units, err := s.symbolDetails(ref, "", name)
		if err != nil {
			return nil, err
		}
		return &mcp.ResourceContents{URI: uri, MIMEType: mimeMarkdown, Text: capText(strings.Join(units, ""), uri)}, nil
	}
}

// capText cuts text longer than maxResourceBytes at a line boundary and says so.
func capText(text, uri string) string {
	if len(text) <= maxResourceBytes {
		return text
	}
	n := lineCut(text, maxResourceBytes)
	return text[:n] + fmt.Sprintf("\n---\nCut at %d of %d bytes: %s is too long to read at once; use the describe or get_package_doc tools, which page with a cursor.\n", n, len(text), uri)
}

// sectionOf returns d, a document of the package version ref, cut to the section whose anchor is
// anchor and the subsections under it, or d itself when anchor is empty. It is the one answer to
// "docidx://…/readme#anchor" for resources/read and read_package_doc alike: an anchor that names
// no section of d is a tool error (for resources/read, resource not found) that names the
// anchors d has, the closest first, at most maxAnchorsNamed of them.
func sectionOf(ref docidx.Ref, d *docidx.Document, anchor string) (*docidx.Document, error) {
	if anchor == "" {
		return d, nil
	}
	for i, sec := range d.Sections {
		if sec.Anchor != anchor {
			continue
		}
		j := i + 1
		for j < len(d.Sections) && len(d.Sections[j].Heading) > len(sec.Heading) {
			j++
		}
		cut := *d
		cut.Sections = d.Sections[i:j]
		return &cut, nil
	}
	return nil, unknownAnchor(ref, d, anchor)
}

// maxAnchorsNamed is how many of a document's anchors the error for an unknown anchor names.
const maxAnchorsNamed = 10

// unknownAnchor is the tool error for a section anchor that document d of ref does not have: it
// names the anchors d has, at most maxAnchorsNamed, the closest to the one asked for first.
func unknownAnchor(ref docidx.Ref, d *docidx.Document, anchor string) error {
	var anchors []string
	for i := range d.Sections {
		if a := d.Sections[i].Anchor; a != "" {
			anchors = append(anchors, a)
		}
	}
	msg := fmt.Sprintf("%s@%s %s has no section %s", ref.Name, ref.Version, d.Path, docidx.Quote("#"+anchor))
	if len(anchors) == 0 {
		return toolErrorf("%s; it has no sections with anchors: read it without #anchor", msg)
	}
	near := closest(anchor, anchors, 5)
	if len(near) > 0 {
		msg += "; did you mean: #" + strings.Join(near, ", #") + "?"
	}
	var others []string
	for _, a := range anchors {
		if !slices.Contains(near, a) {
			others = append(others, a)
		}
	}
	if len(others) > 0 {
		list := others[:min(len(others), maxAnchorsNamed-len(near))]
		text := "#" + strings.Join(list, ", #")
		if more := len(others) - len(list); more > 0 {
			text += fmt.Sprintf(" and %d more", more)
		}
		if len(near) > 0 {
			msg += " Its other anchors: " + text
		} else {
			msg += "; its anchors: " + text
		}
	}
	return toolErrorf("%s. Read it without #anchor for the whole document.", msg)
}

// renderDocument returns a document as markdown, its sections in order under their headings:
// the same text get_package_doc pages through. An empty document says so, so that a resource
// always has text.
func renderDocument(d *docidx.Document) string {
	var b strings.Builder
	for i := range d.Sections {
		b.WriteString(renderSection(&d.Sections[i]))
	}
	if b.Len() == 0 {
		return "_This document has no text._\n"
	}
	return b.String()
}

// documentMIME returns the MIME type of a document by its path: markdown for markdown files,
// files without an extension and READMEs, else the registered type of the extension, else
// text/plain.
func documentMIME(d *docidx.Document) string {
	ext := strings.ToLower(path.Ext(d.Path))
	switch ext {
	case "", ".md", ".markdown", ".mdx", ".mdown":
		return mimeMarkdown
	case ".rst":
		return "text/x-rst"
	}
	if d.Kind == docidx.DocReadme {
		return mimeMarkdown
	}
	if t := mime.TypeByExtension(ext); t != "" {
		if mt, _, err := mime.ParseMediaType(t); err == nil {
			return mt
		}
	}
	return "text/plain"
}

// isBinary reports whether content of MIME type mt is not text: by its type (images, audio,
// video, fonts, archives, PDFs) or because it is not valid UTF-8 or holds NUL bytes.
func isBinary(mt, content string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), mt == mimeJSON, strings.HasSuffix(mt, "+json"),
		strings.HasSuffix(mt, "+xml"), mt == "application/xml", mt == "application/javascript":
	case strings.HasPrefix(mt, "image/svg"):
	case strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "audio/"), strings.HasPrefix(mt, "video/"),
		strings.HasPrefix(mt, "font/"), strings.HasPrefix(mt, "application/"):
		return true
	}
	return !utf8.ValidString(content) || strings.IndexByte(content, 0) >= 0
}

// documentContents returns the contents of a document: markdown text, other text as it is, or
// a binary file's bytes as a blob (base64 on the wire). A binary file is stored as the text of
// its one section, byte for byte.
func documentContents(d *docidx.Document) *mcp.ResourceContents {
	mt := documentMIME(d)
	var raw strings.Builder
	for i := range d.Sections {
		raw.WriteString(d.Sections[i].Text)
	}
	if isBinary(mt, raw.String()) {
		if mt == mimeMarkdown || strings.HasPrefix(mt, "text/") {
			mt = "application/octet-stream"
		}
		return &mcp.ResourceContents{MIMEType: mt, Blob: []byte(raw.String())}
	}
	if mt == mimeMarkdown {
		return &mcp.ResourceContents{MIMEType: mt, Text: renderDocument(d)}
	}
	text := raw.String()
	if text == "" {
		text = "(empty file)\n"
	}
	return &mcp.ResourceContents{MIMEType: mt, Text: text}
}

// documentPage is the page of a document in its resource URI: "readme" for the README, else
// "doc/" + its path.
func documentPage(d *docidx.Document) string {
	if d.Kind == docidx.DocReadme {
		return docidx.PageReadme
	}
	return docidx.PageDocPrefix + d.Path
}

// versionPages is what the resources of one package version are made of, read and rendered
// once: the overview and API texts, the documents and the symbols.
type versionPages struct {
	pkg      *docidx.Package
	latest   bool
	overview string
	api      string
	docs     []docidx.Document
	syms     []docidx.Symbol
	manifest *index.Manifest
}

// What loadVersion reads and renders.
const (
	loadSymbols  = iota // the symbols only: the symbol pass of resources/list
	loadOverview        // and the overview
	loadAll             // and the API outline
)

// loadVersion reads the pages of one package version, as much as want says.
func (s *Server) loadVersion(pkg *docidx.Package, want int) (*versionPages, error) {
	ref := pkg.Ref()
	r := s.reader()
	if want == loadSymbols {
		syms, err := s.symbolsCached(r, ref)
		if err != nil {
			return nil, err
		}
		vs, _ := r.Versions(pkg.Ecosystem, pkg.Name)
		latest := len(vs) == 0 || vs[len(vs)-1] == pkg.Version
		return &versionPages{pkg: pkg, latest: latest, syms: syms, manifest: r.Manifest()}, nil
	}
	base, err := s.describeBase(pkg, "")
	if err != nil {
		return nil, err
	}
	docs, err := s.documentsCached(r, ref)
	if err != nil {
		return nil, err
	}
	syms, err := s.symbolsCached(r, ref)
	if err != nil {
		return nil, err
	}
	outline, err := s.outlineOf(pkg, "", &base, syms, docs)
	if err != nil {
		var te *toolError
		if errors.As(err, &te) {
			return nil, notFoundf("%s", te.msg)
		}
		return nil, err
	}
	v := &versionPages{pkg: pkg, latest: base.Latest == pkg.Version, docs: docs, syms: syms, manifest: r.Manifest()}

	// The overview is the describe header plus where to read the API.
	var o strings.Builder
	o.WriteString(outline.At(0))
	nsyms := 0
	for i := range syms {
		if syms[i].Kind != docidx.KindPackage {
			nsyms++
		}
	}
	if nsyms > 0 {
		fmt.Fprintf(&o, "API: %d symbols, outlined in %s\n", nsyms, ref.PageURI(docidx.PageAPI))
	} else {
		o.WriteString("No API symbols are indexed for this version.\n")
	}
	for i := range docs {
		what := "Document"
		if docs[i].Kind == docidx.DocReadme {
			what = "README"
		}
		fmt.Fprintf(&o, "%s %s: %s\n", what, docs[i].Path, ref.PageURI(documentPage(&docs[i])))
	}
	v.overview = o.String()

	if want == loadAll {
		var a strings.Builder
		fmt.Fprintf(&a, "# %s %s API\n\n", pkg.Name, pkg.Version)
		if nsyms == 0 {
			a.WriteString("No API symbols are indexed for this version.\n")
		}
		for i := 1; i < outline.Len(); i++ {
			a.WriteString(outline.At(i))
		}
		v.api = a.String()
	}
	return v, nil
}

// symbolCacheSize bounds the symbols symbolsCached keeps, over all package versions (the last
// version read is kept whatever its size): resources/list pages through one version's symbols a
// hundred at a time, and decoding a large module's symbols for every page would make listing it
// quadratic; describe calls on one package benefit too.
const symbolCacheSize = 50_000

// documentCacheSize bounds the bytes of section text documentsCached keeps, over all package
// versions (the last version read is kept whatever its size): reading one section after another
// of a README decodes the version's documents once.
const documentCacheSize = 4 << 20

// versionCache keeps what was read last of a few package versions (their symbols, their
// documents), by reader and version, within budget units as measured by size.
type versionCache[T any] struct {
	budget int
	size   func([]T) int

	mu      sync.Mutex
	entries []versionCacheEntry[T] // most recent last
}

type versionCacheEntry[T any] struct {
	r     *index.Reader
	ref   docidx.Ref
	items []T
	size  int
}

// get returns the items of ref in r, from the cache or else from load. A version load reports
// as not found is kept as having none. Callers must not modify the slice.
func (c *versionCache[T]) get(r *index.Reader, ref docidx.Ref, load func() ([]T, error)) ([]T, error) {
	c.mu.Lock()
	for i, e := range c.entries {
		if e.r == r && e.ref == ref {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			c.mu.Unlock()
			return e.items, nil
		}
	}
	c.mu.Unlock()
	items, err := load()
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, err
	}
	c.mu.Lock()
	c.entries = append(c.entries, versionCacheEntry[T]{r, ref, items, c.size(items)})
	total := 0
	for _, e := range c.entries {
		total += e.size
	}
	for len(c.entries) > 1 && total > c.budget {
		total -= c.entries[0].size
		c.entries = c.entries[1:]
	}
	c.mu.Unlock()
	return items, nil
}

// symbolsCached returns the symbols of ref in r, from the cache when it has them. Callers must
// not modify the slice.
func (s *Server) symbolsCached(r *index.Reader, ref docidx.Ref) ([]docidx.Symbol, error) {
	syms, err := s.symbols.get(r, ref, func() ([]docidx.Symbol, error) { return r.Symbols(ref) })
	if err != nil {
		return nil, s.internalError("read symbols", err)
	}
	return syms, nil
}

// documentsCached returns the documents of ref in r, from the cache when it has them. Callers
// must not modify them.
func (s *Server) documentsCached(r *index.Reader, ref docidx.Ref) ([]docidx.Document, error) {
	docs, err := s.documents.get(r, ref, func() ([]docidx.Document, error) { return r.Documents(ref) })
	if err != nil {
		return nil, s.internalError("read documents", err)
	}
	return docs, nil
}

// documentText is the size of docs for documentCacheSize: the bytes of their sections' text.
func documentText(docs []docidx.Document) int {
	n := 0
	for i := range docs {
		for j := range docs[i].Sections {
			n += len(docs[i].Sections[j].Text) + len(docs[i].Sections[j].Plain)
		}
	}
	return n
}

// count is how many resources one pass of resources/list yields for the version.
func (v *versionPages) count(pass int) int {
	if pass == 1 {
		return len(v.syms)
	}
	return len(v.resources(0, 0, math.MaxInt))
}

// resources is what one pass of resources/list yields for one package version, from the
// from-th resource on, at most n: pass 0 its overview, README, API and documents; pass 1 its
// symbols.
func (v *versionPages) resources(pass, from, n int) []*mcp.Resource {
	pkg := v.pkg
	ref := pkg.Ref()
	at := pkg.Name + "@" + pkg.Version
	mod := pkg.CrawledAt
	if mod.IsZero() {
		mod = pkg.Published
	}
	if m := v.manifest; mod.IsZero() && m != nil {
		mod = m.Created // captured no later than the snapshot was made
	}
	ann := func(priority float64, audience ...mcp.Role) *mcp.Annotations {
		if !v.latest {
			priority /= 2
		}
		a := &mcp.Annotations{Audience: audience, Priority: priority}
		if !mod.IsZero() {
			a.LastModified = mod.UTC().Format(time.RFC3339)
		}
		return a
	}
	both := []mcp.Role{"user", "assistant"}
	var out []*mcp.Resource
	if pass == 1 {
		from = min(from, len(v.syms))
		members := memberIndex(v.syms)
		for i := from; i < len(v.syms) && i-from < n; i++ {
			sym := &v.syms[i]
			_, text := renderSymbol(ref, sym)
			size := len(text) // what reading it returns: the symbol, then its members
			for _, m := range members[memberKey(sym)] {
				_, t := renderMember(ref, m)
				size += len(t)
			}
			desc := firstSentence(sym.Doc)
			if desc == "" {
				desc = compactSignature(sym.Signature)
			}
			out = append(out, &mcp.Resource{
				URI: ref.PageURI(docidx.PageSymbolPrefix + sym.QualifiedName), Name: at + " " + sym.QualifiedName,
				Title:       fmt.Sprintf("%s (%s) — %s %s", sym.QualifiedName, sym.Kind, pkg.Name, pkg.Version),
				Description: desc, MIMEType: mimeMarkdown, Size: int64(size), Annotations: ann(0.3, "assistant"),
			})
		}
		return out
	}
	desc := strings.TrimSpace(index.CollapseSpace(pkg.Description))
	if desc == "" {
		desc = fmt.Sprintf("%s package %s version %s", pkg.Ecosystem, pkg.Name, pkg.Version)
	}
	out = append(out, &mcp.Resource{
		URI: ref.PageURI(docidx.PageOverview), Name: at, Title: pkg.Name + " " + pkg.Version,
		Description: clip(desc, 300), MIMEType: mimeMarkdown, Size: int64(len(v.overview)), Annotations: ann(0.9, both...),
	})
	for i := range v.docs {
		d := &v.docs[i]
		if d.Kind != docidx.DocReadme {
			continue
		}
		out = append(out, &mcp.Resource{
			URI: ref.PageURI(docidx.PageReadme), Name: at + " README", Title: pkg.Name + " " + pkg.Version + " README",
			Description: clip(readmeSummary(d), 300), MIMEType: mimeMarkdown, Size: int64(len(renderDocument(d))),
			Annotations: ann(0.8, both...),
		})
		break
	}
	out = append(out, &mcp.Resource{
		URI: ref.PageURI(docidx.PageAPI), Name: at + " API", Title: pkg.Name + " " + pkg.Version + " API",
		Description: fmt.Sprintf("API outline of %s %s: %d symbols", pkg.Name, pkg.Version, len(v.syms)),
		MIMEType:    mimeMarkdown, Size: int64(len(v.api)), Annotations: ann(0.7, "assistant"),
	})
	for i := range v.docs {
		d := &v.docs[i]
		if d.Kind == docidx.DocReadme {
			continue
		}
		c := documentContents(d)
		size := len(c.Text) + len(c.Blob)
		title := d.Title
		if title == "" {
			title = d.Path
		}
		priority := 0.5
		if d.Kind == docidx.DocExample {
			priority = 0.4
		}
		out = append(out, &mcp.Resource{
			URI: ref.PageURI(docidx.PageDocPrefix + d.Path), Name: at + " " + d.Path, Title: title + " — " + pkg.Name + " " + pkg.Version,
			Description: clip(index.CollapseSpace(d.Summary), 300), MIMEType: c.MIMEType, Size: int64(size), Annotations: ann(priority, both...),
		})
	}
	from = min(from, len(out))
	return out[from:min(len(out), from+min(n, len(out)))]
}

// snapshotResource is the listing of the snapshot resource.
func (s *Server) snapshotResource() *mcp.Resource {
	m := s.reader().Manifest()
	text, _ := s.snapshotJSON()
	res := &mcp.Resource{
		URI: docidx.SnapshotURI, Name: "snapshot", Title: "docidx snapshot",
		Description: "What this snapshot indexes and when: format, docidx version, creation time, sources crawled, counts per ecosystem.",
		MIMEType:    mimeJSON, Size: int64(len(text)),
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.6},
	}
	if m != nil && !m.Created.IsZero() {
		res.Annotations.LastModified = m.Created.UTC().Format(time.RFC3339)
	}
	return res
}

// SnapshotInfo is the content of the docidx://snapshot resource.
type SnapshotInfo struct {
	Format        int                     `json:"format"`
	DocidxVersion string                  `json:"docidxVersion"`
	Created       string                  `json:"created,omitempty"`
	Sources       []string                `json:"sources"`
	Counts        []index.EcosystemCounts `json:"counts"`
	Totals        index.EcosystemCounts   `json:"totals"`
	Templates     []string                `json:"uriTemplates"`
}

// snapshotJSON renders the snapshot resource.
func (s *Server) snapshotJSON() (string, error) {
	r := s.reader()
	info := SnapshotInfo{Sources: []string{}, Counts: []index.EcosystemCounts{}}
	if m := r.Manifest(); m != nil {
		info.Format, info.DocidxVersion = m.Format, m.DocidxVersion
		if !m.Created.IsZero() {
			info.Created = m.Created.UTC().Format(time.RFC3339)
		}
		if m.Sources != nil {
			info.Sources = m.Sources
		}
	}
	if c := r.Counts(); c != nil {
		info.Counts = c
	}
	for _, c := range info.Counts {
		info.Totals.Packages += c.Packages
		info.Totals.Versions += c.Versions
		info.Totals.Documents += c.Documents
		info.Totals.Sections += c.Sections
		info.Totals.Symbols += c.Symbols
	}
	for _, t := range resourceTemplates {
		info.Templates = append(info.Templates, t.URITemplate)
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return "", s.internalError("render snapshot", err)
	}
	return string(b) + "\n", nil
}

// listResources answers resources/list from the store: the snapshot resource, then (pass 0)
// the overview, README, API and documents of every package version, then (pass 1) every
// symbol, in index order, ResourcePageSize at a time. The cursor holds the position: the
// index's list cursor of the current package, the version index and the item index, so a page
// costs reading a few package versions whatever the size of the snapshot.
func (s *Server) listResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	const tool = "resources/list"
	hash := requestHash(tool)
	var raw string
	if req.Params != nil {
		raw = req.Params.Cursor
	}
	c, err := decodeCursor(raw, tool, hash)
	if err != nil {
		return nil, err
	}
	res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
	res.CacheScope = "public"
	if raw == "" {
		res.Resources = append(res.Resources, s.snapshotResource())
	}
	r := s.reader()
	for len(res.Resources) < ResourcePageSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pkgs, next, err := r.List("", "", c.Next, 1)
		if err != nil {
			if errors.Is(err, index.ErrBadCursor) {
				return nil, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: not issued by this snapshot; omit cursor to start over")
			}
			return nil, s.internalError("list packages", err)
		}
		if len(pkgs) == 0 || c.Ver >= len(pkgs[0].Versions) {
			if len(pkgs) > 0 && next != "" { // next package
				c = cursor{Pass: c.Pass, Next: next}
				continue
			}
			if c.Pass == 0 { // second pass: symbols
				c = cursor{Pass: 1}
				continue
			}
			return res, nil // the end
		}
		l := pkgs[0]
		pkg, err := r.Package(docidx.Ref{Ecosystem: l.Ecosystem, Name: l.Name, Version: l.Versions[c.Ver]})
		if err != nil {
			return nil, s.internalError("read package", err)
		}
		want := loadAll
		if c.Pass == 1 {
			want = loadSymbols
		}
		v, err := s.loadVersion(pkg, want)
		if err != nil {
			return nil, err
		}
		total := v.count(c.Pass)
		if c.Unit > total {
			return nil, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: out of range; omit cursor to start over")
		}
		items := v.resources(c.Pass, c.Unit, ResourcePageSize-len(res.Resources))
		res.Resources = append(res.Resources, items...)
		c.Unit += len(items)
		if c.Unit == total {
			c.Ver, c.Unit = c.Ver+1, 0
			if c.Ver == len(l.Versions) {
				if next == "" && c.Pass == 1 {
					return res, nil // nothing follows
				}
				if next != "" {
					c = cursor{Pass: c.Pass, Next: next}
				}
			}
		}
	}
	c.Tool, c.Hash = tool, hash
	res.NextCursor = c.encode()
	return res, nil
}
