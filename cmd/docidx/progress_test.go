package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/npm/npmtest"
)

// progressPackages is how many package versions the progress tests crawl; with
// progressSymbols symbols each they make more search documents than two of the index's
// batches, so that the documents count moves while the index is written.
const progressPackages, progressSymbols = 40, 80

// progressTree writes a node_modules of progressPackages packages of progressSymbols
// documented functions each, and returns its path.
func progressTree(t *testing.T) string {
	t.Helper()
	var pkgs []npmtest.Installed
	for i := range progressPackages {
		name := fmt.Sprintf("gadget-%02d", i)
		var dts strings.Builder
		for j := range progressSymbols {
			fmt.Fprintf(&dts, "/** Tunes knob %d of the gadget. */\nexport declare function knob%03d(level: number): void;\n", j, j)
		}
		pkgs = append(pkgs, npmtest.Installed{Name: name, Version: "1.0.0", Files: map[string]string{
			"package.json": `{"description": "gadget number ` + strconv.Itoa(i) + `", "types": "index.d.ts"}`,
			"README.md":    "# " + name + "\n\nA gadget.\n\n## Usage\n\nTurn the knobs.\n",
			"index.d.ts":   dts.String(),
		}})
	}
	return npmtest.Hoisted(t, filepath.Join(t.TempDir(), "app"), pkgs...)
}

// progressWords are words only the progress display prints, in each of its phases.
var progressWords = []string{"listing package versions", "fetch+extract", "writing the index", "search documents", "ranking index", "publishing", "\r"}

// runPiped runs the docidx binary (this test binary, see docidxCmd) with stdout and stderr
// going to pipes, not a terminal, and returns them.
func runPiped(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := docidxCmd(t, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("docidx %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

// TestCrawlProgressOff: where stderr is not a terminal a crawl shows no progress, unless asked
// with --progress bar.
func TestCrawlProgressOff(t *testing.T) {
	nm := progressTree(t)
	_, stderr := runPiped(t, "crawl", "--offline", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", nm)
	if !strings.Contains(stderr, fmt.Sprintf("crawled %d packages", progressPackages)) {
		t.Errorf("no summary:\n%s", stderr)
	}
	for _, w := range progressWords {
		if strings.Contains(stderr, w) {
			t.Errorf("stderr, not a terminal, shows progress (%q):\n%q", w, stderr)
		}
	}
	_, stderr = runPiped(t, "crawl", "--offline", "--progress", "bar", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", nm)
	for _, w := range []string{"fetch+extract", "indexing search documents", "publishing the snapshot"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("--progress bar shows no %q:\n%q", w, stderr)
		}
	}
}

// TestCrawlProgressJSON: with --json --progress json stderr holds one JSON object per line,
// through the phases list, fetch, index (indexing, merging, ranking) and publish, with counts
// that end complete, each valid under schemas/progress.schema.json; stdout holds the summary
// alone.
func TestCrawlProgressJSON(t *testing.T) {
	schema := publishedSchema(t, "progress")
	stdout, stderr := runPiped(t, "crawl", "--offline", "--json", "--progress", "json", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", progressTree(t))
	var sum crawlJSON
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not the summary: %v\n%s", err, stdout)
	}
	docs := len(sum.Results) + sum.Sections + sum.Symbols // an overview per version, a document per section and symbol
	var phases []string
	last := map[string]progressLine{}
	sc := bufio.NewScanner(strings.NewReader(stderr))
	for sc.Scan() {
		var l progressLine
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("stderr line %q: %v", sc.Text(), err)
		}
		var doc any
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("stderr line %q does not match schemas/progress.schema.json: %v", sc.Text(), err)
		}
		name := l.Phase
		if l.Step != "" {
			name += "/" + l.Step
		}
		if len(phases) == 0 || phases[len(phases)-1] != name {
			phases = append(phases, name)
		}
		if l.Done > l.Total || l.Done < last[l.Phase].Done {
			t.Errorf("line %q after %+v: want done to count up to total", sc.Text(), last[l.Phase])
		}
		last[l.Phase] = l
	}
	want := []string{"list", "fetch", "index/indexing", "index/merging", "index/ranking", "publish"}
	if strings.Join(phases, " ") != strings.Join(want, " ") {
		t.Errorf("phases %v, want %v\n%s", phases, want, stderr)
	}
	if l := last["fetch"]; l.Done != progressPackages || l.Total != progressPackages {
		t.Errorf("last fetch line %+v, want %d of %d package versions", l, progressPackages, progressPackages)
	}
	if l := last["publish"]; l.Done != docs || l.Total != docs {
		t.Errorf("publish line %+v, want %d of %d search documents", l, docs, docs)
	}
}

// TestCrawlProgressFlag: --progress takes auto, bar, json or none.
func TestCrawlProgressFlag(t *testing.T) {
	_, stderr, code := runApp(t, "crawl", "--offline", "--progress", "fancy", "--index", filepath.Join(t.TempDir(), "index"), "--node-modules", t.TempDir())
	if code != exitUsage || !strings.Contains(stderr, `--progress "fancy": want auto, bar, json or none`) {
		t.Errorf("--progress fancy: exit %d, %q; want a usage error naming the modes", code, stderr)
	}
}

// barCount matches a bar's description and count ("(2000/3402)").
var barCount = regexp.MustCompile(`(fetch\+extract|indexing search documents)[^\r\n]*?\((\d+)/(\d+)\)`)

// progressOnTerminal checks what a crawl printed on a terminal (out, what the terminal
// received): progress through every phase, in order — listing, fetch+extract, writing the index
// (documents indexed of their total, moving, then merging and ranking), publishing — and the
// summary after it on a line of its own.
func progressOnTerminal(t *testing.T, out string) {
	t.Helper()
	at := 0
	for _, w := range []string{
		"listing package versions",
		"fetch+extract",
		"writing the index",
		"indexing search documents",
		"merging the search index of seg-000001",
		"building the ranking index of seg-000001",
		"publishing the snapshot",
		fmt.Sprintf("crawled %d packages", progressPackages),
	} {
		i := strings.Index(out[at:], w)
		if i < 0 {
			t.Fatalf("after %q, the terminal shows no %q:\n%q", out[:at], w, out)
		}
		at += i
	}
	summary := regexp.MustCompile(`(\d+) sections, (\d+) symbols;`).FindStringSubmatch(out)
	if summary == nil {
		t.Fatalf("no counts in the summary:\n%q", out)
	}
	sections, _ := strconv.Atoi(summary[1])
	symbols, _ := strconv.Atoi(summary[2])
	docs := progressPackages + sections + symbols
	moved := false
	for _, m := range barCount.FindAllStringSubmatch(out, -1) {
		done, _ := strconv.Atoi(m[2])
		total, _ := strconv.Atoi(m[3])
		switch {
		case m[1] == "fetch+extract" && total != progressPackages:
			t.Errorf("%q: want a count of %d package versions", m[0], progressPackages)
		case m[1] != "fetch+extract" && total != docs:
			t.Errorf("%q: want a count of %d search documents", m[0], docs)
		case m[1] != "fetch+extract" && done > 0 && done < total:
			moved = true
		}
	}
	if !moved {
		t.Errorf("the documents count never showed a part done:\n%q", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, "crawled "); i >= 0 {
			parts := strings.Split(line, "\r")
			if strings.TrimSpace(parts[len(parts)-1]) == "" {
				parts = parts[:len(parts)-1] // the terminal's \r\n
			}
			if !strings.HasPrefix(parts[len(parts)-1], "crawled ") {
				t.Errorf("the summary shares its line with the progress display: %q", line)
			}
		}
	}
}
