package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestClientError checks the wire form of errors: JSON-RPC codes for the SDK's code-0 errors,
// params problems in protocol terms, no host paths.
func TestClientError(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		home = os.TempDir()
	}
	sdkParams := fmt.Errorf("handling '%s': %w", "resources/read",
		fmt.Errorf("%w: unmarshaling %q into a *mcp.ReadResourceParams: json: cannot unmarshal \"5}\" into Go struct field mcp.ReadResourceParams.uri of type string",
			&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"}, `{"uri":5}`))
	for _, tc := range []struct {
		name, method string
		params       string
		err          error
		code         int64
		msg          string
	}{
		{"SDK params", "resources/read", `{"uri":5}`, sdkParams, -32602, "invalid params for resources/read: params.uri: want a string, got a number"},
		{"SDK params, nested", "initialize", `{"protocolVersion":"x","clientInfo":{"name":[1]}}`, sdkParams, -32602, "invalid params for initialize: params.clientInfo.name: want a string, got an array"},
		{"SDK params, unknown method", "x/y", `{}`, sdkParams, -32602, "invalid params for x/y: params do not have the members and types the method takes (see the MCP specification)"},
		{"before initialize", "tools/list", ``, errors.New(`method "tools/list" is invalid during session initialization`), -32600, `Invalid Request: "tools/list" before initialize; send initialize first and wait for its answer`},
		{"second initialize", "initialize", ``, errors.New(`duplicate "initialize" received`), -32600, errAlreadyInitialized.Message},
		{"cancelled", "tools/call", ``, context.Canceled, -32603, "request cancelled"},
		{"plain", "tools/call", ``, fmt.Errorf("reading %s/idx/store.db: short read", home), -32603, "reading store.db: short read"},
		{"coded, with data", "resources/read", ``, &jsonrpc.Error{Code: -32002, Message: "Resource not found: docidx://npm/x@1/readme", Data: json.RawMessage(`{"uri":"docidx://npm/x@1/readme"}`)}, -32002, "Resource not found: docidx://npm/x@1/readme"},
		{"JSON pointer", "tools/call", ``, &jsonrpc.Error{Code: -32602, Message: "validating /properties/limit: type"}, -32602, "validating /properties/limit: type"},
		{"quoted path", "x", ``, &jsonrpc.Error{Code: -32603, Message: fmt.Sprintf("open %q (%s/a/b.db)", home+"/.cache/docidx/CURRENT", home)}, -32603, `open "CURRENT" (b.db)`},
		{"backslashes", "x", ``, &jsonrpc.Error{Code: -32602, Message: `bad escape \u\x in "a"`}, -32602, `bad escape \u\x in "a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := clientError(tc.method, json.RawMessage(tc.params), tc.err)
			if e.Code != tc.code || e.Message != tc.msg {
				t.Errorf("clientError = %d %q, want %d %q", e.Code, e.Message, tc.code, tc.msg)
			}
			var in *jsonrpc.Error
			if errors.As(tc.err, &in) && in.Data != nil && string(e.Data) != string(in.Data) {
				t.Errorf("data %s, want %s", e.Data, in.Data)
			}
		})
	}
}

// TestCheckParams: params the SDK would fail to decode are found before it sees them.
func TestCheckParams(t *testing.T) {
	for _, tc := range []struct{ method, params, want string }{
		{"resources/read", `{"uri":5}`, "invalid params for resources/read: params.uri: want a string, got a number"},
		{"resources/read", `{"uri":"docidx://x"}`, ""},
		{"tools/call", `{"name":"x","arguments":[1]}`, ""},
		{"tools/call", `{"name":true}`, "invalid params for tools/call: params.name: want a string, got a boolean"},
		{"x/y", `{"a":1}`, ""},
		{"ping", `null`, ""},
	} {
		e := checkParams(tc.method, json.RawMessage(tc.params))
		if (e == nil) != (tc.want == "") || e != nil && (e.Code != -32602 || e.Message != tc.want) {
			t.Errorf("checkParams(%s, %s) = %v, want %q", tc.method, tc.params, e, tc.want)
		}
	}
}
