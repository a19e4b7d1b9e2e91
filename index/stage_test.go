package index

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestStage checks the staging file: values put concurrently are read back whole, a version put
// again is read from its last put, an unknown version is not found, and a file cut short is an
// error, not shorter values.
func TestStage(t *testing.T) {
	path := filepath.Join(t.TempDir(), stagingFile)
	s, err := createStage(path)
	if err != nil {
		t.Fatal(err)
	}
	value := func(k, which int) []byte { return bytes.Repeat([]byte{byte(k), byte(which)}, 100+k) }
	var wg sync.WaitGroup
	for k := range 50 {
		wg.Go(func() {
			if err := s.put([]byte(fmt.Sprint("v", k)), value(k, 0), value(k, 1)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := s.put([]byte("v7"), []byte("docs again"), []byte("[]")); err != nil {
		t.Fatal(err)
	}
	var buf []byte // reused, as Commit does
	for k := range 50 {
		docs, syms, found, err := s.get(fmt.Sprint("v", k), &buf)
		wantDocs, wantSyms := value(k, 0), value(k, 1)
		if k == 7 {
			wantDocs, wantSyms = []byte("docs again"), []byte("[]")
		}
		if err != nil || !found || !bytes.Equal(docs, wantDocs) || !bytes.Equal(syms, wantSyms) {
			t.Fatalf("v%d: %d and %d bytes, found %v, %v", k, len(docs), len(syms), found, err)
		}
	}
	if _, _, found, err := s.get("absent", new([]byte)); found || err != nil {
		t.Errorf("absent: found %v, %v", found, err)
	}
	if err := s.f.Truncate(s.at["v49"].off + 10); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := s.get("v49", new([]byte)); err == nil {
		t.Error("a value cut short read without an error")
	}
	if err := s.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := createStage(filepath.Join(t.TempDir(), "missing", stagingFile)); err == nil {
		t.Error("a staging file in a missing directory was created")
	}
}
