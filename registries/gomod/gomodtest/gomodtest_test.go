package gomodtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/internal/testutil"
)

const testdata = "../testdata/mod"

func TestServer(t *testing.T) {
	s := gomodtest.NewServerFromDir(t, testdata)
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/example.com/hello/@v/list", 200, "v1.0.0\nv1.1.0\nv1.2.0\n"},
		{"/example.com/hello/@v/v1.1.0.info", 200, `{"Version":"v1.1.0","Time":"2024-03-02T12:00:00Z"}`},
		{"/example.com/hello/@v/v1.0.0.mod", 200, "module example.com/hello\n\ngo 1.21\n"},
		{"/example.com/hello/@latest", 200, `{"Version":"v1.2.0","Time":"2024-03-03T12:00:00Z"}`},
		{"/github.com/!azure/go-sample/@v/list", 200, "v0.1.0\n"},
		{"/github.com/Azure/go-sample/@v/list", 404, ""}, // not case-encoded
		{"/example.com/hello/@v/v9.0.0.info", 404, ""},
		{"/example.com/nope/@v/list", 404, ""},
	}
	for _, tt := range tests {
		resp, body := s.Get(t, tt.path)
		if resp.StatusCode != tt.status || tt.body != "" && string(body) != tt.body {
			t.Errorf("GET %s = %d %q, want %d %q", tt.path, resp.StatusCode, body, tt.status, tt.body)
		}
	}
	resp, body := s.Get(t, "/example.com/hello/@v/v1.1.0.zip")
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "PK") {
		t.Errorf("zip: %d", resp.StatusCode)
	}
}

func TestWriteModCache(t *testing.T) {
	dir := gomodtest.WriteModCacheFromDir(t, testdata)
	testutil.Exist(t, dir,
		"example.com/hello@v1.1.0/hello.go",
		"github.com/!azure/go-sample@v0.1.0/sample.go",
		"cache/download/example.com/hello/@v/list",
		"cache/download/example.com/hello/@v/v1.1.0.zip",
		"cache/download/example.com/hello/@v/v1.1.0.ziphash",
		"cache/download/github.com/!azure/go-sample/@v/v0.1.0.info",
	)
	// The zip, and so the extracted tree, leave out the nested module and vendor/.
	for _, p := range []string{"example.com/hello@v1.1.0/nested/nested.go", "example.com/hello@v1.1.0/vendor/example.org/dep/dep.go"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s should not be in the module cache", p)
		}
	}
}
