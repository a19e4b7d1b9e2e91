package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/registrytest"
)

// Faults a faultProxy injects, by kind.
const (
	faultTooMany   = "429"       // 429 Too Many Requests with Retry-After: 1
	faultServer    = "500"       // 500 Internal Server Error
	faultTruncated = "truncated" // the full Content-Length, half the body, then the connection closes
	faultSlow      = "slow"      // the right answer, 1.5 s late
)

// faultProxy stands in front of a fake registry and injects a fault into the first request for a
// fraction of paths (chosen by a hash of the path, so runs are repeatable); later requests for the
// same path go through, as from a registry whose trouble passes. latency is added to every
// request. Upstream URLs in bodies (npm tarball URLs) are rewritten to point at the proxy. The
// faults are registrytest faults whose Match picks the paths.
type faultProxy struct {
	*registrytest.Server
	upstream string
	fraction uint32 // faulty paths per 1000
	latency  time.Duration

	attempts map[string]int // guarded by the Server's lock, under which Match runs
	injected map[string]int
	mu       sync.Mutex // guards injected for faultCount
	bytes    atomic.Int64
}

func newFaultProxy(t *testing.T, upstream string, fraction uint32, latency time.Duration) *faultProxy {
	p := &faultProxy{upstream: strings.TrimSuffix(upstream, "/"), fraction: fraction, latency: latency,
		attempts: map[string]int{}, injected: map[string]int{}}
	p.Server = registrytest.NewServer(t, http.HandlerFunc(p.forward), nil)
	for i, f := range []registrytest.Fault{
		{Status: http.StatusTooManyRequests, RetryAfter: "1"},
		{Status: http.StatusInternalServerError},
		{Truncate: true},
		{Delay: 1500 * time.Millisecond},
	} {
		f.Match = p.picker(uint32(i), []string{faultTooMany, faultServer, faultTruncated, faultSlow}[i])
		p.Inject(f)
	}
	return p
}

// picker returns a Fault's Match for the paths whose hash picks fault kind k (of four), on
// their first request only.
func (p *faultProxy) picker(k uint32, kind string) func(target string) bool {
	return func(target string) bool {
		h := fnv.New32a()
		h.Write([]byte(target))
		n := h.Sum32() % 1000
		if n >= p.fraction || n%4 != k {
			return false
		}
		p.attempts[target]++
		if p.attempts[target] > 1 {
			return false
		}
		p.mu.Lock()
		p.injected[kind]++
		p.mu.Unlock()
		return true
	}
}

// forward answers a request from upstream, after the proxy's latency.
func (p *faultProxy) forward(w http.ResponseWriter, r *http.Request) {
	if p.latency > 0 {
		time.Sleep(p.latency)
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, p.upstream+r.URL.RequestURI(), nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	body = bytes.ReplaceAll(body, []byte(p.upstream), []byte(p.URL))
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(resp.StatusCode)
	n, _ := w.Write(body)
	p.bytes.Add(int64(n))
}

// faultCount returns the faults injected that a client must retry (all but slow answers).
func (p *faultProxy) faultCount() (retryable int, all map[string]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	all = map[string]int{}
	for k, v := range p.injected {
		all[k] = v
		if k != faultSlow {
			retryable += v
		}
	}
	return retryable, all
}

// flakyRegistries starts fake Go and npm registries holding n module versions and n npm package
// versions, behind fault proxies, and returns the proxies and the specs naming every package.
func flakyRegistries(t *testing.T, n int, fraction uint32, latency time.Duration) (goProxy, npmReg *faultProxy, specs []string) {
	var mods []*gomodtest.Module
	for i := range n {
		path := fmt.Sprintf("example.com/flaky/mod%03d", i)
		m, err := gomodtest.NewModule(path, "v1.0.0", map[string][]byte{
			"go.mod":    []byte("module " + path + "\n\ngo 1.21\n"),
			"README.md": []byte(fmt.Sprintf("# mod%03d\n\nParses flaky widget specs, number %d.\n\n## Usage\n\n```go\nw, err := mod.Parse(spec)\n```\n", i, i)),
			"mod.go": []byte(fmt.Sprintf("// Package mod%03d parses widget specs.\npackage mod%03d\n\n// Widget is a parsed spec.\ntype Widget struct{ Name string }\n\n"+
				"// Parse parses spec.\nfunc Parse(spec string) (*Widget, error) { return &Widget{Name: spec}, nil }\n", i, i)),
		})
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
		specs = append(specs, "go:"+path+"@v1.0.0")
	}
	gs := gomodtest.NewServer(t, mods...)
	ns := npmtest.NewServer(t, "")
	for _, p := range npmTree(n, "flaky") {
		ns.AddPackage(p.Name, p.Version, p.Files)
		specs = append(specs, "npm:"+p.Name+"@"+p.Version)
	}
	return newFaultProxy(t, gs.URL, fraction, latency), newFaultProxy(t, ns.URL, fraction, latency), specs
}

// TestCrawlThroughFlakyRegistries crawls 200 packages (100 Go modules, 100 npm packages) from
// fake registries that answer a fraction of first requests with 429 (Retry-After), 500, a
// truncated body, or slowly: every package is indexed, and the summary counts one retry per
// injected failure.
func TestCrawlThroughFlakyRegistries(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls 200 packages, waiting out Retry-After")
	}
	goProxy, npmReg, specs := flakyRegistries(t, 100, 200, 0) // a fault on 20% of paths
	idx := t.TempDir()
	cmd := docidxCmd(t, append([]string{"crawl", "--json", "--index", idx}, specs...)...)
	cmd.Env = append(cmd.Env, "GOPROXY="+goProxy.URL, "NPM_CONFIG_REGISTRY="+npmReg.URL+"/", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, stderr.String())
	}
	elapsed := time.Since(start)
	var sum struct {
		Indexed, Unchanged, Failed int
		Retries                    int64
	}
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout.String())
	}
	goRetry, goFaults := goProxy.faultCount()
	npmRetry, npmFaults := npmReg.faultCount()
	t.Logf("200 packages in %v through %d+%d requests; faults injected: go %v, npm %v; %d retries", elapsed,
		len(goProxy.Requests()), len(npmReg.Requests()), goFaults, npmFaults, sum.Retries)
	if sum.Indexed != 200 || sum.Failed != 0 {
		t.Errorf("indexed %d, failed %d; want all 200\n%s", sum.Indexed, sum.Failed, stderr.String())
	}
	if want := int64(goRetry + npmRetry); sum.Retries != want || want == 0 {
		t.Errorf("summary counts %d retries, %d retryable faults were injected", sum.Retries, want)
	}
	// The human summary says the same.
	cmd = docidxCmd(t, append([]string{"crawl", "--refresh", "--index", idx}, specs[:4]...)...)
	cmd.Env = append(cmd.Env, "GOPROXY="+goProxy.URL, "NPM_CONFIG_REGISTRY="+npmReg.URL+"/")
	out, err := cmd.CombinedOutput()
	if err != nil || !regexpMatch(`crawled 4 packages .* 4 indexed, 0 unchanged, 0 failed; .*; 0 retries;`, string(out)) {
		t.Errorf("human summary: %v\n%s", err, out)
	}
}

// TestCrawlThroughputRemote measures a crawl of 200 packages from fake registries with
// DOCIDX_FAKE_LATENCY (e.g. 50ms) added to every request and no faults. It runs only when that
// variable is set.
func TestCrawlThroughputRemote(t *testing.T) {
	lat := os.Getenv("DOCIDX_FAKE_LATENCY")
	if lat == "" {
		t.Skip("set DOCIDX_FAKE_LATENCY=50ms to measure")
	}
	latency, err := time.ParseDuration(lat)
	if err != nil {
		t.Fatal(err)
	}
	goProxy, npmReg, specs := flakyRegistries(t, 100, 0, latency)
	for _, j := range []string{"8", "32"} {
		idx := t.TempDir()
		cmd := docidxCmd(t, append([]string{"crawl", "--quiet", "-j", j, "--index", idx}, specs...)...)
		cmd.Env = append(cmd.Env, "GOPROXY="+goProxy.URL, "NPM_CONFIG_REGISTRY="+npmReg.URL+"/")
		b0 := goProxy.bytes.Load() + npmReg.bytes.Load()
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("crawl: %v\n%s", err, out)
		}
		d := time.Since(start)
		mb := float64(goProxy.bytes.Load()+npmReg.bytes.Load()-b0) / 1e6
		t.Logf("latency %v, -j %s: 200 packages in %v: %.1f packages/s, %.2f MB in %.2f MB/s", latency, j, d.Round(time.Millisecond),
			200/d.Seconds(), mb, mb/d.Seconds())
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile("(?m)" + pattern).MatchString(s) }
