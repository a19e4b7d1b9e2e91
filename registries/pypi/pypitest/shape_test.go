package pypitest

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recordedDir holds answers recorded from a real index (see its README.md).
var recordedDir = filepath.Join("..", "testdata", "real")

// keys returns an object's keys, sorted.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return slices.Sorted(maps.Keys(m))
}

func readRecorded(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(recordedDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// firstFile returns the first file object of a JSON API document's release list, or of a simple
// API page's files.
func firstFile(t *testing.T, doc map[string]json.RawMessage, field string) json.RawMessage {
	t.Helper()
	var files []json.RawMessage
	if err := json.Unmarshal(doc[field], &files); err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", field, err)
	}
	return files[0]
}

// TestShapeMatchesRecorded holds the fake's answers to the shape of a real index's: the same
// media types, the same fields in each JSON API document and file object and in each simple API
// page and file (PEP 691), and no info field the index does not send.
func TestShapeMatchesRecorded(t *testing.T) {
	s := NewServer(t, "")
	s.AddRelease("six", "1.17.0", "Summary: Python 2 and 3 compatibility utilities\n", map[string]string{"six.py": "x = 1\n"}, map[string]string{})

	resp, body := get(t, s, "/pypi/six/json", "application/json")
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("JSON API Content-Type %q, recorded application/json", ct)
	}
	var fake map[string]json.RawMessage
	if err := json.Unmarshal(body, &fake); err != nil {
		t.Fatal(err)
	}
	rec := readRecorded(t, "pypi-six-json.json")
	if f, r := keys(t, body), keys(t, mustJSON(t, rec)); !slices.Equal(f, r) {
		t.Errorf("JSON API document fields\nfake %v\nreal %v", f, r)
	}
	for _, k := range keys(t, fake["info"]) {
		if !slices.Contains(keys(t, rec["info"]), k) {
			t.Errorf("JSON API info field %q is not one the index sends", k)
		}
	}
	if f, r := keys(t, firstFile(t, fake, "urls")), keys(t, firstFile(t, rec, "urls")); !slices.Equal(f, r) {
		t.Errorf("JSON API file fields\nfake %v\nreal %v", f, r)
	}

	resp, body = get(t, s, "/simple/six/", "application/vnd.pypi.simple.v1+json")
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.pypi.simple.v1+json" {
		t.Errorf("simple API Content-Type %q, recorded application/vnd.pypi.simple.v1+json", ct)
	}
	fake = nil
	if err := json.Unmarshal(body, &fake); err != nil {
		t.Fatal(err)
	}
	rec = readRecorded(t, "simple-six.json")
	for _, k := range []string{"", "meta"} {
		f, r := body, mustJSON(t, rec)
		if k != "" {
			f, r = fake[k], rec[k]
		}
		if fk, rk := keys(t, f), keys(t, r); !slices.Equal(fk, rk) {
			t.Errorf("simple API %q fields\nfake %v\nreal %v", k, fk, rk)
		}
	}
	// The recorded page's files have no PEP 658 metadata; a wheel of the fake's has, and says so
	// in both keys PEP 714 names.
	f := slices.DeleteFunc(keys(t, firstFile(t, fake, "files")), func(k string) bool { return k == "core-metadata" || k == "dist-info-metadata" })
	if r := keys(t, firstFile(t, rec, "files")); !slices.Equal(f, r) {
		t.Errorf("simple API file fields\nfake %v\nreal %v", f, r)
	}
}

func mustJSON(t *testing.T, m map[string]json.RawMessage) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
