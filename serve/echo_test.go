package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docidx/docidx/serve"
)

// A megabyte a client sends is named in the error it gets, never echoed whole: every answer to
// a request carrying one stays under a few kilobytes, however often the message names it.
func TestLongInputIsNotEchoed(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	ctx := context.Background()
	x := strings.Repeat("x", 1<<20)
	const most = 8 << 10 // bytes of error a request may get back

	for _, uri := range []string{
		x,
		"docidx://golang/" + x,
		"docidx://" + x + "/a@1/readme",
		"docidx://golang/example.com/" + x + "@v1.0.0/readme",
		"docidx://golang/" + modPath + "@" + x + "/readme",
		"docidx://golang/" + modPath + "@v1.1.0/" + x,
		"docidx://golang/" + modPath + "@v1.1.0/doc/" + x,
		"docidx://golang/" + modPath + "@v1.1.0/symbol/" + x,
		"docidx://golang/" + modPath + "@v1.1.0/readme#" + x,
	} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) {
			t.Errorf("resources/read %.60s…: err = %v, want a JSON-RPC error", uri, err)
			continue
		}
		if n := len(werr.Message) + len(werr.Data); n > most {
			t.Errorf("resources/read %.60s…: a %d-byte error: %.200s…", uri, n, werr.Message)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: serve.ToolRead, Arguments: map[string]any{"uri": uri}})
		if n := answerSize(res, err); n > most {
			t.Errorf("%s %.60s…: a %d-byte answer", serve.ToolRead, uri, n)
		}
	}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{serve.ToolDescribeGo, map[string]any{"package": "example.com/" + x}},
		{serve.ToolDescribeGo, map[string]any{"package": modPath, "version": x}},
		{serve.ToolDescribeGo, map[string]any{"package": modPath, "symbol": x}},
		{serve.ToolDescribeNPM, map[string]any{"package": x}},
		{serve.ToolGetDoc, map[string]any{"ecosystem": "golang", "package": modPath, "path": x}},
		{serve.ToolSearch, map[string]any{"query": "retry", "ecosystem": x}},
		{x, map[string]any{}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if n := answerSize(res, err); n > most {
			t.Errorf("%.40s with a 1 MB argument: a %d-byte answer", c.tool, n)
		}
	}
	_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: x})
	if n := answerSize(nil, err); err == nil || n > most {
		t.Errorf("prompts/get of a 1 MB name: err = %.200v (%d bytes)", err, n)
	}
}

// answerSize is how many bytes of text a tool call brought back: its error's, or its result's.
func answerSize(res *mcp.CallToolResult, err error) int {
	var werr *jsonrpc.Error
	switch {
	case errors.As(err, &werr):
		return len(werr.Message) + len(werr.Data)
	case err != nil:
		return len(err.Error())
	}
	b, _ := json.Marshal(res)
	return len(b)
}
