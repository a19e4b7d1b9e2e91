package serve

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names (DESIGN.md §6). They keep those of the original package-docs server.
const (
	ToolSearch         = "search_package_docs"
	ToolDescribeGo     = "describe_go_package"
	ToolDescribeNPM    = "describe_npm_package"
	ToolDescribePython = "describe_python_package"
	ToolDescribeRust   = "describe_rust_package"
	ToolDescribeSwift  = "describe_swift_package"
	ToolGetDoc         = "get_package_doc"
	ToolGetNPMDoc      = "get_npm_package_doc"
	ToolListPackages   = "list_packages"
)

// Limits of the tools' arguments and work.
const (
	searchTimeout      = 10 * time.Second // deadline of one search_package_docs call
	defaultSearchLimit = 10
	maxSearchLimit     = 50
	maxSearchDepth     = 500 // deduplicated results reachable by paging one query
	rawSearchPage      = 100 // most hits fetched per index.Reader.Search call while deduplicating
	defaultListLimit   = 50
	maxListLimit       = 200
)

// symbolKinds are the kind filters search_package_docs accepts besides "section" and "symbol".
var symbolKinds = []string{
	string(docidx.KindPackage), string(docidx.KindFunc), string(docidx.KindMethod), string(docidx.KindType),
	string(docidx.KindConst), string(docidx.KindVar), string(docidx.KindClass), string(docidx.KindInterface),
	string(docidx.KindStruct), string(docidx.KindEnum), string(docidx.KindTrait), string(docidx.KindMacro),
	string(docidx.KindProtocol), string(docidx.KindProperty),
}

// describeTools are the describe_<ecosystem>_package tools: one per ecosystem, the same handler
// over any ecosystem the snapshot holds. A new ecosystem's tool is one line here.
var describeTools = []struct {
	name, title, what string
	eco               docidx.Ecosystem
}{
	{ToolDescribeGo, "Describe a Go module or package", "Go module, or a package inside one (by import path)", docidx.Go},
	{ToolDescribeNPM, "Describe an npm package", "npm package", docidx.NPM},
	{ToolDescribePython, "Describe a Python package", "Python package (PyPI distribution)", docidx.PyPI},
	{ToolDescribeRust, "Describe a Rust crate", "Rust crate", docidx.Cargo},
	{ToolDescribeSwift, "Describe a Swift package", "Swift package", docidx.Swift},
}

const ecosystemDoc = "ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"

// addTools registers every tool.
func (s *Server) addTools() {
	addTool(s, &mcp.Tool{
		Name:  ToolSearch,
		Title: "Search package documentation",
		Description: "Full-text search over the indexed READMEs, docs and API symbols of every package. " +
			"Without a version filter only the latest indexed version of each package is searched. " +
			"Returns ranked hits with a snippet and the docidx:// resource URI of the page; page with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "query")
		intRange(in, "limit", 1, maxSearchLimit, defaultSearchLimit)
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
		enum(in, "kind", append([]string{"section", "symbol"}, append(symbolKinds, "")...)...)
	}, s.searchTool)

	for _, d := range describeTools {
		addTool(s, &mcp.Tool{
			Name:  d.name,
			Title: d.title,
			Description: "Describe an indexed " + d.what + ": metadata (versions, description, license, homepage, repository, purl), " +
				"README summary, documents, and an API outline (symbols grouped by package and kind, signature and first sentence). " +
				"With symbol, return that symbol's full signature, doc, examples and file:line instead. Unknown packages get did-you-mean suggestions.",
		}, func(in *jsonschema.Schema) {
			nonEmpty(in, "package")
			intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
		}, func(ctx context.Context, req *mcp.CallToolRequest, in DescribeInput) (*mcp.CallToolResult, DescribeOutput, error) {
			return s.describeTool(ctx, d.name, d.eco, in)
		})
	}

	addTool(s, &mcp.Tool{
		Name:  ToolGetDoc,
		Title: "Read a package document",
		Description: "Return a package's filtered README (the default), or one file of its docs/ or examples/, as markdown " +
			"with its section headings; page long documents with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "ecosystem", "package")
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in DocInput) (*mcp.CallToolResult, DocOutput, error) {
		return s.docTool(ctx, ToolGetDoc, in)
	})
	addTool(s, &mcp.Tool{
		Name:        ToolGetNPMDoc,
		Title:       "Read an npm package document",
		Description: "Return an npm package's filtered README (the default), or one file of its docs/ or examples/, as markdown; the same as get_package_doc with ecosystem npm.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "package")
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in NPMDocInput) (*mcp.CallToolResult, DocOutput, error) {
		return s.docTool(ctx, ToolGetNPMDoc, DocInput{
			Ecosystem: string(docidx.NPM), Package: in.Package, Version: in.Version, Path: in.Path,
			MaxTokens: in.MaxTokens, Cursor: in.Cursor,
		})
	})

	addTool(s, &mcp.Tool{
		Name:        ToolListPackages,
		Title:       "List indexed packages",
		Description: "List the packages in the snapshot with their indexed versions, by ecosystem and name prefix, paged with nextCursor.",
	}, func(in *jsonschema.Schema) {
		intRange(in, "limit", 1, maxListLimit, defaultListLimit)
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, s.listTool)
}

// ---- search_package_docs ----

// SearchInput is the arguments of search_package_docs.
type SearchInput struct {
	Query     string `json:"query" jsonschema:"words to look for in READMEs, docs and API symbols, e.g. 'wait for goroutines errgroup' or 'express router middleware'"`
	Ecosystem string `json:"ecosystem,omitempty" jsonschema:"only this ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Package   string `json:"package,omitempty" jsonschema:"only this package: exact Go module path or npm/PyPI/crate name"`
	Version   string `json:"version,omitempty" jsonschema:"only this exact version of the package(s); without it only the latest indexed version of each package is searched"`
	Kind      string `json:"kind,omitempty" jsonschema:"only hits of this kind: section (prose), symbol (any API item), or a symbol kind such as func, method, type, class, interface"`
	Limit     int    `json:"limit,omitempty" jsonschema:"results per page, 1 to 50 (default 10)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same search, to continue it"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); results beyond it continue with nextCursor"`
}

// SearchOutput is the structured result of search_package_docs.
type SearchOutput struct {
	Results    []SearchResult `json:"results" jsonschema:"hits, best first, at most one per package version and resource URI"`
	NextCursor string         `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// SearchResult is one search hit: a document section or an API symbol of one package version.
type SearchResult struct {
	Ecosystem string  `json:"ecosystem" jsonschema:"purl type of the package: golang, npm, pypi, cargo or swift"`
	Package   string  `json:"package" jsonschema:"package name or Go module path"`
	Version   string  `json:"version" jsonschema:"package version the hit is in"`
	PURL      string  `json:"purl" jsonschema:"Package URL of the package version"`
	Title     string  `json:"title" jsonschema:"document title, or the symbol's qualified name"`
	Section   string  `json:"section" jsonschema:"heading path of the section joined with ' › ', or the symbol's kind and signature"`
	Kind      string  `json:"kind" jsonschema:"section or symbol"`
	Snippet   string  `json:"snippet" jsonschema:"matching text around the query words"`
	Score     float64 `json:"score" jsonschema:"relevance, higher is better; comparable within one search only"`
	URI       string  `json:"uri" jsonschema:"docidx:// resource URI of the page to read more"`
}

func (s *Server) searchTool(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
	var out SearchOutput
	text := strings.TrimSpace(in.Query)
	if text == "" {
		return nil, out, invalidParams(map[string]any{"missing": []string{"query"}}, "query is empty")
	}
	eco, err := parseEcosystem(in.Ecosystem, false)
	if err != nil {
		return nil, out, err
	}
	kind := strings.ToLower(strings.TrimSpace(in.Kind))
	version := strings.TrimSpace(in.Version)
	if version == "latest" {
		version = ""
	}
	q := index.Query{Text: text, Ecosystem: eco, Package: strings.TrimSpace(in.Package), Version: version, Kind: kind}
	hash := requestHash(ToolSearch, q.Text, string(q.Ecosystem), q.Package, q.Version, q.Kind)
	c, err := decodeCursor(in.Cursor, ToolSearch, hash)
	if err != nil {
		return nil, out, err
	}
	if c.Byte != 0 || c.Unit > maxSearchDepth {
		return nil, out, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: out of range")
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)

	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	reportProgress(ctx, "searching")
	hits, more, err := s.search(ctx, q, c.Unit, limit)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, out, toolErrorf("search timed out after %s; use fewer words or add filters (ecosystem, package)", searchTimeout)
		}
		return nil, out, s.internalError("search failed", err)
	}
	if len(hits) == 0 && c.Unit == 0 {
		return nil, out, s.noHits(q)
	}

	reportProgress(ctx, fmt.Sprintf("rendering %d hits", len(hits)))
	// Cut at a hit boundary within the budget; the first hit always goes in.
	budget := s.budget(in.MaxTokens)
	var b strings.Builder
	b.Grow(min(budget, 512*len(hits))) // a rendered hit is about 470 bytes
	out.Results = make([]SearchResult, 0, len(hits))
	for i, h := range hits {
		entry := renderHit(c.Unit+i+1, &h)
		if i > 0 && b.Len()+len(entry) > budget {
			more = true
			break
		}
		b.WriteString(entry)
		out.Results = append(out.Results, SearchResult{
			Ecosystem: string(h.Ecosystem), Package: h.Package, Version: h.Version, PURL: h.PURL,
			Title: h.Title, Section: h.Section, Kind: string(h.Kind), Snippet: h.Snippet, Score: h.Score, URI: h.URI,
		})
	}
	nextUnit := c.Unit + len(out.Results)
	if more && nextUnit < maxSearchDepth {
		out.NextCursor = cursor{Tool: ToolSearch, Hash: hash, Unit: nextUnit}.encode()
	}

	var t strings.Builder
	scope := "latest versions"
	if q.Version != "" {
		scope = "version " + q.Version
	}
	var cont string
	if out.NextCursor != "" {
		cont = continuation(out.NextCursor)
	}
	t.Grow(len(q.Text) + len(scope) + 40 + b.Len() + len(cont))
	fmt.Fprintf(&t, "Results %d–%d for %q (%s):\n\n", c.Unit+1, nextUnit, q.Text, scope)
	t.WriteString(b.String())
	t.WriteString(cont)
	return textResult(t.String()), out, nil
}

// search returns the deduplicated hits [off, off+limit) of q — at most one per package version
// and URI, the best-ranked kept — and whether more follow. Deduplication runs over every hit up
// to the page, so pages never repeat a hit of an earlier page.
func (s *Server) search(ctx context.Context, q index.Query, off, limit int) ([]docidx.Hit, bool, error) {
	want := off + limit + 1
	seen := make(map[string]bool, want)
	hits := make([]docidx.Hit, 0, want)
	for raw := 0; len(hits) < want; {
		// Ask for what is still missing plus a little room for duplicates (overloads share a
		// URI), in pages of at most rawSearchPage; the loop asks again if that was not enough.
		need := want - len(hits)
		q.Offset, q.Limit = raw, min(rawSearchPage, need+2)
		res, err := s.reader().Search(ctx, q)
		if err != nil {
			return nil, false, err
		}
		for _, h := range res.Hits {
			key := string(h.Ecosystem) + "\x00" + h.Package + "\x00" + h.Version + "\x00" + h.URI
			if !seen[key] {
				seen[key] = true
				hits = append(hits, h)
			}
		}
		raw += len(res.Hits)
		if len(res.Hits) == 0 || raw >= res.Total || raw >= maxSearchDepth*4 {
			break
		}
	}
	// Order ties by URI: the index may return equal scores in any order, and pages cut from
	// different calls must agree.
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].URI != hits[j].URI {
			return hits[i].URI < hits[j].URI
		}
		return hits[i].Version < hits[j].Version
	})
	if off >= len(hits) {
		return nil, false, nil
	}
	end := min(off+limit, len(hits))
	return hits[off:end], len(hits) > end, nil
}

// noHits is the tool error for a search that found nothing: an unknown package filter gets the
// did-you-mean of unknownPackage, anything else advice on widening the search.
func (s *Server) noHits(q index.Query) error {
	if q.Package != "" {
		ecos := docidx.Ecosystems
		if q.Ecosystem != "" {
			ecos = []docidx.Ecosystem{q.Ecosystem}
		}
		known := false
		for _, eco := range ecos {
			if vs, err := s.reader().Versions(eco, q.Package); err == nil && len(vs) > 0 {
				known = true
				if q.Version != "" && !contains(vs, q.Version) {
					return s.unknownPackage(eco, q.Package, q.Version)
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
	msg := fmt.Sprintf("no results for %q", q.Text)
	if len(filters) > 0 {
		msg += " with " + strings.Join(filters, ", ") + "; try without some filters"
	} else {
		msg += "; try other or fewer words"
	}
	return toolErrorf("%s. list_packages shows what is indexed.", msg)
}

// renderHit renders search hit number n as a markdown list item.
func renderHit(n int, h *docidx.Hit) string {
	// Appended piece by piece rather than with fmt: ten of these are in every results page.
	b := make([]byte, 0, 64+len(h.Title)+len(h.Package)+len(h.Version)+len(h.Section)+len(h.Snippet)+len(h.URI))
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ". **"...)
	b = append(b, h.Title...)
	b = append(b, "** — "...)
	b = append(b, h.Package...)
	b = append(b, '@')
	b = append(b, h.Version...)
	b = append(b, " ("...)
	b = append(b, h.Kind...)
	b = append(b, ", score "...)
	b = strconv.AppendFloat(b, h.Score, 'f', 2, 64)
	b = append(b, ")\n"...)
	if h.Section != "" {
		b = append(b, "   "...)
		b = append(b, clip(index.CollapseSpace(h.Section), 300)...)
		b = append(b, '\n')
	}
	if h.Snippet != "" {
		b = append(b, "   > "...)
		b = append(b, clip(index.CollapseSpace(h.Snippet), 600)...)
		b = append(b, '\n')
	}
	b = append(b, "   "...)
	b = append(b, h.URI...)
	b = append(b, "\n\n"...)
	return string(b)
}

// ---- list_packages ----

// ListInput is the arguments of list_packages.
type ListInput struct {
	Ecosystem string `json:"ecosystem,omitempty" jsonschema:"only this ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Prefix    string `json:"prefix,omitempty" jsonschema:"only packages whose name starts with this, e.g. 'github.com/spf13/' or '@types/'"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same listing, to continue it"`
	Limit     int    `json:"limit,omitempty" jsonschema:"packages per page, 1 to 200 (default 50)"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); packages beyond it continue with nextCursor"`
}

// ListOutput is the structured result of list_packages.
type ListOutput struct {
	Packages   []PackageListing `json:"packages" jsonschema:"packages in (ecosystem, name) order"`
	NextCursor string           `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// PackageListing is one indexed package and its versions.
type PackageListing struct {
	Ecosystem   string   `json:"ecosystem" jsonschema:"purl type: golang, npm, pypi, cargo or swift"`
	Package     string   `json:"package" jsonschema:"package name or Go module path"`
	Latest      string   `json:"latest" jsonschema:"newest indexed version"`
	Versions    []string `json:"versions" jsonschema:"indexed versions, oldest first"`
	Description string   `json:"description,omitempty" jsonschema:"one-line description of the latest version"`
}

func (s *Server) listTool(ctx context.Context, req *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, ListOutput, error) {
	out := ListOutput{Packages: []PackageListing{}}
	eco, err := parseEcosystem(in.Ecosystem, false)
	if err != nil {
		return nil, out, err
	}
	prefix := strings.TrimSpace(in.Prefix)
	hash := requestHash(ToolListPackages, string(eco), prefix)
	c, err := decodeCursor(in.Cursor, ToolListPackages, hash)
	if err != nil {
		return nil, out, err
	}
	if in.Cursor != "" && c.Next == "" {
		return nil, out, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: not a list_packages cursor")
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultListLimit
	}
	limit = min(limit, maxListLimit)
	page, next, err := s.reader().List(eco, prefix, c.Next, limit)
	if err != nil {
		if errors.Is(err, index.ErrBadCursor) {
			return nil, out, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: not issued by this snapshot; omit cursor to start over")
		}
		return nil, out, s.internalError("list packages", err)
	}
	// Cut at a package boundary within the budget; the first package always goes in. The
	// index's cursor for a shorter page comes from listing that many again.
	budget := s.budget(in.MaxTokens)
	var t strings.Builder
	for i, l := range page {
		vs := l.Versions
		if vs == nil {
			vs = []string{}
		}
		var e strings.Builder
		fmt.Fprintf(&e, "- %s:%s — latest %s", l.Ecosystem, l.Name, l.Latest)
		if len(vs) > 1 {
			fmt.Fprintf(&e, " (versions %s)", strings.Join(vs, ", "))
		}
		if l.Description != "" {
			fmt.Fprintf(&e, " — %s", clip(index.CollapseSpace(l.Description), 200))
		}
		e.WriteByte('\n')
		if i > 0 && t.Len()+e.Len() > budget {
			if _, next, err = s.reader().List(eco, prefix, c.Next, i); err != nil {
				return nil, out, s.internalError("list packages", err)
			}
			page = page[:i]
			break
		}
		t.WriteString(e.String())
		out.Packages = append(out.Packages, PackageListing{
			Ecosystem: string(l.Ecosystem), Package: l.Name, Latest: l.Latest, Versions: vs, Description: l.Description,
		})
	}
	if len(page) == 0 {
		t.WriteString("No packages")
		if eco != "" || prefix != "" {
			t.WriteString(" match")
		} else {
			t.WriteString(" are indexed yet; run docidx crawl")
		}
		t.WriteString(".\n")
	}
	if next != "" {
		out.NextCursor = cursor{Tool: ToolListPackages, Hash: hash, Next: next}.encode()
		t.WriteString(continuation(out.NextCursor))
	}
	return textResult(t.String()), out, nil
}

// ---- helpers ----

// parseEcosystem parses an ecosystem argument; empty is allowed unless required. A bad value
// is -32602.
func parseEcosystem(s string, required bool) (docidx.Ecosystem, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			return "", invalidParams(map[string]any{"missing": []string{"ecosystem"}}, "ecosystem is required: "+ecosystemDoc)
		}
		return "", nil
	}
	eco, err := docidx.ParseEcosystem(s)
	if err != nil {
		return "", invalidParams(map[string]string{"argument": "ecosystem"}, "unknown ecosystem %q; want %s", s, ecosystemDoc)
	}
	return eco, nil
}

// splitVersion splits "name@version" (npm scopes keep their leading "@") when version is empty,
// and maps the version "latest" to "".
func splitVersion(name, version string) (string, string) {
	name, version = strings.TrimSpace(name), strings.TrimSpace(version)
	if version == "" {
		if i := strings.LastIndexByte(name, '@'); i > 0 {
			name, version = name[:i], name[i+1:]
		}
	}
	if strings.EqualFold(version, "latest") {
		version = ""
	}
	return name, version
}

// textResult is a tool result whose content is one markdown text block.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ---- describe_go_package, describe_npm_package ----

// DescribeInput is the arguments of describe_go_package and describe_npm_package.
type DescribeInput struct {
	Package   string `json:"package" jsonschema:"package name; for Go a module path or the import path of a package inside an indexed module (the outline then covers that package only); 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"exact indexed version; default the latest indexed version"`
	Symbol    string `json:"symbol,omitempty" jsonschema:"one API symbol to describe in full instead of the outline, e.g. 'Group.Go', 'errgroup.Group.Go' or 'Router'"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same description, to continue it"`
}

// DescribeOutput is the structured result of the describe_* tools: metadata always, the README
// summary and documents on the first page, then either outline entries or full symbols.
type DescribeOutput struct {
	Ecosystem   string         `json:"ecosystem" jsonschema:"purl type of the package"`
	Package     string         `json:"package" jsonschema:"package name or Go module path"`
	ImportPath  string         `json:"importPath,omitempty" jsonschema:"Go: the package inside the module that the outline is focused on"`
	Version     string         `json:"version" jsonschema:"version described"`
	Latest      string         `json:"latest" jsonschema:"newest indexed version"`
	Versions    []string       `json:"versions" jsonschema:"indexed versions, oldest first"`
	PURL        string         `json:"purl" jsonschema:"Package URL of the version described"`
	Description string         `json:"description,omitempty" jsonschema:"the package's own description"`
	License     string         `json:"license,omitempty" jsonschema:"SPDX license expression"`
	Homepage    string         `json:"homepage,omitempty" jsonschema:"homepage URL"`
	Repository  string         `json:"repository,omitempty" jsonschema:"source repository URL"`
	Published   string         `json:"published,omitempty" jsonschema:"release time of the version, RFC 3339"`
	Deprecated  string         `json:"deprecated,omitempty" jsonschema:"deprecation message, when the version is deprecated"`
	URI         string         `json:"uri" jsonschema:"docidx:// resource URI of the version's overview page"`
	Readme      string         `json:"readme,omitempty" jsonschema:"summary of the README, plain text (first page only)"`
	Documents   []DocumentRef  `json:"documents,omitempty" jsonschema:"documents readable with get_package_doc (first page only)"`
	Outline     []OutlineEntry `json:"outline,omitempty" jsonschema:"API outline entries on this page, grouped by package then kind"`
	Symbols     []SymbolDetail `json:"symbols,omitempty" jsonschema:"the symbols matching the symbol argument, in full"`
	NextCursor  string         `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// DocumentRef names one document of a package version.
type DocumentRef struct {
	Path  string `json:"path" jsonschema:"path inside the package, the path argument of get_package_doc"`
	Kind  string `json:"kind" jsonschema:"readme, doc or example"`
	Title string `json:"title,omitempty" jsonschema:"first heading or file name"`
	URI   string `json:"uri" jsonschema:"docidx:// resource URI of the document"`
}

// OutlineEntry is one symbol in an API outline.
type OutlineEntry struct {
	Package    string `json:"package" jsonschema:"import path or module that declares the symbol"`
	Kind       string `json:"kind" jsonschema:"func, method, type, const, var, class, interface …"`
	Name       string `json:"name" jsonschema:"qualified name, unique in the package version"`
	Signature  string `json:"signature" jsonschema:"declaration on one line; ' …' marks an elided body"`
	Synopsis   string `json:"synopsis,omitempty" jsonschema:"first sentence of the doc comment"`
	Deprecated bool   `json:"deprecated,omitempty" jsonschema:"true when the symbol is deprecated"`
	URI        string `json:"uri" jsonschema:"docidx:// resource URI of the symbol"`
}

// SymbolDetail is one symbol in full.
type SymbolDetail struct {
	Package       string    `json:"package" jsonschema:"import path or module that declares the symbol"`
	Kind          string    `json:"kind" jsonschema:"func, method, type, const, var, class, interface …"`
	Name          string    `json:"name" jsonschema:"the symbol's own name"`
	QualifiedName string    `json:"qualifiedName" jsonschema:"name unique in the package version, e.g. errgroup.Group.Go"`
	Signature     string    `json:"signature" jsonschema:"the declaration as written, without body"`
	Doc           string    `json:"doc,omitempty" jsonschema:"doc comment"`
	File          string    `json:"file,omitempty" jsonschema:"slash path of the declaring file inside the package"`
	Line          int       `json:"line,omitempty" jsonschema:"1-based line of the declaration"`
	Deprecated    bool      `json:"deprecated,omitempty" jsonschema:"true when the symbol is deprecated"`
	Examples      []Example `json:"examples,omitempty" jsonschema:"usage examples"`
	URI           string    `json:"uri" jsonschema:"docidx:// resource URI of the symbol"`
}

// Example is one code example of a symbol.
type Example struct {
	Name   string `json:"name,omitempty" jsonschema:"the example's name, e.g. ExampleGroup_Go"`
	Lang   string `json:"lang,omitempty" jsonschema:"code language"`
	Code   string `json:"code" jsonschema:"example source"`
	Output string `json:"output,omitempty" jsonschema:"expected output, when stated"`
}

func (s *Server) describeTool(ctx context.Context, tool string, eco docidx.Ecosystem, in DescribeInput) (*mcp.CallToolResult, DescribeOutput, error) {
	var out DescribeOutput
	name, version := splitVersion(in.Package, in.Version)
	if name == "" {
		return nil, out, invalidParams(map[string]any{"missing": []string{"package"}}, "package is empty")
	}
	pkg, focus, err := s.resolvePackage(eco, name, version)
	if err != nil {
		return nil, out, err
	}
	ref := pkg.Ref()
	if out, err = s.describeBase(pkg, focus); err != nil {
		return nil, out, err
	}
	symbol := strings.TrimSpace(in.Symbol)
	hash := requestHash(tool, string(eco), pkg.Name, pkg.Version, focus, symbol)
	c, err := decodeCursor(in.Cursor, tool, hash)
	if err != nil {
		return nil, out, err
	}

	var units unitList
	var outline *outlineUnits  // the units when no symbol is asked for
	var details []SymbolDetail // details[i] belongs to units[i]
	if symbol != "" {
		reportProgress(ctx, "looking up "+symbol)
		var texts []string
		details, texts, err = s.symbolDetails(ref, focus, symbol)
		units = textUnits(texts)
	} else {
		reportProgress(ctx, "outlining the API of "+ref.String())
		outline, err = s.outline(pkg, focus, &out)
		units = outline
	}
	if err != nil {
		return nil, out, err
	}
	p := pos{c.Unit, c.Byte}
	if !validPos(units, p) {
		return nil, out, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: out of range")
	}
	text, first, end, next, more := cutPage(units, p, s.budget(in.MaxTokens))
	// Structured content lists the units that start on this page, so that following the cursors
	// yields each outline entry, symbol and the header exactly once.
	if p.off > 0 {
		first++
	}
	if symbol != "" {
		out.Symbols = details[first:end]
	} else {
		if first > 0 {
			out.Readme, out.Documents = "", nil // header data comes with the page it starts on
		}
		out.Outline = outline.entriesOf(first, end)
	}
	var t strings.Builder
	if p.unit > 0 || p.off > 0 {
		fmt.Fprintf(&t, "%s@%s (continued)\n\n", pkg.Name, pkg.Version)
	}
	t.WriteString(text)
	if more {
		out.NextCursor = cursor{Tool: tool, Hash: hash, Unit: next.unit, Byte: next.off}.encode()
		t.WriteString(continuation(out.NextCursor))
	}
	return textResult(t.String()), out, nil
}

// describeBase returns the metadata part of a description of pkg (focused on the Go package
// focus, when set): what every page of describe_*_package and the overview resource carry.
func (s *Server) describeBase(pkg *docidx.Package, focus string) (DescribeOutput, error) {
	ref := pkg.Ref()
	versions, err := s.reader().Versions(pkg.Ecosystem, pkg.Name)
	if err != nil {
		return DescribeOutput{}, s.internalError("read versions", err)
	}
	out := DescribeOutput{
		Ecosystem: string(pkg.Ecosystem), Package: pkg.Name, ImportPath: focus, Version: pkg.Version,
		Versions: versions, PURL: ref.PURL(), Description: pkg.Description, License: pkg.License,
		Homepage: pkg.Homepage, Repository: pkg.Repository, Deprecated: pkg.Deprecated,
		URI: ref.PageURI(docidx.PageOverview),
	}
	if out.Versions == nil {
		out.Versions = []string{}
	}
	if len(versions) > 0 {
		out.Latest = versions[len(versions)-1]
	}
	if !pkg.Published.IsZero() {
		out.Published = pkg.Published.UTC().Format(time.RFC3339)
	}
	return out, nil
}

// resolvePackage finds the package version a describe or get_*_doc call names. For Go, name may
// be an import path inside an indexed module: the longest indexed module path that is a prefix
// of name (at a slash) wins, and focus is then name. Unknown packages are tool errors.
func (s *Server) resolvePackage(eco docidx.Ecosystem, name, version string) (pkg *docidx.Package, focus string, err error) {
	r := s.reader()
	if eco == docidx.Go {
		name = strings.TrimSuffix(name, "/")
		for p := name; p != ""; {
			vs, err := r.Versions(eco, p)
			if err != nil && !errors.Is(err, docidx.ErrNotFound) {
				return nil, "", s.internalError("read versions", err)
			}
			if len(vs) > 0 {
				if p != name {
					focus = name
				}
				name = p
				break
			}
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	pkg, err = r.Package(docidx.Ref{Ecosystem: eco, Name: name, Version: version})
	if err != nil {
		return nil, "", s.readerError("read package", err, func() error { return s.unknownPackage(eco, name, version) })
	}
	return pkg, focus, nil
}

// kindOrder ranks symbol kinds in an outline: types first, then functions, methods, constants,
// variables and the rest.
var kindOrder = map[docidx.SymbolKind]int{
	docidx.KindType: 1, docidx.KindInterface: 1, docidx.KindStruct: 1, docidx.KindClass: 1,
	docidx.KindEnum: 1, docidx.KindTrait: 1, docidx.KindProtocol: 1,
	docidx.KindFunc: 2, docidx.KindMacro: 2, docidx.KindMethod: 3, docidx.KindProperty: 4,
	docidx.KindConst: 5, docidx.KindVar: 6,
}

// kindHeading is the outline sub-heading of each kind rank.
var kindHeading = map[int]string{
	0: "Other", 1: "Types", 2: "Functions", 3: "Methods", 4: "Properties", 5: "Constants", 6: "Variables",
}

// outline returns the header unit (metadata, README summary, documents) followed by one unit per
// outline entry, and fills out's Readme and Documents. Entries are grouped by declaring package
// (focus only, when set) and kind, in declaration order within a group; each group's first unit
// carries the group headings, so any page reads on its own.
func (s *Server) outline(pkg *docidx.Package, focus string, out *DescribeOutput) (*outlineUnits, error) {
	ref := pkg.Ref()
	r := s.reader()
	syms, err := s.symbolsCached(r, ref)
	if err != nil {
		return nil, err
	}
	docs, err := s.documentsCached(r, ref)
	if err != nil {
		return nil, err
	}
	return s.outlineOf(pkg, focus, out, syms, docs)
}

// outlineOf is outline over symbols and documents already read.
func (s *Server) outlineOf(pkg *docidx.Package, focus string, out *DescribeOutput, syms []docidx.Symbol, docs []docidx.Document) (*outlineUnits, error) {
	ref := pkg.Ref()

	pkgOf := func(sym *docidx.Symbol) string {
		if sym.Package == "" {
			return pkg.Name
		}
		return sym.Package
	}
	// Group: packages in first-seen order (the focus only), kinds by kindOrder.
	var pkgs []string
	byPkg := make(map[string][]*docidx.Symbol)
	synopsis := make(map[string]string)
	for i := range syms {
		sym := &syms[i]
		p := pkgOf(sym)
		if focus != "" && p != focus {
			continue
		}
		if sym.Kind == docidx.KindPackage {
			synopsis[p] = firstSentence(sym.Doc)
			if _, ok := byPkg[p]; !ok {
				pkgs = append(pkgs, p)
				byPkg[p] = nil
			}
			continue
		}
		if _, ok := byPkg[p]; !ok {
			pkgs = append(pkgs, p)
		}
		byPkg[p] = append(byPkg[p], sym)
	}
	if focus != "" && len(pkgs) == 0 {
		return nil, s.unknownImportPath(pkg, focus, syms)
	}

	// Header.
	var h strings.Builder
	title := pkg.Name
	if focus != "" {
		title = focus + " (in module " + pkg.Name + ")"
	}
	fmt.Fprintf(&h, "# %s %s\n\n", title, pkg.Version)
	if pkg.Description != "" {
		fmt.Fprintf(&h, "%s\n\n", strings.TrimSpace(pkg.Description))
	}
	if pkg.Deprecated != "" {
		fmt.Fprintf(&h, "**Deprecated:** %s\n\n", index.CollapseSpace(pkg.Deprecated))
	}
	fmt.Fprintf(&h, "- purl: %s\n", out.PURL)
	fmt.Fprintf(&h, "- indexed versions: %s (latest %s)\n", strings.Join(out.Versions, ", "), out.Latest)
	for _, f := range []struct{ k, v string }{
		{"license", out.License}, {"homepage", out.Homepage}, {"repository", out.Repository}, {"published", out.Published},
	} {
		if f.v != "" {
			fmt.Fprintf(&h, "- %s: %s\n", f.k, f.v)
		}
	}
	fmt.Fprintf(&h, "- resource: %s\n\n", out.URI)
	for i := range docs {
		d := &docs[i]
		if d.Kind == docidx.DocReadme && out.Readme == "" {
			out.Readme = readmeSummary(d)
		}
		page := docidx.PageDocPrefix + d.Path
		if d.Kind == docidx.DocReadme {
			page = docidx.PageReadme
		}
		out.Documents = append(out.Documents, DocumentRef{Path: d.Path, Kind: string(d.Kind), Title: d.Title, URI: ref.PageURI(page)})
	}
	if out.Readme != "" {
		fmt.Fprintf(&h, "## README\n\n%s\n\n", out.Readme)
	}
	if len(out.Documents) > 0 {
		h.WriteString("Documents (read with get_package_doc path=…): ")
		for i, d := range out.Documents {
			if i > 0 {
				h.WriteString(", ")
			}
			h.WriteString(d.Path)
		}
		h.WriteString("\n\n")
	}
	nsyms := 0
	for _, p := range pkgs {
		nsyms += len(byPkg[p])
	}
	if nsyms == 0 {
		h.WriteString("No API symbols are indexed for this version.\n")
	} else {
		fmt.Fprintf(&h, "## API (%d symbols; describe one with symbol=…)\n\n", nsyms)
	}

	o := &outlineUnits{header: h.String(), ref: ref}
	o.items = make([]outlineItem, 0, nsyms)
	for _, p := range pkgs {
		group := byPkg[p]
		sortByKind(group)
		lastRank := -1
		for i, sym := range group {
			it := outlineItem{sym: sym, pkg: p, last: i == len(group)-1}
			if i == 0 {
				it.groupHead = "### " + p + "\n\n"
				if syn := synopsis[p]; syn != "" {
					it.groupHead += syn + "\n\n"
				}
			}
			if rank := kindOrder[sym.Kind]; rank != lastRank {
				it.kindHead = kindHeading[rank] + ":\n"
				lastRank = rank
			}
			o.items = append(o.items, it)
		}
	}
	o.texts = make([]string, len(o.items))
	o.entries = make([]OutlineEntry, len(o.items))
	return o, nil
}

// outlineUnits is an API outline as a unitList: unit 0 the header, unit i+1 the entry of the
// i-th symbol in outline order. An entry is rendered when a page first asks for it: a large
// module's outline has thousands (zap's some 1,500), whose synopses, compact signatures and URIs
// took a millisecond to make for a page that shows a few hundred.
type outlineUnits struct {
	header  string
	ref     docidx.Ref
	items   []outlineItem
	texts   []string       // texts[i] is unit i+1 once rendered (never empty then)
	entries []OutlineEntry // entries[i] belongs to unit i+1, once texts[i] is rendered
}

// outlineItem is one outline entry before it is rendered: its symbol, declaring package, and the
// headings that start before it.
type outlineItem struct {
	sym                 *docidx.Symbol
	pkg                 string
	groupHead, kindHead string // the package group's heading and synopsis, the kind's heading
	last                bool   // the last entry of its package group
}

// Len implements unitList.
func (o *outlineUnits) Len() int { return 1 + len(o.items) }

// At implements unitList.
func (o *outlineUnits) At(i int) string {
	if i == 0 {
		return o.header
	}
	o.render(i - 1)
	return o.texts[i-1]
}

// entriesOf returns the outline entries of units [from, to); unit 0, the header, has none.
func (o *outlineUnits) entriesOf(from, to int) []OutlineEntry {
	from, to = max(from-1, 0), max(to-1, 0)
	for i := from; i < to; i++ {
		o.render(i)
	}
	return o.entries[from:to]
}

// render makes the entry and the unit of item i, once.
func (o *outlineUnits) render(i int) {
	if o.texts[i] != "" {
		return
	}
	it := &o.items[i]
	sym := it.sym
	e := OutlineEntry{
		Package: it.pkg, Kind: string(sym.Kind), Name: sym.QualifiedName, Signature: compactSignature(sym.Signature),
		Synopsis: firstSentence(sym.Doc), Deprecated: sym.Deprecated,
		URI: o.ref.PageURI(docidx.PageSymbolPrefix + sym.QualifiedName),
	}
	if e.Signature == "" {
		e.Signature = sym.QualifiedName
	}
	code := inlineCode(e.Signature)
	var b strings.Builder
	b.Grow(len(it.groupHead) + len(it.kindHead) + len(code) + len(e.Synopsis) + 24)
	b.WriteString(it.groupHead)
	b.WriteString(it.kindHead)
	b.WriteString("- ")
	b.WriteString(code)
	if e.Deprecated {
		b.WriteString(" (deprecated)")
	}
	if e.Synopsis != "" {
		b.WriteString(" — ")
		b.WriteString(e.Synopsis)
	}
	b.WriteByte('\n')
	if it.last {
		b.WriteByte('\n')
	}
	o.texts[i], o.entries[i] = b.String(), e
}

// sortByKind orders symbols by kindOrder, keeping declaration order within a kind. A counting
// sort over the ranks: kindOrder is looked up once per symbol, not per comparison.
func sortByKind(syms []*docidx.Symbol) {
	ranks := len(kindHeading) // kindOrder's values are 0 to ranks-1, each with a heading
	count := make([]int, ranks+1)
	rank := make([]uint8, len(syms))
	for i, sym := range syms {
		rank[i] = uint8(kindOrder[sym.Kind])
		count[rank[i]+1]++
	}
	for r := 1; r <= ranks; r++ {
		count[r] += count[r-1]
	}
	sorted := make([]*docidx.Symbol, len(syms))
	for i, sym := range syms {
		sorted[count[rank[i]]] = sym
		count[rank[i]]++
	}
	copy(syms, sorted)
}

// readmeSummary is the plain-text summary of a README: its Summary, else the start of its first
// section with text.
func readmeSummary(d *docidx.Document) string {
	if sum := strings.TrimSpace(d.Summary); sum != "" {
		return clip(index.CollapseSpace(sum), 1000)
	}
	for _, sec := range d.Sections {
		if t := strings.TrimSpace(sec.Plain); t != "" {
			return clip(index.CollapseSpace(t), 500)
		}
	}
	return ""
}

// unknownImportPath is the tool error for a Go import path inside an indexed module that names
// no package of it.
func (s *Server) unknownImportPath(pkg *docidx.Package, path string, syms []docidx.Symbol) error {
	seen := make(map[string]bool)
	var pkgs []string
	for i := range syms {
		p := syms[i].Package
		if p != "" && !seen[p] {
			seen[p] = true
			pkgs = append(pkgs, p)
		}
	}
	msg := fmt.Sprintf("module %s@%s has no package %s", pkg.Name, pkg.Version, path)
	if close := closest(path, pkgs, 5); len(close) > 0 {
		msg += "; did you mean: " + strings.Join(close, ", ") + "?"
	}
	return toolErrorf("%s", msg)
}

// symbolDetails returns the symbols of ref matching name (those of focus first, when set), each
// rendered in full as one unit. No match is a tool error with did-you-mean over symbol names.
func (s *Server) symbolDetails(ref docidx.Ref, focus, name string) ([]SymbolDetail, []string, error) {
	// From the symbol cache: describing one symbol after another of a package reads and decodes
	// its symbols once, not for every call (zap's are a few thousand).
	syms, err := s.symbolsCached(s.reader(), ref)
	if err != nil {
		return nil, nil, err
	}
	matches := index.MatchSymbols(syms, name)
	if focus != "" {
		var in []docidx.Symbol
		for _, m := range matches {
			if m.Package == focus {
				in = append(in, m)
			}
		}
		if len(in) > 0 {
			matches = in
		}
	}
	if len(matches) == 0 {
		var names []string
		for i := range syms {
			if syms[i].Kind != docidx.KindPackage {
				names = append(names, syms[i].Key())
			}
		}
		msg := fmt.Sprintf("symbol %q not found in %s@%s", name, ref.Name, ref.Version)
		if close := closest(name, names, 5); len(close) > 0 {
			msg += "; did you mean: " + strings.Join(close, ", ") + "?"
		} else {
			msg += "; describe the package without symbol to see its API outline"
		}
		return nil, nil, toolErrorf("%s", msg)
	}
	details := make([]SymbolDetail, 0, len(matches))
	units := make([]string, 0, len(matches))
	for i := range matches {
		d, unit := renderSymbol(ref, &matches[i])
		details = append(details, d)
		units = append(units, unit)
	}
	return details, units, nil
}

// renderSymbol returns one symbol of ref in full, as structured content and as markdown.
func renderSymbol(ref docidx.Ref, m *docidx.Symbol) (SymbolDetail, string) {
	lang := codeLang(ref.Ecosystem)
	d := SymbolDetail{
		Package: m.Package, Kind: string(m.Kind), Name: m.Name, QualifiedName: m.QualifiedName,
		Signature: m.Signature, Doc: m.Doc, File: m.File, Line: m.Line, Deprecated: m.Deprecated,
		URI: ref.PageURI(docidx.PageSymbolPrefix + m.QualifiedName),
	}
	if d.Package == "" {
		d.Package = ref.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (%s) — %s@%s\n\n", m.QualifiedName, m.Kind, ref.Name, ref.Version)
	if d.Package != ref.Name {
		fmt.Fprintf(&b, "Package %s\n\n", d.Package)
	}
	if m.Signature != "" {
		b.WriteString(fence(lang, m.Signature))
		b.WriteByte('\n')
	}
	if m.Deprecated {
		b.WriteString("**Deprecated.**\n\n")
	}
	if doc := strings.TrimSpace(m.Doc); doc != "" {
		b.WriteString(doc)
		b.WriteString("\n\n")
	}
	for _, ex := range m.Examples {
		l := ex.Lang
		if l == "" {
			l = lang
		}
		d.Examples = append(d.Examples, Example{Name: ex.Name, Lang: l, Code: ex.Code, Output: ex.Output})
		if ex.Name != "" {
			fmt.Fprintf(&b, "Example %s:\n\n", ex.Name)
		} else {
			b.WriteString("Example:\n\n")
		}
		b.WriteString(fence(l, ex.Code))
		if ex.Output != "" {
			b.WriteString("\nOutput:\n\n")
			b.WriteString(fence("", ex.Output))
		}
		b.WriteByte('\n')
	}
	if m.File != "" {
		loc := m.File
		if m.Line > 0 {
			loc = fmt.Sprintf("%s:%d", m.File, m.Line)
		}
		fmt.Fprintf(&b, "Declared at %s\n", loc)
	}
	fmt.Fprintf(&b, "Resource: %s\n\n", d.URI)
	return d, b.String()
}

// closest returns up to n of names closest to want, best first: exact matches ignoring case,
// then prefix and substring matches, then names within a small edit distance.
func closest(want string, names []string, n int) []string {
	lw := strings.ToLower(want)
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	seen := make(map[string]bool)
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		ln := strings.ToLower(name)
		last := ln[strings.LastIndexAny(ln, "./")+1:]
		score := -1
		switch {
		case ln == lw || last == lw:
			score = 0
		case strings.HasPrefix(ln, lw) || strings.HasPrefix(last, lw):
			score = 1
		case strings.Contains(ln, lw):
			score = 2
		default:
			d := min(editDistance(lw, ln), editDistance(lw, last))
			if d <= max(2, len(lw)/3) {
				score = 3 + d
			}
		}
		if score >= 0 {
			cands = append(cands, cand{name, score})
		}
	}
	// Stable insertion sort by score.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && cands[j].score < cands[j-1].score; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var out []string
	for i := 0; i < len(cands) && i < n; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b in bytes, capped for long inputs.
func editDistance(a, b string) int {
	const maxLen = 64
	if len(a) > maxLen || len(b) > maxLen {
		if a == b {
			return 0
		}
		return maxLen
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ---- get_package_doc, get_npm_package_doc ----

// DocInput is the arguments of get_package_doc.
type DocInput struct {
	Ecosystem string `json:"ecosystem" jsonschema:"ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Package   string `json:"package" jsonschema:"package name or Go module path; 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"exact indexed version; default the latest indexed version"`
	Path      string `json:"path,omitempty" jsonschema:"document to read: default the README; else a path listed by describe_*_package, e.g. docs/guide.md or examples/basic.md"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same document, to continue it"`
}

// NPMDocInput is the arguments of get_npm_package_doc: DocInput without the ecosystem.
type NPMDocInput struct {
	Package   string `json:"package" jsonschema:"npm package name, e.g. express or @types/node; 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"exact indexed version; default the latest indexed version"`
	Path      string `json:"path,omitempty" jsonschema:"document to read: default the README; else a path listed by describe_npm_package, e.g. docs/guide.md"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same document, to continue it"`
}

// DocOutput is the structured result of get_package_doc and get_npm_package_doc: one page of a
// document. The text of successive pages, concatenated, is the whole document.
type DocOutput struct {
	Ecosystem  string       `json:"ecosystem" jsonschema:"purl type of the package"`
	Package    string       `json:"package" jsonschema:"package name or Go module path"`
	Version    string       `json:"version" jsonschema:"version the document belongs to"`
	Path       string       `json:"path" jsonschema:"document path inside the package"`
	Title      string       `json:"title" jsonschema:"document title"`
	URI        string       `json:"uri" jsonschema:"docidx:// resource URI of the document"`
	Sections   []SectionRef `json:"sections" jsonschema:"the sections on this page, in order"`
	Text       string       `json:"text" jsonschema:"this page of the document as markdown, each section under its heading"`
	NextCursor string       `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// SectionRef names one section of a document.
type SectionRef struct {
	Heading string `json:"heading" jsonschema:"heading path joined with ' › '; empty for the text before the first heading"`
	Anchor  string `json:"anchor,omitempty" jsonschema:"GitHub-style anchor of the heading"`
}

func (s *Server) docTool(ctx context.Context, tool string, in DocInput) (*mcp.CallToolResult, DocOutput, error) {
	var out DocOutput
	eco, err := parseEcosystem(in.Ecosystem, true)
	if err != nil {
		return nil, out, err
	}
	name, version := splitVersion(in.Package, in.Version)
	if name == "" {
		return nil, out, invalidParams(map[string]any{"missing": []string{"package"}}, "package is empty")
	}
	pkg, _, err := s.resolvePackage(eco, name, version)
	if err != nil {
		return nil, out, err
	}
	ref := pkg.Ref()
	doc, err := s.findDocument(ref, in.Path)
	if err != nil {
		return nil, out, err
	}
	hash := requestHash(tool, string(eco), pkg.Name, pkg.Version, doc.Path)
	c, err := decodeCursor(in.Cursor, tool, hash)
	if err != nil {
		return nil, out, err
	}
	units := make([]string, len(doc.Sections))
	for i := range doc.Sections {
		units[i] = renderSection(&doc.Sections[i])
	}
	if dc := documentContents(doc); dc.Blob != nil {
		// Binary files are for resources/read, which can carry bytes.
		units = []string{fmt.Sprintf("(binary file: %s, %d bytes; read the resource %s for its content)\n",
			dc.MIMEType, len(dc.Blob), ref.PageURI(documentPage(doc)))}
	}
	p := pos{c.Unit, c.Byte}
	if !validPos(textUnits(units), p) {
		return nil, out, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: out of range")
	}
	text, first, end, next, more := cutPage(textUnits(units), p, s.budget(in.MaxTokens))
	page := docidx.PageDocPrefix + doc.Path
	if doc.Kind == docidx.DocReadme {
		page = docidx.PageReadme
	}
	title := doc.Title
	if title == "" {
		title = doc.Path
	}
	out = DocOutput{
		Ecosystem: string(eco), Package: pkg.Name, Version: pkg.Version, Path: doc.Path, Title: title,
		URI: ref.PageURI(page), Sections: []SectionRef{}, Text: text,
	}
	for i := first; i < end; i++ {
		sec := &doc.Sections[i]
		out.Sections = append(out.Sections, SectionRef{Heading: headingPath(sec.Heading), Anchor: sec.Anchor})
	}
	var t strings.Builder
	part := ""
	if first > 0 || p.off > 0 {
		part = ", continued"
	}
	fmt.Fprintf(&t, "<!-- %s@%s %s%s; %s -->\n\n", pkg.Name, pkg.Version, doc.Path, part, out.URI)
	if text == "" {
		t.WriteString("(this document has no text)\n")
	}
	t.WriteString(text)
	if more {
		out.NextCursor = cursor{Tool: tool, Hash: hash, Unit: next.unit, Byte: next.off}.encode()
		t.WriteString(continuation(out.NextCursor))
	}
	return textResult(t.String()), out, nil
}

// findDocument returns the document of ref at path: the README when path is empty or "README",
// else the document with that path (exactly, then ignoring case, then by unique suffix). A
// missing document is a tool error listing the paths there are.
func (s *Server) findDocument(ref docidx.Ref, path string) (*docidx.Document, error) {
	path = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(path), "./"), "/")
	readme := path == "" || strings.EqualFold(path, "readme")
	docs, err := s.documentsCached(s.reader(), ref)
	if err != nil {
		return nil, err
	}
	if !readme {
		if d := index.FindDocument(docs, path); d != nil {
			return d, nil
		}
	}
	var suffix []int
	for i := range docs {
		d := &docs[i]
		switch {
		case readme && d.Kind == docidx.DocReadme:
			return d, nil
		case readme:
		case strings.EqualFold(d.Path, path):
			return d, nil
		case strings.HasSuffix(strings.ToLower(d.Path), "/"+strings.ToLower(path)):
			suffix = append(suffix, i)
		}
	}
	if len(suffix) == 1 {
		return &docs[suffix[0]], nil
	}
	what := "has no README"
	if !readme {
		what = fmt.Sprintf("has no document %q", path)
	}
	msg := fmt.Sprintf("%s@%s %s", ref.Name, ref.Version, what)
	if len(docs) == 0 {
		return nil, toolErrorf("%s; it has no documents at all (describe it for its API instead)", msg)
	}
	paths := make([]string, len(docs))
	for i := range docs {
		paths[i] = docs[i].Path
	}
	return nil, toolErrorf("%s; available documents: %s", msg, strings.Join(paths, ", "))
}
