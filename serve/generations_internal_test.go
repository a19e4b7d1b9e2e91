package serve

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readers opens n Readers on one small snapshot.
func readers(t *testing.T, n int) []*index.Reader {
	t.Helper()
	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Put(context.Background(), &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "p", Version: "1.0.0", Versions: []string{"1.0.0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	var rs []*index.Reader
	for range n {
		r, err := index.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		rs = append(rs, r)
	}
	return rs
}

// A replaced reader is released when the last request that may read it ends: at once when none
// runs, else when the requests that began on it or on an older generation are done — not before,
// and not a minute later.
func TestReloadReleasesWhenRequestsEnd(t *testing.T) {
	rs := readers(t, 4)
	s := New(nil, Options{Logger: slog.New(slog.DiscardHandler)})
	var mu sync.Mutex
	var released []string
	rel := func(name string) func() {
		return func() {
			mu.Lock()
			released = append(released, name)
			mu.Unlock()
		}
	}
	got := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(released, ",")
	}

	s.SetReader(rs[0], rel("r0"))
	s.SetReader(rs[1], rel("r1"))
	if got() != "r0" {
		t.Fatalf("no request running: released %q, want r0 at once", got())
	}

	started, block := make(chan struct{}), make(chan struct{})
	h := s.pin(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		close(started)
		<-block
		return nil, nil
	})
	done := make(chan struct{})
	go func() {
		h(context.Background(), "tools/call", nil)
		close(done)
	}()
	<-started // a request began on r1
	s.SetReader(rs[2], rel("r2"))
	s.SetReader(rs[3], rel("r3"))
	if got() != "r0" {
		t.Fatalf("a request runs on r1: released %q, want still only r0", got())
	}
	// A request that begins now reads r3 and ends at once: it holds nothing older.
	s.pin(func(context.Context, string, mcp.Request) (mcp.Result, error) { return nil, nil })(context.Background(), "ping", nil)
	if got() != "r0" {
		t.Fatalf("after a request on r3: released %q, want still only r0", got())
	}
	close(block)
	<-done
	// The request began on r1 and may have read r2 after the switch: both go when it ends.
	if got() != "r0,r1,r2" {
		t.Fatalf("the request on r1 ended: released %q, want r0,r1,r2", got())
	}
}

// The SDK warns once per session that cannot take a notification; the server passes on one
// such warning per notification method and reload.
func TestNotificationWarningOncePerReload(t *testing.T) {
	var buf bytes.Buffer
	s := New(nil, Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	sdk := slog.New(s.sdkLog) // the logger the SDK was given
	warn := func() {
		for range 5 {
			sdk.Warn("calling notifications/resources/list_changed: rejected by transport")
		}
		sdk.Warn("calling notifications/tools/list_changed: rejected by transport")
		sdk.Warn("something else")
		sdk.Warn("something else")
	}
	warn()
	if n := strings.Count(buf.String(), "resources/list_changed"); n != 1 {
		t.Errorf("%d warnings about resources/list_changed, want 1:\n%s", n, buf.String())
	}
	if n := strings.Count(buf.String(), "tools/list_changed"); n != 1 {
		t.Errorf("%d warnings about tools/list_changed, want 1", n)
	}
	if n := strings.Count(buf.String(), "something else"); n != 2 {
		t.Errorf("%d other warnings, want both", n)
	}
	rs := readers(t, 2)
	s.SetReader(rs[0], nil)
	s.SetReader(rs[1], nil) // a reload
	buf.Reset()
	warn()
	if n := strings.Count(buf.String(), "resources/list_changed"); n != 1 {
		t.Errorf("after a reload: %d warnings about resources/list_changed, want 1", n)
	}
}
