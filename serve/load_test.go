package serve_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Load test of the Streamable HTTP transport (issue 4): loadClients concurrent clients, each
// with its own MCP session over its own connections, make loadCalls calls each — a mix of
// search, describe, document, listing and resource reads — against one stateful server with
// the default limits (rate limit included). No call may fail; the benchmark reports the
// latency percentiles of single calls and the throughput.
//
// It serves the fixture snapshot, or the snapshot in DOCIDX_SERVE_INDEX when set (for
// example one crawled with `docidx crawl --offline --from go.mod --go-modcache`).
const (
	loadClients = 50
	loadCalls   = 200
)

func BenchmarkHTTPLoad(b *testing.B) {
	r := snapshot(b)
	if dir := os.Getenv("DOCIDX_SERVE_INDEX"); dir != "" {
		var err error
		if r, err = index.Open(dir); err != nil {
			b.Fatal(err)
		}
		defer r.Close()
	}
	srv := serve.New(r, serve.Options{Logger: slog.New(slog.DiscardHandler)})
	ts := httptest.NewServer(srv.NewHTTPHandler(serve.HTTPOptions{}))
	defer ts.Close()
	transport := &http.Transport{MaxIdleConns: 4 * loadClients, MaxIdleConnsPerHost: 4 * loadClients, IdleConnTimeout: time.Minute}
	defer transport.CloseIdleConnections()
	hc := &http.Client{Transport: transport}
	ctx := context.Background()

	connect := func() (*mcp.ClientSession, error) {
		return mcp.NewClient(&mcp.Implementation{Name: "load", Version: "v0"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: ts.URL + serve.MCPPath, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	}
	// The workload: what the snapshot holds, then a rotation of calls over it.
	cs, err := connect()
	if err != nil {
		b.Fatal(err)
	}
	var list answer.ListOutput
	structured(b, call(b, cs, serve.ToolListPackages, map[string]any{"limit": 20}), &list)
	cs.Close()
	if len(list.Packages) == 0 {
		b.Fatal("empty snapshot")
	}
	type op func(cs *mcp.ClientSession, i int) error
	tool := func(name string, args func(i int) map[string]any) op {
		return func(cs *mcp.ClientSession, i int) error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args(i)})
			if err == nil && res.IsError {
				err = fmt.Errorf("%s: %s", name, resultText(res))
			}
			return err
		}
	}
	pkg := func(i int) answer.PackageListing { return list.Packages[i%len(list.Packages)] }
	queries := []string{"error handling", "context deadline", "parse", "pool goroutines", "middleware router", "retry backoff"}
	ops := []op{
		tool(serve.ToolSearch, func(i int) map[string]any { return map[string]any{"query": queries[i%len(queries)], "limit": 5} }),
		tool(serve.ToolGetDoc, func(i int) map[string]any {
			p := pkg(i)
			return map[string]any{"ecosystem": p.Ecosystem, "package": p.Package, "max_tokens": 1000}
		}),
		tool(serve.ToolListPackages, func(i int) map[string]any { return map[string]any{"limit": 10} }),
		func(cs *mcp.ClientSession, i int) error {
			p := pkg(i)
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: fmt.Sprintf("docidx://%s/%s@latest/overview", p.Ecosystem, p.Package)})
			return err
		},
		tool(serve.ToolSearch, func(i int) map[string]any { return map[string]any{"query": "new", "limit": 3, "kind": "func"} }),
	}
	// Describe only what describe tools exist for.
	describe := map[string]string{"golang": serve.ToolDescribeGo, "npm": serve.ToolDescribeNPM, "pypi": serve.ToolDescribePython,
		"cargo": serve.ToolDescribeRust, "swift": serve.ToolDescribeSwift}
	ops = append(ops, func(cs *mcp.ClientSession, i int) error {
		p := pkg(i)
		return tool(describe[p.Ecosystem], func(int) map[string]any { return map[string]any{"package": p.Package, "max_tokens": 1000} })(cs, i)
	})

	opNames := []string{"search", "get_package_doc", "list_packages", "resources/read", "search kind=func", "describe"}
	var (
		mu        sync.Mutex
		perOp     = make([][]time.Duration, len(ops))
		latencies []time.Duration
		failures  []error
		elapsed   time.Duration
		calls     int
	)
	for b.Loop() {
		start := time.Now()
		var wg sync.WaitGroup
		for c := range loadClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs, err := connect()
				if err != nil {
					mu.Lock()
					failures = append(failures, fmt.Errorf("client %d: connect: %w", c, err))
					mu.Unlock()
					return
				}
				defer cs.Close()
				lat := make([]time.Duration, 0, loadCalls)
				opLat := make([][]time.Duration, len(ops))
				var errs []error
				for i := range loadCalls {
					t0 := time.Now()
					k := (c + i) % len(ops)
					if err := ops[k](cs, c*loadCalls+i); err != nil {
						errs = append(errs, fmt.Errorf("client %d call %d: %w", c, i, err))
					}
					d := time.Since(t0)
					lat = append(lat, d)
					opLat[k] = append(opLat[k], d)
				}
				mu.Lock()
				for k := range opLat {
					perOp[k] = append(perOp[k], opLat[k]...)
				}
				latencies = append(latencies, lat...)
				failures = append(failures, errs...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		elapsed += time.Since(start)
		calls += loadClients * loadCalls
	}
	if len(failures) > 0 {
		b.Fatalf("%d of %d calls failed; first: %v", len(failures), calls, failures[0])
	}
	pct := func(l []time.Duration, p float64) float64 {
		slices.Sort(l)
		return float64(l[min(len(l)-1, int(p*float64(len(l))))].Microseconds()) / 1000
	}
	for k, l := range perOp {
		b.Logf("operation %d (%s): p50 %.2f ms, p99 %.2f ms over %d calls", k, opNames[k], pct(l, 0.5), pct(l, 0.99), len(l))
	}
	b.ReportMetric(pct(latencies, 0.50), "p50-ms")
	b.ReportMetric(pct(latencies, 0.99), "p99-ms")
	b.ReportMetric(float64(calls)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(0, "ns/op") // one op is the whole run; the metrics above say more
}
