package web_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/docidx/docidx/web"
)

// The fixture snapshot: a Go module in two versions (v1.0.0 has Shutdown, v1.1.0 renames it
// Close and adds TryGo) with a README and a guide, as serve's tests have it; and a hostile npm
// package whose README and doc comments try every way of getting markup into a page.

const (
	modPath = "github.com/acme/workpool"
	npmName = "@evil/pkg"
)

func goModule(version string) *docidx.PackageDocs {
	stop := docidx.Symbol{Kind: docidx.KindMethod, Name: "Close", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Close",
		Signature: "func (p *Pool) Close() error", Doc: "Close stops the pool after the running tasks finish.", File: "pool.go", Line: 80}
	if version == "v1.0.0" {
		stop = docidx.Symbol{Kind: docidx.KindMethod, Name: "Shutdown", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Shutdown",
			Signature: "func (p *Pool) Shutdown()", Doc: "Shutdown stops the pool abruptly.", File: "pool.go", Line: 75}
	}
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "workpool", Package: modPath, QualifiedName: modPath, Signature: "package workpool",
			Doc: "Package workpool runs tasks on a bounded pool of goroutines."},
		{Kind: docidx.KindType, Name: "Pool", Package: modPath, QualifiedName: "workpool.Pool",
			Signature: "type Pool struct {\n\t// contains filtered or unexported fields\n}", Doc: "A Pool runs submitted tasks on at most Size goroutines.", File: "pool.go", Line: 20},
		{Kind: docidx.KindFunc, Name: "New", Package: modPath, QualifiedName: "workpool.New",
			Signature: "func New(size int) *Pool", Doc: "New returns a pool of size goroutines.", File: "pool.go", Line: 30,
			Values: []string{"const DefaultSize = 4"}},
		{Kind: docidx.KindMethod, Name: "Go", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.Go",
			Signature: "func (p *Pool) Go(task func() error)", Doc: "Go submits task to the pool, blocking while all workers are busy.", File: "pool.go", Line: 50,
			Examples: []docidx.CodeBlock{{Name: "ExamplePool_Go", Lang: "go", Code: "p := workpool.New(2)\np.Go(work)", Output: "hi"}}},
		stop,
		{Kind: docidx.KindFunc, Name: "Drain", Package: modPath, QualifiedName: "workpool.Drain",
			Signature: "func Drain(p *Pool)", Doc: "Drain waits for the pool.\n\nDeprecated: use Pool.Close.", File: "pool.go", Line: 90, Deprecated: true},
	}
	if version != "v1.0.0" {
		syms = append(syms, docidx.Symbol{Kind: docidx.KindMethod, Name: "TryGo", Parent: "Pool", Package: modPath, QualifiedName: "workpool.Pool.TryGo",
			Signature: "func (p *Pool) TryGo(task func() error) bool", Doc: "TryGo submits task only if a worker is idle.", File: "pool.go", Line: 64})
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{
			Ecosystem: docidx.Go, Name: modPath, Version: version, Versions: []string{"v1.0.0", "v1.1.0"},
			Description: "Bounded goroutine pools with retries.", License: "BSD-3-Clause",
			Homepage: "https://example.invalid/workpool", Published: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC),
			Requires: []docidx.Requirement{{Name: "go", Range: ">=1.22"}},
			Commands: []string{"poolstat"},
		},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "workpool", Summary: "workpool runs tasks on a bounded pool of goroutines.",
				Sections: []docidx.Section{
					{Heading: []string{"workpool"}, Anchor: "workpool", Text: "workpool runs tasks on a bounded pool of goroutines. See [the retries guide](docs/retries.md#retries), [usage](#usage), [the license](LICENSE) and [Go](https://go.dev/doc).", Plain: "workpool runs tasks on a bounded pool of goroutines."},
					{Heading: []string{"workpool", "Usage"}, Anchor: "usage", Text: "Create a pool with `New` and submit tasks with `Go`; read [Pool.Go](docidx://golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.Go).\n\n```go\np := workpool.New(4)\np.Go(work)\n```", Plain: "Create a pool with New and submit tasks with Go."},
				}},
			{Path: "docs/retries.md", Kind: docidx.DocGuide, Title: "Retries",
				Sections: []docidx.Section{
					{Heading: []string{"Retries"}, Anchor: "retries", Text: "Retry a task with exponential backoff; back to the [README](../README.md#usage).", Plain: "Retry a task with exponential backoff."},
				}},
		},
		Symbols: syms,
	}
}

// hostile is markdown that tries to run script in the page.
const hostile = "Hello <script>alert(1)</script> world.\n\n" +
	"<img src=x onerror=alert(2)>\n\n" +
	"<!-- a comment with <script>alert(3)</script> -->\n\n" +
	"[click](javascript:alert(4)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(6)) [JS upper](JaVaScRiPt:alert(7))\n\n" +
	"<javascript:alert(8)>\n\n" +
	"![pic](https://tracker.invalid/pixel.png) ![local](javascript:alert(9))\n\n" +
	"<a href=\"javascript:alert(10)\">raw link</a> <svg onload=alert(11)></svg>\n\n" +
	"[ok](https://example.invalid/page \"title\\\" onmouseover=alert(12)\")\n\n" +
	"```ts\nconst x = 1 </code><script>alert(13)</script>\n```\n\n" +
	"```\"><script>alert(14)</script>\nplain </code><script>alert(15)</script>\n```\n"

func npmPackage() *docidx.PackageDocs {
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: npmName, Version: "1.0.0", Versions: []string{"1.0.0"},
			Description: "A package <script>alert('desc')</script> with a hostile README.", License: "MIT",
			Homepage: "javascript:alert('home')"},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "evil <script>alert('title')</script>", Summary: "A hostile <b>README</b>.",
				Sections: []docidx.Section{
					{Heading: []string{"Evil"}, Anchor: "evil\"><script>alert('anchor')</script>", Text: hostile, Plain: "hostile readme words"},
				}},
		},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindClass, Name: "Evil", Package: npmName, QualifiedName: "Evil", Signature: "export class Evil </pre><script>alert('sig')</script> </code><script>alert(1)</script>",
				Doc: "Evil does harm </pre><script>alert('doc')</script> <img src=x onerror=alert('doc2')>."},
			{Kind: docidx.KindMethod, Name: "run", Parent: "Evil", Package: npmName, QualifiedName: "Evil.run", Signature: "run(): void", Doc: "run runs [it](javascript:alert('member'))."},
			// The same member on a second class: one search hit that names the other.
			{Kind: docidx.KindClass, Name: "Twin", Package: npmName, QualifiedName: "Twin", Signature: "export class Twin", Doc: "Twin is Evil's twin."},
			{Kind: docidx.KindMethod, Name: "run", Parent: "Twin", Package: npmName, QualifiedName: "Twin.run", Signature: "run(): void", Doc: "run runs [it](javascript:alert('member'))."},
		},
	}
}

// kitName is an npm package with what issue 29 found shown badly: a README section whose passage
// holds a fenced code block, a list and inline code; a symbol marked @internal declared first;
// a method with three overloads; synopses with inline code.
const kitName = "kit"

func kitPackage() *docidx.PackageDocs {
	const section = "Create a client with `connect` and close it when done:\n\n```js\nconst c = kit.connect(url)\nc.close()\n```\n\n" +
		"The client retries failed requests.\n\nIt keeps Array<string> headers."
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: kitName, Version: "2.0.0", Versions: []string{"2.0.0"}, Description: "A client kit."},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "kit", Sections: []docidx.Section{
				{Heading: []string{"kit", "Connecting"}, Anchor: "connecting", Text: section,
					Plain: "Create a client with connect and close it when done:\nThe client retries failed requests.\nIt keeps Array<string> headers.",
					Code:  []docidx.CodeBlock{{Lang: "js", Code: "const c = kit.connect(url)\nc.close()\n", At: 2}}},
			}},
		},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindInterface, Name: "_Base", Package: kitName, QualifiedName: "kit._Base", Signature: "interface _Base", Doc: "@internal"},
			{Kind: docidx.KindInterface, Name: "Client", Package: kitName, QualifiedName: "kit.Client", Signature: "interface Client extends _Base", Doc: "A Client sends `requests` to a server."},
			{Kind: docidx.KindMethod, Name: "send", Parent: "Client", Package: kitName, QualifiedName: "kit.Client.send", Signature: "send(body: string): void", Doc: "Send `body` as text."},
			{Kind: docidx.KindMethod, Name: "send", Parent: "Client", Package: kitName, QualifiedName: "kit.Client.send", Signature: "send(body: Buffer): void"},
			{Kind: docidx.KindMethod, Name: "send", Parent: "Client", Package: kitName, QualifiedName: "kit.Client.send", Signature: "send(body: object): void"},
			{Kind: docidx.KindFunc, Name: "connect", Package: kitName, QualifiedName: "kit.connect", Signature: "function connect(url: string): Client", Doc: "Connect to `url`."},
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
		snapDir, snapErr = os.MkdirTemp("", "docidx-web-test-")
		if snapErr != nil {
			return
		}
		w, err := index.Create(snapDir)
		if err != nil {
			snapErr = err
			return
		}
		for _, d := range []*docidx.PackageDocs{goModule("v1.0.0"), goModule("v1.1.0"), npmPackage(), kitPackage()} {
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

type noNetwork struct{}

func (noNetwork) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, errors.New("web tests: network access is forbidden: " + req.URL.String())
}

func TestMain(m *testing.M) {
	flag.Parse()
	http.DefaultTransport = noNetwork{}
	code := m.Run()
	if snapDir != "" {
		os.RemoveAll(snapDir)
	}
	os.Exit(code)
}

// newServer returns an httptest server of the pages behind serve's HTTP checks, over the
// fixture snapshot.
func newServer(t testing.TB, opts serve.HTTPOptions) *httptest.Server {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	s := serve.New(snapshot(t), serve.Options{Version: "v0.0.0-test", Logger: log})
	opts.Pages = web.New(s.Answers(), web.Options{Logger: log})
	if opts.RateLimit == 0 {
		opts.RateLimit = -1
	}
	ts := httptest.NewServer(s.NewHTTPHandler(opts))
	t.Cleanup(ts.Close)
	return ts
}

// client is a client of ts that returns redirects instead of following them.
func client(ts *httptest.Server) *http.Client {
	return &http.Client{Transport: ts.Client().Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches path from ts without following redirects.
func get(t testing.TB, ts *httptest.Server, path string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client(ts).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestPages(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	const v11 = "/golang/github.com/acme/workpool@v1.1.0"
	for _, tc := range []struct {
		path   string
		status int
		want   []string // substrings of the body
	}{
		{"/", 200, []string{`<form id="q"`, `name="q"`, `id="packages"`, `href="` + v11 + `"`}},
		{"/?q=bounded+pool+goroutines", 200, []string{`<ol id="results">`, `<li class="hit">`, `<mark>pool</mark>`, `href="` + v11 + `/readme#workpool"`, `">github.com/acme/workpool@v1.1.0</a>`}},
		{"/?q=submit+task&kind=method", 200, []string{`href="` + v11 + `/symbol/workpool.Pool.Go"`, `<mark>submits</mark>`}},
		{"/?q=zzzqqqxxx", 200, []string{`class="message"`}},
		{"/?q=pool&kind=nonsense", 400, []string{`class="message"`, "nonsense"}},
		{v11, 200, []string{`<select id="version" name="version"`, `<option selected>v1.1.0</option>`, "BSD-3-Clause", `href="` + v11 + `/api"`,
			`href="` + v11 + `/readme"`, `href="` + v11 + `/doc/docs/retries.md"`, `href="/golang/github.com/acme/workpool/diff?from=v1.0.0&amp;to=v1.1.0"`,
			"workpool runs tasks on a bounded pool of goroutines.", `<dt>Requires</dt><dd>go <code>&gt;=1.22</code></dd>`,
			`<dt>Commands</dt><dd><code>poolstat</code></dd>`}},
		{v11 + "/readme", 200, []string{`<h1 id="workpool">workpool</h1>`, `<h3 id="usage">`, `href="` + v11 + `/doc/docs/retries.md#retries"`, `href="#usage"`,
			`<a href="https://go.dev/doc" rel="noopener noreferrer nofollow">Go</a>`, `href="` + v11 + `/symbol/workpool.Pool.Go"`, "the license",
			`<pre class="chroma"><code><span class="nx">p</span> <span class="o">:=</span> <span class="nx">workpool</span><span class="p">.</span><span class="nf">New</span>`}},
		{v11 + "/doc/docs/retries.md", 200, []string{`<h1 id="retries">Retries</h1>`, `href="` + v11 + `/readme#usage"`}},
		{v11 + "/api", 200, []string{`id="workpool.Pool"`, `id="workpool.Pool.Go"`, `id="workpool.Pool.TryGo"`, `<pre class="chroma"><code><span class="kd">func</span> <span class="nf">New</span><span class="p">(</span><span class="nx">size</span> <span class="kt">int</span><span class="p">)</span> <span class="o">*</span><span class="nx">Pool</span></code></pre>`,
			`class="symbol deprecated" id="workpool.Drain"`, `href="` + v11 + `/symbol/workpool.Pool.Go"`}},
		{v11 + "/api?package=github.com/acme/workpool", 200, []string{`id="workpool.Pool.Go"`, "API of github.com/acme/workpool › github.com/acme/workpool"}},
		{v11 + "/symbol/workpool.Pool", 200, []string{`<h1>workpool.Pool`, `id="workpool.Pool.Go"`, `id="workpool.Pool.TryGo"`}},
		{v11 + "/symbol/workpool.New", 200, []string{`<pre class="chroma"><code><span class="kd">const</span> <span class="nx">DefaultSize</span> <span class="p">=</span> <span class="mi">4</span>`}},
		{v11 + "/symbol/workpool.Pool.Go", 200, []string{`<h1>workpool.Pool.Go`, "ExamplePool_Go", `<span class="nx">p</span> <span class="o">:=</span> <span class="nx">workpool</span>`,
			`<pre class="chroma"><code><span class="kd">func</span> <span class="p">(</span><span class="nx">p</span> <span class="o">*</span><span class="nx">Pool</span><span class="p">)</span> <span class="nf">Go</span>`}},
		{v11 + "/symbol/workpool.Drain", 200, []string{`class="symbol deprecated"`, `<span class="badge">deprecated</span>`}},
		{"/golang/github.com/acme/workpool/diff?from=v1.0.0&to=v1.1.0", 200, []string{`id="removed"`, "workpool.Pool.Shutdown", `id="added"`, "workpool.Pool.TryGo",
			// Signatures highlighted as on the API page.
			`<pre class="chroma"><code><span class="kd">func</span> <span class="p">(</span><span class="nx">p</span> <span class="o">*</span><span class="nx">Pool</span><span class="p">)</span> <span class="nf">TryGo</span>`}},
		{"/snapshot", 200, []string{"Created", `href="` + v11 + `"`, `href="/golang/github.com/acme/workpool@v1.0.0"`, npmName}},
		{"/static/style.css", 200, []string{"prefers-color-scheme: dark"}},
		{"/static/app.js", 200, []string{"focus"}},
	} {
		resp, body := get(t, ts, tc.path)
		if resp.StatusCode != tc.status {
			t.Errorf("GET %s: status %d, want %d\n%s", tc.path, resp.StatusCode, tc.status, body)
			continue
		}
		if csp := resp.Header.Get("Content-Security-Policy"); csp != web.CSP {
			t.Errorf("GET %s: Content-Security-Policy %q, want %q", tc.path, csp, web.CSP)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: body lacks %q\n%s", tc.path, w, body)
			}
		}
		if strings.HasSuffix(tc.path, ".css") || strings.HasSuffix(tc.path, ".js") {
			continue
		}
		if !strings.Contains(body, `<meta name="viewport"`) || !strings.Contains(body, `<script src="/static/app.js" defer></script>`) {
			t.Errorf("GET %s: no viewport meta or script tag", tc.path)
		}
		checkLinks(t, ts, tc.path, body)
	}
}

var hrefRE = regexp.MustCompile(`(?:href|src|action)="([^"]*)"`)

// checkLinks follows every link of a page that stays on the server and checks it answers 200
// or a redirect: no link on a page is broken. External links must be marked nofollow.
func checkLinks(t *testing.T, ts *httptest.Server, from, body string) {
	t.Helper()
	for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
		href := strings.ReplaceAll(m[1], "&amp;", "&")
		switch {
		case strings.HasPrefix(href, "#"), href == "data:,":
			continue
		case strings.HasPrefix(href, "http://"), strings.HasPrefix(href, "https://"):
			continue
		case !strings.HasPrefix(href, "/"):
			t.Errorf("page %s links to %q, neither a page of the server nor http(s)", from, href)
			continue
		}
		p, _, _ := strings.Cut(href, "#")
		resp, _ := get(t, ts, p)
		if resp.StatusCode != 200 && resp.StatusCode != 302 {
			t.Errorf("page %s links to %s, which answers %d", from, p, resp.StatusCode)
		}
	}
}

func TestRedirects(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	for _, tc := range []struct{ path, location string }{
		{"/golang/github.com/acme/workpool", "/golang/github.com/acme/workpool@v1.1.0"},
		{"/golang/github.com/acme/workpool?version=v1.0.0", "/golang/github.com/acme/workpool@v1.0.0"},
		{"/golang/github.com/acme/workpool@latest/api", "/golang/github.com/acme/workpool@v1.1.0/api"},
		{"/golang/github.com/acme/workpool@v1/api", "/golang/github.com/acme/workpool@v1.1.0/api"},
		{"/golang/github.com/acme/workpool@%5E1.0/readme", "/golang/github.com/acme/workpool@v1.1.0/readme"},
		{"/golang/github.com/acme/workpool@~1.0/readme", "/golang/github.com/acme/workpool@v1.0.0/readme"},
		{"/golang/github.com/acme/workpool?version=1.x", "/golang/github.com/acme/workpool@v1.1.0"},
		{"/go/github.com/acme/workpool@v1.0.0/readme", "/golang/github.com/acme/workpool@v1.0.0/readme"},
		{"/npm/@evil/pkg", "/npm/@evil/pkg@1.0.0"},
		{"/npm/@evil/pkg/readme", "/npm/@evil/pkg@1.0.0/readme"},
		{"/golang/github.com/acme/workpool/symbol/workpool.Pool", "/golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool"},
	} {
		resp, _ := get(t, ts, tc.path)
		if resp.StatusCode/100 != 3 || resp.Header.Get("Location") != tc.location {
			t.Errorf("GET %s: %d to %q, want a redirect to %q", tc.path, resp.StatusCode, resp.Header.Get("Location"), tc.location)
		}
	}
}

func TestNotFound(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/golang/github.com/acme/workpol", []string{`id="suggestions"`, `href="/golang/github.com/acme/workpool"`}},
		{"/golang/github.com/acme/workpool@v9.9.9/api", []string{"v9.9.9", `href="/golang/github.com/acme/workpool@v1.1.0/api"`}},
		{"/golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.TryG", []string{`href="/golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.TryGo"`}},
		{"/golang/github.com/acme/workpool@v1.1.0/doc/docs/retry.md", []string{`href="/golang/github.com/acme/workpool@v1.1.0/doc/docs/retries.md"`}},
		{"/golang/github.com/acme/workpool@v1.1.0/nonsense", []string{"unknown page"}},
		{"/golang/github.com/acme/workpool/diff?from=v0.1.0", []string{`id="suggestions"`}},
		{"/golang/github.com/acme/workpool@v1.1.0/api?package=nope", []string{"no API symbols of package nope"}},
		{"/gollang/x", []string{`href="/?ecosystem=golang"`}},
		{"/favicon.ico", []string{"Not found"}},
	} {
		resp, body := get(t, ts, tc.path)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404\n%s", tc.path, resp.StatusCode, body)
			continue
		}
		if !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: Content-Type %q, want HTML", tc.path, resp.Header.Get("Content-Type"))
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: body lacks %q\n%s", tc.path, w, body)
			}
		}
		// A page speaks of pages and links, not of MCP's tools or the CLI's commands.
		for _, w := range []string{"_package", "read_package_doc", "docidx read", "docidx show", "symbol="} {
			if strings.Contains(body, w) {
				t.Errorf("GET %s: body says %q\n%s", tc.path, w, body)
			}
		}
	}
}

// tagRE finds the tags of a page: package content is escaped, so every "<" left in a page
// opens markup the page itself made.
var tagRE = regexp.MustCompile(`<[^>]*>`)

// executable finds what could run script or load something in one tag: a script, iframe,
// object, embed, svg, img or base element, an event handler attribute, a javascript:, data: or
// vbscript: URL in an attribute.
var executable = regexp.MustCompile(`(?i)^<(?:script|iframe|object|embed|svg|img|base|meta http-equiv)\b|\son[a-z]+\s*=|=\s*"?\s*(?:javascript|vbscript|data):`)

// quoted finds the quoted attribute values of a tag, which cannot hold another attribute.
var quoted = regexp.MustCompile(`"[^"]*"`)

func TestHostileContent(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	const base = "/npm/@evil/pkg@1.0.0"
	for _, p := range []string{base, base + "/readme", base + "/api", base + "/symbol/Evil", base + "/symbol/Evil.run", "/?q=hostile+readme+words", "/?q=evil+harm", "/snapshot"} {
		resp, body := get(t, ts, p)
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: status %d\n%s", p, resp.StatusCode, body)
			continue
		}
		// The one script element a page may have is the layout's, with src and no body.
		rest := strings.Replace(body, `<script src="/static/app.js" defer></script>`, "", 1)
		if strings.Contains(strings.ToLower(rest), "<script") {
			t.Errorf("GET %s: a <script> element from package content:\n%s", p, body)
		}
		for _, tag := range tagRE.FindAllString(rest, -1) {
			attrs := quoted.ReplaceAllStringFunc(tag, func(v string) string {
				if strings.Contains(strings.ToLower(v), ":") { // a URL's scheme is checked
					return v
				}
				return `""`
			})
			if executable.MatchString(attrs) && tag != `<link rel="icon" href="data:,">` {
				t.Errorf("GET %s: executable markup %s in\n%s", p, tag, body)
			}
		}
		if strings.Contains(rest, "<!--") {
			t.Errorf("GET %s: an HTML comment from package content survives:\n%s", p, body)
		}
	}
	// The words are still there, as text.
	_, body := get(t, ts, base+"/readme")
	for _, w := range []string{"Hello alert(1) world.", "click data vb JS upper", "&lt;script&gt;alert", `<a href="https://example.invalid/page" title=`, `rel="noopener noreferrer nofollow"`,
		// The ts block highlighted, the block of an unknown language plain.
		`<span class="p">&lt;/</span><span class="nt">code</span><span class="p">&gt;&lt;</span><span class="nt">script</span>`,
		`plain &lt;/code&gt;&lt;script&gt;alert(15)&lt;/script&gt;`} {
		if !strings.Contains(body, w) {
			t.Errorf("readme lacks %q:\n%s", w, body)
		}
	}
	// Signatures are highlighted, and their markup is text.
	for _, p := range []string{base + "/api", base + "/symbol/Evil"} {
		_, body := get(t, ts, p)
		if !strings.Contains(body, `<pre class="chroma"><code><span class="kr">export</span> <span class="kr">class</span> <span class="nx">Evil</span>`) ||
			!strings.Contains(body, `<span class="p">&lt;/</span><span class="nt">code</span><span class="p">&gt;&lt;</span><span class="nt">script</span>`) {
			t.Errorf("GET %s: the signature is not highlighted:\n%s", p, body)
		}
	}
}

func TestChecks(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{Token: "s3cret"})
	// Without the token: 401.
	if resp, _ := get(t, ts, "/"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET / without token: %d, want 401", resp.StatusCode)
	}
	// A wrong token in the link: 401, no cookie.
	if resp, _ := get(t, ts, "/?token=nope"); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) > 0 {
		t.Errorf("GET /?token=nope: %d with cookies %v, want 401 and none", resp.StatusCode, resp.Cookies())
	}
	// The token in the link: a cookie and a redirect to the same URL without it.
	resp, _ := get(t, ts, "/?q=pool&token=s3cret")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?q=pool" {
		t.Fatalf("GET /?q=pool&token=s3cret: %d to %q, want 303 to /?q=pool", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == serve.PageTokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v, want %s HttpOnly SameSite=Strict", cookie, serve.PageTokenCookie)
	}
	if resp, body := get(t, ts, "/?q=pool", "Cookie", cookie.String()); resp.StatusCode != 200 || !strings.Contains(body, `id="results"`) {
		t.Errorf("GET /?q=pool with the cookie: %d", resp.StatusCode)
	}
	if resp, _ := get(t, ts, "/", "Cookie", serve.PageTokenCookie+"=wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET / with a wrong cookie: %d, want 401", resp.StatusCode)
	}
	if resp, _ := get(t, ts, "/snapshot", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("GET /snapshot with the bearer token: %d, want 200", resp.StatusCode)
	}

	// Host and Origin as on /mcp.
	open := newServer(t, serve.HTTPOptions{})
	req, _ := http.NewRequest(http.MethodGet, open.URL+"/", nil)
	req.Host = "evil.example:80"
	if resp, err := client(open).Do(req); err != nil {
		t.Errorf("GET / with a foreign Host: %v", err)
	} else if resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET / with a foreign Host: %d, want 403", resp.StatusCode)
	}
	if resp, _ := get(t, open, "/", "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET / from a foreign Origin: %d, want 403", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, open.URL+"/", strings.NewReader("q=x"))
	if resp, err := client(open).Do(req); err != nil {
		t.Errorf("POST /: %v", err)
	} else if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", resp.StatusCode)
	}

	// Rate limit.
	limited := newServer(t, serve.HTTPOptions{RateLimit: 1, RateBurst: 1})
	get(t, limited, "/snapshot")
	if resp, _ := get(t, limited, "/snapshot"); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second GET within the burst of 1: %d, want 429 with Retry-After", resp.StatusCode)
	}
}

// BenchmarkPages measures the server time of each page kind over the fixture snapshot, the
// HTTP checks included (no network: the handler is called directly).
func BenchmarkPages(b *testing.B) {
	log := slog.New(slog.DiscardHandler)
	s := serve.New(snapshot(b), serve.Options{Version: "v0.0.0-test", Logger: log})
	h := s.NewHTTPHandler(serve.HTTPOptions{RateLimit: -1, Pages: web.New(s.Answers(), web.Options{Logger: log})})
	const v11 = "/golang/github.com/acme/workpool@v1.1.0"
	for _, pc := range []struct{ name, path string }{
		{"search", "/?q=" + url.QueryEscape("bounded pool goroutines")},
		{"overview", v11},
		{"readme", v11 + "/readme"},
		{"api", v11 + "/api"},
		{"symbol", v11 + "/symbol/workpool.Pool"},
		{"diff", "/golang/github.com/acme/workpool/diff?from=v1.0.0&to=v1.1.0"},
		{"snapshot", "/snapshot"},
	} {
		b.Run(pc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, pc.path, nil)
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("GET %s: %d", pc.path, w.Code)
				}
			}
		})
	}
}

// TestPageWords: advice an answer gives (a search that finds nothing) names pages, not MCP's
// tools or the CLI's commands.
func TestPageWords(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	_, body := get(t, ts, "/?q=qqqxyzzy&package=github.com/acme/workpool")
	if !strings.Contains(body, "/snapshot") {
		t.Errorf("no-hits page lacks the snapshot page's name:\n%s", body)
	}
	for _, w := range []string{"list_packages", "docidx list"} {
		if strings.Contains(body, w) {
			t.Errorf("no-hits page says %q:\n%s", w, body)
		}
	}
}

// TestSearchAlso: a hit that stands for the same member on other types names them, each linked
// to its page.
func TestSearchAlso(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	_, body := get(t, ts, "/?q=run+runs&ecosystem=npm")
	twin := `<p class="note also">also: <a href="/npm/@evil/pkg@1.0.0/symbol/%s.run">%s.run</a></p>`
	if !strings.Contains(body, fmt.Sprintf(twin, "Twin", "Twin")) && !strings.Contains(body, fmt.Sprintf(twin, "Evil", "Evil")) {
		t.Errorf("search page does not link the twin:\n%s", body)
	}
}

// TestIssue29 holds the browser points of issue 29: a search passage is markdown (paragraphs,
// highlighted code in a <pre>, inline code, marked words, tag-like text kept as text); package
// pages show inline code as <code>; the API page names an overloaded method once and lists a
// symbol marked @internal after the others, with a badge.
func TestIssue29(t *testing.T) {
	ts := newServer(t, serve.HTTPOptions{})
	const kit = "/npm/kit@2.0.0"

	_, body := get(t, ts, "/?q=client+retries&package=kit")
	start := strings.Index(body, `<div class="passage">`)
	if start < 0 {
		t.Fatalf("no passage in the results:\n%s", body)
	}
	passage := body[start : start+strings.Index(body[start:], "</div>")]
	for _, want := range []string{
		`<pre class="chroma"><code><span class="kr">const</span>`,              // the fence highlighted as js, its info string gone
		"<p>The <mark>client</mark> <mark>retries</mark> failed requests.</p>", // a unit is a paragraph
		"<p>It keeps Array&lt;string&gt; headers.</p>",                         // a tag in plain text is text
	} {
		if !strings.Contains(passage, want) {
			t.Errorf("passage lacks %s:\n%s", want, passage)
		}
	}
	if strings.Contains(passage, "```") {
		t.Errorf("passage shows a raw fence:\n%s", passage)
	}
	_, body = get(t, ts, "/?q=send+body+text&package=kit")
	if !strings.Contains(body, "<mark>Send</mark> <code>body</code> as <mark>text</mark>.") {
		t.Errorf("a symbol's passage does not show its inline code as <code>:\n%s", body)
	}

	_, body = get(t, ts, kit)
	for _, want := range []string{"A Client sends <code>requests</code> to a server.", "method · 3 overloads", `<span class="badge internal">internal</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("GET %s lacks %s:\n%s", kit, want, body)
		}
	}
	if c, b := strings.Index(body, "/symbol/kit.Client"), strings.Index(body, "/symbol/kit._Base"); c < 0 || b < c {
		t.Errorf("GET %s lists kit._Base (@internal) before kit.Client", kit)
	}

	_, body = get(t, ts, kit+"/api")
	if n := strings.Count(body, `id="kit.Client.send"`); n != 1 {
		t.Errorf("GET %s/api lists kit.Client.send %d times, want once", kit, n)
	}
	for _, want := range []string{
		"3 overloads", "Connect to <code>url</code>.",
		`<div class="symbol internal" id="kit._Base">`, `<span class="badge internal"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET %s/api lacks %s", kit, want)
		}
	}
	for _, sig := range []string{"string", "Buffer", "object"} {
		if !strings.Contains(body, `<span class="nx">body</span>: <span class="kt">`+sig) && !strings.Contains(body, `<span class="nx">body</span><span class="o">:</span> <span class="nx">`+sig) {
			t.Errorf("GET %s/api lacks the overload send(body: %s)", kit, sig)
		}
	}
	if c, b := strings.Index(body, `id="kit.connect"`), strings.Index(body, `id="kit._Base"`); c < 0 || b < c {
		t.Errorf("GET %s/api lists kit._Base (@internal) before kit.connect", kit)
	}
	if _, body = get(t, ts, kit+"/symbol/kit._Base"); !strings.Contains(body, `<span class="badge internal">internal</span></h1>`) {
		t.Errorf("GET %s/symbol/kit._Base has no internal badge", kit)
	}
}
