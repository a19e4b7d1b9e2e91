//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// runOnTerminal runs the docidx binary (this test binary, see docidxCmd) on a pseudo-terminal
// of 120 columns, as a person at a terminal does; stdout, if not nil, goes there instead. It
// returns what the terminal received.
func runOnTerminal(t *testing.T, stdout io.Writer, args ...string) string {
	t.Helper()
	cmd := docidxCmd(t, args...)
	cmd.Stdout = stdout
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatalf("starting docidx on a pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&out, tty) // ends with EIO once the process is gone
		close(read)
	}()
	err = cmd.Wait()
	<-read
	if err != nil {
		t.Fatalf("docidx %s: %v\n%q", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// TestCrawlProgressTerminal is issue 28's "a crawl on a terminal shows progress through every
// phase", under a pseudo-terminal: listing, fetch+extract, the index write with its documents
// count moving and each segment's merging and ranking named, publishing; then the summary on
// a line of its own. With --quiet the terminal shows nothing, and with --json no progress.
func TestCrawlProgressTerminal(t *testing.T) {
	nm := progressTree(t)
	out := runOnTerminal(t, nil, "crawl", "--offline", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", nm)
	progressOnTerminal(t, out)

	out = runOnTerminal(t, nil, "crawl", "--offline", "--quiet", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", nm)
	if out != "" {
		t.Errorf("--quiet on a terminal printed %q, want nothing", out)
	}

	var stdout bytes.Buffer
	out = runOnTerminal(t, &stdout, "crawl", "--offline", "--json", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", nm)
	for _, w := range progressWords {
		if strings.Contains(out, w) {
			t.Errorf("--json: the terminal shows progress (%q):\n%q", w, out)
		}
	}
	var sum crawlJSON
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil || sum.Indexed != progressPackages {
		t.Errorf("--json: stdout %q (%v), want the summary of %d package versions indexed", stdout.String(), err, progressPackages)
	}
}
