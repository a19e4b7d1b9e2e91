package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/serve"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader in different goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}

// stdioScript returns an initialize request, the initialized notification and n tools/call
// requests (IDs 2…n+1), newline-delimited.
func stdioScript(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"0"}}}` + "\n")
	b.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"pool goroutines","limit":3}}}`+"\n", i+2)
	}
	return b.Bytes()
}

// responseIDs parses out as newline-delimited JSON-RPC and returns the IDs of the responses,
// failing on anything that is not a JSON-RPC message.
func responseIDs(t *testing.T, out []byte) map[int]bool {
	t.Helper()
	ids := map[int]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      *int            `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.JSONRPC != "2.0" {
			t.Fatalf("stdout carries a non-JSON-RPC line: %q", sc.Text())
		}
		if m.ID != nil {
			if m.Error != nil {
				t.Errorf("request %d failed: %s", *m.ID, m.Error)
			}
			ids[*m.ID] = true
		}
	}
	return ids
}

// TestStdioAnswersAllBeforeEOF writes initialize and 50 tool calls and closes stdin at once:
// every request must be answered (go-sdk issue #1061 drops them without serve's guard).
func TestStdioAnswersAllBeforeEOF(t *testing.T) {
	const n = 50
	srv := newServer(t)
	for _, mode := range []string{"buffer", "pipe"} {
		t.Run(mode, func(t *testing.T) {
			var in io.Reader = bytes.NewReader(stdioScript(n))
			if mode == "pipe" {
				pr, pw := io.Pipe()
				go func() {
					pw.Write(stdioScript(n))
					pw.Close()
				}()
				in = pr
			}
			out := &syncBuffer{}
			done := make(chan error, 1)
			go func() { done <- srv.RunStdio(context.Background(), in, out) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("RunStdio: %v", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("RunStdio did not return after stdin closed")
			}
			ids := responseIDs(t, out.Bytes())
			for id := 1; id <= n+1; id++ {
				if !ids[id] {
					t.Errorf("request %d was not answered", id)
				}
			}
		})
	}
}

// TestStdioContextCancel checks RunStdio returns when its context ends, stdin still open.
func TestStdioContextCancel(t *testing.T) {
	srv := newServer(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- srv.RunStdio(ctx, pr, out) }()
	pw.Write(stdioScript(1))
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunStdio ignored its context")
	}
}

// TestNoNetwork drives every tool and a stdio session with an http.DefaultTransport that fails
// the test on any request: serving never touches the network.
func TestNoNetwork(t *testing.T) {
	old := http.DefaultTransport
	http.DefaultTransport = failTransport{t}
	t.Cleanup(func() { http.DefaultTransport = old })

	srv := newServer(t)
	cs := connect(t, srv, nil)
	for _, c := range goldenCalls {
		call(t, cs, c.tool, c.args)
	}
	if err := srv.RunStdio(context.Background(), bytes.NewReader(stdioScript(3)), io.Discard); err != nil {
		t.Fatal(err)
	}
}

type failTransport struct{ t *testing.T }

func (f failTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	f.t.Errorf("serve made an HTTP request: %s %s", req.Method, req.URL)
	return nil, fmt.Errorf("network access is forbidden in serve")
}

// TestStdioBatch checks JSON-RPC batches: before protocol 2025-06-18 a batch's responses go out
// together as one array, and from 2025-06-18 on a batch is one -32600 error (and the session
// goes on). The client waits for the initialize answer first, as clients do.
func TestStdioBatch(t *testing.T) {
	srv := newServer(t)
	run := func(version string) ([]string, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			err := srv.RunStdio(context.Background(), inR, outW)
			outW.Close()
			done <- err
		}()
		out := bufio.NewReader(outR)
		inW.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"batch-test","version":"0"}}}` + "\n"))
		first, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("initialize: %v", err)
		}
		go func() {
			inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
				`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":"three","method":"tools/list"}]` + "\n"))
			inW.Close()
		}()
		rest, _ := io.ReadAll(out)
		lines := []string{strings.TrimSpace(first)}
		if r := strings.TrimSpace(string(rest)); r != "" {
			lines = append(lines, strings.Split(r, "\n")...)
		}
		return lines, <-done
	}

	lines, err := run("2025-03-26")
	if err != nil {
		t.Fatalf("RunStdio: %v", err)
	}
	if len(lines) != 2 {
		t.Fatalf("wrote %d lines, want the initialize answer and one batch answer:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var batch []struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &batch); err != nil {
		t.Fatalf("batch answer %.200q: %v", lines[1], err)
	}
	if len(batch) != 2 || string(batch[0].ID) != "2" || string(batch[1].ID) != `"three"` ||
		batch[0].Result == nil || batch[1].Result == nil {
		t.Errorf("batch answer = %.300s, want the results of 2 and \"three\" in order", lines[1])
	}

	lines, err = run("2025-06-18")
	if err != nil {
		t.Errorf("a batch at 2025-06-18: RunStdio = %v, want the session to go on", err)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[1], `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`) {
		t.Errorf("a batch at 2025-06-18 was answered %.300s, want one -32600 error", strings.Join(lines[1:], "\n"))
	}
}

// TestToolsRegisteredWhenFirstNeeded checks the tools are registered (see registerTools) for a
// client that sends tools/list and tools/call without notifications/initialized, and for one
// that sends them right after it, and that registering them sends no list_changed
// notification.
func TestToolsRegisteredWhenFirstNeeded(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"0"}}}` + "\n"
	for _, tc := range []struct{ name, after string }{
		{"without initialized", ""},
		{"after initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := initialize + tc.after +
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_packages","arguments":{"limit":1}}}` + "\n"
			out := &syncBuffer{}
			if err := newServer(t).RunStdio(context.Background(), strings.NewReader(script), out); err != nil {
				t.Fatalf("RunStdio: %v", err)
			}
			if ids := responseIDs(t, out.Bytes()); !ids[1] || !ids[2] || !ids[3] {
				t.Fatalf("answered %v, want 1, 2 and 3:\n%s", ids, out.Bytes())
			}
			for line := range strings.Lines(string(out.Bytes())) {
				var m struct {
					ID     int    `json:"id"`
					Method string `json:"method"`
					Result struct {
						Tools []struct{ Name string }
					}
				}
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(m.Method, "list_changed") {
					t.Errorf("sent %s", m.Method)
				}
				if m.ID == 2 && len(m.Result.Tools) != 10 {
					t.Errorf("tools/list gave %d tools, want 10: %s", len(m.Result.Tools), line)
				}
			}
		})
	}
}

// stdioReplies runs a stdio session over script and returns its answers by the id they carry
// (raw, as written), each id's answers in the order written.
func stdioReplies(t *testing.T, script string) map[string][]map[string]json.RawMessage {
	t.Helper()
	out := &syncBuffer{}
	if err := newServer(t).RunStdio(context.Background(), strings.NewReader(script), out); err != nil {
		t.Fatalf("RunStdio: %v", err)
	}
	replies := map[string][]map[string]json.RawMessage{}
	for line := range strings.Lines(string(out.Bytes())) {
		var ms []map[string]json.RawMessage
		if strings.HasPrefix(line, "[") {
			if err := json.Unmarshal([]byte(line), &ms); err != nil {
				t.Fatalf("stdout carries a line that is not JSON-RPC: %q", line)
			}
		} else {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("stdout carries a line that is not JSON-RPC: %q", line)
			}
			ms = append(ms, m)
		}
		for _, m := range ms {
			if string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("stdout carries a line that is not JSON-RPC: %q", line)
			}
			if id, ok := m["id"]; ok {
				replies[string(id)] = append(replies[string(id)], m)
			}
		}
	}
	return replies
}

// replyCode returns the code of a reply's error, or 0 for a result.
func replyCode(m map[string]json.RawMessage) int64 {
	var e struct{ Code int64 }
	json.Unmarshal(m["error"], &e)
	return e.Code
}

const stdioInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio-test","version":"0"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// TestStdioBadLines: every malformed line gets its JSON-RPC error and the session goes on: the
// ping after each is answered (issue 15; the SDK's connection ended the session at the first).
func TestStdioBadLines(t *testing.T) {
	bad := []struct {
		line string
		id   string // the id of the answer, as written
		code int64
	}{
		{`hello`, `null`, -32700},
		{"\ufeff" + `{"jsonrpc":"2.0","id":"bom","method":"ping"}`, `"bom"`, 0},
		{`{"jsonrpc":"1.0","id":"v1","method":"ping"}`, `"v1"`, -32600},
		{`{"id":"nov","method":"ping"}`, `"nov"`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `null`, -32600},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `null`, -32600},
		{`{"jsonrpc":"2.0","id":false,"method":"ping"}`, `null`, -32600},
		{`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, `1e400`, 0},
		{`{"jsonrpc":"2.0","id":"tg","method":"ping"} }`, `null`, -32700},
		{`{"jsonrpc":"2.0","id":"two1","method":"ping"}{"jsonrpc":"2.0","id":"two2","method":"ping"}`, `null`, -32700},
		{strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001), `null`, -32600},
		{`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"` + strings.Repeat("x ", serve.MaxMessageBytes/2) + `"}}}`, `"big"`, -32600},
		{`[]`, `null`, -32600},
		{`[{"jsonrpc":"2.0","id":"b1","method":"ping"}]`, `null`, -32600}, // no batches at 2025-06-18
		{`{"jsonrpc":"2.0","id":"init2","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`, `"init2"`, -32600},
		{`{"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"boom"}}`, `"lvl"`, -32602},
	}
	var script strings.Builder
	script.WriteString(stdioInit)
	for i, b := range bad {
		fmt.Fprintf(&script, "%s\n{\"jsonrpc\":\"2.0\",\"id\":\"ping%d\",\"method\":\"ping\"}\n", b.line, i)
	}
	replies := stdioReplies(t, script.String())
	for i := range bad {
		if id := fmt.Sprintf(`"ping%d"`, i); len(replies[id]) != 1 || replyCode(replies[id][0]) != 0 {
			t.Errorf("the ping after line %d (%.60s) was answered %v", i, bad[i].line, replies[id])
		}
	}
	nulls := map[int64]int{}
	for _, b := range bad {
		if b.id == "null" {
			nulls[b.code]++
			continue
		}
		if r := replies[b.id]; len(r) != 1 || replyCode(r[0]) != b.code {
			t.Errorf("%.60s: answered %v, want one answer with code %d (0: a result)", b.line, r, b.code)
		}
	}
	got := map[int64]int{}
	for _, r := range replies["null"] {
		got[replyCode(r)]++
	}
	if fmt.Sprint(got) != fmt.Sprint(nulls) {
		t.Errorf("errors with id null by code: %v, want %v", got, nulls)
	}
}

// TestStdioPipelinedThenBad: requests read before a bad line are all answered, and so is the
// bad line.
func TestStdioPipelinedThenBad(t *testing.T) {
	var script strings.Builder
	script.WriteString(stdioInit)
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&script, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"pool goroutines"}}}`+"\n", i)
	}
	script.WriteString("{bad\n")
	replies := stdioReplies(t, script.String())
	for i := 0; i < 20; i++ {
		if r := replies[fmt.Sprint(i)]; len(r) != 1 || replyCode(r[0]) != 0 {
			t.Errorf("search %d answered %v", i, r)
		}
	}
	if r := replies["null"]; len(r) != 1 || replyCode(r[0]) != -32700 {
		t.Errorf("the bad line answered %v, want -32700", r)
	}
}

// TestStdioIDsVerbatim: ids come back byte for byte as sent, whatever number or string they are.
func TestStdioIDsVerbatim(t *testing.T) {
	ids := []string{`123456789012345678901234567890`, `9223372036854775808`, `-9223372036854775809`, `1.5`, `1.0`, `1E2`, `-0`, `"é\u00e9\"x"`, `""`, `7`}
	var script strings.Builder
	script.WriteString(stdioInit)
	for _, id := range ids {
		fmt.Fprintf(&script, `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"list_packages","arguments":{}}}`+"\n", id)
	}
	replies := stdioReplies(t, script.String())
	for _, id := range ids {
		if r := replies[id]; len(r) != 1 || replyCode(r[0]) != 0 {
			t.Errorf("id %s: answered %v, want one result with the id as sent", id, r)
		}
	}
}

// TestStdioErrorsInProtocolTerms: errors name what is wrong in protocol terms, never Go types
// or host paths, and always with a JSON-RPC code.
func TestStdioErrorsInProtocolTerms(t *testing.T) {
	script := `{"jsonrpc":"2.0","id":"early","method":"tools/list"}` + "\n" + stdioInit +
		`{"jsonrpc":"2.0","id":"uri","method":"resources/read","params":{"uri":5}}` + "\n" +
		`{"jsonrpc":"2.0","id":"name","method":"tools/call","params":{"name":5}}` + "\n" +
		`{"jsonrpc":"2.0","id":"prompt","method":"prompts/get","params":{"name":"use_package","arguments":{"package":5}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"ref","method":"completion/complete","params":{"ref":5}}` + "\n" +
		`{"jsonrpc":"2.0","id":"cursor","method":"resources/list","params":{"cursor":[1]}}` + "\n"
	replies := stdioReplies(t, script)
	for _, tc := range []struct {
		id   string
		code int64
		want string
	}{
		{`"early"`, -32600, `\"tools/list\" before initialize`},
		{`"uri"`, -32602, "params.uri: want a string, got a number"},
		{`"name"`, -32602, "params.name: want a string, got a number"},
		{`"prompt"`, -32602, "params.arguments"},
		{`"ref"`, -32602, "invalid params for completion/complete"},
		{`"cursor"`, -32602, "params.cursor: want a string, got an array"},
	} {
		r := replies[tc.id]
		if len(r) != 1 {
			t.Errorf("%s: %d answers", tc.id, len(r))
			continue
		}
		msg := string(r[0]["error"])
		if replyCode(r[0]) != tc.code || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %s, want code %d and %q", tc.id, msg, tc.code, tc.want)
		}
		for _, leak := range []string{"mcp.", "Go struct", "Go value", "*mcp", "unmarshaling"} {
			if strings.Contains(msg, leak) {
				t.Errorf("%s: %s names Go internals (%q)", tc.id, msg, leak)
			}
		}
	}
}
