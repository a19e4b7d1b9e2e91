//go:build unix

package npm

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/npm/npmtest"
)

// A package.json that is a FIFO, one that does not parse and a 1 GB sparse one are skipped,
// each reported once with its reason, and the rest of the tree is read. Before, the FIFO
// blocked the scan for ever.
func TestNodeModulesSkipsBadPackageJSON(t *testing.T) {
	dir := t.TempDir()
	nm := npmtest.Hoisted(t, dir, npmtest.Installed{Name: "good", Version: "1.0.0"})
	for _, name := range []string{"fifo", "broken", "huge"} {
		if err := os.MkdirAll(filepath.Join(nm, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(nm, "fifo", "package.json"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	testutil.WriteFile(t, filepath.Join(nm, "broken", "package.json"), `{"name": "broken",`)
	f, err := os.Create(filepath.Join(nm, "huge", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var logs bytes.Buffer
	_, refs := listTree(t, dir, NodeModulesConfig{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if got := refsString(refs); got != "good@1.0.0" {
		t.Errorf("List = %s, want good@1.0.0", got)
	}
	out := logs.String()
	for _, want := range []string{`skipped="not a regular file" count=1`, `skipped=malformed count=1`, `skipped="too large" count=1`} {
		if strings.Count(out, want) != 1 {
			t.Errorf("log should hold %s once:\n%s", want, out)
		}
	}
}
