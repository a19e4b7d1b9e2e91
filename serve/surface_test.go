package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol revisions every resource, template, prompt and completion test runs under: the
// last with the initialize handshake and logging/setLevel, and the first sessionless one.
var testVersions = []string{"2025-06-18", "2026-07-28"}

// connectWith connects a client with options copts to srv over in-memory transports, at
// protocol version v, copying the client's wire traffic to wire when it is not nil.
func connectWith(t testing.TB, srv *serve.Server, copts *mcp.ClientOptions, v string, wire *wireLog) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var transport mcp.Transport = ct
	if wire != nil {
		transport = wire.wrap(ct)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "v0"}, copts).Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// wireErr returns err as a JSON-RPC error, failing the test when it is not one.
func wireErr(t testing.TB, err error) *jsonrpc.Error {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("error %v is not a JSON-RPC error", err)
	}
	return werr
}

// allResources walks resources/list to the end.
func allResources(t testing.TB, cs *mcp.ClientSession) (res []*mcp.Resource, pages int) {
	t.Helper()
	cursor := ""
	for {
		page, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Resources) > serve.ResourcePageSize {
			t.Errorf("page %d has %d resources, over the page size", pages, len(page.Resources))
		}
		res = append(res, page.Resources...)
		if page.NextCursor == "" || pages > 1000 {
			return res, pages
		}
		cursor = page.NextCursor
	}
}

func TestResources(t *testing.T) {
	srv := newServer(t)
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			ctx := context.Background()
			list, _ := allResources(t, cs)
			if len(list) == 0 || list[0].URI != docidx.SnapshotURI {
				t.Fatalf("first resource %v, want the snapshot", list[0])
			}
			seen := map[string]bool{}
			for _, r := range list {
				if seen[r.URI] {
					t.Errorf("%s listed twice", r.URI)
				}
				seen[r.URI] = true
				if r.Name == "" || r.Title == "" || r.MIMEType == "" || r.Size <= 0 || r.Annotations == nil ||
					len(r.Annotations.Audience) == 0 || r.Annotations.Priority <= 0 || r.Annotations.Priority > 1 {
					t.Errorf("%s: incomplete listing %+v", r.URI, r)
				}
				if r.URI != docidx.SnapshotURI && r.Annotations.LastModified == "" {
					t.Errorf("%s: no lastModified", r.URI)
				}
				// Every resource listed can be read, with the size and type listed.
				rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
				if err != nil {
					t.Errorf("read %s: %v", r.URI, err)
					continue
				}
				c := rr.Contents[0]
				if c.URI != r.URI || c.MIMEType != r.MIMEType || int64(len(c.Text)+len(c.Blob)) != r.Size {
					t.Errorf("read %s: uri %s, type %s, %d bytes; listed type %s, %d bytes", r.URI, c.URI, c.MIMEType, len(c.Text)+len(c.Blob), r.MIMEType, r.Size)
				}
				if (c.Text == "") == (c.Blob == nil) {
					t.Errorf("read %s: want exactly one of text and blob", r.URI)
				}
			}
			// Pages of every kind but symbols, of every package version, are there.
			for _, uri := range []string{
				"docidx://golang/github.com/acme/workpool@v1.0.0/overview",
				"docidx://golang/github.com/acme/workpool@v1.1.0/readme",
				"docidx://golang/github.com/acme/workpool@v1.1.0/api",
				"docidx://golang/github.com/acme/workpool@v1.1.0/doc/docs/retries.md",
				"docidx://npm/@acme/router@2.0.0/doc/docs/diagram.png",
				"docidx://cargo/acme_ring@0.3.1/api",
				"docidx://swift/acme.swift-kit@1.0.0/readme",
			} {
				if !seen[uri] {
					t.Errorf("%s not listed", uri)
				}
			}
			// A few per version: the overview, README, API outline and documents, no symbol.
			perVersion := map[string]int{}
			for _, r := range list[1:] {
				ref, page, err := docidx.ParsePageURI(r.URI)
				if err != nil || strings.HasPrefix(page, docidx.PageSymbolPrefix) {
					t.Errorf("listed %s: %q %v", r.URI, page, err)
				}
				perVersion[ref.String()]++
			}
			if len(perVersion) != 6 {
				t.Errorf("pages of %d versions listed, want 6: %v", len(perVersion), perVersion)
			}
			for v, n := range perVersion {
				if n > 6 {
					t.Errorf("%s: %d pages listed", v, n)
				}
			}
			// Symbols are read by their URI, which the package-symbol template and completion make.
			for _, uri := range []string{
				"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.TryGo",
				"docidx://golang/github.com/acme/workpool@v1.0.0/symbol/workpool.Pool.Shutdown",
				"docidx://pypi/acme-tomlkit@1.2.0/symbol/tomlkit.loads",
			} {
				if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
					t.Errorf("read %s: %v", uri, err)
				}
			}
		})
	}
}

func TestResourceContents(t *testing.T) {
	cs := connectWith(t, newServer(t), nil, "2025-06-18", nil)
	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return rr.Contents[0]
	}
	for _, c := range []struct{ uri, mime, want string }{
		{"docidx://golang/github.com/acme/workpool@latest/overview", "text/markdown", "# github.com/acme/workpool v1.1.0"},
		{"docidx://golang/github.com/acme/workpool@v1.0.0/api", "text/markdown", "func (p *Pool) Shutdown()"},
		{"docidx://golang/github.com/acme/workpool@v1.1.0/readme", "text/markdown", "## Usage"},
		{"docidx://golang/github.com/acme/workpool@v1.1.0/doc/README.md", "text/markdown", "## Install"},
		{"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool.Go", "text/markdown", "Example ExamplePool_Go"},
		{"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/Pool.Go", "text/markdown", "func (p *Pool) Go(task func() error)"},
		{"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/github.com/acme/workpool/retry", "text/markdown", "Package retry retries"},
		{"docidx://npm/@acme/router@2.0.0/doc/examples/basic.js", "text/javascript", "createRouter()"},
		{"docidx://npm/%40acme/router@2.0.0/readme", "text/markdown", longLine},
		{"docidx://cargo/acme_ring@0.3.1/symbol/acme_ring::Ring::push", "text/markdown", "pub fn push(&mut self, item: T) -> Option<T>"},
	} {
		got := read(c.uri)
		if got.MIMEType != c.mime || !strings.Contains(got.Text, c.want) {
			t.Errorf("read %s: %s %q; want %s containing %q", c.uri, got.MIMEType, got.Text, c.mime, c.want)
		}
	}
	// A section URI from a search hit reads that section and its subsections only.
	usage := read("docidx://golang/github.com/acme/workpool@v1.1.0/readme#usage")
	if !strings.Contains(usage.Text, "submit tasks with `Go`") || strings.Contains(usage.Text, "go get") {
		t.Errorf("readme#usage: %q", usage.Text)
	}
	routing := read("docidx://npm/@acme/router@2.0.0/readme#routing")
	if !strings.Contains(routing.Text, "router.use(fn)") || strings.Contains(routing.Text, "npm install") {
		t.Errorf("readme#routing: %q", routing.Text[:min(200, len(routing.Text))])
	}
	// A binary file comes as a blob with its bytes.
	png := read("docidx://npm/@acme/router@2.0.0/doc/docs/diagram.png")
	// The store keeps text as JSON, which replaces bytes that are not UTF-8.
	stored, _ := json.Marshal(pngBytes)
	var want string
	json.Unmarshal(stored, &want)
	if png.MIMEType != "image/png" || string(png.Blob) != want || png.Text != "" {
		t.Errorf("diagram.png: %s, blob %q, text %q", png.MIMEType, png.Blob, png.Text)
	}
	// The snapshot resource says what is indexed and when.
	snap := read(docidx.SnapshotURI)
	var info answer.SnapshotInfo
	if err := json.Unmarshal([]byte(snap.Text), &info); err != nil || snap.MIMEType != "application/json" {
		t.Fatalf("snapshot: %s %v", snap.Text, err)
	}
	if info.Format != index.FormatVersion || info.Created == "" || info.Totals.Packages != 5 || info.Totals.Versions != 6 || len(info.Counts) != 5 || len(info.Templates) == 0 {
		t.Errorf("snapshot info %+v", info)
	}
}

func TestResourceNotFound(t *testing.T) {
	srv := newServer(t)
	uris := []string{
		"docidx://golang/github.com/acme/nope@v1.0.0/overview", // unknown package
		"docidx://golang/github.com/acme/workpool@v9.9.9/api",  // unknown version
		"docidx://golang/github.com/acme/workpool@v1.1.0/doc/docs/nope.md",
		"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/Nope",
		"docidx://swift/acme.swift-kit@1.0.0/readme/extra", // unknown page
		"docidx://cobol/x@1/overview",
		"docidx://snapshots",
		"file:///etc/passwd",
		"not a uri",
	}
	for _, v := range mcp.SupportedProtocolVersions() {
		want := int64(-32002)
		if v >= "2026-07-28" {
			want = jsonrpc.CodeInvalidParams // SEP-2164
		}
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			for _, uri := range uris {
				_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
				if err == nil {
					t.Errorf("read %s: no error", uri)
					continue
				}
				werr := wireErr(t, err)
				var data struct{ URI string }
				if werr.Code != want || json.Unmarshal(werr.Data, &data) != nil || data.URI != uri {
					t.Errorf("read %s: code %d data %s, want code %d and data.uri", uri, werr.Code, werr.Data, want)
				}
			}
		})
	}
	// The did-you-mean of the tools comes along.
	cs := connectWith(t, srv, nil, "2025-11-25", nil)
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "docidx://golang/github.com/acme/workpol@latest/readme"})
	if werr := wireErr(t, err); !strings.Contains(werr.Message, "did you mean: github.com/acme/workpool") {
		t.Errorf("unknown package: %q", werr.Message)
	}
}

// putModules writes a generation of dir holding the modules names (every third with a README,
// every other one with symbols) and returns the pages resources/list should list for them,
// in index order.
func putModules(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for p, name := range names {
		pd := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: name, Version: "v1.0.0", Description: "module " + name}}
		ref := pd.Package.Ref()
		uris = append(uris, ref.PageURI(docidx.PageOverview))
		if p%3 == 0 {
			pd.Documents = []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: name, Summary: "It does a thing.",
				Sections: []docidx.Section{{Text: "It does a thing.", Plain: "It does a thing."}}}}
			uris = append(uris, ref.PageURI(docidx.PageReadme))
		}
		if p%2 == 0 {
			for i := range 3 {
				pd.Symbols = append(pd.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("F%d", i), Package: name,
					QualifiedName: fmt.Sprintf("m.F%d", i), Signature: fmt.Sprintf("func F%d()", i), Doc: "F does a thing."})
			}
			uris = append(uris, ref.PageURI(docidx.PageAPI))
		}
		if err := w.Put(context.Background(), pd); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return uris
}

// TestResourcePaging walks resources/list over a snapshot of several pages: the pages of each
// version in index order, none lost or repeated and no symbol; the same cursor gives the same
// page, on any server of the same snapshot; bad cursors are -32602.
func TestResourcePaging(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for p := range 150 {
		names = append(names, fmt.Sprintf("example.com/m%03d", p))
	}
	wantURIs := append([]string{docidx.SnapshotURI}, putModules(t, dir, names...)...)
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := serve.New(r, serve.Options{Logger: testLogger(t)})
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			list, pages := allResources(t, cs)
			var got []string
			for _, res := range list {
				got = append(got, res.URI)
			}
			if !slices.Equal(got, wantURIs) {
				t.Errorf("listed %d resources:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(wantURIs), strings.Join(wantURIs, "\n"))
			}
			if want := (len(wantURIs) + serve.ResourcePageSize - 1) / serve.ResourcePageSize; pages != want || pages < 3 {
				t.Errorf("%d pages, want %d", pages, want)
			}
		})
	}
	cs := connectWith(t, srv, nil, "2025-06-18", nil)
	ctx := context.Background()
	first, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: first.NextCursor})
	b, _ := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: first.NextCursor})
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Error("the same cursor gave different pages")
	}
	// A replica serving the same snapshot continues the listing (stateless HTTP behind a load
	// balancer).
	r2, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	replica := connectWith(t, serve.New(r2, serve.Options{Logger: testLogger(t)}), nil, "2025-06-18", nil)
	c, err := replica.ListResources(ctx, &mcp.ListResourcesParams{Cursor: first.NextCursor})
	if jc, _ := json.Marshal(c); err != nil || string(jc) != string(ja) {
		t.Error("a replica of the same snapshot gave another page for the cursor")
	}
	var search answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "thing", "limit": 1}), &search)
	for _, c := range []string{"garbage", "eyJ2IjoxfQ", search.NextCursor, strings.Repeat("A", 5000)} {
		_, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: c})
		if err == nil {
			t.Errorf("cursor %q: no error", c)
			continue
		}
		if werr := wireErr(t, err); werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("cursor %q: code %d, want -32602", c, werr.Code)
		}
	}
}

// TestResourcePagingReload lists resources across a hot reload: a cursor read from the replaced
// snapshot is refused with -32602 saying to list again (MCP: "invalid cursors SHOULD result in
// an error with code -32602"), never continued into the new snapshot, where its position would
// skip or repeat pages; listing again from the start gives the new snapshot's pages.
func TestResourcePagingReload(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for p := range 100 {
		names = append(names, fmt.Sprintf("example.com/m%03d", p))
	}
	putModules(t, dir, names...)
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := serve.New(r, serve.Options{Logger: testLogger(t)})
	cs := connectWith(t, srv, nil, "2025-11-25", nil)
	ctx := context.Background()
	before, _ := allResources(t, cs)
	first, err := cs.ListResources(ctx, nil)
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %v, next %q", err, first.NextCursor)
	}

	// A crawl publishes a generation with one module more, early in the index order.
	want := putModules(t, dir, "example.com/m000a")
	r2, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	srv.SetReader(r2, nil)

	_, err = cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: first.NextCursor})
	if err == nil {
		t.Fatal("a cursor of the replaced snapshot continued the listing")
	}
	werr := wireErr(t, err)
	if werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "snapshot changed") || !strings.Contains(werr.Message, "omit cursor") {
		t.Errorf("stale cursor: %d %q", werr.Code, werr.Message)
	}
	list, _ := allResources(t, cs)
	seen := map[string]bool{}
	for _, res := range list {
		if seen[res.URI] {
			t.Errorf("%s listed twice", res.URI)
		}
		seen[res.URI] = true
	}
	if len(list) != len(before)+len(want) || !seen[want[0]] {
		t.Errorf("after the reload %d resources, want %d with %s", len(list), len(before)+len(want), want[0])
	}
}

// expand fills a URI template's variables (RFC 6570 simple and reserved expansion).
func expand(tmpl string, vars map[string]string) string {
	for k, v := range vars {
		tmpl = strings.ReplaceAll(tmpl, "{+"+k+"}", v)
		tmpl = strings.ReplaceAll(tmpl, "{"+k+"}", v)
	}
	return tmpl
}

func TestResourceTemplates(t *testing.T) {
	srv := newServer(t)
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			res, err := cs.ListResourceTemplates(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			pages := map[string]bool{}
			for _, tmpl := range res.ResourceTemplates {
				if tmpl.Name == "" || tmpl.Title == "" || tmpl.Description == "" {
					t.Errorf("%s: incomplete template %+v", tmpl.URITemplate, tmpl)
				}
				// Every URI a template describes can be read, with every ecosystem's names.
				for _, vars := range []map[string]string{
					{"ecosystem": "golang", "package": modPath, "version": "v1.0.0", "path": "docs/retries.md", "name": "retry.Do"},
					{"ecosystem": "npm", "package": npmName, "version": "latest", "path": "examples/basic.js", "name": "Router.use"},
					{"ecosystem": "pypi", "package": pyName, "version": "1.2.0", "path": "README.md", "name": "tomlkit.Document"},
				} {
					uri := expand(tmpl.URITemplate, vars)
					rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
					if err != nil {
						t.Errorf("template %s: read %s: %v", tmpl.URITemplate, uri, err)
						continue
					}
					if tmpl.MIMEType != "" && rr.Contents[0].MIMEType != tmpl.MIMEType {
						t.Errorf("%s: type %s, template says %s", uri, rr.Contents[0].MIMEType, tmpl.MIMEType)
					}
				}
				page := tmpl.URITemplate[strings.Index(tmpl.URITemplate, "{version}/")+len("{version}/"):]
				pages[strings.SplitN(page, "/", 2)[0]] = true
			}
			for _, p := range []string{"overview", "readme", "api", "doc", "symbol"} {
				if !pages[p] {
					t.Errorf("no template for %s pages", p)
				}
			}
		})
	}
}

func TestPrompts(t *testing.T) {
	srv := newServer(t)
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			ctx := context.Background()
			list, err := cs.ListPrompts(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range list.Prompts {
				names = append(names, p.Name)
				if p.Description == "" || p.Title == "" || len(p.Arguments) == 0 {
					t.Errorf("%s: incomplete %+v", p.Name, p)
				}
			}
			slices.Sort(names)
			if strings.Join(names, ",") != "explain_symbol,upgrade_package,use_package" {
				t.Errorf("prompts %v", names)
			}
			get := func(name string, args map[string]string) (*mcp.GetPromptResult, error) {
				return cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
			}
			// use_package embeds the overview (with the README summary) and the API as resources.
			res, err := get(serve.PromptUsePackage, map[string]string{"ecosystem": "go", "package": modPath, "task": "run tasks with retries"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Messages) != 3 || !strings.Contains(promptText(res.Messages[0]), "run tasks with retries") {
				t.Fatalf("use_package: %s", promptJSON(res))
			}
			for i, want := range []string{"/overview", "/api"} {
				er, ok := res.Messages[i+1].Content.(*mcp.EmbeddedResource)
				if !ok || !strings.HasSuffix(er.Resource.URI, want) || er.Resource.Text == "" {
					t.Errorf("use_package message %d: %s", i+1, promptJSON(res))
				}
			}
			if er := res.Messages[1].Content.(*mcp.EmbeddedResource); !strings.Contains(er.Resource.Text, "workpool runs tasks on a bounded pool") {
				t.Errorf("overview without the README summary: %s", er.Resource.Text)
			}
			// explain_symbol embeds the symbol.
			res, err = get(serve.PromptExplainSymbol, map[string]string{"ecosystem": "npm", "package": npmName, "symbol": "Router.use"})
			if err != nil {
				t.Fatal(err)
			}
			if er, ok := res.Messages[1].Content.(*mcp.EmbeddedResource); !ok || !strings.Contains(er.Resource.Text, "use(fn: Middleware): this") {
				t.Errorf("explain_symbol: %s", promptJSON(res))
			}
			// upgrade_package: removed, changed and added signatures between two versions.
			res, err = get(serve.PromptUpgradePackage, map[string]string{"ecosystem": "golang", "package": modPath, "from": "v1.0.0", "to": "v1.1.0"})
			if err != nil {
				t.Fatal(err)
			}
			diff := promptText(res.Messages[0])
			for _, want := range []string{"### Removed (1)", "func (p *Pool) Shutdown()", "### Changed (1)", "retry.Do (func) — no longer deprecated",
				"### Added (2)", "func (p *Pool) Close() error", "func (p *Pool) TryGo(task func() error) bool"} {
				if !strings.Contains(diff, want) {
					t.Errorf("upgrade_package diff lacks %q:\n%s", want, diff)
				}
			}
			if res.Description != "Upgrade github.com/acme/workpool from v1.0.0 to v1.1.0: 2 added, 1 removed, 1 changed" {
				t.Errorf("description %q", res.Description)
			}
			// to defaults to the latest version.
			if res, err := get(serve.PromptUpgradePackage, map[string]string{"ecosystem": "go", "package": modPath, "from": "v1.0.0"}); err != nil || !strings.Contains(res.Description, "to v1.1.0") {
				t.Errorf("upgrade without to: %v %v", res, err)
			}

			// Errors: missing arguments named in data, unknown prompt, unknown package or symbol.
			for _, c := range []struct {
				name    string
				args    map[string]string
				missing []string
			}{
				{serve.PromptUsePackage, map[string]string{"ecosystem": "go"}, []string{"package", "task"}},
				{serve.PromptUsePackage, nil, []string{"ecosystem", "package", "task"}},
				{serve.PromptExplainSymbol, map[string]string{"ecosystem": "go", "package": modPath, "symbol": "  "}, []string{"symbol"}},
				{serve.PromptUpgradePackage, map[string]string{"ecosystem": "go", "package": modPath}, []string{"from"}},
				{"no_such_prompt", nil, nil},
				{serve.PromptUsePackage, map[string]string{"ecosystem": "go", "package": "github.com/acme/workpol", "task": "x"}, nil},
				{serve.PromptUsePackage, map[string]string{"ecosystem": "cobol", "package": "x", "task": "x"}, nil},
				{serve.PromptExplainSymbol, map[string]string{"ecosystem": "go", "package": modPath, "symbol": "Pool.Gox"}, nil},
				{serve.PromptUpgradePackage, map[string]string{"ecosystem": "go", "package": modPath, "from": "v0.1.0"}, nil},
			} {
				_, err := get(c.name, c.args)
				if err == nil {
					t.Errorf("%s %v: no error", c.name, c.args)
					continue
				}
				werr := wireErr(t, err)
				if werr.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("%s %v: code %d, want -32602", c.name, c.args, werr.Code)
				}
				if c.missing != nil {
					var data struct{ Missing []string }
					if json.Unmarshal(werr.Data, &data) != nil || !slices.Equal(data.Missing, c.missing) {
						t.Errorf("%s %v: data %s, want missing %v", c.name, c.args, werr.Data, c.missing)
					}
				}
			}
		})
	}
}

func promptText(m *mcp.PromptMessage) string {
	if tc, ok := m.Content.(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

func promptJSON(res *mcp.GetPromptResult) string {
	b, _ := json.MarshalIndent(res, "", "  ")
	return string(b)
}

func TestCompletion(t *testing.T) {
	srv := newServer(t)
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	tmpl := func(uri string) *mcp.CompleteReference { return &mcp.CompleteReference{Type: "ref/resource", URI: uri} }
	const symbolTmpl = "docidx://{ecosystem}/{+package}@{version}/symbol/{+name}"
	const docTmpl = "docidx://{ecosystem}/{+package}@{version}/doc/{+path}"
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			cs := connectWith(t, srv, nil, v, nil)
			for _, c := range []struct {
				ref       *mcp.CompleteReference
				arg, val  string
				context   map[string]string
				want      []string
				wantTotal int
			}{
				{prompt(serve.PromptUsePackage), "ecosystem", "", nil, []string{"golang", "npm", "pypi", "cargo", "swift"}, 0},
				{prompt(serve.PromptUsePackage), "ecosystem", "go", nil, []string{"golang"}, 0},
				{prompt(serve.PromptUsePackage), "package", "github.com/acme/", map[string]string{"ecosystem": "go"}, []string{modPath}, 0},
				{prompt(serve.PromptUsePackage), "package", "@acme/", map[string]string{"ecosystem": "golang"}, []string{}, 0}, // the ecosystem chosen filters
				{prompt(serve.PromptUsePackage), "package", "acme", nil, []string{"acme_ring", "acme-tomlkit", "acme.swift-kit"}, 0},
				{prompt(serve.PromptUsePackage), "version", "", map[string]string{"ecosystem": "go", "package": modPath}, []string{"v1.1.0", "v1.0.0", "latest"}, 0},
				{prompt(serve.PromptUpgradePackage), "from", "v1.0", map[string]string{"ecosystem": "go", "package": modPath}, []string{"v1.0.0"}, 0},
				{prompt(serve.PromptUpgradePackage), "to", "v1.1", map[string]string{"package": modPath}, []string{"v1.1.0"}, 0},
				{prompt(serve.PromptExplainSymbol), "symbol", "Pool.", map[string]string{"ecosystem": "go", "package": modPath},
					[]string{"workpool.Pool.Go", "workpool.Pool.Close", "workpool.Pool.TryGo"}, 0},
				{prompt(serve.PromptExplainSymbol), "symbol", "pool.try", map[string]string{"ecosystem": "go", "package": modPath, "version": "v1.1.0"}, []string{"workpool.Pool.TryGo"}, 0},
				{prompt(serve.PromptUsePackage), "task", "", nil, []string{}, 0},
				{tmpl(symbolTmpl), "name", "Router", map[string]string{"ecosystem": "npm", "package": npmName}, []string{"Router", "Router.use", "RouterOptions", "RouterOptions.strict"}, 0},
				{tmpl(docTmpl), "path", "docs/", map[string]string{"ecosystem": "npm", "package": npmName, "version": "2.0.0"}, []string{"docs/diagram.png"}, 0},
				{tmpl(docTmpl), "ecosystem", "c", nil, []string{"cargo"}, 0},
				{tmpl(docTmpl), "version", "", map[string]string{"ecosystem": "cargo", "package": crateName}, []string{"0.3.1", "latest"}, 0},
				// Unknown references and arguments: empty, not an error.
				{prompt("test_prompt_with_arguments"), "arg1", "test", nil, []string{}, 0},
				{tmpl("docidx://{nope}"), "nope", "", nil, []string{}, 0},
				{prompt(serve.PromptUsePackage), "bogus", "x", nil, []string{}, 0},
				{prompt(serve.PromptUsePackage), "version", "", map[string]string{"package": "no/such"}, []string{}, 0},
			} {
				res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
					Ref: c.ref, Argument: mcp.CompleteParamsArgument{Name: c.arg, Value: c.val}, Context: &mcp.CompleteContext{Arguments: c.context},
				})
				if err != nil {
					t.Errorf("%+v %s=%q: %v", c.ref, c.arg, c.val, err)
					continue
				}
				if got := res.Completion.Values; !slices.Equal(got, c.want) {
					t.Errorf("%+v %s=%q %v: %q, want %q", *c.ref, c.arg, c.val, c.context, got, c.want)
				}
			}
		})
	}
}

// The logging tests use the SDK's logging API, deprecated from 2026-07-28 on (SEP-2577) but part
// of every revision docidx serves.
//
//lint:file-ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves

// notifications collects what a client receives besides responses.
type notifications struct {
	mu       sync.Mutex
	logs     []*mcp.LoggingMessageParams
	progress []*mcp.ProgressNotificationParams
}

func (n *notifications) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			n.mu.Lock()
			n.logs = append(n.logs, r.Params)
			n.mu.Unlock()
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			n.mu.Lock()
			n.progress = append(n.progress, r.Params)
			n.mu.Unlock()
		},
	}
}

// wait waits until cond holds over the notifications received.
func (n *notifications) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 200 {
		n.mu.Lock()
		ok := cond()
		n.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("no %s received", what)
}

func TestNotifications(t *testing.T) {
	srv := newServer(t)
	for _, v := range testVersions {
		t.Run(v, func(t *testing.T) {
			var n notifications
			cs := connectWith(t, srv, n.options(), v, nil)
			ctx := context.Background()
			// No log messages before the client asks for them.
			call(t, cs, serve.ToolListPackages, map[string]any{})
			time.Sleep(20 * time.Millisecond)
			n.mu.Lock()
			if len(n.logs) > 0 {
				t.Errorf("log messages before logging/setLevel: %+v", n.logs[0])
			}
			n.mu.Unlock()

			// Ask for info and above: from 2026-07-28 on, in each request's _meta.
			meta := mcp.Meta{"progressToken": "p-1"}
			if v >= "2026-07-28" {
				meta[mcp.MetaKeyLogLevel] = "info"
			} else if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: serve.ToolSearch, Arguments: map[string]any{"query": "pool"}})
			if err != nil || res.IsError {
				t.Fatalf("search: %v %v", err, res)
			}
			n.wait(t, "log message for the search", func() bool {
				for _, l := range n.logs {
					if d, _ := l.Data.(map[string]any); d != nil && d["name"] == serve.ToolSearch && l.Level == "info" && l.Logger == "docidx" {
						return true
					}
				}
				return false
			})
			n.wait(t, "progress", func() bool {
				var last *mcp.ProgressNotificationParams
				for _, p := range n.progress {
					if p.ProgressToken != "p-1" {
						continue
					}
					if last != nil && p.Progress <= last.Progress {
						return false
					}
					last = p
				}
				return last != nil && last.Total == last.Progress && last.Progress >= 3
			})
			// A failed call is logged as a warning.
			meta = mcp.Meta{}
			if v >= "2026-07-28" {
				meta[mcp.MetaKeyLogLevel] = "warning"
			}
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: serve.ToolDescribeGo, Arguments: map[string]any{"package": "no/such"}}); err != nil || !res.IsError {
				t.Fatalf("describe no/such: %v %v", err, res)
			}
			n.wait(t, "warning for the failed call", func() bool {
				for _, l := range n.logs {
					if d, _ := l.Data.(map[string]any); d != nil && d["name"] == serve.ToolDescribeGo && l.Level == "warning" && d["isError"] == true {
						return true
					}
				}
				return false
			})
		})
	}
}

// TestDescribeEveryEcosystem drives the describe tool of every ecosystem.
func TestDescribeEveryEcosystem(t *testing.T) {
	cs := connectWith(t, newServer(t), nil, "2026-07-28", nil)
	for _, c := range []struct{ tool, pkg, symbol, want string }{
		{serve.ToolDescribePython, pyName, "", "def loads(text: str) -> Document"},
		{serve.ToolDescribePython, pyName, "Document", "class Document(dict)"},
		{serve.ToolDescribeRust, crateName, "", "pub struct Ring<T, const N: usize>"},
		{serve.ToolDescribeRust, crateName, "Ring.push", "Push an item, returning the one it overwrote."},
		{serve.ToolDescribeSwift, swiftName, "", "public func slugify(_ s: String) -> String"},
	} {
		args := map[string]any{"package": c.pkg}
		if c.symbol != "" {
			args["symbol"] = c.symbol
		}
		var out answer.DescribeOutput
		res := call(t, cs, c.tool, args)
		structured(t, res, &out)
		if !strings.Contains(resultText(res), c.want) || out.Package != c.pkg {
			t.Errorf("%s %v: %s", c.tool, args, resultText(res))
		}
	}
	// Each describes its own ecosystem only.
	if res := call(t, cs, serve.ToolDescribeRust, map[string]any{"package": pyName}); !res.IsError {
		t.Errorf("describe_rust_package of a PyPI package: %s", resultText(res))
	}
}

// TestMaxTokensEveryTool checks that every tool takes max_tokens and stays within it.
func TestMaxTokensEveryTool(t *testing.T) {
	cs := connectWith(t, newServer(t), nil, "2025-06-18", nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]map[string]any{
		serve.ToolSearch:         {"query": "pool task router"},
		serve.ToolDescribeGo:     {"package": modPath},
		serve.ToolDescribeNPM:    {"package": npmName},
		serve.ToolDescribePython: {"package": pyName},
		serve.ToolDescribeRust:   {"package": crateName},
		serve.ToolDescribeSwift:  {"package": swiftName},
		serve.ToolGetDoc:         {"ecosystem": "npm", "package": npmName},
		serve.ToolGetNPMDoc:      {"package": npmName},
		serve.ToolListPackages:   {},
		serve.ToolRead:           {"uri": "docidx://npm/" + npmName + "@latest/readme"},
	}
	for _, tool := range tools.Tools {
		props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		if _, ok := props["max_tokens"]; !ok {
			t.Errorf("%s takes no max_tokens", tool.Name)
		}
		a, ok := args[tool.Name]
		if !ok {
			t.Errorf("no arguments for %s", tool.Name)
			continue
		}
		res := call(t, cs, tool.Name, merge(a, map[string]any{"max_tokens": 50}))
		text := resultText(res)
		// The page itself stays within 50 tokens (200 bytes) but for one unit wider than the
		// budget; a continuation line follows when more does.
		body, _, _ := strings.Cut(text, "\n---\nMore: ")
		if len(body) > 600 {
			t.Errorf("%s with max_tokens 50: %d bytes:\n%s", tool.Name, len(body), text)
		}
	}
	var page answer.ListOutput
	structured(t, call(t, cs, serve.ToolListPackages, map[string]any{"max_tokens": 50}), &page)
	if len(page.Packages) == 0 || len(page.Packages) >= 5 || page.NextCursor == "" {
		t.Errorf("list_packages max_tokens 50: %d packages, cursor %q", len(page.Packages), page.NextCursor)
	}
	var all []answer.PackageListing
	for cursor, i := "", 0; i < 20; i++ {
		a := map[string]any{"max_tokens": 50}
		if cursor != "" {
			a["cursor"] = cursor
		}
		var p answer.ListOutput
		structured(t, call(t, cs, serve.ToolListPackages, a), &p)
		all = append(all, p.Packages...)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(all) != 5 {
		t.Errorf("paging list_packages by budget gave %d packages, want 5", len(all))
	}
}

// TestStdioOnlyJSONRPC runs a stdio session that asks for log messages and progress, reads
// resources and prompts, and checks that stdout carries JSON-RPC messages only — notifications
// included — and that every request is answered.
func TestStdioOnlyJSONRPC(t *testing.T) {
	srv := newServer(t)
	script := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stdio","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":7},"name":"search_package_docs","arguments":{"query":"pool"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"docidx://npm/@acme/router@2.0.0/doc/docs/diagram.png"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"use_package","arguments":{"ecosystem":"pypi","package":"acme-tomlkit","task":"edit a config"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"docidx://{ecosystem}/{+package}@{version}/api"},"argument":{"name":"package","value":"acme"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"describe_rust_package","arguments":{"package":"acme_rng"}}}`,
	}, "\n") + "\n"
	out := &syncBuffer{}
	if err := srv.RunStdio(context.Background(), strings.NewReader(script), out); err != nil {
		t.Fatal(err)
	}
	ids := responseIDs(t, out.Bytes()) // fails on any line that is not JSON-RPC 2.0
	for id := 1; id <= 8; id++ {
		if !ids[id] {
			t.Errorf("request %d not answered", id)
		}
	}
	for _, want := range []string{`"method":"notifications/progress"`, `"method":"notifications/message"`, `"level":"warning"`} {
		if !strings.Contains(string(out.Bytes()), want) {
			t.Errorf("stdout has no %s", want)
		}
	}
}

// FuzzReadResource reads arbitrary URIs: every answer is contents or a resource-not-found error
// naming the URI, never another error or a panic.
func FuzzReadResource(f *testing.F) {
	for _, s := range []string{
		"docidx://snapshot", "docidx://golang/github.com/acme/workpool@latest/api", "docidx://npm/@acme/router@2.0.0/doc/docs/diagram.png",
		"docidx://golang/github.com/acme/workpool@v1.1.0/symbol/Pool.Go", "docidx://npm/%40acme/router@%32.0.0/readme", "docidx://x@y/z", "",
	} {
		f.Add(s)
	}
	srv := serve.New(snapshot(f), serve.Options{Logger: slog.New(slog.DiscardHandler)})
	cs := connectWith(f, srv, nil, "2025-11-25", nil)
	f.Fuzz(func(t *testing.T, uri string) {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			if len(res.Contents) != 1 {
				t.Fatalf("%q: %d contents", uri, len(res.Contents))
			}
			return
		}
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || (werr.Code != -32002 && werr.Code != jsonrpc.CodeInvalidParams) {
			t.Fatalf("%q: %v", uri, err)
		}
	})
}

// A server made before its snapshot is open answers initialize at once; calls that read the
// snapshot wait for SetReader.
func TestServerWithoutReaderYet(t *testing.T) {
	srv := serve.New(nil, serve.Options{Logger: testLogger(t)})
	cs := connect(t, srv, nil) // initialize needs no snapshot
	done := make(chan *mcp.CallToolResult)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_package_docs", Arguments: map[string]any{"query": "pool"}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case <-done:
		t.Fatal("search answered before the snapshot was set")
	case <-time.After(50 * time.Millisecond):
	}
	srv.SetReader(snapshot(t), nil)
	if res := <-done; res == nil || res.IsError {
		t.Errorf("search after SetReader: %+v", res)
	}
}

// A server whose snapshot cannot be opened fails the calls waiting for it, and later ones, with
// -32603 and the reason, instead of holding them for ever; ping needs no snapshot.
func TestServerUnavailable(t *testing.T) {
	srv := serve.New(nil, serve.Options{Logger: testLogger(t)})
	cs := connect(t, srv, nil)
	ctx := context.Background()
	waiting := make(chan error)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_package_docs", Arguments: map[string]any{"query": "pool"}})
		waiting <- err
	}()
	time.Sleep(20 * time.Millisecond) // most runs: the call waits for the snapshot first
	srv.Unavailable(errors.New("rank.idx: malformed rank index"))
	later := func() error {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docidx://snapshot"})
		return err
	}
	for name, err := range map[string]error{"waiting search": <-waiting, "later read": later()} {
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInternalError || !strings.Contains(werr.Message, "malformed rank index") {
			t.Errorf("%s: got %v, want -32603 naming the reason", name, err)
		}
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
	srv.Unavailable(errors.New("again")) // a second call changes nothing
	if err := later(); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("after a second Unavailable: %v", err)
	}
}
