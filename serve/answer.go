package serve

// answer.go is docidx's one answer layer. Every question the snapshot answers — search, describe,
// read, get a document, list — is one exported method of Server that returns the answer twice:
// as the markdown text a model or a person reads, and as structured content. The MCP tools wrap
// these methods (toolAnswer) and the CLI calls the same ones, so the two can never disagree.

import (
	"context"

	"github.com/docidx/docidx"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Describe answers describe_<ecosystem>_package for eco: metadata, README summary and the API
// outline of in.Package, or with in.Symbol that symbol and its members in full, paged within
// in.MaxTokens. Errors are as SearchDocs's.
func (s *Server) Describe(ctx context.Context, eco docidx.Ecosystem, in DescribeInput) (string, DescribeOutput, error) {
	return s.describe(ctx, describeToolFor(eco), eco, in)
}

// GetDoc answers get_package_doc: one document of a package version (its README by default),
// paged by section within in.MaxTokens. Errors are as SearchDocs's.
func (s *Server) GetDoc(ctx context.Context, in DocInput) (string, DocOutput, error) {
	return s.getDoc(ctx, ToolGetDoc, in)
}

// IsUsageError reports whether err, returned by one of the answer methods, is about the
// arguments (JSON-RPC -32602: a bad ecosystem, an empty query, an invalid cursor) rather than
// about what the snapshot holds.
func IsUsageError(err error) bool {
	e, ok := err.(*jsonrpc.Error)
	return ok && e.Code == codeInvalidParams
}

// toolAnswer turns an answer method's results into a tool handler's: the text as the result's
// one text block, the structured content as it is, errors as they are (the SDK makes a tool
// error an isError result and passes a *jsonrpc.Error through).
func toolAnswer[Out any](text string, out Out, err error) (*mcp.CallToolResult, Out, error) {
	if err != nil {
		return nil, out, err
	}
	return textResult(text), out, nil
}
