package serve

import (
	"context"
	"encoding/json"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resources (docs/ARCHITECTURE.md §6). Every page of every package version in the snapshot is a resource
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
// see docidx.ParsePageURI). resources/list lists the pages a person picks from — the snapshot,
// then each version's overview, README, API outline and documents, a few per version — and not
// the symbols, which number hundreds of thousands in a real snapshot; a symbol's page is read by
// its URI, through the package-symbol template and completion of its name. The list is
// answered from the store by a receiving middleware (listResources): the SDK pages only
// resources registered in memory, and registering one per page would make start-up time and
// memory grow with the snapshot. The templates are registered with the SDK, which lists them;
// resources/read is answered by the middleware too (readResource), so that an unknown URI gets
// the error its session's protocol revision asks for.

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

// listResources answers resources/list from the store, ResourcePageSize at a time: the
// snapshot resource, then each package version's overview, README, API outline and documents
// (answer.Service.ListPages, which owns the order, the URIs and the cursor). Symbols are not
// listed: they are read through the package-symbol template, whose name variable completion
// fills. A cursor read from a snapshot since replaced is -32602 saying to list again.
func (s *Server) listResources(ctx context.Context, req *mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	var cursor string
	if req.Params != nil {
		cursor = req.Params.Cursor
	}
	list, err := s.answers.ListPages(ctx, cursor, ResourcePageSize)
	if err != nil {
		return nil, s.wireError(err)
	}
	res := &mcp.ListResourcesResult{Resources: make([]*mcp.Resource, len(list.Pages)), NextCursor: list.NextCursor}
	res.CacheScope = "public"
	for i := range list.Pages {
		res.Resources[i] = resource(&list.Pages[i])
	}
	return res, nil
}

// pagePriority is the annotations' priority of each kind of page, for the version of a package
// read when none is asked for (its root version, else its latest); other versions get half.
var pagePriority = map[answer.PageKind]float64{
	answer.PageKindOverview: 0.9, answer.PageKindReadme: 0.8, answer.PageKindAPI: 0.7,
	answer.PageKindSnapshot: 0.6, answer.PageKindGuide: 0.5, answer.PageKindExample: 0.4,
}

// resource is the resources/list entry of the page e.
func resource(e *answer.PageEntry) *mcp.Resource {
	priority := pagePriority[e.Kind]
	if !e.Default {
		priority /= 2
	}
	a := &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: priority}
	if e.Kind == answer.PageKindAPI {
		a.Audience = []mcp.Role{"assistant"} // a model reads an outline; a person reads the overview
	}
	if !e.Modified.IsZero() {
		a.LastModified = e.Modified.UTC().Format(time.RFC3339)
	}
	return &mcp.Resource{
		URI: e.URI, Name: e.Name, Title: e.Title, Description: e.Description,
		MIMEType: e.MIMEType, Size: int64(e.Size), Annotations: a,
	}
}
