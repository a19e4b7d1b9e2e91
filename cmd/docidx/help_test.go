package main

import (
	"bytes"
	"context"
	"os"
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

// TestPackageDocNamesEveryCommand checks that the synopsis in main.go's package doc names every
// command of the app, and no command the app lacks: the list is written by hand, and it had
// lost four commands.
func TestPackageDocNamesEveryCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//\tdocidx "); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				documented[f[0]] = true
			}
		}
	}
	for _, c := range newApp().Commands {
		if !documented[c.Name] {
			t.Errorf("main.go's package doc does not name the command %s", c.Name)
		}
		delete(documented, c.Name)
	}
	for name := range documented {
		t.Errorf("main.go's package doc names %s, which is no command", name)
	}
}
