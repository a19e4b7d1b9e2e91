package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/docidx/docidx/crawl"
)

// TestCrawlHelp checks that crawl --help names every file --from reads and every form of SPEC.
func TestCrawlHelp(t *testing.T) {
	app := newApp()
	var out bytes.Buffer
	app.Writer = &out
	if err := app.RunContext(context.Background(), []string{"docidx", "crawl", "--help"}); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	var from string
	for line := range strings.Lines(help) {
		if strings.Contains(line, "--from FILE") {
			from = line
		}
	}
	for _, name := range crawl.LockfileNames {
		if !strings.Contains(from, name) {
			t.Errorf("crawl --help: --from does not name %s:\n%s", name, from)
		}
	}
	for _, spec := range []string{"go:MODULE", "npm:NAME", "pypi:NAME", "cargo:CRATE", "swift:SCOPE.NAME", "swift:REPOSITORY-URL", "pkg:npm/"} {
		if !strings.Contains(help, spec) {
			t.Errorf("crawl --help does not name the SPEC form %s", spec)
		}
	}
}
