package serve

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolResultWire holds toolResult to the SDK's encoding of the same result, byte for byte:
// clients must not see which of the two wrote it.
func TestToolResultWire(t *testing.T) {
	type out struct {
		Results []string `json:"results"`
		Next    string   `json:"nextCursor,omitempty"`
	}
	prio := 0.5
	cases := map[string]*mcp.CallToolResult{
		"text and structured": {
			Content:           []mcp.Content{&mcp.TextContent{Text: "Results 1–2 for \"a <b> & c\":\n\n1. **x** — \u2026\t"}},
			StructuredContent: out{Results: []string{"a", "b\u2028"}},
		},
		"meta and annotations": {
			Meta: mcp.Meta{"k": "v"},
			Content: []mcp.Content{
				&mcp.TextContent{Text: "", Meta: mcp.Meta{"m": 1.0}, Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: prio}},
				&mcp.ResourceLink{URI: "docidx://snapshot", Name: "snapshot"},
			},
		},
		"error":       {Content: []mcp.Content{&mcp.TextContent{Text: "no such package"}}, IsError: true},
		"no content":  {},
		"raw message": {Content: []mcp.Content{}, StructuredContent: json.RawMessage(`{"a": [1, 2]}`)},
	}
	for name, r := range cases {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(toolResultOf(r))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
