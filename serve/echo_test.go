package serve_test

//lint:file-ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves

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
	var n notifications
	cs := connectWith(t, newServer(t), n.options(), "2025-06-18", nil)
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
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
	// The log message after each request names the URI or tool too. A ping goes after the
	// last one, so that every notification sent before it has been handled.
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	longest := 0
	for _, l := range n.logs {
		b, _ := json.Marshal(l.Data)
		longest = max(longest, len(b))
	}
	if len(n.logs) == 0 || longest > most {
		t.Errorf("%d log messages, the longest of %d bytes", len(n.logs), longest)
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
