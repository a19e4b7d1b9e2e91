package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadQueryWords: the words after read's URI are words of its query, as the shell splits
// `read URI -q backoff delay`, and only the passages holding them are read; a second URI is a
// usage error that says to read one at a time.
func TestReadQueryWords(t *testing.T) {
	nm := filepath.Join(t.TempDir(), "node_modules")
	files := map[string]string{
		"demo/package.json": `{"name": "demo", "version": "1.0.0", "description": "a demo"}`,
		"demo/README.md": "# demo\n\n## Retrying\n\nEach retry waits longer: the backoff delay doubles up to a minute.\n\n" +
			"## Colours\n\n" + strings.Repeat("The palette has many colours to choose from. ", 80) + "\n",
	}
	for name, content := range files {
		p := filepath.Join(nm, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx := filepath.Join(t.TempDir(), "index")
	if _, stderr, code := runApp(t, "crawl", "--offline", "--quiet", "--index", idx, "--node-modules", nm); code != 0 {
		t.Fatalf("crawl: exit %d\n%s", code, stderr)
	}
	const uri = "docidx://npm/demo@1.0.0/readme"
	whole, _, code := runApp(t, "read", "--index", idx, uri)
	if code != 0 || !strings.Contains(whole, "palette") {
		t.Fatalf("read %s: exit %d, want the whole README:\n%s", uri, code, whole)
	}
	want, stderr, code := runApp(t, "read", "--index", idx, "--query", "backoff delay", uri)
	if code != 0 || !strings.Contains(want, "backoff delay doubles") || strings.Contains(want, "palette") {
		t.Fatalf("read --query: exit %d, want only the retry passage:\n%s%s", code, want, stderr)
	}
	for _, args := range [][]string{
		{"docidx", "read", "--index", idx, uri, "backoff", "delay"},
		{"docidx", "read", "--index", idx, uri, "-q", "backoff", "delay"},
		{"docidx", "read", uri, "--query", "backoff", "--index", idx, "delay"},
	} {
		got, stderr, code := runApp(t, rewriteArgs(args)[1:]...)
		if code != 0 || got != want {
			t.Errorf("%q: exit %d\n%s%s\nwant the same as --query \"backoff delay\":\n%s", args, code, got, stderr, want)
		}
	}
	_, stderr, code = runApp(t, "read", "--index", idx, uri, uri+"#retrying")
	if code != 2 || !strings.Contains(stderr, "one URI at a time") {
		t.Errorf("read of two URIs: exit %d, %q; want a usage error", code, stderr)
	}
}
