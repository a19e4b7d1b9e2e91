package serve_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// damagedSnapshot builds a snapshot of one Go module whose rank.idx has a flipped bit, which only
// its checksum shows, and returns the index directory.
func damagedSnapshot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Put(context.Background(), goModule("v1.0.0")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "seg-000001", index.RankFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x04
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A damaged file that a search meets (Open checks only the shape of a segment's rank.idx; the
// first search checks its checksum) is told to the client as the CLI tells it: which file and
// what to do, and no path of this machine. What does not read the file still answers.
func TestSearchOverDamagedSnapshot(t *testing.T) {
	dir := damagedSnapshot(t)
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cs := connect(t, serve.New(r, serve.Options{Version: "v0.0.0-test", Logger: testLogger(t)}), nil)
	e := callErr(t, cs, serve.ToolSearch, map[string]any{"query": "worker pool"})
	if e.Code != jsonrpc.CodeInternalError || !strings.Contains(e.Message, index.RankFile) ||
		!strings.Contains(e.Message, "docidx verify") || strings.Contains(e.Message, dir) {
		t.Errorf("search: %d %q; want -32603 naming %s, saying what to do, without the host path", e.Code, e.Message, index.RankFile)
	}
	if res := call(t, cs, serve.ToolDescribeGo, map[string]any{"package": modPath}); res.IsError {
		t.Errorf("describe: %s", resultText(res))
	}
}

// The server prepares its snapshot for searches in the background at the first message after
// the one that opens a session (index.Open leaves that to the first search): damage found then is
// logged, naming the file, before any search.
func TestPreparedAfterSessionOpens(t *testing.T) {
	r, err := index.Open(damagedSnapshot(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var logs syncBuffer
	srv := serve.New(r, serve.Options{Version: "v0.0.0-test", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	cs := connect(t, srv, nil)
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a safety net, not a measure of speed
	for !strings.Contains(string(logs.Bytes()), index.RankFile) {
		if time.Now().After(deadline) {
			t.Fatalf("no warning naming %s after tools/list; the log: %s", index.RankFile, string(logs.Bytes()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(string(logs.Bytes()), "searches will fail") {
		t.Errorf("the log: %s", string(logs.Bytes()))
	}
}
