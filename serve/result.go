package serve

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// multiRoundTripVersion is the first MCP protocol version whose tools/call results carry a
// resultType member (go-sdk v1.8.0 mcp/mrtr.go sets it for sessions at this version or later).
const multiRoundTripVersion = "2026-07-28"

// toolResult is the wire form of a tools/call result (mcp.CallToolResult), written by
// encoding/json in a single pass over plain structs.
//
// The SDK's own form is built from values with MarshalJSON methods — the result, each
// TextContent, and structuredContent as a json.RawMessage — and encoding/json re-scans
// ("compacts") whatever a MarshalJSON returns, once per level of nesting, before the JSON-RPC
// layer scans it again. A page of ten search hits is about 11 KB, which was scanned three times
// over: 0.2 ms, more than the search itself. toolResult writes the same members in the same
// order (TestToolResultWire holds it to the SDK's bytes) with one scan left, the JSON-RPC
// envelope's; only <, > and & are no longer escaped as \u003c, \u003e and \u0026, as the
// JSON-RPC layer already intends (it turns HTML escaping off). mcp.ResultBase is the SDK's way for custom result structs to be an mcp.Result.
type toolResult struct {
	mcp.ResultBase
	Content           []any `json:"content"`
	StructuredContent any   `json:"structuredContent,omitempty"`
	IsError           bool  `json:"isError,omitempty"`
}

// textBlock is the wire form of an mcp.TextContent.
type textBlock struct {
	Type        string           `json:"type"`
	Text        string           `json:"text"`
	Meta        mcp.Meta         `json:"_meta,omitempty"`
	Annotations *mcp.Annotations `json:"annotations,omitempty"`
}

// wireToolResult returns r in the form toolResult, or r itself when the SDK's form holds
// members toolResult does not write: input requests and request state (multi-round-trip
// results), or the resultType of sessions at multiRoundTripVersion or later, which the SDK
// sets but does not expose. Other content than text keeps its own MarshalJSON.
func wireToolResult(req mcp.Request, r *mcp.CallToolResult) mcp.Result {
	if r == nil || r.InputRequests != nil || r.RequestState != "" || r.NeedsInput() {
		return r
	}
	if v := requestProtocol(req); v == "" || v >= multiRoundTripVersion {
		return r
	}
	return toolResultOf(r)
}

// toolResultOf is r as a toolResult.
func toolResultOf(r *mcp.CallToolResult) *toolResult {
	w := &toolResult{StructuredContent: r.StructuredContent, IsError: r.IsError}
	w.Meta = r.Meta
	if r.Content != nil {
		w.Content = make([]any, len(r.Content))
		for i, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok && t != nil {
				w.Content[i] = &textBlock{Type: "text", Text: t.Text, Meta: t.Meta, Annotations: t.Annotations}
			} else {
				w.Content[i] = c
			}
		}
	}
	return w
}
