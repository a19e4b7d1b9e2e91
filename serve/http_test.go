package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves srv's HTTP handler with opts on a loopback httptest server.
func httpServer(t testing.TB, srv *serve.Server, opts serve.HTTPOptions) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(srv.NewHTTPHandler(opts))
	t.Cleanup(ts.Close)
	return ts
}

// httpClient connects an MCP client to ts over Streamable HTTP.
func httpClient(t testing.TB, ts *httptest.Server, version string, header http.Header) *mcp.ClientSession {
	t.Helper()
	hc := ts.Client()
	if header != nil {
		hc = &http.Client{Transport: headerTransport{ts.Client().Transport, header}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "v0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: ts.URL + serve.MCPPath, HTTPClient: hc, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// headerTransport adds headers to every request.
type headerTransport struct {
	rt http.RoundTripper
	h  http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return t.rt.RoundTrip(r)
}

// TestHTTPModes drives tools, resources, prompts and completion over Streamable HTTP in every
// mode, under both protocol revisions (a stateful server answers 2026-07-28 clients with the
// handshake of 2025-11-25, as the SDK negotiates).
func TestHTTPModes(t *testing.T) {
	srv := newServer(t)
	for _, mode := range []struct {
		name string
		opts serve.HTTPOptions
	}{
		{"stateful", serve.HTTPOptions{}},
		{"stateful-json", serve.HTTPOptions{JSONResponse: true}},
		{"stateless", serve.HTTPOptions{Stateless: true}},
		{"stateless-json", serve.HTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		ts := httpServer(t, srv, mode.opts)
		for _, v := range testVersions {
			t.Run(mode.name+"/"+v, func(t *testing.T) {
				cs := httpClient(t, ts, v, nil)
				ctx := context.Background()
				var out answer.DescribeOutput
				structured(t, call(t, cs, serve.ToolDescribeGo, map[string]any{"package": modPath}), &out)
				if out.Version != "v1.1.0" {
					t.Errorf("describe: %+v", out)
				}
				rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docidx://npm/@acme/router@2.0.0/readme"})
				if err != nil || !strings.Contains(rr.Contents[0].Text, longLine) {
					t.Errorf("read: %v %v", rr, err)
				}
				_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docidx://npm/@acme/router@2.0.0/doc/nope"})
				want := int64(-32002)
				if cs.InitializeResult().ProtocolVersion >= "2026-07-28" {
					want = -32602
				}
				if err == nil || wireErr(t, err).Code != want {
					t.Errorf("read unknown (protocol %s): %v, want code %d", cs.InitializeResult().ProtocolVersion, err, want)
				}
				if list, err := cs.ListResources(ctx, nil); err != nil || list.Resources[0].URI != docidx.SnapshotURI {
					t.Errorf("list: %v", err)
				}
				if p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: serve.PromptUsePackage,
					Arguments: map[string]string{"ecosystem": "npm", "package": npmName, "task": "route requests"}}); err != nil || len(p.Messages) != 3 {
					t.Errorf("prompt: %v", err)
				}
				if c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: serve.PromptUsePackage},
					Argument: mcp.CompleteParamsArgument{Name: "ecosystem", Value: "n"}}); err != nil || strings.Join(c.Completion.Values, ",") != "npm" {
					t.Errorf("complete: %v %v", c, err)
				}
				if werr := callErr(t, cs, serve.ToolSearch, map[string]any{"query": 3}); werr.Code != -32602 {
					t.Errorf("bad arguments: %d", werr.Code)
				}
			})
		}
	}
}

// post sends a raw POST to the MCP endpoint.
func post(t *testing.T, ts *httptest.Server, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.URL+serve.MCPPath, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// errorCode is the JSON-RPC error code in a body refused before JSON-RPC.
func errorCode(body string) int64 {
	var m struct {
		Error struct{ Code int64 }
	}
	json.Unmarshal([]byte(body), &m)
	return m.Error.Code
}

func TestHTTPChecks(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{
		MaxBodyBytes: 4096, AllowedOrigins: []string{"https://app.example"}, AllowedHosts: []string{"docs.internal"},
	})
	host := strings.TrimPrefix(ts.URL, "http://")
	_, port, _ := net.SplitHostPort(host)
	for _, c := range []struct {
		name   string
		body   string
		header map[string]string
		status int
		code   int64
	}{
		{"initialize", initialize, nil, 200, 0},
		{"foreign host", initialize, map[string]string{"Host": "evil.example.com"}, 403, -32600},
		{"foreign host with port", initialize, map[string]string{"Host": "evil.example.com:" + port}, 403, -32600},
		{"localhost by name", initialize, map[string]string{"Host": "localhost:" + port}, 200, 0},
		{"allowed host", initialize, map[string]string{"Host": "docs.internal:" + port}, 200, 0},
		{"foreign origin", initialize, map[string]string{"Origin": "http://evil.example.com"}, 403, -32600},
		{"rebinding: foreign host and origin", initialize, map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}, 403, -32600},
		{"null origin", initialize, map[string]string{"Origin": "null"}, 403, -32600},
		{"same origin", initialize, map[string]string{"Origin": "http://" + host}, 200, 0},
		{"loopback origin on another port", initialize, map[string]string{"Origin": "http://localhost:6274", "Sec-Fetch-Site": "same-site"}, 200, 0},
		{"allowed origin", initialize, map[string]string{"Origin": "https://app.example", "Sec-Fetch-Site": "cross-site"}, 200, 0},
		{"cross-site fetch", initialize, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, -32600},
		{"not JSON", `{"jsonrpc":"2.0",`, nil, 400, -32700},
		{"not JSON-RPC", `{"hello":"world"}`, nil, 400, -32600},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, nil, 400, -32600},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":7}`, nil, 400, -32600},
		{"bad id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, nil, 400, -32600},
		{"empty batch", `[]`, nil, 400, -32600},
		{"batch of junk", `[1,2]`, nil, 400, -32600},
		{"too large", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`, nil, 413, -32600},
	} {
		resp, body := post(t, ts, c.body, c.header)
		if resp.StatusCode != c.status || (c.code != 0 && errorCode(body) != c.code) {
			t.Errorf("%s: %d %s, want %d with code %d", c.name, resp.StatusCode, body, c.status, c.code)
		}
	}
	// A body over the limit without a Content-Length (chunked) is cut off too.
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`))
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+serve.MCPPath, pr)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := ts.Client().Do(req); err != nil || resp.StatusCode != 413 {
		t.Errorf("chunked body over the limit: %v %v", resp, err)
	}
	// Foreign origins are refused for GET too (the SSE stream).
	req, _ = http.NewRequest(http.MethodGet, ts.URL+serve.MCPPath, nil)
	req.Header.Set("Origin", "http://evil.example.com")
	if resp, err := ts.Client().Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("GET from a foreign origin: %v %v", resp, err)
	}

	// Health and unknown paths.
	resp, err := ts.Client().Get(ts.URL + serve.HealthPath)
	if err != nil {
		t.Fatal(err)
	}
	var health map[string]any
	json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if resp.StatusCode != 200 || health["status"] != "ok" || health["packages"] != float64(5) {
		t.Errorf("healthz: %d %v", resp.StatusCode, health)
	}
	if resp, err := ts.Client().Get(ts.URL + "/nope"); err != nil || resp.StatusCode != 404 {
		t.Errorf("unknown path: %v %v", resp, err)
	}
}

func TestHTTPToken(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{Token: "s3cret"})
	for _, c := range []struct {
		auth   string
		status int
	}{
		{"", 401}, {"Bearer wrong", 401}, {"Bearer s3cre", 401}, {"Basic czNjcmV0", 401}, {"s3cret", 401},
		{"Bearer s3cret", 200}, {"bearer s3cret", 200},
	} {
		h := map[string]string{}
		if c.auth != "" {
			h["Authorization"] = c.auth
		}
		resp, body := post(t, ts, initialize, h)
		if resp.StatusCode != c.status {
			t.Errorf("Authorization %q: %d %s, want %d", c.auth, resp.StatusCode, body, c.status)
		}
		if c.status == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("401 without WWW-Authenticate: %v", resp.Header)
		}
	}
	cs := httpClient(t, ts, "2025-06-18", http.Header{"Authorization": {"Bearer s3cret"}})
	call(t, cs, serve.ToolListPackages, map[string]any{})
	// Health says nothing about the snapshot to those without the token.
	resp, err := ts.Client().Get(ts.URL + serve.HealthPath)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.TrimSpace(string(b)) != `{"status":"ok"}` {
		t.Errorf("healthz with a token set: %s", b)
	}
}

func TestHTTPRateLimit(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{RateLimit: 1, RateBurst: 3})
	var limited *http.Response
	for i := range 5 {
		resp, _ := post(t, ts, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
		if i < 3 && resp.StatusCode == 429 {
			t.Errorf("request %d limited within the burst", i)
		}
		if resp.StatusCode == 429 {
			limited = resp
		}
	}
	if limited == nil {
		t.Fatal("no 429 past the burst")
	}
	if ra, err := strconv.Atoi(limited.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 2 {
		t.Errorf("Retry-After %q", limited.Header.Get("Retry-After"))
	}
	// A made-up session ID does not buy a fresh allowance.
	resp, _ := post(t, ts, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": "made-up.0123456789abcdef"})
	if resp.StatusCode != 429 {
		t.Errorf("made-up session: %d, want 429", resp.StatusCode)
	}
}

// TestHTTPConcurrent checks that requests are served concurrently: a barrier in front of the
// tools lets them through only once eight calls are in flight at the same time.
func TestHTTPConcurrent(t *testing.T) {
	srv := newServer(t)
	const n = 8
	var inFlight atomic.Int32
	all := make(chan struct{})
	var once sync.Once
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if inFlight.Add(1) == n {
					once.Do(func() { close(all) })
				}
				select {
				case <-all:
				case <-time.After(10 * time.Second):
					return nil, errors.New("requests were not served concurrently")
				}
			}
			return next(ctx, method, req)
		}
	})
	ts := httpServer(t, srv, serve.HTTPOptions{})
	shared := httpClient(t, ts, "2025-06-18", nil)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		cs := shared
		if i%2 == 1 {
			cs = httpClient(t, ts, "2025-06-18", nil) // its own session
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: serve.ToolSearch, Arguments: map[string]any{"query": "pool"}})
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestHTTPDrain checks that RunHTTP answers a request in flight when its context is cancelled,
// then stops accepting connections and returns.
func TestHTTPDrain(t *testing.T) {
	srv := newServer(t)
	started := make(chan struct{})
	srv.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				close(started)
				time.Sleep(300 * time.Millisecond)
			}
			return next(ctx, method, req)
		}
	})
	addr, cancel, done := runHTTP(t, srv, serve.HTTPOptions{DrainWindow: -1})
	url := "http://" + addr + serve.MCPPath
	hc := &http.Client{Transport: &http.Transport{}}
	send := func(session, body string) (*http.Response, string, error) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, "", err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b), err
	}
	resp, _, err := send("", initialize)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("initialize: %v %v", resp, err)
	}
	session := resp.Header.Get("Mcp-Session-Id")
	if resp, _, err := send(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("initialized: %v %v", resp, err)
	}
	type answer struct {
		body string
		err  error
	}
	result := make(chan answer, 1)
	go func() {
		_, body, err := send(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`)
		result <- answer{body, err}
	}()
	<-started
	cancel() // what SIGTERM does
	if a := <-result; a.err != nil || !strings.Contains(a.body, `"id":2,"result":{"content":[{"type":"text"`) {
		t.Errorf("request in flight during the drain: %v %s", a.err, a.body)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunHTTP: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunHTTP did not return after the drain")
	}
	if _, _, err := send(session, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); err == nil {
		t.Error("still accepting requests after the drain")
	}
}

// TestHTTPStatelessStreams checks that a stateless server answers in plain JSON unless the
// request asks for progress, which then comes on an SSE stream with the answer.
func TestHTTPStatelessStreams(t *testing.T) {
	ts := httpServer(t, newServer(t), serve.HTTPOptions{Stateless: true})
	h := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	resp, body := post(t, ts, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`, h)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "application/json") || !strings.Contains(body, `"id":1,"result"`) {
		t.Errorf("plain call: %d %s %s", resp.StatusCode, ct, body)
	}
	resp, body = post(t, ts, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"t"},"name":"list_packages","arguments":{}}}`, h)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") ||
		!strings.Contains(body, `"method":"notifications/progress"`) || !strings.Contains(body, `"id":2,"result"`) {
		t.Errorf("call with a progress token: %d %s %s", resp.StatusCode, ct, body)
	}
}

// rpcBody is a JSON-RPC error response as the HTTP transport writes it.
type rpcBody struct {
	ID    json.RawMessage
	Error struct {
		Code    int64
		Message string
		Data    json.RawMessage
	}
}

// checkRPCError checks that resp is an application/json JSON-RPC error with status and code,
// and returns it.
func checkRPCError(t *testing.T, what string, resp *http.Response, body string, status int, code int64) rpcBody {
	t.Helper()
	var b rpcBody
	err := json.Unmarshal([]byte(body), &b)
	if resp.StatusCode != status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || err != nil || b.Error.Code != code {
		t.Errorf("%s: %d %s %q, want %d application/json with code %d", what, resp.StatusCode, resp.Header.Get("Content-Type"), body, status, code)
	}
	return b
}

// TestHTTPErrorsAsJSON checks that what the SDK refuses in text/plain reaches the client as a
// JSON-RPC error in application/json, with the status of the Streamable HTTP transport: an
// unknown method called is answered (200, its id) before protocol 2026-07-28 and 404 from then
// on; invalid messages get 400 and id null.
func TestHTTPErrorsAsJSON(t *testing.T) {
	srv := newServer(t)
	for _, stateless := range []bool{false, true} {
		ts := httpServer(t, srv, serve.HTTPOptions{Stateless: stateless})
		h := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
		if !stateless {
			resp, _ := post(t, ts, initialize, nil)
			h["Mcp-Session-Id"] = resp.Header.Get("Mcp-Session-Id")
			post(t, ts, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
		}
		for _, c := range []struct {
			name, body string
			status     int
			code       int64
			id         string
		}{
			{"unknown method", `{"jsonrpc":"2.0","id":2,"method":"foo/bar"}`, 200, -32601, "2"},
			{"notification with an id", `{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}`, 400, -32600, "null"},
			{"request with id null", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, 400, -32600, "null"},
			{"notification with id null", `{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`, 400, -32600, "null"},
			{"request without params that needs them", `{"jsonrpc":"2.0","id":4,"method":"tools/call"}`, 400, -32600, "null"},
			{"batch in 2025-06-18", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, 400, -32600, "null"},
		} {
			resp, body := post(t, ts, c.body, h)
			b := checkRPCError(t, fmt.Sprintf("stateless %v, %s", stateless, c.name), resp, body, c.status, c.code)
			if string(b.ID) != c.id {
				t.Errorf("stateless %v, %s: id %s, want %s", stateless, c.name, b.ID, c.id)
			}
		}
		// A GET that does not accept SSE.
		req, _ := http.NewRequest(http.MethodGet, ts.URL+serve.MCPPath, nil)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := 400
		if stateless {
			want = 405
		}
		checkRPCError(t, fmt.Sprintf("stateless %v, GET without Accept", stateless), resp, string(b), want, -32600)
	}
	// Protocol 2026-07-28 (stateless only): an unknown method is 404, as SEP-2575 asks.
	ts := httpServer(t, srv, serve.HTTPOptions{Stateless: true})
	resp, body := post(t, ts, `{"jsonrpc":"2.0","id":6,"method":"foo/bar","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		map[string]string{"Mcp-Protocol-Version": "2026-07-28"})
	checkRPCError(t, "unknown method in 2026-07-28", resp, body, 404, -32601)
}

// TestHTTPSessionRequired checks that a stateful server refuses a POST without Mcp-Session-Id
// that does not initialize, with 400 and a JSON-RPC error, and that an unknown session is 404.
func TestHTTPSessionRequired(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{})
	h := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`,
	} {
		resp, b := post(t, ts, body, h)
		if e := checkRPCError(t, body, resp, b, 400, -32600); !strings.Contains(e.Error.Message, "Mcp-Session-Id") {
			t.Errorf("%s: %q does not say what to send", body, e.Error.Message)
		}
	}
	if resp, b := post(t, ts, initialize, nil); resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Errorf("initialize without a session: %d %s", resp.StatusCode, b)
	}
	h["Mcp-Session-Id"] = "made-up.0123456789abcdef"
	if resp, _ := post(t, ts, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, h); resp.StatusCode != 404 {
		t.Errorf("unknown session: %d, want 404", resp.StatusCode)
	}
	// A stateless server has no sessions to ask for.
	ts = httpServer(t, srv, serve.HTTPOptions{Stateless: true})
	delete(h, "Mcp-Session-Id")
	if resp, b := post(t, ts, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, h); resp.StatusCode != 200 {
		t.Errorf("stateless without a session: %d %s", resp.StatusCode, b)
	}
}

// TestHTTPProtocolVersion checks the MCP-Protocol-Version header (a version the server does
// not speak is 400 with -32022 listing those it does), and that a client asking for an
// unknown newer version negotiates the server's latest of the handshake.
func TestHTTPProtocolVersion(t *testing.T) {
	srv := newServer(t)
	for _, stateless := range []bool{false, true} {
		ts := httpServer(t, srv, serve.HTTPOptions{Stateless: stateless})
		for _, v := range []string{"1999-01-01", "2099-01-01", "latest"} {
			resp, body := post(t, ts, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, map[string]string{"Mcp-Protocol-Version": v})
			b := checkRPCError(t, fmt.Sprintf("stateless %v, header %s", stateless, v), resp, body, 400, mcp.CodeUnsupportedProtocolVersion)
			var data struct {
				Supported []string
				Requested string
			}
			if json.Unmarshal(b.Error.Data, &data); data.Requested != v || !slices.Contains(data.Supported, "2025-11-25") {
				t.Errorf("stateless %v, header %s: data %s", stateless, v, b.Error.Data)
			}
		}
		// initialize asking for a newer version than any: the server's latest of the handshake.
		resp, body := post(t, ts, strings.Replace(initialize, "2025-06-18", "2099-01-01", 1), nil)
		if !strings.Contains(body, `"protocolVersion":"2025-11-25"`) {
			t.Fatalf("stateless %v, initialize 2099-01-01: %d %s", stateless, resp.StatusCode, body)
		}
	}
}

// TestHTTPSlowBody checks that a body sent slower than HTTPOptions.ReadTimeout gets 408 and
// its connection closed, and that the deadline is lifted once a body is read: a connection
// kept alive and an SDK client's session work past it.
func TestHTTPSlowBody(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{ReadTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The headers and the first bytes of a body that never comes whole.
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
		serve.MCPPath, ts.Listener.Addr())
	conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // not a timing assertion: a bound on a hang
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a trickled body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || errorCode(string(b)) != -32600 || !resp.Close {
		t.Errorf("trickled body: %d close=%v %s, want 408 and the connection closed", resp.StatusCode, resp.Close, b)
	}
	if n, err := conn.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("connection still open after 408: read %d %v", n, err)
	}

	// Past the timeout, a session and its kept-alive connections still work.
	cs := httpClient(t, ts, "2025-06-18", nil)
	call(t, cs, serve.ToolListPackages, map[string]any{})
	time.Sleep(600 * time.Millisecond)
	call(t, cs, serve.ToolListPackages, map[string]any{})
}

// TestHTTPSlowHeaders checks that RunHTTP closes a connection whose request headers do not
// come whole within HTTPOptions.ReadTimeout.
func TestHTTPSlowHeaders(t *testing.T) {
	srv := newServer(t)
	addr, cancel, done := runHTTP(t, srv, serve.HTTPOptions{ReadTimeout: 200 * time.Millisecond, DrainWindow: -1})
	defer func() { cancel(); <-done }()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: appl", serve.MCPPath, addr)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // not a timing assertion: a bound on a hang
	if n, err := conn.Read(make([]byte, 512)); err != io.EOF {
		t.Errorf("trickled headers: read %d %v, want the connection closed", n, err)
	}
}

// TestHTTPRateLimitAcrossSessions checks that the rate limit is the client address's, whatever
// sessions it opens.
func TestHTTPRateLimitAcrossSessions(t *testing.T) {
	srv := newServer(t)
	ts := httpServer(t, srv, serve.HTTPOptions{RateLimit: 0.01, RateBurst: 3})
	var sessions []string
	for i := range 2 {
		resp, body := post(t, ts, initialize, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("initialize %d: %d %s", i, resp.StatusCode, body)
		}
		sessions = append(sessions, resp.Header.Get("Mcp-Session-Id"))
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	h := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	h["Mcp-Session-Id"] = sessions[0]
	if resp, body := post(t, ts, ping, h); resp.StatusCode != 200 {
		t.Fatalf("the third request, within the burst: %d %s", resp.StatusCode, body)
	}
	h["Mcp-Session-Id"] = sessions[1]
	if resp, _ := post(t, ts, ping, h); resp.StatusCode != 429 {
		t.Errorf("the fourth request, on another session of the same address: %d, want 429", resp.StatusCode)
	}
}

// TestHTTPDrainWindow checks the drain of RunHTTP on SIGTERM (its context cancelled): /healthz
// turns 503 first while requests on new connections are still answered, then the listener
// closes and RunHTTP returns.
func TestHTTPDrainWindow(t *testing.T) {
	srv := newServer(t)
	addr, cancel, done := runHTTP(t, srv, serve.HTTPOptions{DrainWindow: 2 * time.Second})
	base := "http://" + addr
	health := func() int {
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get(base + serve.HealthPath)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := health(); s != 200 {
		t.Fatalf("healthz before the drain: %d", s)
	}
	cancel() // what SIGTERM does
	for health() != 503 {
		select {
		case err := <-done:
			t.Fatalf("RunHTTP returned before /healthz said draining: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	// Draining: a client that has not seen it yet is still answered, on a new connection.
	req, _ := http.NewRequest(http.MethodPost, base+serve.MCPPath, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err != nil {
		t.Fatalf("request while draining: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":1,"result"`) || !resp.Close {
		t.Errorf("request while draining: %d close=%v %s, want an answer and the connection closed", resp.StatusCode, resp.Close, b)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunHTTP: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("RunHTTP did not return after the drain")
	}
	if s := health(); s != 0 {
		t.Errorf("still accepting connections after the drain: %d", s)
	}
}

// TestHTTPDrainClosesFreshConnections checks that the drain closes at once a connection that has
// not sent a byte (a browser's spare connection), while a request in flight is still being
// answered: http.Server.Shutdown alone waits 5 s for such a connection, which made docidx
// browse take that long to exit on Ctrl-C with a browser open.
func TestHTTPDrainClosesFreshConnections(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "slow page")
	})
	addr, cancel, done := runHTTP(t, newServer(t), serve.HTTPOptions{DrainWindow: -1, Pages: pages})
	fresh, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	busy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	fmt.Fprintf(busy, "GET /slow HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	<-started
	cancel() // what Ctrl-C does
	// The fresh connection is closed while the slow page is still being served. Shutdown's
	// own rule would close it 5 s in; the deadline, below that, only tells the two apart.
	fresh.SetReadDeadline(time.Now().Add(4 * time.Second))
	if n, err := fresh.Read(make([]byte, 1)); !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("fresh connection: read %d bytes, %v; want it closed by the drain", n, err)
	}
	select {
	case err := <-done:
		t.Fatalf("RunHTTP returned with a request in flight: %v", err)
	default:
	}
	close(release)
	b, _ := io.ReadAll(busy)
	if !strings.Contains(string(b), "slow page") {
		t.Errorf("the request in flight got %q, want its answer", b)
	}
	if err := <-done; err != nil {
		t.Errorf("RunHTTP: %v", err)
	}
}

// runHTTP runs srv.RunHTTP with opts on a new loopback listener, as docidx serve --http does.
// It returns the listener's address, the cancel that starts the drain (what SIGTERM does) and
// the channel RunHTTP's result comes on; the test's end cancels, should the test not.
func runHTTP(t *testing.T, srv *serve.Server, opts serve.HTTPOptions) (addr string, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	result := make(chan error, 1)
	go func() { result <- srv.RunHTTP(ctx, ln, opts) }()
	return ln.Addr().String(), cancel, result
}

// httpModes are the Streamable HTTP configurations whose answers come in different bodies:
// SSE streams (stateful; stateless with a progress token), plain JSON (stateless; JSON
// response on either side).
var httpModes = []struct {
	name string
	opts serve.HTTPOptions
}{
	{"stateful", serve.HTTPOptions{}},
	{"stateful-json", serve.HTTPOptions{JSONResponse: true}},
	{"stateless", serve.HTTPOptions{Stateless: true}},
	{"stateless-json", serve.HTTPOptions{Stateless: true, JSONResponse: true}},
}

// openSession returns the headers of requests to ts at protocol version: on a stateful server
// after initializing a session.
func openSession(t *testing.T, ts *httptest.Server, stateless bool, version string) map[string]string {
	t.Helper()
	h := map[string]string{"Mcp-Protocol-Version": version}
	if stateless {
		return h
	}
	init := strings.Replace(initialize, "2025-06-18", version, 1)
	resp, body := post(t, ts, init, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	h["Mcp-Session-Id"] = resp.Header.Get("Mcp-Session-Id")
	post(t, ts, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
	return h
}

// responsesIn returns the JSON-RPC responses of an answer to a POST, in a JSON body (one or a
// batch) or in the events of an SSE stream, each as written.
func responsesIn(t *testing.T, resp *http.Response, body string) []json.RawMessage {
	t.Helper()
	var msgs []json.RawMessage
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(body) {
			if data, ok := strings.CutPrefix(line, "data:"); ok {
				msgs = append(msgs, json.RawMessage(strings.TrimSpace(data)))
			}
		}
	} else if b := strings.TrimSpace(body); strings.HasPrefix(b, "[") {
		if err := json.Unmarshal([]byte(b), &msgs); err != nil {
			t.Fatalf("batch answer %q: %v", body, err)
		}
	} else {
		msgs = []json.RawMessage{json.RawMessage(b)}
	}
	var out []json.RawMessage
	for _, m := range msgs {
		var probe struct {
			Method *string
			ID     json.RawMessage
		}
		if err := json.Unmarshal(m, &probe); err != nil {
			t.Fatalf("message %q: %v", m, err)
		}
		if probe.Method == nil {
			out = append(out, m)
		}
	}
	return out
}

// TestHTTPIDsVerbatim checks that request ids come back over HTTP byte for byte as the client
// wrote them, in JSON bodies and SSE events, stateful and stateless, as they do over stdio:
// numbers that an int64 or a float64 does not hold, fractions, other spellings of integers,
// strings with escapes.
func TestHTTPIDsVerbatim(t *testing.T) {
	srv := newServer(t)
	ids := []string{`1.5`, `9223372036854775808`, `123456789012345678901234567890`, `-9223372036854775809`, `9007199254740993`,
		`1.0`, `1E2`, `-0`, `1e400`, `"\u0041"`, `"a<b>&c"`, `"é\u00e9\"x"`, `""`, `"docidx.http:1"`, `7`, `"plain"`}
	for _, mode := range httpModes {
		ts := httpServer(t, srv, mode.opts)
		h := openSession(t, ts, mode.opts.Stateless, "2025-06-18")
		for _, id := range ids {
			for _, req := range []struct{ what, body string }{
				{"ping", `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`},
				// With a progress token the answer comes on an SSE stream unless JSONResponse.
				{"call with progress", `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"list_packages","arguments":{}}}`},
				{"error", `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"docidx://nowhere/x"}}`},
				{"unknown method", `{"jsonrpc":"2.0","id":` + id + `,"method":"foo/bar"}`},
				{"bad params", `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":5}}`},
			} {
				resp, body := post(t, ts, req.body, h)
				rs := responsesIn(t, resp, body)
				if resp.StatusCode != 200 || len(rs) != 1 {
					t.Errorf("%s, %s with id %s: %d %s", mode.name, req.what, id, resp.StatusCode, body)
					continue
				}
				var got struct{ ID json.RawMessage }
				json.Unmarshal(rs[0], &got)
				if string(got.ID) != id {
					t.Errorf("%s, %s with id %s (%s): id %s in %s", mode.name, req.what, id, resp.Header.Get("Content-Type"), got.ID, rs[0])
				}
			}
		}
	}
}

// TestHTTPBatchIDs checks ids in a batch (protocol 2025-03-26, the last with batches): each
// answer carries its request's id as written, and a request whose params the SDK cannot decode
// is answered in protocol terms in the batch's answer while the others are served.
func TestHTTPBatchIDs(t *testing.T) {
	srv := newServer(t)
	for _, mode := range httpModes {
		ts := httpServer(t, srv, mode.opts)
		h := openSession(t, ts, mode.opts.Stateless, "2025-03-26")
		batch := `[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},` +
			`{"jsonrpc":"2.0","id":"x","method":"resources/read","params":{"uri":5}},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"q","progress":1}},` +
			`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}]`
		resp, body := post(t, ts, batch, h)
		got := map[string]rpcBody{}
		for _, r := range responsesIn(t, resp, body) {
			var b rpcBody
			json.Unmarshal(r, &b)
			got[string(b.ID)] = b
		}
		for _, id := range []string{`1.5`, `2`, `"x"`, `123456789012345678901234567890`} {
			if _, ok := got[id]; !ok {
				t.Errorf("%s: no answer with id %s in %d %s", mode.name, id, resp.StatusCode, body)
			}
		}
		if e := got[`"x"`].Error; e.Code != -32602 || e.Message != "invalid params for resources/read: params.uri: want a string, got a number" {
			t.Errorf("%s: bad params in a batch answered %d %q", mode.name, e.Code, e.Message)
		}
	}
}

// TestHTTPParamsErrors checks that params the SDK cannot decode are answered over HTTP as over
// stdio: -32602 naming the member and the JSON type wanted, never a Go type, with the
// request's id as written.
func TestHTTPParamsErrors(t *testing.T) {
	srv := newServer(t)
	for _, mode := range httpModes {
		ts := httpServer(t, srv, mode.opts)
		h := openSession(t, ts, mode.opts.Stateless, "2025-06-18")
		for _, c := range []struct{ method, params, id, want string }{
			{"resources/read", `{"uri":5}`, `1.5`, "invalid params for resources/read: params.uri: want a string, got a number"},
			{"tools/call", `{"name":1}`, `7`, "invalid params for tools/call: params.name: want a string, got a number"},
			{"tools/call", `{"name":true}`, `"a\u0041"`, "invalid params for tools/call: params.name: want a string, got a boolean"},
			{"prompts/get", `{"name":"x","arguments":{"a":1}}`, `8`, "invalid params for prompts/get: params.arguments: want a string, got a number"},
			{"tools/list", `{"cursor":[]}`, `9`, "invalid params for tools/list: params.cursor: want a string, got an array"},
		} {
			body := `{"jsonrpc":"2.0","id":` + c.id + `,"method":"` + c.method + `","params":` + c.params + `}`
			resp, b := post(t, ts, body, h)
			e := checkRPCError(t, mode.name+" "+body, resp, b, 200, -32602)
			if e.Error.Message != c.want || string(e.ID) != c.id {
				t.Errorf("%s %s: id %s %q, want id %s %q", mode.name, body, e.ID, e.Error.Message, c.id, c.want)
			}
			for _, leak := range []string{"mcp.", "Go struct", "Go value", "unmarshaling"} {
				if strings.Contains(b, leak) {
					t.Errorf("%s %s: %q names %q", mode.name, body, b, leak)
				}
			}
		}
	}
	// An unknown session is still 404, whatever the params.
	ts := httpServer(t, srv, serve.HTTPOptions{})
	resp, b := post(t, ts, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":5}}`,
		map[string]string{"Mcp-Protocol-Version": "2025-06-18", "Mcp-Session-Id": "made-up.0123456789abcdef"})
	if resp.StatusCode != 404 {
		t.Errorf("bad params in an unknown session: %d %s, want 404", resp.StatusCode, b)
	}
}
