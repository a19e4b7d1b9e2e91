package serve_test

import (
	"context"
	"testing"
	"time"

	"github.com/docidx/docidx/serve"
)

// Options.OnSession is called at the first message after the one that opens a session, once the
// client has that answer, not while the server writes it: a server made without a reader opens
// its snapshot from it, and answers its first requests from that.
func TestOnSession(t *testing.T) {
	r := snapshot(t)
	called := make(chan struct{}, 2)
	var srv *serve.Server
	srv = serve.New(nil, serve.Options{Version: "v0.0.0-test", Logger: testLogger(t), OnSession: func() {
		called <- struct{}{}
		srv.SetReader(r, nil)
	}})
	cs := connect(t, srv, nil)
	select {
	case <-called:
		t.Fatal("OnSession was called with the session's first message")
	default:
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-called:
	case <-time.After(time.Minute): // a safety net, not a measure of speed
		t.Fatal("OnSession was not called after the session's second message")
	}
	// The reader it set answers.
	if res := call(t, cs, serve.ToolSearch, map[string]any{"query": "worker pool"}); res.IsError {
		t.Fatalf("search: %s", resultText(res))
	}
	if len(called) != 0 {
		t.Error("OnSession was called again")
	}
}
