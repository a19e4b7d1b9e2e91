package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
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

// codeResourceNotFound is the resource-not-found code of MCP revisions up to 2025-11-25; from
// 2026-07-28 on (SEP-2164) it is -32602, invalid params.
const codeResourceNotFound = -32002

// protocolSEP2164 is the first protocol revision that reports an unknown resource as -32602.
const protocolSEP2164 = "2026-07-28"

// resourceTemplates are the URI templates (RFC 6570) of every resource shape (see
// answer.TemplateOverview and the others).
var resourceTemplates = []*mcp.ResourceTemplate{
	{
		Name: "package-overview", Title: "Package overview", MIMEType: answer.MIMEMarkdown,
		URITemplate: answer.TemplateOverview,
		Description: "Metadata (versions, license, links, purl), README summary, documents and API size of one indexed package version. version may be 'latest'.",
	},
	{
		Name: "package-readme", Title: "Package README", MIMEType: answer.MIMEMarkdown,
		URITemplate: answer.TemplateReadme,
		Description: "The filtered README of one indexed package version (install, usage, API, examples, configuration), as markdown.",
	},
	{
		Name: "package-api", Title: "Package API outline", MIMEType: answer.MIMEMarkdown,
		URITemplate: answer.TemplateAPI,
		Description: "Every API symbol of one indexed package version with its signature and first sentence, grouped by package and kind.",
	},
	{
		Name: "package-document", Title: "Package document",
		URITemplate: answer.TemplateDocument,
		Description: "One file of a package version's docs/ or examples/ (or its README by path), e.g. doc/docs/guide.md. Binary files come as a base64 blob.",
	},
	{
		Name: "package-symbol", Title: "API symbol", MIMEType: answer.MIMEMarkdown,
		URITemplate: answer.TemplateSymbol,
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
		if isNotFound(err) {
			return nil, resourceNotFound(proto, uri, err.Error())
		}
		return nil, s.wireError(err)
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
	res.CacheScope = "public" // what the SDK would set; the snapshot is the same for every client
	return res, nil
}

// resourceContents returns the contents of the resource uri names (see answer.Service.Page).
func (s *Server) resourceContents(uri string) (*mcp.ResourceContents, error) {
	c, err := s.answers.Page(uri)
	if err != nil {
		return nil, err
	}
	return &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}, nil
}

// resourceCount is how many resources one pass of resources/list yields for the version v.
func resourceCount(v *answer.VersionPages, pass int) int {
	if pass == 1 {
		return len(v.Symbols)
	}
	return len(resources(v, 0, 0, math.MaxInt))
}

// resources is what one pass of resources/list yields for one package version, from the
// from-th resource on, at most n: pass 0 its overview, README, API and documents; pass 1 its
// symbols.
func resources(v *answer.VersionPages, pass, from, n int) []*mcp.Resource {
	pkg := v.Package
	ref := pkg.Ref()
	at := pkg.Name + "@" + pkg.Version
	mod := pkg.CrawledAt
	if mod.IsZero() {
		mod = pkg.Published
	}
	if m := v.Manifest; mod.IsZero() && m != nil {
		mod = m.Created // captured no later than the snapshot was made
	}
	ann := func(priority float64, audience ...mcp.Role) *mcp.Annotations {
		if !v.Latest {
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
		from = min(from, len(v.Symbols))
		for i := from; i < len(v.Symbols) && i-from < n; i++ {
			sym := &v.Symbols[i]
			size := v.SymbolSize(i) // what reading it returns: the symbol, then its members
			desc := answer.FirstSentence(sym.Doc)
			if desc == "" {
				desc = answer.CompactSignature(sym.Signature)
			}
			out = append(out, &mcp.Resource{
				URI: ref.PageURI(docidx.PageSymbolPrefix + sym.QualifiedName), Name: at + " " + sym.QualifiedName,
				Title:       fmt.Sprintf("%s (%s) — %s %s", sym.QualifiedName, sym.Kind, pkg.Name, pkg.Version),
				Description: desc, MIMEType: answer.MIMEMarkdown, Size: int64(size), Annotations: ann(0.3, "assistant"),
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
		Description: answer.Clip(desc, 300), MIMEType: answer.MIMEMarkdown, Size: int64(len(v.Overview)), Annotations: ann(0.9, both...),
	})
	for i := range v.Documents {
		d := &v.Documents[i]
		if d.Kind != docidx.DocReadme {
			continue
		}
		out = append(out, &mcp.Resource{
			URI: ref.PageURI(docidx.PageReadme), Name: at + " README", Title: pkg.Name + " " + pkg.Version + " README",
			Description: answer.Clip(answer.ReadmeSummary(d), 300), MIMEType: answer.MIMEMarkdown, Size: int64(len(answer.RenderDocument(d))),
			Annotations: ann(0.8, both...),
		})
		break
	}
	out = append(out, &mcp.Resource{
		URI: ref.PageURI(docidx.PageAPI), Name: at + " API", Title: pkg.Name + " " + pkg.Version + " API",
		Description: fmt.Sprintf("API outline of %s %s: %d symbols", pkg.Name, pkg.Version, len(v.Symbols)),
		MIMEType:    answer.MIMEMarkdown, Size: int64(len(v.API)), Annotations: ann(0.7, "assistant"),
	})
	for i := range v.Documents {
		d := &v.Documents[i]
		if d.Kind == docidx.DocReadme {
			continue
		}
		c := answer.DocumentContents(d)
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
			Description: answer.Clip(index.CollapseSpace(d.Summary), 300), MIMEType: c.MIMEType, Size: int64(size), Annotations: ann(priority, both...),
		})
	}
	from = min(from, len(out))
	return out[from:min(len(out), from+min(n, len(out)))]
}

// snapshotResource is the listing of the snapshot resource.
func (s *Server) snapshotResource() *mcp.Resource {
	m := s.reader().Manifest()
	c, _ := s.answers.Page(docidx.SnapshotURI)
	var text string
	if c != nil {
		text = c.Text
	}
	res := &mcp.Resource{
		URI: docidx.SnapshotURI, Name: "snapshot", Title: "docidx snapshot",
		Description: "What this snapshot indexes and when: format, docidx version, creation time, sources crawled, counts per ecosystem.",
		MIMEType:    answer.MIMEJSON, Size: int64(len(text)),
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.6},
	}
	if m != nil && !m.Created.IsZero() {
		res.Annotations.LastModified = m.Created.UTC().Format(time.RFC3339)
	}
	return res
}

// listResources answers resources/list from the store: the snapshot resource, then (pass 0)
// the overview, README, API and documents of every package version, then (pass 1) every
// symbol, in index order, ResourcePageSize at a time. The cursor holds the position: the
// index's list cursor of the current package, the version index and the item index, so a page
// costs reading a few package versions whatever the size of the snapshot.
func (s *Server) listResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	const tool = "resources/list"
	hash := answer.RequestHash(tool)
	var raw string
	if req.Params != nil {
		raw = req.Params.Cursor
	}
	c, err := s.answers.DecodeCursor(raw, tool, hash)
	if err != nil {
		return nil, s.wireError(err)
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
				c = answer.Cursor{Pass: c.Pass, Next: next}
				continue
			}
			if c.Pass == 0 { // second pass: symbols
				c = answer.Cursor{Pass: 1}
				continue
			}
			return res, nil // the end
		}
		l := pkgs[0]
		pkg, err := r.Package(docidx.Ref{Ecosystem: l.Ecosystem, Name: l.Name, Version: l.Versions[c.Ver]})
		if err != nil {
			return nil, s.internalError("read package", err)
		}
		want := answer.LoadAll
		if c.Pass == 1 {
			want = answer.LoadSymbols
		}
		v, err := s.answers.VersionPages(pkg, want)
		if err != nil {
			return nil, s.wireError(err)
		}
		total := resourceCount(v, c.Pass)
		if c.Unit > total {
			return nil, invalidParams(map[string]string{"argument": "cursor"}, "invalid cursor: out of range; omit cursor to start over")
		}
		items := resources(v, c.Pass, c.Unit, ResourcePageSize-len(res.Resources))
		res.Resources = append(res.Resources, items...)
		c.Unit += len(items)
		if c.Unit == total {
			c.Ver, c.Unit = c.Ver+1, 0
			if c.Ver == len(l.Versions) {
				if next == "" && c.Pass == 1 {
					return res, nil // nothing follows
				}
				if next != "" {
					c = answer.Cursor{Pass: c.Pass, Next: next}
				}
			}
		}
	}
	c.Tool, c.Hash = tool, hash
	res.NextCursor = c.Encode()
	return res, nil
}
