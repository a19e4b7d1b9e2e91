package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/registries/npm/npmtest"
)

// runAsDocidx makes the test binary act as the docidx command when a test starts it with this
// variable set: tests that need a real crawl process (to kill it) re-exec themselves.
const runAsDocidx = "DOCIDX_TEST_RUN_MAIN"

func init() {
	if os.Getenv(runAsDocidx) == "1" {
		os.Exit(run())
	}
}

// docidxCmd returns a command running this test binary as docidx with args. Under the race
// detector the child does not sleep its default second before exiting (GORACE's
// atexit_sleep_ms, https://go.dev/doc/articles/race_detector#Options): that second would
// otherwise be most of every short crawl's run time.
func docidxCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	cmd.Env = append(os.Environ(), runAsDocidx+"=1", "HOME="+t.TempDir(), "GOPROXY=off", "NPM_CONFIG_REGISTRY=http://127.0.0.1:9/", "GORACE="+gorace)
	return cmd
}

// npmTree returns n installed npm packages of a realistic shape: a README of a few sections with
// code, and typings with a few declarations.
func npmTree(n int, prefix string) []npmtest.Installed {
	var pkgs []npmtest.Installed
	for i := range n {
		name := fmt.Sprintf("%s-%03d", prefix, i)
		var readme strings.Builder
		fmt.Fprintf(&readme, "# %s\n\nThe %s package parses widget specifications number %d.\n\n", name, name, i)
		for _, h := range []string{"Install", "Usage", "Options", "Examples", "Errors", "Performance"} {
			fmt.Fprintf(&readme, "## %s\n\n%s of %s explained at length: configure the frobnicator, tune the widget cache and read the spec stream.\n\n```js\nconst w = require('%s')\nw.parse(spec, {strict: true})\n```\n\n", h, h, name, name)
		}
		pkgs = append(pkgs, npmtest.Installed{Name: name, Version: "1.0.0", Files: map[string]string{
			"package.json": `{"description": "widget spec parser ` + strconv.Itoa(i) + `", "types": "index.d.ts", "license": "MIT"}`,
			"README.md":    readme.String(),
			"index.d.ts": "/** Parses a widget spec. */\nexport declare function parse(spec: string, opts?: ParseOptions): Widget;\n" +
				"/** Options of parse. */\nexport interface ParseOptions { strict?: boolean }\n/** A parsed widget. */\nexport declare class Widget { render(): string }\n",
		}})
	}
	return pkgs
}

// TestCrawlSurvivesKill9 starts real crawl processes into one index and kills them with SIGKILL
// at random moments — resolving, fetching, writing the store, building the search indexes,
// syncing, publishing, removing old generations — many times. After every kill `docidx verify`
// passes, the snapshot answers searches, and it is either the previous snapshot (the kill came
// before the switch) or the complete new one, never anything in between. A Watcher plays a server
// that reads throughout. DOCIDX_KILL_ITERATIONS overrides the number of kills (30).
func TestCrawlSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 30 crawls")
	}
	iterations := 30
	if s := os.Getenv("DOCIDX_KILL_ITERATIONS"); s != "" {
		iterations, _ = strconv.Atoi(s)
	}
	pkgs := 300
	if raceEnabled {
		pkgs = 40 // the crawl runs ten times slower: fewer packages, the same moments to kill
	}
	root := t.TempDir()
	idx := filepath.Join(root, "index")
	nm := npmtest.Hoisted(t, filepath.Join(root, "app"), npmTree(pkgs, "widget")...)
	crawlArgs := []string{"crawl", "--offline", "--refresh", "--quiet", "--index", idx, "--node-modules", nm}

	// Two complete crawls first, the second timed (it copies a store, as the killed ones do) to
	// the moment CURRENT names its generation: kills are spread over twice that time, so about
	// half land before the switch and half after it, however long the process takes to exit.
	if out, err := docidxCmd(t, crawlArgs...).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	toSwitch := timeToSwitch(t, idx, docidxCmd(t, crawlArgs...))
	t.Logf("a complete crawl of %d packages switches CURRENT after %v", pkgs+1, toSwitch)

	server, err := index.Watch(idx)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	var before, after int // kills that left the previous snapshot / the new one current
	for i := range iterations {
		// Each crawl adds one package, so the new snapshot can be told from the previous one.
		marker := fmt.Sprintf("marker%03d", i)
		npmtest.Hoisted(t, filepath.Join(root, "app"), npmtest.Installed{Name: marker, Version: "1.0.0", Files: map[string]string{
			"README.md": "# " + marker + "\n\nThe " + marker + " package.\n",
		}})
		prev, err := index.Current(idx)
		if err != nil {
			t.Fatal(err)
		}
		prevVersions := versions(t, idx)

		// The server is mid-request across the whole crawl and kill.
		held, release := server.Acquire()
		cmd := docidxCmd(t, crawlArgs...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(rng.Int64N(int64(toSwitch) * 2))
		time.Sleep(delay)
		cmd.Process.Kill() // SIGKILL
		cmd.Wait()
		if res, err := held.Search(context.Background(), index.Query{Text: "frobnicator widget cache"}); err != nil || len(res.Hits) == 0 {
			t.Fatalf("kill %d: the server's reader stopped answering: %v", i, err)
		}
		release()

		// docidx verify passes.
		if out, err := docidxCmd(t, "verify", "--index", idx).CombinedOutput(); err != nil {
			t.Fatalf("kill %d after %v: verify failed: %v\n%s\ncrawl's stderr:\n%s", i, delay, err, out, stderr.String())
		}
		cur, err := index.Current(idx)
		if err != nil {
			t.Fatal(err)
		}
		r, err := index.Open(idx)
		if err != nil {
			t.Fatalf("kill %d: open: %v", i, err)
		}
		res, err := r.Search(context.Background(), index.Query{Text: "frobnicator widget cache"})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("kill %d: search: %v, %d hits", i, err, len(res.Hits))
		}
		_, markerErr := r.Package(docidx.Ref{Ecosystem: docidx.NPM, Name: marker})
		nowVersions := versions(t, idx)
		r.Close()
		switch {
		case cur == prev:
			before++
			if markerErr == nil || nowVersions != prevVersions {
				t.Fatalf("kill %d: CURRENT unchanged but the content changed (%d -> %d versions)", i, prevVersions, nowVersions)
			}
		default:
			// Complete: every package in node_modules, this crawl's marker included.
			after++
			if markerErr != nil || nowVersions != pkgs+i+1 {
				t.Fatalf("kill %d: new generation %s is incomplete: %v, %d versions, want %d", i, cur, markerErr, nowVersions, pkgs+i+1)
			}
		}
		// The server switches between requests; generations nobody reads do not pile up.
		if _, err := server.Check(); err != nil {
			t.Fatalf("kill %d: server switch: %v", i, err)
		}
		if g, _ := filepath.Glob(filepath.Join(idx, "gen-*")); len(g) > 4 {
			t.Fatalf("kill %d: %d generations on disk: %v", i, len(g), g)
		}
	}
	// The segments killed crawls left half written go at the next crawl: every segment beside
	// the generations is then one a generation lists.
	if out, err := docidxCmd(t, crawlArgs...).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	server.Close()
	if out, err := docidxCmd(t, crawlArgs...).CombinedOutput(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	if unlisted := unlistedSegments(t, idx); len(unlisted) > 0 {
		t.Errorf("segments no generation lists after a complete crawl: %v", unlisted)
	}
	t.Logf("%d kills: %d before the switch (previous snapshot kept), %d after it (new snapshot complete)", iterations, before, after)
	if iterations >= 20 && (before == 0 || after == 0) {
		t.Errorf("kills never landed on one side of the switch (%d before, %d after): the test proves less than it claims", before, after)
	}
}

// timeToSwitch runs the crawl cmd and returns the time from its start to the moment the index
// directory idx's CURRENT names another generation, polled every millisecond. The crawl must
// succeed and switch.
func timeToSwitch(t *testing.T, idx string, cmd *exec.Cmd) time.Duration {
	t.Helper()
	prev, err := index.Current(idx)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var switched time.Duration
	for switched == 0 {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("crawl: %v\n%s", err, out.String())
			}
			if cur, _ := index.Current(idx); cur == prev {
				t.Fatalf("a complete crawl left CURRENT at %s", prev)
			}
			return time.Since(start) // switched between two polls, just before exit
		case <-time.After(time.Millisecond):
			if cur, err := index.Current(idx); err == nil && cur != prev {
				switched = time.Since(start)
			}
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("crawl: %v\n%s", err, out.String())
	}
	return switched
}

// unlistedSegments returns the segment directories of the index directory idx that no
// generation's manifest lists.
func unlistedSegments(t *testing.T, idx string) []string {
	t.Helper()
	listed := map[string]bool{}
	gens, _ := filepath.Glob(filepath.Join(idx, "gen-*", index.ManifestFile))
	for _, path := range gens {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m index.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, seg := range m.Segments {
			listed[seg.Name] = true
		}
	}
	segs, _ := filepath.Glob(filepath.Join(idx, "seg-*"))
	var out []string
	for _, seg := range segs {
		if !listed[filepath.Base(seg)] {
			out = append(out, filepath.Base(seg))
		}
	}
	return out
}

// versions counts the package versions of the current snapshot in idx.
func versions(t *testing.T, idx string) int {
	t.Helper()
	r, err := index.Open(idx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for _, c := range r.Counts() {
		n += c.Versions
	}
	return n
}

// TestCrawlBesideRunningServe runs `docidx serve --stdio` on a snapshot and crawls into the same
// index meanwhile, from other processes: the crawls finish without waiting for the server, the
// generation the server reads stays on disk while it runs, and the first crawl after it exits
// removes it.
func TestCrawlBesideRunningServe(t *testing.T) {
	root := t.TempDir()
	idx := filepath.Join(root, "index")
	nm := npmtest.Hoisted(t, filepath.Join(root, "app"), npmTree(20, "widget")...)
	crawl := func() {
		t.Helper()
		start := time.Now()
		out, err := docidxCmd(t, "crawl", "--offline", "--refresh", "--quiet", "--index", idx, "--node-modules", nm).CombinedOutput()
		if err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
		t.Logf("crawl beside the server took %v", time.Since(start))
	}
	crawl()
	served, _ := index.Current(idx)

	srv := docidxCmd(t, "serve", "--stdio", "--index", idx)
	stdin, err := srv.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	// The server has opened the snapshot once it answers initialize.
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}

	crawl()
	crawl()
	// The server still answers. Until it reloads, it reads the generation it opened, which must
	// still be there; once serve follows new generations it may have moved on.
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_package_docs","arguments":{"query":"frobnicator widget cache"}}}`+"\n")
	for {
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		if strings.Contains(line, `"id":2`) {
			if !strings.Contains(line, "widget-0") || strings.Contains(line, `"isError":true`) {
				t.Errorf("search after the crawls: %s", line)
			}
			break
		}
	}
	g, _ := filepath.Glob(filepath.Join(idx, "gen-*"))
	t.Logf("generations with the server running: %v (it opened %s)", g, served)
	// The server may hold two generations besides the current one: the one it reads and, while
	// it switches (or until the last request that began on it ends), the one it switched from.
	if len(g) > 3 {
		t.Errorf("with the server running: generations %v; only the server's may remain beside the current one", g)
	}
	stdin.Close() // the server exits when stdin closes
	if err := srv.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	crawl()
	g, _ = filepath.Glob(filepath.Join(idx, "gen-*"))
	if len(g) != 1 {
		t.Errorf("after the server exited: generations %v, want only the current one", g)
	}
	if unlisted := unlistedSegments(t, idx); len(unlisted) > 0 {
		t.Errorf("after the server exited: segments no generation lists: %v", unlisted)
	}
}

// TestServeFollowsNewSnapshot runs `docidx serve --stdio`, crawls a new package into its index
// from another process, and checks that the running server, without restart, tells the client
// the resource list changed and answers from the new content.
func TestServeFollowsNewSnapshot(t *testing.T) {
	root := t.TempDir()
	idx := filepath.Join(root, "index")
	first := npmtest.Hoisted(t, filepath.Join(root, "a"), npmTree(3, "widget")...)
	second := npmtest.Hoisted(t, filepath.Join(root, "b"), npmTree(2, "gizmo")...)
	crawl := func(nm string) {
		t.Helper()
		if out, err := docidxCmd(t, "crawl", "--offline", "--quiet", "--index", idx, "--node-modules", nm).CombinedOutput(); err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
	}
	crawl(first)

	srv := docidxCmd(t, "serve", "--stdio", "--index", idx)
	stdin, _ := srv.StdinPipe()
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	wait := func(what string, match func(string) bool) string {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("%s: server closed stdout", what)
				}
				if match(l) {
					return l
				}
			case <-timeout:
				t.Fatalf("%s: no answer", what)
			}
		}
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	wait("initialize", func(l string) bool { return strings.Contains(l, `"id":1`) })
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")

	crawl(second)
	wait("list_changed", func(l string) bool { return strings.Contains(l, `"method":"notifications/resources/list_changed"`) })
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_npm_package","arguments":{"package":"gizmo-001"}}}`+"\n")
	l := wait("describe after the crawl", func(l string) bool { return strings.Contains(l, `"id":2`) })
	if strings.Contains(l, `"isError":true`) || !strings.Contains(l, "gizmo-001") {
		t.Errorf("the running server does not answer from the new snapshot: %s", l)
	}
	stdin.Close()
	if err := srv.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
}
