package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireLog records the JSON-RPC messages of a client connection in order, as
// "write: MSG" and "read: MSG" lines. Unlike mcp.LoggingTransport it records a message before
// sending it, so that a request always comes before the messages that answer it.
type wireLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *wireLog) record(dir string, msg jsonrpc.Message) {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		data = []byte(`"unencodable"`)
	}
	w.mu.Lock()
	fmt.Fprintf(&w.buf, "%s: %s\n", dir, data)
	w.mu.Unlock()
}

// wrap returns t with its connections recorded into w.
func (w *wireLog) wrap(t mcp.Transport) mcp.Transport { return recordingTransport{t, w} }

type recordingTransport struct {
	mcp.Transport
	w *wireLog
}

func (t recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return recordingConn{c, t.w}, nil
}

type recordingConn struct {
	mcp.Connection
	w *wireLog
}

func (c recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.w.record("read", msg)
	}
	return msg, err
}

func (c recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.w.record("write", msg)
	return c.Connection.Write(ctx, msg)
}

// Values that change from run to run: times, durations, scores and the docidx version that
// wrote the snapshot.
var (
	timeRE    = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	wireScore = regexp.MustCompile(`("score": )[0-9.e+-]+`)
	textScore = regexp.MustCompile(`score \d+(\.\d+)?`)
	msRE      = regexp.MustCompile(`("ms": )[0-9.e+-]+`)
)

// render turns the log into the golden form: one block per message, "client" or "server",
// then the message as indented JSON, with the varying values replaced.
func (w *wireLog) render(t *testing.T) []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(w.buf.String()), "\n") {
		dir, msg, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("unexpected wire log line %q", line)
		}
		who := map[string]string{"write": "client", "read": "server"}[dir]
		if who == "" {
			t.Fatalf("wire log: %s", line)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(msg), "", "  "); err != nil {
			t.Fatalf("wire log: %v in %s", err, msg)
		}
		s := timeRE.ReplaceAllString(pretty.String(), `<time>`)
		s = wireScore.ReplaceAllString(s, "${1}1")
		s = textScore.ReplaceAllString(s, "score X")
		s = msRE.ReplaceAllString(s, "${1}0")
		s = strings.ReplaceAll(s, `docidxVersion\": \"`+docidx.Version, `docidxVersion\": \"<version>`)
		out.WriteString("-- " + who + " --\n" + s + "\n")
	}
	return out.Bytes()
}

//lint:file-ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves

// TestWireGolden pins the JSON-RPC exchanges of a session that touches every kind of method
// docidx answers — resources, templates, prompts, completion, tools with progress and log
// notifications, and their errors — under the last handshake revision and the first sessionless
// one: testdata/wire_<version>.golden.
func TestWireGolden(t *testing.T) {
	srv := newServer(t)
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			var wire wireLog
			var n notifications
			cs := connectWith(t, srv, n.options(), v, &wire)
			ctx := context.Background()
			meta := func(token string) mcp.Meta {
				m := mcp.Meta{}
				if token != "" {
					m["progressToken"] = token
				}
				if v >= "2026-07-28" {
					m[mcp.MetaKeyLogLevel] = "info"
				}
				return m
			}
			if v < "2026-07-28" {
				if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := cs.ListResources(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListResourceTemplates(ctx, nil); err != nil {
				t.Fatal(err)
			}
			for _, uri := range []string{
				docidx.SnapshotURI,
				"docidx://golang/github.com/acme/workpool@v1.0.0/overview",
				"docidx://golang/github.com/acme/workpool@v1.0.0/symbol/retry.Do",
				"docidx://npm/@acme/router@latest/doc/docs/diagram.png",
				"docidx://npm/@acme/router@latest/doc/docs/none.md", // not found
			} {
				cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: meta(""), URI: uri})
			}
			if _, err := cs.ListPrompts(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta("prompt-1"), Name: serve.PromptExplainSymbol,
				Arguments: map[string]string{"ecosystem": "cargo", "package": crateName, "symbol": "Ring.push"}}); err != nil {
				t.Fatal(err)
			}
			cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta(""), Name: serve.PromptUpgradePackage, Arguments: map[string]string{"ecosystem": "go"}})
			if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: serve.PromptUsePackage},
				Argument: mcp.CompleteParamsArgument{Name: "package", Value: "@acme/"}, Context: &mcp.CompleteContext{Arguments: map[string]string{"ecosystem": "npm"}}}); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				tool, token string
				args        map[string]any
			}{
				{serve.ToolDescribePython, "tool-1", map[string]any{"package": pyName}},
				{serve.ToolSearch, "", map[string]any{"query": "slugify", "ecosystem": "swift", "kind": "func"}}, // one hit, whatever the ranking
				{serve.ToolDescribeSwift, "", map[string]any{"package": "acme.swift-kt"}},                        // did you mean
				{serve.ToolListPackages, "", map[string]any{"limit": 0}},                                         // -32602
			} {
				cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta(c.token), Name: c.tool, Arguments: c.args})
			}
			golden(t, "wire_"+v+".golden", wire.render(t))
		})
	}
}
