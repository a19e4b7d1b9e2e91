package cargotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// recordedIndex holds answers recorded from a real sparse index (see registries/cargo's
// testdata/real/README.md).
var recordedIndex = filepath.Join("..", "testdata", "real", "index")

// fieldsOf returns the union of the fields of the JSON objects in data, one per line.
func fieldsOf(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// TestShapeMatchesRecorded holds the fake's config.json and index files to a real sparse
// index's: the same media types, the config fields it sends, and no index field it does not.
func TestShapeMatchesRecorded(t *testing.T) {
	s := NewServer(t, "")
	s.AddCrate(Crate{Name: "itoa", Version: "1.0.19", Files: map[string]string{"Cargo.toml": "[package]\nname = \"itoa\"\n"}})
	for _, tc := range []struct{ path, recorded, contentType string }{
		{"/index/config.json", "config.json", "application/json"},
		{"/index/it/oa/itoa", "itoa", "text/plain"},
	} {
		resp, body := s.Get(t, tc.path)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("%s: %d %q, recorded 200 %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.contentType)
		}
		rec, err := os.ReadFile(filepath.Join(recordedIndex, tc.recorded))
		if err != nil {
			t.Fatal(err)
		}
		sent, fake := fieldsOf(t, rec), fieldsOf(t, body)
		for k := range fake {
			if !sent[k] {
				t.Errorf("%s: field %q is not one the registry sends (it sends %v)", tc.path, k, sent)
			}
		}
		for _, k := range []string{"dl", "api", "name", "vers", "deps", "cksum", "features", "yanked", "pubtime"} {
			if sent[k] && !fake[k] {
				t.Errorf("%s: the registry sends %q, the fake does not", tc.path, k)
			}
		}
	}
}
