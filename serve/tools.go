package serve

import (
	"context"
	"slices"
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
	ToolRead           = "read_package_doc" // reads any docidx:// URI the other tools return
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
			"Returns ranked hits, each with the passage that answers the query and the docidx:// URI of its page; " +
			"read a hit in full with read_package_doc, page with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "query")
		intRange(in, "limit", 1, maxSearchLimit, defaultSearchLimit)
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
		enum(in, "kind", append(slices.Clone(index.Kinds), "sections", "symbols", "")...)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
		return toolAnswer(s.SearchDocs(ctx, in))
	})

	for _, d := range describeTools {
		addTool(s, &mcp.Tool{
			Name:  d.name,
			Title: d.title,
			Description: "Describe an indexed " + d.what + ": metadata (versions, description, license, homepage, repository, purl), " +
				"README summary, documents, and an API outline (symbols grouped by package and kind, signature and first sentence). " +
				"With symbol (e.g. 'Options' or 'redis.Options.PoolSize'), return that symbol's full signature, doc, examples and file:line instead, " +
				"then its members (fields, methods, properties), each with its own doc. Unknown packages get did-you-mean suggestions.",
		}, func(in *jsonschema.Schema) {
			nonEmpty(in, "package")
			intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
		}, func(ctx context.Context, req *mcp.CallToolRequest, in DescribeInput) (*mcp.CallToolResult, DescribeOutput, error) {
			return toolAnswer(s.describe(ctx, d.name, d.eco, in))
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
		return toolAnswer(s.getDoc(ctx, ToolGetDoc, in))
	})
	addTool(s, &mcp.Tool{
		Name:        ToolGetNPMDoc,
		Title:       "Read an npm package document",
		Description: "Return an npm package's filtered README (the default), or one file of its docs/ or examples/, as markdown; the same as get_package_doc with ecosystem npm.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "package")
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in NPMDocInput) (*mcp.CallToolResult, DocOutput, error) {
		return toolAnswer(s.getDoc(ctx, ToolGetNPMDoc, DocInput{
			Ecosystem: string(docidx.NPM), Package: in.Package, Version: in.Version, Path: in.Path,
			MaxTokens: in.MaxTokens, Cursor: in.Cursor,
		}))
	})

	addTool(s, &mcp.Tool{
		Name:  ToolRead,
		Title: "Read a search hit, symbol or document in full",
		Description: "Read any docidx:// URI that search_package_docs or describe_* returned: a README or docs section with its " +
			"subsections (…/readme#anchor), a whole document, a symbol with its signature, doc and members " +
			"(…/symbol/redis.Options), a package overview or API outline (…/api). Pages with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "uri")
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in ReadInput) (*mcp.CallToolResult, ReadOutput, error) {
		return toolAnswer(s.Read(ctx, in))
	})

	addTool(s, &mcp.Tool{
		Name:        ToolListPackages,
		Title:       "List indexed packages",
		Description: "List the packages in the snapshot with their indexed versions, by ecosystem and name prefix, paged with nextCursor.",
	}, func(in *jsonschema.Schema) {
		intRange(in, "limit", 1, maxListLimit, defaultListLimit)
		intRange(in, "max_tokens", minMaxTokens, maxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in ListInput) (*mcp.CallToolResult, ListOutput, error) {
		return toolAnswer(s.ListPackages(ctx, in))
	})
}

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
		return "", invalidParams(map[string]string{"argument": "ecosystem"}, "unknown ecosystem %s; want %s", docidx.Quote(s), ecosystemDoc)
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
