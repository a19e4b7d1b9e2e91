package main

// The answer-in-results benchmark (issue 14, "Answers, not pointers"; issue 26's measures): each
// question of a question set goes to search_package_docs with default arguments, as an assistant
// would ask it, over the real corpus's snapshot. Facts are matched in the text as it is and with
// inline markup removed (holds). Per question it records whether the fact is
//
//   - anywhere in that first answer ("found first", the measure of issue 14),
//   - in hit 1 (its title, heading path or signature, and passage),
//   - in the first 2 KB of the answer,
//   - after one read of the first hit (read_package_doc, or resources/read on a server without
//     that tool),
//
// and how many bytes of the answer come before the end of the fact.
//
// `make answers` (TestAnswers) prints the per-question table and the totals of each set:
// testdata/answers ("answers") and the held-out dev half ("dev"); the held-out test half
// ("test") only when DOCIDX_ANSWERS_SETS names it, to report. `make bench` (BenchmarkAnswers)
// reports testdata/answers' totals as metrics. Both skip without a corpus; set
// DOCIDX_CORPUS_INDEX to measure a snapshot crawled before (e.g. by another docidx binary) from
// the corpus's caches: docidx crawl --offline --go-modcache C/gomodcache --node-modules
// C/npmproject/node_modules --site-packages DIR --cargo-home C/cargohome --swift-checkouts
// C/swiftproject.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docidx/docidx/index"
)

// The tools and method the benchmark calls.
const (
	answerSearchTool = "search_package_docs"
	answerReadTool   = "read_package_doc"
	answerReadMethod = "resources/read" // the fallback when the server has no answerReadTool
)

// The goals a set of answers must meet: issue 14's shares of questions whose fact is in the first
// answer and after one read call, and issue 26's mean answer (the text an assistant reads) of at
// most 6 KB at the default budget. Issue 14 also held the whole result as JSON (text plus its
// structured copy, ~2.3 times the text) to "no larger than today's (~9 KB)", 10,012 B on main at
// e7baa20 with 4,252 B of text; issue 26 gives hit 1 the largest share of a larger answer, so the
// text's own bound replaced it. The whole result is still reported.
const (
	goalFoundFirst  = 0.80
	goalFoundRead   = 0.95
	goalAnswerBytes = 6 * 1024
)

// answerFirstBytes is the head of an answer that issue 26 measures separately: what an assistant
// reads before it decides whether to read on.
const answerFirstBytes = 2048

// answerResult is what one question got.
type answerResult struct {
	Q              answerQuestion
	Found1, Found2 bool // fact anywhere in the first answer; in the answer plus one read
	Hit1, First2K  bool // fact in hit 1; in the first answerFirstBytes of the answer
	Before         int  // bytes of the answer up to the end of the fact, -1 when it is not there
	AnswerBytes    int  // bytes of the search answer's text content
	ResultBytes    int  // bytes of the whole search result as JSON (text and structured content)
	// StructuredBytes is the bytes of the structured content as compact JSON: what Claude Code,
	// the Copilot CLI, Codex and opencode give the model instead of the text.
	StructuredBytes int
	ReadBytes       int    // bytes of the read's text, 0 without a read
	Title, URI      string // the first hit's title and URI, empty without hits
	ReadErr         string // why the read failed, if it did
}

// answerRun is one pass over the question set.
type answerRun struct {
	ReadVia string // answerReadTool, or answerReadMethod when the server lacks the tool
	Results []answerResult
}

// askAnswers puts every question to cs and reads the first hit of each answer once.
func askAnswers(ctx context.Context, cs *mcp.ClientSession, qs []answerQuestion) (answerRun, error) {
	run := answerRun{ReadVia: answerReadMethod}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return run, fmt.Errorf("tools/list: %w", err)
		}
		if tool.Name == answerReadTool {
			run.ReadVia = answerReadTool
		}
	}
	for _, q := range qs {
		r, err := askAnswer(ctx, cs, q, run.ReadVia)
		if err != nil {
			return run, fmt.Errorf("question %s: %w", q.ID, err)
		}
		run.Results = append(run.Results, r)
	}
	return run, nil
}

// askAnswer puts q to search_package_docs with default arguments and reads the first hit's URI
// via readVia.
func askAnswer(ctx context.Context, cs *mcp.ClientSession, q answerQuestion, readVia string) (answerResult, error) {
	r := answerResult{Q: q}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: answerSearchTool, Arguments: map[string]any{"query": q.Question}})
	if err != nil {
		return r, err
	}
	answer := toolText(res)
	if res.IsError {
		return r, fmt.Errorf("%s: %s", answerSearchTool, answer)
	}
	r.AnswerBytes = len(answer)
	if whole, err := json.Marshal(res); err == nil {
		r.ResultBytes = len(whole)
	}
	r.Before = factEnd(q.re, answer)
	r.Found1 = r.Before >= 0
	r.First2K = r.Found1 && r.Before <= answerFirstBytes
	var out struct {
		Results []struct {
			Title   string `json:"title"`
			Section string `json:"section"`
			Snippet string `json:"snippet"`
			URI     string `json:"uri"`
		} `json:"results"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	r.StructuredBytes = len(raw)
	if err := json.Unmarshal(raw, &out); err != nil {
		return r, fmt.Errorf("%s: structured content: %w", answerSearchTool, err)
	}
	if len(out.Results) == 0 {
		r.Found2 = r.Found1
		return r, nil
	}
	hit := out.Results[0]
	r.Title, r.URI = hit.Title, hit.URI
	r.Hit1 = holds(q.re, hit.Title+"\n"+hit.Section+"\n"+hit.Snippet)
	read, err := readAnswer(ctx, cs, r.URI, readVia)
	if err != nil {
		r.ReadErr = err.Error()
	}
	r.ReadBytes = len(read)
	r.Found2 = r.Found1 || holds(q.re, answer+"\n"+read)
	return r, nil
}

// holds reports whether text holds the fact re words: as it is, or with inline markup removed
// (the regexes of testdata/answers were written with the markup of their sources, the held-out
// ones without), and without the "> " that quotes each line of a passage in the answer's text,
// so that a fact that spans two lines of a passage is found in the text as in the snippet.
func holds(re *regexp.Regexp, text string) bool {
	return re.MatchString(text) || re.MatchString(stripMarkup(text)) || re.MatchString(stripMarkup(unquote(text)))
}

// unquote removes the quote marker that opens a line of text after its indentation ("   > "),
// as the answer's text quotes each line of a passage.
func unquote(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if rest, ok := strings.CutPrefix(t, ">"); ok {
			lines[i] = strings.TrimPrefix(rest, " ")
		}
	}
	return strings.Join(lines, "\n")
}

// factEnd returns the length of the shortest head of answer that holds the fact, or -1 when
// answer does not hold it. A head that holds the fact stays holding it as it grows, so a binary
// search over the lengths finds it.
func factEnd(re *regexp.Regexp, answer string) int {
	if !holds(re, answer) {
		return -1
	}
	return sort.Search(len(answer), func(i int) bool { return holds(re, answer[:i]) })
}

// readAnswer reads uri once: with the read tool, or with resources/read. A read that the server
// refuses (a tool error, a JSON-RPC error) is returned as an error with the text it gave.
func readAnswer(ctx context.Context, cs *mcp.ClientSession, uri, via string) (string, error) {
	if via == answerReadTool {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: answerReadTool, Arguments: map[string]any{"uri": uri}})
		if err != nil {
			return "", err
		}
		text := toolText(res)
		if res.IsError {
			return text, fmt.Errorf("%s %s: %s", answerReadTool, uri, text)
		}
		return text, nil
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Contents {
		b.WriteString(c.Text)
	}
	return b.String(), nil
}

// toolText returns all the text a tool result carries: its text contents and the text of
// embedded resources, joined by newlines.
func toolText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				parts = append(parts, c.Resource.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// answerTotals are a run's measures.
type answerTotals struct {
	FoundFirst, FoundRead float64 // shares of questions, 0 to 1
	Hit1, First2K         float64 // shares of questions, 0 to 1
	Before                float64 // mean bytes of the answer up to the end of the fact, over those found
	AnswerBytes           float64 // mean bytes of a search answer's text
	ResultBytes           float64 // mean bytes of a whole search result as JSON
	StructuredBytes       float64 // mean bytes of a search result's structured content as JSON
	ReadBytes             float64 // mean bytes of a read, over the questions that had a hit to read
}

func (run answerRun) totals() answerTotals {
	var t answerTotals
	reads, found := 0, 0
	for _, r := range run.Results {
		if r.Found1 {
			t.FoundFirst++
			t.Before += float64(r.Before)
			found++
		}
		if r.Hit1 {
			t.Hit1++
		}
		if r.First2K {
			t.First2K++
		}
		if r.Found2 {
			t.FoundRead++
		}
		t.AnswerBytes += float64(r.AnswerBytes)
		t.ResultBytes += float64(r.ResultBytes)
		t.StructuredBytes += float64(r.StructuredBytes)
		if r.URI != "" {
			t.ReadBytes += float64(r.ReadBytes)
			reads++
		}
	}
	if found > 0 {
		t.Before /= float64(found)
	}
	if n := float64(len(run.Results)); n > 0 {
		t.FoundFirst /= n
		t.FoundRead /= n
		t.Hit1 /= n
		t.First2K /= n
		t.AnswerBytes /= n
		t.ResultBytes /= n
		t.StructuredBytes /= n
	}
	if reads > 0 {
		t.ReadBytes /= float64(reads)
	}
	return t
}

// table returns the per-question lines: id, found first, found after the read, answer and read
// bytes, and the first hit's title (with the read's error, if any).
func (run answerRun) table() []string {
	lines := []string{fmt.Sprintf("%-40s %-5s %-5s %-5s %-5s %7s %7s %7s  %s", "id", "any", "hit1", "2KB", "read", "beforeB", "answerB", "readB", "top hit")}
	for _, r := range run.Results {
		title := r.Title
		if title == "" {
			title = "(no hits)"
		}
		if r.ReadErr != "" {
			title += "  [read error: " + firstLine(r.ReadErr) + "]"
		}
		lines = append(lines, fmt.Sprintf("%-40s %-5s %-5s %-5s %-5s %7d %7d %7d  %s", r.Q.ID, yes(r.Found1), yes(r.Hit1), yes(r.First2K), yes(r.Found2), r.Before, r.AnswerBytes, r.ReadBytes, title))
	}
	return lines
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

// summary is the one-line report of a run, per ecosystem and overall.
func (run answerRun) summary() []string {
	byEco := map[string]answerRun{}
	var ecos []string
	for _, r := range run.Results {
		e := r.Q.Ecosystem
		if _, ok := byEco[e]; !ok {
			ecos = append(ecos, e)
		}
		sub := byEco[e]
		sub.Results = append(sub.Results, r)
		byEco[e] = sub
	}
	line := func(name string, sub answerRun) string {
		t := sub.totals()
		return fmt.Sprintf("%-7s %3d questions: anywhere %.3f, hit 1 %.3f, first 2 KB %.3f, found-read %.3f (read via %s), %.0f B before the fact, mean answer %.0f B (structured %.0f B, whole result %.0f B), mean read %.0f B",
			name, len(sub.Results), t.FoundFirst, t.Hit1, t.First2K, t.FoundRead, run.ReadVia, t.Before, t.AnswerBytes, t.StructuredBytes, t.ResultBytes, t.ReadBytes)
	}
	var out []string
	for _, e := range ecos {
		out = append(out, line(e, byEco[e]))
	}
	return append(out, line("all", run))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// openAnswers opens the corpus snapshot and connects an SDK client to a server over it.
func openAnswers(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	r, err := index.Open(corpusSnapshot(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { r.Close() })
	cs := connect(tb, r)
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// answerSets returns the sets TestAnswers runs, in the order named: DOCIDX_ANSWERS_SETS (names
// among "answers", "dev" and "test", or the path of a question file of testdata/heldout's
// format ending in ".json", whose questions all run, separated by spaces), else "answers dev".
// The held-out test half runs only when named, to report: tune on dev. A question file kept
// outside the repository is a set the project never sees.
func answerSets(tb testing.TB) (names []string, sets map[string][]answerQuestion) {
	names = strings.Fields(os.Getenv("DOCIDX_ANSWERS_SETS"))
	if len(names) == 0 {
		names = []string{"answers", "dev"}
	}
	sets = map[string][]answerQuestion{}
	for _, n := range names {
		switch {
		case n == "answers":
			sets[n] = answerQuestions(tb)
		case n == "dev" || n == "test":
			sets[n] = heldoutQuestions(tb, n)
		case strings.HasSuffix(n, ".json"):
			sets[n] = readQuestions(tb, n)
		default:
			tb.Fatalf("DOCIDX_ANSWERS_SETS: unknown set %q (answers, dev, test, or a question file ending in .json)", n)
		}
	}
	return names, sets
}

// corpusHolds reports whether the corpus holds packages of ecosystem eco: Go, npm and Python
// always; cargo and Swift when scripts/corpus.sh laid out their fixtures (cargohome,
// swiftproject), which corpusCaches crawls and a DOCIDX_CORPUS_INDEX snapshot is to be crawled
// with (--cargo-home, --swift-checkouts).
func corpusHolds(eco string) bool {
	switch eco {
	case "golang", "npm", "pypi":
		return true
	case "cargo":
		return isDir(filepath.Join(os.Getenv("DOCIDX_CORPUS"), "cargohome"))
	case "swift":
		return isDir(filepath.Join(os.Getenv("DOCIDX_CORPUS"), "swiftproject"))
	}
	return false
}

// TestAnswers runs the question sets over the corpus and prints each one's per-question table and
// totals; it fails when testdata/answers' totals miss their goals (issues 14 and 26). `make answers` runs it;
// it skips without DOCIDX_ANSWERS=1 and a corpus. Questions about ecosystems the corpus does not
// lay out (cargo and swift fixtures of an older corpus: corpusHolds) are counted and left out.
func TestAnswers(t *testing.T) {
	if os.Getenv("DOCIDX_ANSWERS") == "" {
		t.Skip("set DOCIDX_ANSWERS=1 (make answers) to run the answer benchmark over the corpus")
	}
	names, sets := answerSets(t)
	cs := openAnswers(t)
	for _, name := range names {
		qs := sets[name]
		var in []answerQuestion
		for _, q := range qs {
			if corpusHolds(q.Ecosystem) {
				in = append(in, q)
			}
		}
		run, err := askAnswers(t.Context(), cs, in)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("== set %s: %d questions (%d about cargo or swift fixtures the corpus does not lay out, left out: run scripts/corpus.sh)", name, len(in), len(qs)-len(in))
		for _, l := range run.table() {
			t.Log(l)
		}
		for _, l := range run.summary() {
			t.Logf("%-7s %s", name, l)
		}
		if run.ReadVia != answerReadTool {
			t.Logf("the server has no %s tool: the read went through %s", answerReadTool, answerReadMethod)
		}
		if name != "answers" {
			continue
		}
		tot := run.totals()
		if tot.FoundFirst < goalFoundFirst || tot.FoundRead < goalFoundRead || tot.AnswerBytes > goalAnswerBytes {
			t.Errorf("found-first %.3f, found-read %.3f, mean answer %.0f B: the goal is at least %.2f and %.2f within %d B",
				tot.FoundFirst, tot.FoundRead, tot.AnswerBytes, goalFoundFirst, goalFoundRead, goalAnswerBytes)
		}
	}
}

// BenchmarkAnswers runs the question set over the corpus per iteration and reports the shares
// found first (found-first) and after one read (found-read), and the mean bytes of an answer
// (answer-B, its text content; result-B, the whole result as JSON) and of a read (read-B). With -v it logs the per-question table.
func BenchmarkAnswers(b *testing.B) {
	cs := openAnswers(b)
	qs := answerQuestions(b)
	var run answerRun
	for b.Loop() {
		var err error
		if run, err = askAnswers(b.Context(), cs, qs); err != nil {
			b.Fatal(err)
		}
	}
	tot := run.totals()
	b.ReportMetric(tot.FoundFirst, "found-first")
	b.ReportMetric(tot.FoundRead, "found-read")
	b.ReportMetric(tot.AnswerBytes, "answer-B")
	b.ReportMetric(tot.ReadBytes, "read-B")
	b.ReportMetric(tot.ResultBytes, "result-B")
	b.ReportMetric(tot.StructuredBytes, "structured-B")
	if testing.Verbose() {
		for _, l := range append(run.table(), run.summary()...) {
			b.Log(l)
		}
	}
}

// TestHoldsQuoted checks that a fact that spans two lines of a passage is held in the answer's
// text, which quotes each line, as in the snippet, and that factEnd finds where it ends.
func TestHoldsQuoted(t *testing.T) {
	re := regexp.MustCompile(`(?i)parse\s+line\s+received\s+from\s+pino\.\s+@default\s+JSON\.parse`)
	answer := "1. **BuildOptions.parseLine**\n   > `parseLine(line)` a function that is used to parse line received from pino.\n   > @default JSON.parse\n   docidx://npm/x@1/symbol/y\n"
	if !holds(re, answer) {
		t.Errorf("the fact across two quoted lines is not held in\n%s", answer)
	}
	if end := factEnd(re, answer); end != strings.Index(answer, "JSON.parse")+len("JSON.parse") {
		t.Errorf("factEnd = %d", end)
	}
	if holds(re, strings.Replace(answer, "@default", "@see", 1)) {
		t.Error("another tag held as the fact")
	}
}
