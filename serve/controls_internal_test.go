package serve

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMayHoldControls: the walk finds a control or tag character wherever a result may carry
// package text, and leaves encoded JSON to the marshaled check.
func TestMayHoldControls(t *testing.T) {
	type inner struct {
		Text  string
		note  string
		Items []string
		Meta  map[string]any
	}
	type result struct {
		Title string
		In    *inner
		Any   any
		Raw   json.RawMessage
	}
	clean := func() *result {
		return &result{Title: "Greets\tpeople\n", In: &inner{Text: "bidi \u202e stays", Items: []string{"a"}, Meta: map[string]any{"k": "v"}}, Any: []any{"x", 1}}
	}
	for name, tc := range map[string]struct {
		edit func(*result)
		want bool
	}{
		"clean":            {func(*result) {}, false},
		"string field":     {func(r *result) { r.Title = "a\x1b[2Jb" }, true},
		"unexported field": {func(r *result) { r.In.note = "\x07" }, true},
		"slice element":    {func(r *result) { r.In.Items = []string{"ok", "C1 \u009b"} }, true},
		"map key":          {func(r *result) { r.In.Meta = map[string]any{"k\x00": "v"} }, true},
		"map value":        {func(r *result) { r.In.Meta = map[string]any{"k": []string{"\r"}} }, true},
		"interface":        {func(r *result) { r.Any = map[string]string{"a": "tag \U000E0041"} }, true},
		"encoded JSON":     {func(r *result) { r.Raw = json.RawMessage(`{"a":"\u001b"}`) }, true},
		"nil pointer":      {func(r *result) { r.In = nil }, false},
	} {
		r := clean()
		tc.edit(r)
		if got := mayHoldControls(reflect.ValueOf(r), 0); got != tc.want {
			t.Errorf("%s: mayHoldControls = %v, want %v", name, got, tc.want)
		}
	}
	// A result that holds none is returned as it is, not re-decoded.
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "plain"}}}
	if got, err := withoutControls(res); err != nil || got != mcp.Result(res) {
		t.Errorf("withoutControls(clean) = %p, %v; want the same result", got, err)
	}
	dirty := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "bell\x07"}}}
	got, err := withoutControls(dirty)
	if err != nil || got == mcp.Result(dirty) || got.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text != `bell\a` {
		t.Errorf("withoutControls(dirty) = %#v, %v", got, err)
	}
}
