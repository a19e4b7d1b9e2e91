package serve_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A damaged file that a search meets (Open checks only the shape of a segment's rank.idx; the
// first search checks its checksum) is told to the client as the CLI tells it: which file and
// what to do, and no path of this machine. What does not read the file still answers.
func TestSearchOverDamagedSnapshot(t *testing.T) {
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
