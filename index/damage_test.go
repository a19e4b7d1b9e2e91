package index_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/docidx/docidx/index"
)

// withoutRank makes the snapshot directory snap one written before rank.idx existed: no
// rank.idx, and a manifest that lists none. The manifest is replaced, not rewritten in place, so
// that a hard link to it elsewhere keeps its content.
func withoutRank(t testing.TB, snap string) {
	t.Helper()
	if err := os.Remove(filepath.Join(snap, index.RankFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	path := filepath.Join(snap, index.ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m["files"].(map[string]any), index.RankFile)
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
