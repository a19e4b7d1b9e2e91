package serve

import (
	"context"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names (docs/ARCHITECTURE.md §6). They keep those of the original package-docs server.
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

// addTools registers every tool.
func (s *Server) addTools() {
	addTool(s, &mcp.Tool{
		Name:  ToolSearch,
		Title: "Search package documentation",
		Description: "Full-text search over the indexed READMEs, docs and API symbols of every package. " +
			"Without a version filter only each package's default version is searched: the one the project resolves (node_modules' top-level copy) when the crawl marked one, else the latest indexed. " +
			"Returns ranked hits, each with the passage that answers the query and the docidx:// URI of its page; " +
			"read a hit in full with read_package_doc, page with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "query")
		intRange(in, "limit", 1, answer.MaxSearchLimit, answer.DefaultSearchLimit)
		intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
		// No enum for kind: the answer layer reads it as every front end does
		// (index.NormalizeKind: any case, plurals, "function" for func) and refuses an
		// unknown one with the accepted values.
	}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.SearchInput) (*mcp.CallToolResult, answer.SearchOutput, error) {
		text, out, err := s.answers.Search(ctx, in)
		return toolAnswer(s, text, out, err)
	})

	for _, d := range describeTools {
		addTool(s, &mcp.Tool{
			Name:  d.name,
			Title: d.title,
			Description: "Describe an indexed " + d.what + ": metadata (versions, description, license, homepage, repository, purl, requirements, the commands it installs), " +
				"README summary, documents, and an API outline (symbols grouped by package and kind, signature and first sentence). " +
				"With symbol (e.g. 'Options' or 'redis.Options.PoolSize'), return that symbol's full signature, doc, examples and file:line instead, " +
				"then its members (fields, methods, properties), each with its own doc. Unknown packages get did-you-mean suggestions.",
		}, func(in *jsonschema.Schema) {
			nonEmpty(in, "package")
			intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
		}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.DescribeInput) (*mcp.CallToolResult, answer.DescribeOutput, error) {
			text, out, err := s.answers.Describe(ctx, d.eco, in)
			return toolAnswer(s, text, out, err)
		})
	}

	addTool(s, &mcp.Tool{
		Name:  ToolGetDoc,
		Title: "Read a package document",
		Description: "Return a package's filtered README (the default), or one file of its docs/ or examples/, as markdown " +
			"with its section headings; page long documents with nextCursor.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "ecosystem", "package")
		intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.DocInput) (*mcp.CallToolResult, answer.DocOutput, error) {
		text, out, err := s.answers.GetDoc(ctx, in)
		return toolAnswer(s, text, out, err)
	})
	addTool(s, &mcp.Tool{
		Name:        ToolGetNPMDoc,
		Title:       "Read an npm package document",
		Description: "Return an npm package's filtered README (the default), or one file of its docs/ or examples/, as markdown; the same as get_package_doc with ecosystem npm.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "package")
		intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.NPMDocInput) (*mcp.CallToolResult, answer.DocOutput, error) {
		text, out, err := s.answers.GetNPMDoc(ctx, in)
		return toolAnswer(s, text, out, err)
	})

	addTool(s, &mcp.Tool{
		Name:  ToolRead,
		Title: "Read a search hit, symbol or document in full",
		Description: "Read any docidx:// URI that search_package_docs or describe_* returned: a README or docs section with its " +
			"subsections (…/readme#anchor), a whole document, a symbol with its signature, doc and members " +
			"(…/symbol/redis.Options), a package overview or API outline (…/api). Pages with nextCursor. " +
			"With query, only the passages of the page that hold its words (about 1,200 bytes): the answer in a long section without reading all of it.",
	}, func(in *jsonschema.Schema) {
		nonEmpty(in, "uri")
		intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.ReadInput) (*mcp.CallToolResult, answer.ReadOutput, error) {
		text, out, err := s.answers.Read(ctx, in)
		return toolAnswer(s, text, out, err)
	})

	addTool(s, &mcp.Tool{
		Name:        ToolListPackages,
		Title:       "List indexed packages",
		Description: "List the packages in the snapshot with their indexed versions, by ecosystem and name prefix, paged with nextCursor.",
	}, func(in *jsonschema.Schema) {
		intRange(in, "limit", 1, answer.MaxListLimit, answer.DefaultListLimit)
		intRange(in, "max_tokens", answer.MinMaxTokens, answer.MaxMaxTokens, s.opts.DefaultMaxTokens)
	}, func(ctx context.Context, req *mcp.CallToolRequest, in answer.ListInput) (*mcp.CallToolResult, answer.ListOutput, error) {
		text, out, err := s.answers.List(ctx, in)
		return toolAnswer(s, text, out, err)
	})
}

// textResult is a tool result whose content is one markdown text block.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
