package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// runConn plays the SDK over a stdioConn reading in: it reads every message until EOF and
// answers each request with result (or, for method "fail", an error code 0 as the SDK sends a
// plain Go error). It returns what was written and the requests the SDK saw.
func runConn(t testing.TB, in io.Reader, result string) (string, []*jsonrpc.Request) {
	out := &syncBuf{}
	c := newStdioConn(in, out, time.Minute, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	var seen []*jsonrpc.Request
	for {
		m, err := c.Read(ctx)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("Read: %v", err)
			}
			return out.String(), seen
		}
		r, ok := m.(*jsonrpc.Request)
		if !ok {
			continue
		}
		seen = append(seen, r)
		if !r.IsCall() {
			continue
		}
		resp := &jsonrpc.Response{ID: r.ID, Result: json.RawMessage(result)}
		if r.Method == "fail" {
			resp = &jsonrpc.Response{ID: r.ID, Error: errors.New("boom at /tmp/x/y")}
		}
		if err := c.Write(ctx, resp); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
}

// syncBuf is a bytes.Buffer for a writer and a reader in different goroutines.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStdioConnLines checks the answer to each kind of line, and that the line after it is still
// read: every line gets the answer JSON-RPC 2.0 gives it, with the client's id byte for byte.
func TestStdioConnLines(t *testing.T) {
	const ok = `{"jsonrpc":"2.0","id":99,"result":{}}` + "\n"
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", `hello`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: invalid character 'h' looking for beginning of value (at byte 1 of the line)"}}`},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: invalid character 'x' after top-level value (at byte 42 of the line)"}}`},
		{"two messages", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: invalid character '{' after top-level value (at byte 41 of the line)"}}`},
		{"cut short", `{"jsonrpc":"2.0","id":1,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: unexpected end of JSON input (at byte 24 of the line)"}}`},
		{"byte order mark", "\ufeff" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"CRLF and blanks", "  \r\n\t\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r", `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"jsonrpc a number", `{"jsonrpc":2,"id":"a","method":"ping"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"no jsonrpc", `{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"JSONRPC", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"no jsonrpc, no id", `{"foo":"boo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}`},
		{"id an array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}`},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}`},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}`},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, `{"jsonrpc":"2.0","id":1e400,"result":{}}`},
		{"id 2^100", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`, `{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}`},
		{"id 2^63", `{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}`, `{"jsonrpc":"2.0","id":9223372036854775808,"result":{}}`},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"result":{}}`},
		{"id -0", `{"jsonrpc":"2.0", "id" : -0 ,"method":"ping"}`, `{"jsonrpc":"2.0","id":-0,"result":{}}`},
		{"id escaped string", `{"jsonrpc":"2.0","id":"\u00e9\"<","method":"ping"}`, `{"jsonrpc":"2.0","id":"\u00e9\"<","result":{}}`},
		{"method a number", `{"jsonrpc":"2.0","id":1,"method":7}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"method\" must be a string"}}`},
		{"params a string", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"params\" must be an object"}}`},
		{"neither request nor response", `{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a request needs \"method\"; a response, \"result\" or \"error\""}}`},
		{"not an object", `7`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"}}`},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, ``},
		{"a response with a float id", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, ``},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
		{"too deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: arrays and objects nested more than 10000 deep; the limit is 10000 levels"}}`},
		{"too deep params", `{"jsonrpc":"2.0","id":"d","method":"x","params":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, `{"jsonrpc":"2.0","id":"d","error":{"code":-32600,"message":"Invalid Request: arrays and objects nested more than 10000 deep; the limit is 10000 levels"}}`},
		{"too long", `{"jsonrpc":"2.0","id":5,"method":"x","params":{"q":"` + strings.Repeat("a", MaxMessageBytes) + `"}}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: a message of 16777271 bytes; the limit is 16777216 bytes: send a smaller one"}}`},
		{"empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}`},
		{"batch of bad items", `[1,{"jsonrpc":"2.0","id":true,"method":"ping"}]`, `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or a number"}}]`},
		{"batch", `[{"jsonrpc":"2.0","id":1.0,"method":"ping"},1,{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":1.0,"method":"ping"},{"jsonrpc":"1","id":"x","method":"ping"}]`,
			`[{"jsonrpc":"2.0","id":1.0,"result":{}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"}},{"jsonrpc":"2.0","id":1.0,"result":{}},{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}]`},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, ``},
		{"code 0 error", `{"jsonrpc":"2.0","id":1,"method":"fail"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom at y"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in + "\n" + `{"jsonrpc":"2.0","id":99,"method":"ping"}` + "\n"
			got, _ := runConn(t, strings.NewReader(in), `{}`)
			want := ok
			if tc.want != "" {
				want = tc.want + "\n" + ok
			}
			if got != want {
				t.Errorf("answered\n%.600s\nwant\n%.600s", got, want)
			}
		})
	}
}

// TestStdioConnIDs checks the SDK sees ids of the connection's own, and a cancellation names the
// request by that id.
func TestStdioConnIDs(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1.5,"method":"a"}` + "\n" +
		`{"jsonrpc":"2.0","id":"x","method":"b"}` + "\n" +
		`{"jsonrpc":"2.0","id":"x","method":"c"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x","reason":"r"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"gone"}}` + "\n"
	out := &syncBuf{}
	c := newStdioConn(strings.NewReader(in), out, time.Minute, slog.New(slog.DiscardHandler))
	var seen []*jsonrpc.Request
	for i := 0; i < 4; i++ {
		m, err := c.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, m.(*jsonrpc.Request))
	}
	var ids []any
	for _, r := range seen[:3] {
		ids = append(ids, r.ID.Raw())
	}
	if ids[0] != int64(1) || ids[1] != int64(2) || ids[2] != int64(3) {
		t.Errorf("the SDK saw ids %v, want 1, 2, 3", ids)
	}
	if p := string(seen[3].Params); p != `{"reason":"r","requestId":3}` {
		t.Errorf("cancellation params = %s, want the last request with id \"x\" by its own id", p)
	}
	c.Close()
}

// TestDrainTimeout checks that EOF is withheld only while a request read is unanswered, and
// at most for the timeout.
func TestDrainTimeout(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	ctx := context.Background()
	readAll := func(c *stdioConn, answer func(*jsonrpc.Request)) error {
		for {
			m, err := c.Read(ctx)
			if err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() && answer != nil {
				answer(r)
			}
		}
	}
	// Unanswered: EOF after the timeout.
	c := newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, 100*time.Millisecond, log)
	start := time.Now()
	if err := readAll(c, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("EOF after %v, before the drain timeout", d)
	}

	// Answered later (in a batch, with a string ID; a notification and a response from the
	// client need no answer): EOF as soon as the answers are written.
	in := `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" +
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2.0,"method":"ping"}` // no final newline
	out := &syncBuf{}
	c = newStdioConn(strings.NewReader(in), out, time.Minute, log)
	start = time.Now()
	err := readAll(c, func(r *jsonrpc.Request) {
		go func() {
			time.Sleep(20 * time.Millisecond)
			c.Write(ctx, &jsonrpc.Response{ID: r.ID, Result: json.RawMessage(`{}`)})
		}()
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("EOF after %v; the answers were written at once", d)
	}
	got := out.String()
	for _, want := range []string{`[{"jsonrpc":"2.0","id":"a","result":{}}]` + "\n", `{"jsonrpc":"2.0","id":2.0,"result":{}}` + "\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("wrote %q, want %q in it", got, want)
		}
	}

	// Cancelled requests are not waited for, nor answered with an error; Close releases a
	// waiting reader.
	out = &syncBuf{}
	c = newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`+"\n"), out, time.Minute, log)
	var first *jsonrpc.Request
	start = time.Now()
	readAll(c, func(r *jsonrpc.Request) { first = r })
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("waited %v for a cancelled request", d)
	}
	c.Write(ctx, &jsonrpc.Response{ID: first.ID, Error: context.Canceled})
	if got := out.String(); got != "" {
		t.Errorf("answered a cancelled request: %s", got)
	}
	c = newStdioConn(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`+"\n"), io.Discard, time.Minute, log)
	go func() {
		time.Sleep(20 * time.Millisecond)
		c.Close()
	}()
	start = time.Now()
	readAll(c, nil)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Close did not release the reader (%v)", d)
	}
}

// TestStdioConnWire holds stdioConn's encoding of results and errors to the SDK's
// (jsonrpc.EncodeMessage) where the ids agree.
func TestStdioConnWire(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	result := json.RawMessage(`{"content":[{"type":"text","text":"a <b> & \"c\" é"}],"structuredContent":{"n":1}}`)
	for _, tc := range []struct {
		raw string
		r   *jsonrpc.Response
	}{
		{`1`, &jsonrpc.Response{ID: id(float64(1)), Result: result}},
		{`-12345678901`, &jsonrpc.Response{ID: id(float64(-12345678901)), Result: json.RawMessage(`{}`)}},
		{`"abc-1"`, &jsonrpc.Response{ID: id("abc-1"), Result: result}},
		{`"x"`, &jsonrpc.Response{ID: id("x"), Result: json.RawMessage("{\n}")}},
		{`2`, &jsonrpc.Response{ID: id(float64(2)), Error: &jsonrpc.Error{Code: -32602, Message: "bad", Data: json.RawMessage(`{"a":1}`)}}},
	} {
		want, err := jsonrpc.EncodeMessage(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		json.Compact(&compact, want)
		if got := appendReply([]byte("prefix"), json.RawMessage(tc.raw), tc.r); string(got) != "prefix"+compact.String() {
			t.Errorf("appendReply(%s) = %s; the SDK's %s", tc.raw, got, compact.String())
		}
	}
}

// FuzzStdioConn feeds arbitrary bytes to a stdioConn: it never panics, writes only JSON-RPC
// responses, and answers every well-formed request line, and every well-formed request in a
// batch line, with the request's id byte for byte.
func FuzzStdioConn(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"a"}}}`,
		"hello\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		"\ufeff" + `{"jsonrpc":"2.0","id":"é","method":"ping"}` + "\r\n",
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"ping"} x`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"},7]` + "\n[]\n",
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}`,
		`{"JSONRPC":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":true,"method":""}`,
		`{"jsonrpc":"2.0","id":1,"method":"fail"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _ := runConn(t, bytes.NewReader(data), `{}`)
		answered := map[string]int{}
		for line := range strings.Lines(got) {
			var one json.RawMessage
			if err := json.Unmarshal([]byte(line), &one); err != nil {
				t.Fatalf("wrote a line that is not JSON: %q", line)
			}
			var replies []map[string]json.RawMessage
			if one[0] == '[' {
				if err := json.Unmarshal(one, &replies); err != nil {
					t.Fatalf("wrote %q", line)
				}
			} else {
				var r map[string]json.RawMessage
				if err := json.Unmarshal(one, &r); err != nil {
					t.Fatalf("wrote %q", line)
				}
				replies = append(replies, r)
			}
			for _, r := range replies {
				if string(r["jsonrpc"]) != `"2.0"` || r["id"] == nil || (r["result"] == nil) == (r["error"] == nil) {
					t.Fatalf("wrote a message that is not a response: %q", line)
				}
				answered[string(r["id"])]++
			}
		}
		want := map[string]int{}
		for line := range bytes.Lines(data) {
			line = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), []byte("\ufeff")))
			// json.Valid refuses nesting deeper than maxNesting too: it is encoding/json's limit.
			if len(line) > MaxMessageBytes || !json.Valid(line) {
				continue
			}
			var items []json.RawMessage
			if line[0] == '[' {
				json.Unmarshal(line, &items)
			} else {
				items = []json.RawMessage{line}
			}
			for _, item := range items {
				if id, ok := wellFormedRequest(item); ok {
					want[string(id)]++
				}
			}
		}
		for id, n := range want {
			if answered[id] < n {
				t.Fatalf("%d requests with id %s, %d answers:\n%q\nanswered:\n%s", n, id, answered[id], data, got)
			}
		}
	})
}

// wellFormedRequest reports whether the JSON value data is a JSON-RPC 2.0 request as MCP has
// them, and its id: read independently of the connection's parser.
func wellFormedRequest(data []byte) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil, false
	}
	var version, method string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" || json.Unmarshal(m["method"], &method) != nil {
		return nil, false
	}
	id := m["id"]
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return nil, false
	}
	if p, ok := m["params"]; ok && p[0] != '{' && p[0] != '[' && string(p) != "null" {
		return nil, false
	}
	return id, true
}

// TestReadLine checks line framing at and over the limit, across the reader's buffer.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 40)
	br := bufio.NewReaderSize(strings.NewReader("0123456789\n"+"0123456789\r\n"+"01234567890\n"+long+"\n\nlast"), 16)
	type got struct {
		line string
		size int
		err  error
	}
	var lines []got
	for {
		line, size, err := readLine(br, 10)
		lines = append(lines, got{string(line), size, err})
		if err != nil {
			break
		}
	}
	want := []got{{"0123456789", 0, nil}, {"0123456789", 0, nil}, {"01234567890", 11, nil}, {long, 40, nil}, {"", 0, nil}, {"last", 0, io.EOF}}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("lines %v,\nwant %v", lines, want)
	}
}

// TestStdioConnBatchesAfterInitialize: a second initialize, refused, does not change the
// protocol the session negotiated, nor bring batches back.
func TestStdioConnBatchesAfterInitialize(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"initialize"}` + "\n" +
		`[{"jsonrpc":"2.0","id":3,"method":"ping"}]` + "\n"
	out := &syncBuf{}
	c := newStdioConn(strings.NewReader(in), out, time.Minute, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	for i := 0; ; i++ {
		m, err := c.Read(ctx)
		if err != nil {
			break
		}
		r := m.(*jsonrpc.Request)
		resp := &jsonrpc.Response{ID: r.ID, Result: json.RawMessage(`{"protocolVersion":"2025-06-18"}`)}
		if i > 0 {
			resp = &jsonrpc.Response{ID: r.ID, Error: errAlreadyInitialized}
		}
		c.Write(ctx, resp)
	}
	if got := out.String(); !strings.Contains(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not part of MCP from protocol 2025-06-18 on, and this session uses 2025-06-18`) {
		t.Errorf("a batch after a refused second initialize: %s", got)
	}
}

// TestStdioConnBatchPipelinedBehindInitialize checks that a batch read before initialize is
// answered meets the rule of the version initialize asks for: the client may pipeline it.
func TestStdioConnBatchPipelinedBehindInitialize(t *testing.T) {
	for _, tc := range []struct {
		version string
		refused bool
	}{{"2025-06-18", true}, {"2025-11-25", true}, {"2025-03-26", false}} {
		in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + tc.version + `"}}` + "\n" +
			`[{"jsonrpc":"2.0","id":3,"method":"ping"}]` + "\n"
		out := &syncBuf{}
		// A short drain: at EOF the unanswered initialize is not waited for long.
		c := newStdioConn(strings.NewReader(in), out, 50*time.Millisecond, slog.New(slog.DiscardHandler))
		ctx := context.Background()
		var reqs []*jsonrpc.Request
		for {
			m, err := c.Read(ctx) // both lines read before initialize is answered
			if err != nil {
				break
			}
			reqs = append(reqs, m.(*jsonrpc.Request))
		}
		refused := strings.Contains(out.String(), "batches are not part of MCP")
		if refused != tc.refused {
			t.Errorf("initialize %s, then a batch at once: refused %v, want %v (%d requests passed on; out %s)", tc.version, refused, tc.refused, len(reqs), out.String())
		}
		for _, r := range reqs {
			c.Write(ctx, &jsonrpc.Response{ID: r.ID, Result: json.RawMessage(`{}`)})
		}
	}
}
