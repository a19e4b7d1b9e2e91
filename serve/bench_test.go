package serve_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkSearchTool measures one search_package_docs call through the SDK's in-memory client:
// JSON-RPC both ways, argument validation, the index search, rendering and output validation.
func BenchmarkSearchTool(b *testing.B) {
	srv := serve.New(snapshot(b), serve.Options{Logger: slog.New(slog.DiscardHandler)})
	cs := connect(b, srv, nil)
	params := &mcp.CallToolParams{Name: serve.ToolSearch, Arguments: map[string]any{"query": "pool goroutines", "limit": 10}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}

// BenchmarkStdioStartup measures the time from serve.New over an open snapshot to the
// initialize response on stdout, in process.
func BenchmarkStdioStartup(b *testing.B) {
	r := snapshot(b)
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}` + "\n")
	log := slog.New(slog.DiscardHandler)
	b.ReportAllocs()
	for b.Loop() {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		srv := serve.New(r, serve.Options{Logger: log})
		done := make(chan error, 1)
		go func() { done <- srv.RunStdio(context.Background(), inR, outW) }()
		if _, err := inW.Write(init); err != nil {
			b.Fatal(err)
		}
		line, err := bufio.NewReader(outR).ReadBytes('\n')
		if err != nil || len(line) == 0 {
			b.Fatalf("no initialize response: %v", err)
		}
		inW.Close()
		go io.Copy(io.Discard, outR)
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		outW.Close()
	}
}

// BenchmarkResourceRead measures resources/read of a package's API outline and of one symbol
// through the in-memory client.
func BenchmarkResourceRead(b *testing.B) {
	srv := serve.New(snapshot(b), serve.Options{Logger: slog.New(slog.DiscardHandler)})
	cs := connect(b, srv, nil)
	ctx := context.Background()
	uris := []string{
		"docidx://golang/github.com/acme/workpool@latest/api",
		"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.Go",
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uris[i%len(uris)]}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkResourceList measures one page of resources/list answered from the store.
func BenchmarkResourceList(b *testing.B) {
	srv := serve.New(snapshot(b), serve.Options{Logger: slog.New(slog.DiscardHandler)})
	cs := connect(b, srv, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cs.ListResources(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
