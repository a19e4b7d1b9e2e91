package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
)

// This is how `docidx serve --stdio` wires serve: open the snapshot read-only, build the Server,
// and run it on the process's stdin and stdout, with logs on stderr. Here stdin is a script of
// three messages and stdout is captured to show the describe_npm_package result.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "docidx-example-")
	defer os.RemoveAll(dir)
	w, _ := index.Create(dir)
	w.Put(ctx, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "left-pad", Version: "1.3.0", Description: "String left pad."},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "leftPad", QualifiedName: "leftPad",
			Signature: "export function leftPad(s: string, n: number): string", Doc: "leftPad pads s on the left to n characters."}},
	})
	w.Commit(ctx)

	r, err := index.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	srv := serve.New(r, serve.Options{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})

	stdin := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"describe_npm_package","arguments":{"package":"left-pad"}}}
`)
	var stdout strings.Builder
	if err := srv.RunStdio(ctx, stdin, &stdout); err != nil { // in docidx serve: os.Stdin, os.Stdout
		fmt.Println(err)
		return
	}

	sc := bufio.NewScanner(strings.NewReader(stdout.String()))
	for sc.Scan() {
		var resp struct {
			ID     int
			Result struct {
				StructuredContent answer.DescribeOutput
			}
		}
		json.Unmarshal(sc.Bytes(), &resp)
		if resp.ID == 2 {
			out := resp.Result.StructuredContent
			fmt.Println(out.PURL, out.Description)
			for _, e := range out.Outline {
				fmt.Printf("%s: %s\n", e.Signature, e.Synopsis)
			}
		}
	}
	// Output:
	// pkg:npm/left-pad@1.3.0 String left pad.
	// export function leftPad(s: string, n: number): string: leftPad pads s on the left to n characters.
}
