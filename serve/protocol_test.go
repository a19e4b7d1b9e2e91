package serve_test

//lint:file-ignore SA1019 logging/setLevel is deprecated from 2026-07-28 on, still part of every revision docidx serves

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession is a client that speaks JSON-RPC to srv over the SDK's in-memory transport, so
// that a test can send what the SDK's client never would (a second initialize, bad params).
type rawSession struct {
	t    *testing.T
	conn mcp.Connection
	next int64
}

func newRawSession(t *testing.T, srv *serve.Server) *rawSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return &rawSession{t: t, conn: conn}
}

// call sends method with params and returns the response to it, skipping notifications.
func (s *rawSession) call(method string, params any) *jsonrpc.Response {
	s.t.Helper()
	s.next++
	id, _ := jsonrpc.MakeID(float64(s.next))
	raw, err := json.Marshal(params)
	if err != nil {
		s.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		s.t.Fatal(err)
	}
	for {
		m, err := s.conn.Read(ctx)
		if err != nil {
			s.t.Fatalf("%s: %v", method, err)
		}
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == id {
			return r
		}
	}
}

// notify sends a notification.
func (s *rawSession) notify(method string) {
	s.t.Helper()
	if err := s.conn.Write(context.Background(), &jsonrpc.Request{Method: method}); err != nil {
		s.t.Fatal(err)
	}
}

// initialize runs the initialize handshake asking for version and returns the version the
// server answered with.
func (s *rawSession) initialize(version string) string {
	s.t.Helper()
	r := s.call("initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}})
	if r.Error != nil {
		s.t.Fatalf("initialize %s: %v", version, r.Error)
	}
	s.notify("notifications/initialized")
	var res struct{ ProtocolVersion string }
	json.Unmarshal(r.Result, &res)
	return res.ProtocolVersion
}

// respErr returns the response's error, failing the test if it has none.
func respErr(t *testing.T, what string, r *jsonrpc.Response) *jsonrpc.Error {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("%s: answered %s; want a JSON-RPC error", what, r.Result)
	}
	return wireErr(t, r.Error)
}

// TestSecondInitialize: a second initialize in a session is an invalid request, not error code 0.
func TestSecondInitialize(t *testing.T) {
	s := newRawSession(t, newServer(t))
	s.initialize("2025-06-18")
	r := s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}})
	if e := respErr(t, "second initialize", r); e.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(e.Message, "already initialized") {
		t.Errorf("second initialize: %d %q, want -32600 saying the session is already initialized", e.Code, e.Message)
	}
	if r := s.call("ping", map[string]any{}); r.Error != nil {
		t.Errorf("ping after it: %v", r.Error)
	}
}

// TestSetLevel: logging/setLevel takes RFC 5424's eight levels, and names them when given another.
func TestSetLevel(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "notice"}); err != nil {
		t.Errorf("level notice: %v", err)
	}
	for _, level := range []mcp.LoggingLevel{"boom", "", "DEBUG"} {
		err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level})
		var e *jsonrpc.Error
		if !errors.As(err, &e) || e.Code != jsonrpc.CodeInvalidParams || !strings.Contains(e.Message, "debug, info, notice, warning, error, critical, alert, emergency") {
			t.Errorf("level %q: %v, want -32602 naming the levels", level, err)
		}
	}
}

// TestNegotiatedVersionBehaviour: behaviour follows the version initialize answers with, not the
// one the client asked for. A client asking for 2026-07-28 (which initialize never negotiates)
// or a version the server does not know gets 2025-11-25, and 2025-11-25's resource-not-found
// code, -32002.
func TestNegotiatedVersionBehaviour(t *testing.T) {
	srv := newServer(t)
	for _, tc := range []struct {
		ask, negotiated string
		code            int64
	}{
		{"2026-07-28", "2025-11-25", -32002},
		{"2099-01-01", "2025-11-25", -32002},
		{"2025-06-18", "2025-06-18", -32002},
		{"2024-11-05", "2024-11-05", -32002},
	} {
		t.Run(tc.ask, func(t *testing.T) {
			s := newRawSession(t, srv)
			if got := s.initialize(tc.ask); got != tc.negotiated {
				t.Fatalf("asked for %s, negotiated %s; want %s", tc.ask, got, tc.negotiated)
			}
			r := s.call("resources/read", map[string]any{"uri": "docidx://npm/nope@1.0.0/readme"})
			if e := respErr(t, "unknown resource", r); e.Code != tc.code {
				t.Errorf("unknown resource under %s: code %d, want %d", tc.negotiated, e.Code, tc.code)
			}
			r = s.call("tools/call", map[string]any{"name": serve.ToolSearch, "arguments": map[string]any{"query": "pool"}})
			var res map[string]json.RawMessage
			if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
				t.Fatalf("search: %v", r.Error)
			}
			if _, ok := res["resultType"]; ok {
				t.Errorf("a tool result under %s carries resultType (2026-07-28 on): %.200s", tc.negotiated, r.Result)
			}
		})
	}
}

// TestUnavailableHidesPaths: the snapshot's failure to open reaches clients with the file's name
// but not its place on the host.
func TestUnavailableHidesPaths(t *testing.T) {
	dir := t.TempDir()
	srv := serve.New(nil, serve.Options{Logger: testLogger(t)})
	srv.Unavailable(fmt.Errorf("index: open %s: permission denied; run docidx verify", filepath.Join(dir, "gen-1", "store.db")))
	s := newRawSession(t, srv)
	s.initialize("2025-06-18")
	r := s.call("tools/call", map[string]any{"name": serve.ToolSearch, "arguments": map[string]any{"query": "x"}})
	e := respErr(t, "search without a snapshot", r)
	if e.Code != jsonrpc.CodeInternalError || strings.Contains(e.Message, dir) || !strings.Contains(e.Message, "open store.db: permission denied") {
		t.Errorf("search without a snapshot: %d %q; want -32603 naming store.db without %s", e.Code, e.Message, dir)
	}
}
