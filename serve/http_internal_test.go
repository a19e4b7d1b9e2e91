package serve

import (
	"encoding/json"
	"testing"
)

func TestCheckJSONRPC(t *testing.T) {
	for _, c := range []struct {
		body string
		code int64
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{}}`, 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0},
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, 0}, // a client's answer to a server request
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, 0},
		{``, codeParseError},
		{`{`, codeParseError},
		{`nul`, codeParseError},
		{`null`, codeInvalidRequest},
		{`"ping"`, codeInvalidRequest},
		{`{}`, codeInvalidRequest},
		{`[]`, codeInvalidRequest},
		{`{"jsonrpc":"2.0"}`, codeInvalidRequest},
		{`{"jsonrpc":2,"id":1,"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","result":{}}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, 0}, // a client's answer to an unreadable request
	} {
		if code, msg := checkJSONRPC([]byte(c.body)); code != c.code {
			t.Errorf("checkJSONRPC(%s) = %d %q, want %d", c.body, code, msg, c.code)
		}
	}
}

// FuzzCheckJSONRPC checks that any body is either accepted as JSON-RPC, and then valid JSON, or
// refused with -32700 or -32600 — never a panic.
func FuzzCheckJSONRPC(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"result":{}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"method":"x","params":{"_meta":{"progressToken":1}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		code, _ := checkJSONRPC(body)
		switch code {
		case 0:
			if !json.Valid(body) {
				t.Fatalf("accepted invalid JSON %q", body)
			}
		case codeParseError, codeInvalidRequest:
		default:
			t.Fatalf("code %d", code)
		}
		wantsStream(body)
	})
}

func TestWantsStream(t *testing.T) {
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                                                                       false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"p"}}}`:                              true,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/logLevel":1}}}`:             true,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b","params":{"_meta":{"progressToken":0}}}]`: true,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`:                                                          true, // odd: left to the SDK
	} {
		if got := wantsStream([]byte(body)); got != want {
			t.Errorf("wantsStream(%s) = %v", body, got)
		}
	}
}

func TestIsLoopbackName(t *testing.T) {
	for name, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "app.localhost": true, "127.0.0.1": true, "127.1.2.3": true,
		"::1": true, "[::1]": true, "0.0.0.0": false, "evil.example.com": false, "localhost.evil.com": false,
		"10.0.0.1": false, "": false, "[::]": false,
	} {
		if got := isLoopbackName(name); got != want {
			t.Errorf("isLoopbackName(%q) = %v", name, got)
		}
	}
}

func TestSessionIDs(t *testing.T) {
	a, b := &Server{}, &Server{}
	a.sessionKey[0], b.sessionKey[0] = 1, 2
	id := a.newSessionID()
	if !a.issuedSession(id) || b.issuedSession(id) || a.issuedSession(id+"0") || a.issuedSession("x.0011223344556677") || a.issuedSession("") {
		t.Errorf("session ID %q: not bound to the server that issued it", id)
	}
}
