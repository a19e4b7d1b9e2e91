package main

// Benchmarks of the real `docidx serve --stdio` process over the corpus snapshot, measured from
// outside as an editor uses it: a docidx binary built once per test binary with `go build`, spoken
// to in newline-delimited JSON-RPC 2.0 by a client of a few lines, so the numbers are those of the
// server, its pipes and its process. They report p50-ms and p99-ms per round trip (per start-up
// for BenchmarkStdioStartup). `make bench` sets DOCIDX_CORPUS; for a quick run over a snapshot
// crawled before:
//
//	DOCIDX_CORPUS_INDEX=/tmp/snap go test -run '^$' -bench Stdio ./cmd/docidx

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	stdioBinOnce sync.Once
	stdioBin     string
	stdioBinErr  error
)

// docidxBinary builds this package once per test binary, or skips b without a go command. The
// benchmarks measure a real docidx, not this test binary (whose start-up runs the testing
// package's init too). It is built to one place under the temporary directory, replaced by
// rename, so runs do not leave a binary each behind.
//
// DOCIDX_BENCH_BIN names a docidx binary to measure instead — the previous main's, to compare two
// builds side by side in the same session (each over its own snapshot, DOCIDX_CORPUS_INDEX).
func docidxBinary(b testing.TB) string {
	if bin := os.Getenv("DOCIDX_BENCH_BIN"); bin != "" {
		return bin
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		b.Skip("go command not found: the stdio benchmarks build docidx with it")
	}
	stdioBinOnce.Do(func() {
		dir := filepath.Join(os.TempDir(), "docidx-stdio-bench")
		if stdioBinErr = os.MkdirAll(dir, 0o755); stdioBinErr != nil {
			return
		}
		tmp := filepath.Join(dir, fmt.Sprintf("docidx.%d", os.Getpid()))
		build := exec.Command(gocmd, "build", "-o", tmp, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build and the README's install do
		if out, err := build.CombinedOutput(); err != nil {
			stdioBinErr = fmt.Errorf("go build: %v\n%s", err, out)
			os.Remove(tmp)
			return
		}
		stdioBin = filepath.Join(dir, "docidx")
		stdioBinErr = os.Rename(tmp, stdioBin)
	})
	if stdioBinErr != nil {
		b.Fatal(stdioBinErr)
	}
	return stdioBin
}

// stdioProc is one `docidx serve --stdio` process and the client end of its pipes.
type stdioProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer // read only after Wait
	id     int
	done   bool
	// toolErrors accepts tools/call results with isError true ("no results for …"), which
	// check otherwise takes for a failure.
	toolErrors bool
}

// startStdio starts bin on the snapshot and returns once its initialize response is read.
func startStdio(bin, snapshot string) (*stdioProc, error) {
	p := &stdioProc{cmd: exec.Command(bin, "serve", "--stdio", "--index", snapshot)}
	p.cmd.Stderr = &p.stderr
	in, err1 := p.cmd.StdinPipe()
	out, err2 := p.cmd.StdoutPipe()
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	p.in, p.out = in, bufio.NewReaderSize(out, 1<<20)
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	if _, err := p.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": struct{}{},
		"clientInfo": map[string]string{"name": "docidx-bench", "version": "1"}}); err != nil {
		return nil, p.fail(err)
	}
	return p, nil
}

// call sends a request and reads the next line as its response. It returns the result, or an
// error when the id differs, there is an error member, or a tools/call result has isError true.
func (p *stdioProc) call(method string, params any) (json.RawMessage, error) {
	req, err := p.request(method, params)
	if err != nil {
		return nil, err
	}
	line, err := p.roundTrip(method, req)
	if err != nil {
		return nil, err
	}
	return p.check(method, line)
}

// request encodes the next request, as one line.
func (p *stdioProc) request(method string, params any) ([]byte, error) {
	p.id++
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return append(line, '\n'), nil
}

// roundTrip writes a request line and reads the next line, its response: what an editor waits
// for. The line is valid until the next read.
func (p *stdioProc) roundTrip(method string, req []byte) ([]byte, error) {
	if _, err := p.in.Write(req); err != nil { // one line, one write
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	line, err := p.out.ReadSlice('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: read response: %w", method, err)
	}
	return line, nil
}

// check returns the result of the response line to the last request, or an error when the id
// differs, there is an error member, or a tools/call result has isError true (unless
// p.toolErrors).
func (p *stdioProc) check(method string, line []byte) (json.RawMessage, error) {
	var resp struct {
		ID, Result, Error json.RawMessage
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("%s: %w: %s", method, err, line)
	}
	var tool struct{ IsError bool }
	if string(resp.ID) != strconv.Itoa(p.id) || resp.Error != nil ||
		method == "tools/call" && (json.Unmarshal(resp.Result, &tool) != nil || tool.IsError && !p.toolErrors) {
		return nil, fmt.Errorf("%s: want a result for id %d, got %s", method, p.id, line)
	}
	return resp.Result, nil
}

// close closes stdin, so docidx answers what it has read and exits, and waits for it (10 s at
// most, then kills it).
func (p *stdioProc) close() error {
	if p.done {
		return nil
	}
	p.done = true
	p.in.Close()
	t := time.AfterFunc(10*time.Second, func() { p.cmd.Process.Kill() })
	defer t.Stop()
	if err := p.cmd.Wait(); err != nil {
		return fmt.Errorf("docidx serve --stdio: %w; stderr:\n%s", err, p.stderr.Bytes())
	}
	return nil
}

// fail stops the process and adds its stderr to err.
func (p *stdioProc) fail(err error) error {
	p.close()
	return fmt.Errorf("%w; stderr:\n%s", err, p.stderr.Bytes())
}

// openStdio starts an initialized server that stops when b ends.
func openStdio(b *testing.B) *stdioProc {
	snapshot := corpusSnapshot(b)
	p, err := startStdio(docidxBinary(b), snapshot)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := p.close(); err != nil {
			b.Error(err)
		}
	})
	if _, err := io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(p.fail(err))
	}
	return p
}

// benchCalls measures b.N round trips of method with params(i), after an untimed one whose
// result must contain want.
func benchCalls(b *testing.B, p *stdioProc, want, method string, params func(i int) any) {
	if res, err := p.call(method, params(0)); err != nil || !strings.Contains(string(res), want) {
		b.Fatal(p.fail(fmt.Errorf("%s: want %s in the result, got %s (%v)", method, want, res, err)))
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		// Only the round trip counts: encoding the request and checking the response are the
		// client's work (decoding a search answer takes this client 0.15 ms).
		req, err := p.request(method, params(i))
		if err != nil {
			b.Fatal(p.fail(err))
		}
		t := time.Now()
		line, err := p.roundTrip(method, req)
		lat = append(lat, time.Since(t))
		if err == nil {
			_, err = p.check(method, line)
		}
		if err != nil {
			b.Fatal(p.fail(err))
		}
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// searchCall is the params of a tools/call of search_package_docs for the i'th corpus query.
func searchCall(i int) any {
	return map[string]any{"name": "search_package_docs",
		"arguments": map[string]any{"query": corpusQueries[i%len(corpusQueries)], "limit": 10}}
}

// BenchmarkStdioStartup measures from starting the process to reading its initialize response.
// ready-ms is the p50 from starting the process to the answer of a first tool call that reads
// the snapshot (list_packages), which waits for the snapshot to open after initialize.
func BenchmarkStdioStartup(b *testing.B) {
	snapshot := corpusSnapshot(b)
	bin := docidxBinary(b)
	lat := make([]time.Duration, 0, b.N)
	ready := make([]time.Duration, 0, b.N)
	list := map[string]any{"name": "list_packages", "arguments": map[string]any{"limit": 1}}
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		p, err := startStdio(bin, snapshot)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
		_, err = io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		if err == nil {
			_, err = p.call("tools/call", list)
		}
		if err != nil {
			b.Fatal(p.fail(err))
		}
		ready = append(ready, time.Since(t))
		if err := p.close(); err != nil {
			b.Fatal(err)
		}
	}
	reportPercentiles(b, lat)
	slices.Sort(ready)
	b.ReportMetric(float64(ready[len(ready)/2].Microseconds())/1000, "ready-ms")
}

// BenchmarkStdioSearch measures search_package_docs round trips after a warm-up pass over
// corpusQueries. first-ms is the process's first search, before the warm-up; rss-MB and hwm-MB
// are its resident memory at the end and at its peak (from /proc, when there is one).
func BenchmarkStdioSearch(b *testing.B) {
	p := openStdio(b)
	var first time.Duration
	for i := range len(corpusQueries) + 1 { // the first search, then the warm-up pass
		t := time.Now()
		if _, err := p.call("tools/call", searchCall(i)); err != nil {
			b.Fatal(p.fail(err))
		}
		if i == 0 {
			first = time.Since(t)
		}
	}
	reportCPU := serverCPU(p)
	benchCalls(b, p, `"results":[{`, "tools/call", searchCall)
	reportCPU(b)
	b.ReportMetric(float64(first.Microseconds())/1000, "first-ms") // after ResetTimer, which drops metrics
	reportMemory(b, p.cmd.Process.Pid)
}

// reportMemory reports process pid's resident memory (from /proc, when there is one) in MB of
// 1<<20 bytes: rss-MB now, hwm-MB at its peak, and of rss-MB the process's own memory (anon-MB:
// heap, stacks) and the pages of mapped files it has touched (file-MB: the binary, Bleve's
// segments), which the kernel shares with other processes and can drop.
func reportMemory(b *testing.B, pid int) {
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for key, unit := range map[string]string{"VmRSS:": "rss-MB", "VmHWM:": "hwm-MB", "RssAnon:": "anon-MB", "RssFile:": "file-MB"} {
		var kb float64 // "VmRSS:	  123456 kB"
		if _, v, ok := strings.Cut(string(status), key); ok {
			if _, err := fmt.Sscan(v, &kb); err == nil {
				b.ReportMetric(kb/(1<<10), unit)
			}
		}
	}
}

// BenchmarkStdioSearchVaried measures search_package_docs round trips over variedQuestions
// instead of the ten corpusQueries: one question after another as an assistant asks them, each
// at most once when b.N <= 3,000 (-benchtime 3000x), so no answer is read from caches that a
// repeated question warmed. cpu-ms/op and the memory are the server's, as in BenchmarkStdioSearch.
func BenchmarkStdioSearchVaried(b *testing.B) {
	questions := variedQuestions(b, 3000)
	p := openStdio(b)
	for i := range corpusQueries { // the same warm-up as BenchmarkStdioSearch
		if _, err := p.call("tools/call", searchCall(i)); err != nil {
			b.Fatal(p.fail(err))
		}
	}
	p.toolErrors = true // a mix of words may match nothing: "no results" is an answer too
	reportCPU := serverCPU(p)
	benchCalls(b, p, `"content":[`, "tools/call", func(i int) any {
		return map[string]any{"name": "search_package_docs",
			"arguments": map[string]any{"query": questions[i%len(questions)], "limit": 10}}
	})
	reportCPU(b)
	reportMemory(b, p.cmd.Process.Pid)
}

// variedQuestions returns n distinct questions: the labelled and held-out questions of
// testdata/relevance, then mixes of two to five of their words drawn with a fixed seed (so
// every run asks the same ones), some of which match nothing.
func variedQuestions(tb testing.TB, n int) []string {
	var questions, words []string
	seen := map[string]bool{}
	for _, file := range []string{"queries.json", "heldout.json"} {
		for _, q := range labelled(tb, file) {
			questions = append(questions, q.Query)
			seen[q.Query] = true
			words = append(words, strings.Fields(q.Query)...)
		}
	}
	rng := rand.New(rand.NewPCG(6, 2026))
	for len(questions) < n {
		mix := make([]string, 2+rng.IntN(4))
		for i := range mix {
			mix[i] = words[rng.IntN(len(words))]
		}
		if q := strings.Join(mix, " "); !seen[q] {
			questions = append(questions, q)
			seen[q] = true
		}
	}
	return questions[:n]
}

// BenchmarkStdioPing measures ping round trips: the floor of every request, the SDK's and the
// pipes' share.
func BenchmarkStdioPing(b *testing.B) {
	p := openStdio(b)
	benchCalls(b, p, `{}`, "ping", func(int) any { return struct{}{} })
}

// BenchmarkStdioToolFloor measures a tool call with a small answer that reads little
// (list_packages of one ecosystem the corpus lacks): the floor of every tool call.
func BenchmarkStdioToolFloor(b *testing.B) {
	p := openStdio(b)
	params := map[string]any{"name": "list_packages", "arguments": map[string]any{"limit": 1, "ecosystem": "cargo"}}
	benchCalls(b, p, `"packages":`, "tools/call", func(int) any { return params })
}

// serverCPU notes the CPU time p's server has used so far and returns a function that reports,
// as cpu-ms/op, what it used since per request of b (b.N timed ones and the untimed first of
// benchCalls), over all its threads; nothing when /proc cannot tell.
func serverCPU(p *stdioProc) func(b *testing.B) {
	cpu0, ok0 := processCPU(p.cmd.Process.Pid)
	return func(b *testing.B) {
		if cpu1, ok := processCPU(p.cmd.Process.Pid); ok && ok0 {
			b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N+1)/1000, "cpu-ms/op")
		}
	}
}

// processCPU returns the user and system CPU time process pid has used (from /proc), or false.
func processCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(data, ')')
	if err != nil || i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:])) // state is f[0]; utime and stime are fields 14 and 15 of stat
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / 100, true // USER_HZ is 100 on Linux
}

// BenchmarkStdioDescribe measures describe_go_package of one symbol of a package in a module,
// the same each time: after the first call the package's symbols come from the server's cache,
// as they do when an assistant describes one symbol of a package after another.
func BenchmarkStdioDescribe(b *testing.B) {
	p := openStdio(b)
	params := map[string]any{"name": "describe_go_package",
		"arguments": map[string]any{"package": "golang.org/x/sync/errgroup", "symbol": "Group.Go"}}
	benchCalls(b, p, `"symbols":[{`, "tools/call", func(int) any { return params })
}

// BenchmarkStdioResourceRead measures resources/read of the first search result's resource.
func BenchmarkStdioResourceRead(b *testing.B) {
	p := openStdio(b)
	res, err := p.call("tools/call", searchCall(1))
	var out struct {
		StructuredContent struct{ Results []struct{ URI string } }
	}
	if err != nil || json.Unmarshal(res, &out) != nil || len(out.StructuredContent.Results) == 0 {
		b.Fatal(p.fail(fmt.Errorf("search %q gave no resource URI: %s (%v)", corpusQueries[1], res, err)))
	}
	params := map[string]any{"uri": out.StructuredContent.Results[0].URI}
	benchCalls(b, p, `"contents":[{`, "resources/read", func(int) any { return params })
}
