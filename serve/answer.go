package serve

// answer.go is serve's edge to package answer, docidx's one answer layer: the Service every
// tool, resource and prompt asks, the words its answers use (MCP tool and argument names), and
// the one place where its errors get their protocol form (wireError).

import (
	"errors"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answers returns the answer Service the server's tools ask: it answers from the snapshot the
// server serves now (see SetReader), in MCP's words. The HTML pages (package web) use it too.
func (s *Server) Answers() *answer.Service { return s.answers }

// mcpWords are the words answers use over MCP: the tools and arguments a model calls next.
var mcpWords = answer.Words{
	Read:           ToolRead + " with its uri",
	ReadDocument:   ToolGetDoc + " path=…",
	DescribeSymbol: "describe one with symbol=…",
	Outline:        "describe the package without symbol to see its API outline",
	API:            "describe it for its API instead",
	List:           ToolListPackages + " (docidx list)",
	PassURI:        "pass a uri exactly as " + ToolSearch + " or describe_* returned it",
	Cursor:         "cursor",
	NextCursor:     "the nextCursor of the previous page",
	Continue:       "call again with cursor",
}

// wireError turns an error of the answer layer into what a tool handler returns: an
// *answer.ArgumentError becomes JSON-RPC -32602 with the argument in its data, an
// *answer.InternalError -32603 that says what failed without its cause (file paths, store
// internals), which goes to the server log; any other error (not found, no hits, a search that
// timed out) stays as it is, for the SDK to send as a tool result with isError set.
func (s *Server) wireError(err error) error {
	var arg *answer.ArgumentError
	var internal *answer.InternalError
	switch {
	case errors.As(err, &internal):
		return s.internalError(internal.What, internal.Err)
	case errors.As(err, &arg) && arg.Missing:
		return invalidParams(map[string]any{"missing": []string{arg.Argument}}, "%s", arg.Error())
	case errors.As(err, &arg):
		return invalidParams(map[string]string{"argument": arg.Argument}, "%s", arg.Error())
	}
	return err
}

// isNotFound reports whether err, from the answer layer, says the snapshot does not hold what
// was asked (its message says what it holds instead), rather than that the request was bad or
// the snapshot could not be read.
func isNotFound(err error) bool {
	var internal *answer.InternalError
	return errors.Is(err, docidx.ErrNotFound) && !errors.As(err, &internal)
}

// toolAnswer turns an answer method's results into a tool handler's: the text as the result's
// one text block, the structured content as it is, errors as wireError gives them (the SDK
// makes a tool error an isError result and passes a *jsonrpc.Error through).
func toolAnswer[Out any](s *Server, text string, out Out, err error) (*mcp.CallToolResult, Out, error) {
	if err != nil {
		return nil, out, s.wireError(err)
	}
	return textResult(text), out, nil
}
