package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The fixture snapshot: a Go module in two versions (v1.0.0 has Shutdown, v1.1.0 renames it
// Close and adds TryGo), with two packages, a README and a guide; and a scoped npm package
// whose README has a section longer than small budgets and one overlong line.

const (
	modPath   = "github.com/acme/workpool"
	npmName   = "@acme/router"
	pyName    = "acme-tomlkit"
	crateName = "acme_ring"
	swiftName = "acme.swift-kit"
	pngBytes  = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	longLine  = "This single line is deliberately long so that a small token budget has to cut it in the middle of a line, at a character boundary: αβγδε ζηθικ λμνξο πρστυ φχψω — and it goes on a little more to be sure it is longer than two hundred bytes."
)

func goModule(version string) *docidx.PackageDocs {
	stop := docidx.Symbol{Kind: docidx.KindMethod, Name: "Close", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Close",
		Signature: "func (p *Pool) Close() error", Doc: "Close stops the pool after the running tasks finish. It returns the first task error.", File: "pool.go", Line: 80}
	if version == "v1.0.0" {
		stop = docidx.Symbol{Kind: docidx.KindMethod, Name: "Shutdown", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Shutdown",
			Signature: "func (p *Pool) Shutdown()", Doc: "Shutdown stops the pool abruptly.", File: "pool.go", Line: 75}
	}
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "workpool", Package: modPath, QualifiedName: modPath, Signature: "package workpool",
			Doc: "Package workpool runs tasks on a bounded pool of goroutines. It is small, e.g. fewer than 500 lines."},
		{Kind: docidx.KindConst, Name: "DefaultSize", Package: modPath, QualifiedName: "workpool.DefaultSize",
			Signature: "const DefaultSize = 8", Doc: "DefaultSize is the pool size New uses when size is zero.", File: "pool.go", Line: 10},
		{Kind: docidx.KindType, Name: "Pool", Package: modPath, QualifiedName: "workpool.Pool",
			Signature: "type Pool struct {\n\t// contains filtered or unexported fields\n}", Doc: "A Pool runs submitted tasks on at most Size goroutines.\n\nThe zero Pool is not usable; call New.", File: "pool.go", Line: 20},
		{Kind: docidx.KindFunc, Name: "New", Package: modPath, QualifiedName: "workpool.New",
			Signature: "func New(size int) *Pool", Doc: "New returns a pool of size goroutines.", File: "pool.go", Line: 30},
		{Kind: docidx.KindMethod, Name: "Go", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Go",
			Signature: "func (p *Pool) Go(task func() error)", Doc: "Go submits task to the pool, blocking while all workers are busy.", File: "pool.go", Line: 50,
			Examples: []docidx.CodeBlock{{Name: "ExamplePool_Go", Lang: "go", Code: "p := workpool.New(2)\np.Go(func() error { fmt.Println(\"hi\"); return nil })", Output: "hi"}}},
		stop,
		{Kind: docidx.KindPackage, Name: "retry", Package: modPath + "/retry", QualifiedName: modPath + "/retry", Signature: "package retry",
			Doc: "Package retry retries failed tasks with exponential backoff."},
		{Kind: docidx.KindType, Name: "Policy", Package: modPath + "/retry", QualifiedName: "retry.Policy",
			Signature: "type Policy struct {\n\tAttempts int\n\tBase     time.Duration\n}", Doc: "Policy says how often and how long to retry.", File: "retry/retry.go", Line: 12},
		{Kind: docidx.KindField, Name: "Attempts", Parent: "Policy", Package: modPath + "/retry", QualifiedName: "retry.Policy.Attempts",
			Signature: "Attempts int", Doc: "Attempts is how many times a task runs at most; zero means 3.", File: "retry/retry.go", Line: 14},
		{Kind: docidx.KindType, Name: "Limits", Package: modPath + "/retry", QualifiedName: "retry.Limits",
			Signature: "type Limits struct { … }", Doc: "Limits bound a retried task.", File: "retry/limits.go", Line: 5},
		{Kind: docidx.KindField, Name: "Attempts", Parent: "Limits", Package: modPath + "/retry", QualifiedName: "retry.Limits.Attempts",
			Signature: "Attempts int", Doc: "Attempts is how many times a task runs at most; zero means 3.", File: "retry/limits.go", Line: 7},
		{Kind: docidx.KindField, Name: "Base", Parent: "Policy", Package: modPath + "/retry", QualifiedName: "retry.Policy.Base",
			Signature: "Base time.Duration", Doc: "Base is the first backoff, doubled after each failure (default 100ms).", File: "retry/retry.go", Line: 16},
		{Kind: docidx.KindFunc, Name: "Do", Package: modPath + "/retry", QualifiedName: "retry.Do",
			Signature: "func Do(ctx context.Context, p Policy, task func() error) error", Doc: "Do runs task until it succeeds, the policy gives up, or ctx is done.", File: "retry/retry.go", Line: 30, Deprecated: version == "v1.0.0"},
	}
	if version != "v1.0.0" {
		syms = append(syms, docidx.Symbol{Kind: docidx.KindMethod, Name: "TryGo", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.TryGo",
			Signature: "func (p *Pool) TryGo(task func() error) bool", Doc: "TryGo submits task only if a worker is idle. It reports whether it did.", File: "pool.go", Line: 64})
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{
			Ecosystem: docidx.Go, Name: modPath, Version: version, Versions: []string{"v1.0.0", "v1.1.0"},
			Description: "Bounded goroutine pools with retries.", License: "BSD-3-Clause",
			Homepage: "https://example.invalid/workpool", Repository: "https://example.invalid/acme/workpool.git",
			Published: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
		},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "workpool", Summary: "workpool runs tasks on a bounded pool of goroutines, with retries.",
				Sections: []docidx.Section{
					{Heading: []string{"workpool"}, Anchor: "workpool", Text: "workpool runs tasks on a bounded pool of goroutines.", Plain: "workpool runs tasks on a bounded pool of goroutines."},
					{Heading: []string{"workpool", "Install"}, Anchor: "install", Text: "```sh\ngo get " + modPath + "@" + version + "\n```", Plain: "go get the module."},
					{Heading: []string{"workpool", "Usage"}, Anchor: "usage", Text: "Create a pool with `New` and submit tasks with `Go`.\n\n```go\np := workpool.New(4)\np.Go(work)\n```", Plain: "Create a pool with New and submit tasks with Go."},
				}},
			{Path: "docs/retries.md", Kind: docidx.DocGuide, Title: "Retries",
				Sections: []docidx.Section{
					{Heading: []string{"Retries"}, Anchor: "retries", Text: "Wrap a task with retry.Do to retry it with exponential backoff.", Plain: "Wrap a task with retry.Do to retry it with exponential backoff."},
				}},
		},
		Symbols: syms,
	}
}

func npmPackage() *docidx.PackageDocs {
	var long strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&long, "- Route option %d: a line of text about matching paths and methods.\n", i)
	}
	long.WriteString(longLine + "\n")
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: npmName, Version: "2.0.0", Versions: []string{"1.0.0", "2.0.0"},
			Description: "A tiny HTTP router with middleware.", License: "MIT"},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "@acme/router", Summary: "A tiny HTTP router with middleware.",
				Sections: []docidx.Section{
					{Text: "A tiny HTTP router with middleware.", Plain: "A tiny HTTP router with middleware."},
					{Heading: []string{"Install"}, Anchor: "install", Text: "```sh\nnpm install @acme/router\n```", Plain: "npm install."},
					{Heading: []string{"Routing"}, Anchor: "routing", Text: long.String(), Plain: "Route options for matching paths and methods."},
					{Heading: []string{"Routing", "Middleware"}, Anchor: "middleware", Text: "Use `router.use(fn)` to add middleware that runs before every route handler.", Plain: "Use router.use(fn) to add middleware that runs before every route handler."},
				}},
			{Path: "docs/diagram.png", Kind: docidx.DocGuide, Title: "diagram.png",
				Sections: []docidx.Section{{Text: pngBytes}}},
			{Path: "examples/basic.js", Kind: docidx.DocExample, Title: "basic.js",
				Sections: []docidx.Section{{Text: "const { createRouter } = require('@acme/router');\nconst r = createRouter();\n", Plain: "createRouter example"}}},
		},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindClass, Name: "Router", Package: npmName, QualifiedName: "Router", Signature: "export class Router", Doc: "Router matches requests to handlers."},
			{Kind: docidx.KindMethod, Name: "use", Parent: "Router", Package: npmName, QualifiedName: "Router.use", Signature: "use(fn: Middleware): this", Doc: "use adds middleware."},
			{Kind: docidx.KindFunc, Name: "createRouter", Package: npmName, QualifiedName: "createRouter", Signature: "export function createRouter(opts?: RouterOptions): Router", Doc: "createRouter returns a new Router."},
			{Kind: docidx.KindInterface, Name: "RouterOptions", Package: npmName, QualifiedName: "RouterOptions", Signature: "export interface RouterOptions {\n  strict?: boolean;\n}", Doc: "RouterOptions configure a Router."},
			{Kind: docidx.KindField, Name: "strict", Parent: "RouterOptions", Package: npmName, QualifiedName: "RouterOptions.strict", Signature: "strict?: boolean",
				Doc: "strict makes /a and /a/ different routes.", Params: nil},
		},
	}
}

// otherPackages are one small package of each remaining ecosystem, for the describe tools of
// PyPI, crates and Swift. Their words stay clear of the search goldens' queries.
func otherPackages() []*docidx.PackageDocs {
	readme := func(title, text string) []docidx.Document {
		return []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: title, Summary: text,
			Sections: []docidx.Section{{Heading: []string{title}, Anchor: strings.ToLower(title), Text: text, Plain: text}}}}
	}
	return []*docidx.PackageDocs{
		{
			Package:   docidx.Package{Ecosystem: docidx.PyPI, Name: pyName, Version: "1.2.0", Versions: []string{"1.2.0"}, Description: "Read and write TOML files.", License: "MIT"},
			Documents: readme("acme-tomlkit", "acme-tomlkit reads and writes TOML files, keeping comments."),
			Symbols: []docidx.Symbol{
				{Kind: docidx.KindFunc, Name: "loads", Package: "tomlkit", QualifiedName: "tomlkit.loads", Signature: "def loads(text: str) -> Document", Doc: "Parse TOML text into a Document."},
				{Kind: docidx.KindClass, Name: "Document", Package: "tomlkit", QualifiedName: "tomlkit.Document", Signature: "class Document(dict)", Doc: "A parsed TOML document that keeps its formatting."},
			},
		},
		{
			Package:   docidx.Package{Ecosystem: docidx.Cargo, Name: crateName, Version: "0.3.1", Versions: []string{"0.3.1"}, Description: "A fixed-size ring buffer.", License: "Apache-2.0"},
			Documents: readme("acme_ring", "acme_ring is a fixed-size ring buffer without allocation."),
			Symbols: []docidx.Symbol{
				{Kind: docidx.KindStruct, Name: "Ring", Package: crateName, QualifiedName: "acme_ring::Ring", Signature: "pub struct Ring<T, const N: usize>", Doc: "A ring buffer holding at most N items."},
				{Kind: docidx.KindMethod, Name: "push", Parent: "Ring", Package: crateName, QualifiedName: "acme_ring::Ring::push", Signature: "pub fn push(&mut self, item: T) -> Option<T>", Doc: "Push an item, returning the one it overwrote."},
			},
		},
		{
			Package:   docidx.Package{Ecosystem: docidx.Swift, Name: swiftName, Version: "1.0.0", Versions: []string{"1.0.0"}, Description: "Small Swift helpers for strings.", License: "MIT"},
			Documents: readme("SwiftKit", "SwiftKit has small helpers for strings."),
			Symbols: []docidx.Symbol{
				{Kind: docidx.KindFunc, Name: "slugify", Package: "SwiftKit", QualifiedName: "SwiftKit.slugify", Signature: "public func slugify(_ s: String) -> String", Doc: "Turn a title into a URL slug."},
			},
		},
	}
}

var (
	snapOnce sync.Once
	snapDir  string
	snapErr  error
)

// snapshot builds the fixture snapshot once per test binary and opens a reader on it.
func snapshot(t testing.TB) *index.Reader {
	t.Helper()
	snapOnce.Do(func() {
		snapDir, snapErr = os.MkdirTemp("", "docidx-serve-test-")
		if snapErr != nil {
			return
		}
		w, err := index.Create(snapDir)
		if err != nil {
			snapErr = err
			return
		}
		for _, d := range append([]*docidx.PackageDocs{goModule("v1.0.0"), goModule("v1.1.0"), npmPackage()}, otherPackages()...) {
			if err := w.Put(context.Background(), d); err != nil {
				snapErr = err
				return
			}
		}
		_, snapErr = w.Commit(context.Background())
	})
	if snapErr != nil {
		t.Fatalf("build fixture snapshot: %v", snapErr)
	}
	r, err := index.Open(snapDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// networkUse records HTTP requests made through http.DefaultTransport by any test: serve must
// never make one.
var networkUse struct {
	sync.Mutex
	reqs []string
}

type noNetwork struct{}

func (noNetwork) RoundTrip(req *http.Request) (*http.Response, error) {
	networkUse.Lock()
	networkUse.reqs = append(networkUse.reqs, req.Method+" "+req.URL.String())
	networkUse.Unlock()
	return nil, errors.New("serve tests: network access is forbidden")
}

func TestMain(m *testing.M) {
	flag.Parse()
	http.DefaultTransport = noNetwork{}
	code := m.Run()
	if len(networkUse.reqs) > 0 {
		fmt.Fprintf(os.Stderr, "serve tests made HTTP requests: %v\n", networkUse.reqs)
		code = 1
	}
	if snapDir != "" {
		os.RemoveAll(snapDir)
	}
	os.Exit(code)
}

// testLogger sends the server's logs to t.Log.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// newServer returns a Server over the fixture snapshot.
func newServer(t testing.TB) *serve.Server {
	return serve.New(snapshot(t), serve.Options{Version: "v0.0.0-test", Logger: testLogger(t)})
}

// connect returns a client session connected to srv over in-memory transports. Outside
// benchmarks, the client checks the structured content of every tool result it receives against
// the tool's output schema (checkOutputs): the server leaves that check out.
func connect(t testing.TB, srv *serve.Server, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "v0"}, nil)
	var outputs outputSchemas
	if _, bench := t.(*testing.B); !bench {
		client.AddSendingMiddleware(outputs.check)
	}
	cs, err := client.Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// outputSchemas checks tool results against the output schemas of the tools, which it reads with
// tools/list the first time a tool is called.
type outputSchemas struct {
	mu      sync.Mutex
	schemas map[string]*jsonschema.Resolved // by tool name; nil: not read yet
}

// check is a client's sending middleware: a tools/call whose result is not an error and whose
// structured content does not validate against the tool's output schema fails with an error
// that says why.
func (o *outputSchemas) check(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		call, ok := res.(*mcp.CallToolResult)
		if method != "tools/call" || err != nil || !ok || call.IsError {
			return res, err
		}
		name := req.GetParams().(*mcp.CallToolParams).Name
		schema, err := o.schema(ctx, req.GetSession().(*mcp.ClientSession), name)
		if err != nil {
			return nil, err
		}
		if err := checkOutput(schema, call); err != nil {
			return nil, fmt.Errorf("tool %s: %w", name, err)
		}
		return res, nil
	}
}

// schema returns tool name's resolved output schema, or nil when it has none, listing the tools
// of cs the first time.
func (o *outputSchemas) schema(ctx context.Context, cs *mcp.ClientSession, name string) (*jsonschema.Resolved, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.schemas != nil {
		return o.schemas[name], nil
	}
	schemas := map[string]*jsonschema.Resolved{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if tool.OutputSchema == nil {
			continue
		}
		data, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("output schema of %s: %w", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("output schema of %s: %w", tool.Name, err)
		}
		schemas[tool.Name] = r
	}
	o.schemas = schemas
	return schemas[name], nil
}

// checkOutput reports whether res's structured content validates against schema (nil: any
// content); a result without structured content does not when there is a schema.
func checkOutput(schema *jsonschema.Resolved, res *mcp.CallToolResult) error {
	if schema == nil {
		return nil
	}
	if res.StructuredContent == nil {
		return errors.New("no structured content, and the tool has an output schema")
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		return err
	}
	if err := schema.Validate(&decoded); err != nil {
		return fmt.Errorf("structured content does not validate against the output schema: %w", err)
	}
	return nil
}

// call calls a tool, failing the test on a protocol error.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return res
}

// callErr calls a tool expecting a JSON-RPC error, and returns it.
func callErr(t testing.TB, cs *mcp.ClientSession, tool string, args any) *jsonrpc.Error {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err == nil {
		t.Fatalf("%s %v: want a JSON-RPC error, got result %s", tool, args, resultText(res))
	}
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("%s %v: error %v is not a JSON-RPC error", tool, args, err)
	}
	return werr
}

// resultText returns the text content of a result.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// structured decodes a result's structured content into v.
func structured(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

var scoreRE = regexp.MustCompile(`score \d+(\.\d+)?`)

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
