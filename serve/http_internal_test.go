package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
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
	// Valid JSON nested too deep to decode is not called "not JSON": the error says what is wrong.
	deep := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
	code, msg := checkJSONRPC([]byte(deep))
	if want := "invalid request: arrays and objects nested more than 10000 deep; the limit is 10000 levels"; code != codeInvalidRequest || msg != want {
		t.Errorf("checkJSONRPC(nested 100000 deep) = %d %q, want %d %q", code, msg, codeInvalidRequest, want)
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

func TestClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, c := range []struct {
		remote  string
		xff     []string
		trusted []netip.Prefix
		want    string
	}{
		{"192.0.2.7:5000", nil, nil, "192.0.2.7"},
		{"192.0.2.7:5000", []string{"198.51.100.1"}, nil, "192.0.2.7"},                            // no trusted proxy: the header is ignored
		{"192.0.2.7:5000", []string{"198.51.100.1"}, proxies, "192.0.2.7"},                        // not from a trusted proxy
		{"10.1.2.3:5000", []string{"198.51.100.1"}, proxies, "198.51.100.1"},                      // from a trusted proxy
		{"10.1.2.3:5000", []string{"6.6.6.6, 198.51.100.1"}, proxies, "198.51.100.1"},             // a forged hop on the left is not believed
		{"10.1.2.3:5000", []string{"6.6.6.6", "198.51.100.1, 10.9.9.9"}, proxies, "198.51.100.1"}, // past a chain of proxies, over two headers
		{"10.1.2.3:5000", []string{"10.2.2.2, 10.9.9.9"}, proxies, "10.2.2.2"},                    // only proxies: the leftmost
		{"10.1.2.3:5000", []string{"garbage"}, proxies, "10.1.2.3"},                               // unreadable: the proxy's own
		{"10.1.2.3:5000", []string{"198.51.100.1, garbage"}, proxies, "10.1.2.3"},                 // nothing is believed past a garbled hop
		{"[2001:db8:1:2:3:4:5:6]:5000", nil, nil, "2001:db8:1:2::/64"},                            // IPv6 by its /64
		{"[::ffff:192.0.2.7]:5000", nil, nil, "192.0.2.7"},
		{"[::1]:5000", []string{"2001:db8::1"}, proxies, "2001:db8::/64"},
		{"@", nil, nil, "@"}, // not an IP address (a Unix socket): as it is
	} {
		h := &HTTPHandler{opts: HTTPOptions{TrustedProxies: c.trusted}}
		r := httptest.NewRequest(http.MethodPost, MCPPath, nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := h.clientAddr(r); got != c.want {
			t.Errorf("clientAddr(%s, X-Forwarded-For %q) = %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

func TestSDKEchoes(t *testing.T) {
	for id, want := range map[string]bool{
		`7`: true, `-7`: true, `0`: true, `9007199254740992`: true, `"abc"`: true, `""`: true, `"a<b>&c"`: true, `"é"`: true, `"a\"b"`: true,
		`1.5`: false, `1.0`: false, `1E2`: false, `-0`: false, `9007199254740993`: false, `9223372036854775808`: false,
		`123456789012345678901234567890`: false, `1e400`: false, `"\u0041"`: false, `"\/"`: false, `"docidx.http:1"`: false,
	} {
		if got := sdkEchoes([]byte(id)); got != want {
			t.Errorf("sdkEchoes(%s) = %v, want %v", id, got, want)
		}
	}
}

// TestPrepareBodyCancel checks that a cancellation names the internal id of a request given
// one while it is in flight in its session, and the client's id once it is answered.
func TestPrepareBodyCancel(t *testing.T) {
	h := &HTTPHandler{inflightIDs: map[string]string{}}
	call := h.prepareBody([]byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`), "S")
	if len(call.calls) != 1 {
		t.Fatalf("a call with id 1.5 got no internal id: %s", call.body)
	}
	var own string
	for own = range call.calls {
	}
	cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5,"reason":"r"}}`)
	requestID := func(body []byte) string {
		var m struct {
			Params struct{ RequestID json.RawMessage }
		}
		json.Unmarshal(body, &m)
		return string(m.Params.RequestID)
	}
	if got, want := requestID(h.prepareBody(cancel, "S").body), strconv.Quote(own); got != want {
		t.Errorf("cancellation in flight names %s, want %s", got, want)
	}
	if got := requestID(h.prepareBody(cancel, "other").body); got != "1.5" {
		t.Errorf("cancellation in another session names %s, want 1.5", got)
	}
	// A second request with the same id takes the name over; the first ending leaves it.
	second := h.prepareBody([]byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`), "S")
	h.forget(call.keys)
	for own = range second.calls {
	}
	if got, want := requestID(h.prepareBody(cancel, "S").body), strconv.Quote(own); got != want {
		t.Errorf("cancellation after the first ended names %s, want %s", got, want)
	}
	h.forget(second.keys)
	if got := requestID(h.prepareBody(cancel, "S").body); got != "1.5" {
		t.Errorf("cancellation after both ended names %s, want 1.5", got)
	}
}

// TestIDWriterChunks checks that idWriter restores ids in SSE events however the SDK's writes
// cut them, and leaves other events and messages as they are.
func TestIDWriterChunks(t *testing.T) {
	stream := "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p\",\"progress\":1}}\n\n" +
		"event: message\nid: s_2\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"docidx.http:9\",\"result\":{}}\n\n" +
		"event: message\nid: s_3\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"docidx.http:10\",\"error\":{\"code\":0,\"message\":\"boom\"}}\n\n" +
		"event: message\nid: s_4\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n\n"
	want := strings.NewReplacer(`"docidx.http:9"`, `1.5`,
		`{"jsonrpc":"2.0","id":"docidx.http:10","error":{"code":0,"message":"boom"}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"boom"}}`).Replace(stream)
	calls := map[string]*httpCall{
		"docidx.http:9":  {id: json.RawMessage(`1.5`), method: "ping"},
		"docidx.http:10": {id: json.RawMessage(`"x"`), method: "ping"},
	}
	for _, size := range []int{1, 3, 17, len(stream)} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "text/event-stream")
		w := &idWriter{ResponseWriter: rec, calls: calls}
		for s := stream; s != ""; {
			n := min(size, len(s))
			w.Write([]byte(s[:n]))
			w.Flush()
			s = s[n:]
		}
		w.finish()
		if got := rec.Body.String(); got != want {
			t.Errorf("writes of %d bytes:\n%s\nwant\n%s", size, got, want)
		}
	}
	// A JSON batch answer.
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "application/json")
	w := &idWriter{ResponseWriter: rec, calls: calls}
	w.Write([]byte(`[{"jsonrpc":"2.0","id":"docidx.http:9","result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`))
	w.finish()
	if got, want := rec.Body.String(), `[{"jsonrpc":"2.0","id":1.5,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`; got != want {
		t.Errorf("JSON batch: %s, want %s", got, want)
	}
}
