package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goldenCalls drives every tool; their structured and text content are pinned by golden files.
var goldenCalls = []struct {
	name string
	tool string
	args map[string]any
}{
	{"search_pool", serve.ToolSearch, map[string]any{"query": "pool goroutines", "limit": 5}},
	{"search_symbol_kind", serve.ToolSearch, map[string]any{"query": "submit task", "ecosystem": "go", "kind": "method"}},
	{"search_npm_middleware", serve.ToolSearch, map[string]any{"query": "middleware", "ecosystem": "npm"}},
	{"describe_go_module", serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpool"}},
	{"describe_go_subpackage", serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpool/retry", "version": "v1.0.0"}},
	{"describe_go_symbol", serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpool", "symbol": "Pool.Go"}},
	{"describe_npm", serve.ToolDescribeNPM, map[string]any{"package": "@acme/router"}},
	{"describe_npm_symbol", serve.ToolDescribeNPM, map[string]any{"package": "@acme/router@2.0.0", "symbol": "createRouter"}},
	{"get_doc_readme", serve.ToolGetDoc, map[string]any{"ecosystem": "golang", "package": "github.com/acme/workpool"}},
	{"get_doc_guide", serve.ToolGetDoc, map[string]any{"ecosystem": "go", "package": "github.com/acme/workpool", "version": "v1.0.0", "path": "docs/retries.md"}},
	{"get_npm_doc", serve.ToolGetNPMDoc, map[string]any{"package": "@acme/router"}},
	{"list_all", serve.ToolListPackages, map[string]any{}},
	{"list_npm", serve.ToolListPackages, map[string]any{"ecosystem": "node", "prefix": "@acme/"}},
}

// TestToolsGolden runs every golden call under the protocol revisions of testVersions; the
// answers must be the same under each.
func TestToolsGolden(t *testing.T) {
	srv := newServer(t)
	sessions := map[string]*mcp.ClientSession{}
	for _, v := range testVersions {
		sessions[v] = connect(t, srv, &mcp.ClientSessionOptions{ProtocolVersion: v})
	}
	for _, c := range goldenCalls {
		for _, v := range testVersions {
			t.Run(c.name+"/"+v, func(t *testing.T) { toolGolden(t, sessions[v], c.name, c.tool, c.args) })
		}
	}
}

// toolGolden calls tool and compares its structured and text content with testdata/name.golden.
func toolGolden(t *testing.T, cs *mcp.ClientSession, name, tool string, args map[string]any) {
	res := call(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	sc, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(sc, &m); err != nil {
		t.Fatal(err)
	}
	// Scores depend on the ranking model, not on serve: pin that they exist, not their value.
	if rs, ok := m["results"].([]any); ok {
		prev := 1e300
		for _, r := range rs {
			r := r.(map[string]any)
			score, _ := r["score"].(float64)
			if score <= 0 || score > prev {
				t.Errorf("score %v: want positive and non-increasing", r["score"])
			}
			// Reported as the text shows it: two decimals, not float32 noise.
			if score != math.Round(score*100)/100 {
				t.Errorf("score %v: want at most two decimals", r["score"])
			}
			prev = score
			r["score"] = 1
		}
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	text := scoreRE.ReplaceAllString(resultText(res), "score X")
	golden(t, name+".golden", append(append(out, "\n\n---- text ----\n"...), text...))
}

// TestToolsList pins names, titles, descriptions, schemas and annotations of every tool, and
// checks the schemas suit strict clients.
func TestToolsList(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{serve.ToolSearch, serve.ToolDescribeGo, serve.ToolDescribeNPM, serve.ToolDescribePython, serve.ToolDescribeRust,
		serve.ToolDescribeSwift, serve.ToolGetDoc, serve.ToolGetNPMDoc, serve.ToolListPackages, serve.ToolRead}
	got := map[string]bool{}
	for _, tool := range res.Tools {
		got[tool.Name] = true
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.Title == "" || tool.Title == "" {
			t.Errorf("%s: annotations %+v, title %q: want read-only, idempotent, closed-world, titled", tool.Name, a, tool.Title)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
		for _, s := range []any{tool.InputSchema, tool.OutputSchema} {
			checkStrictSchema(t, tool.Name, "", s)
		}
		checkDescriptions(t, tool.Name, tool.InputSchema)
	}
	for _, name := range want {
		if !got[name] {
			t.Errorf("tool %s not listed", name)
		}
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools listed, want %d", len(res.Tools), len(want))
	}
	b, _ := json.MarshalIndent(res.Tools, "", "  ")
	golden(t, "tools_list.golden.json", append(b, '\n'))
}

// checkStrictSchema fails on a "type" that is a list: strict validators (the MCP Inspector's
// --strict) reject ["null","array"].
func checkStrictSchema(t *testing.T, tool, path string, s any) {
	switch s := s.(type) {
	case map[string]any:
		if typ, ok := s["type"]; ok {
			if _, isStr := typ.(string); !isStr {
				t.Errorf("%s: schema at %q has type %v; want a single type", tool, path, typ)
			}
		}
		for k, v := range s {
			if props, ok := v.(map[string]any); ok && k == "properties" {
				// A properties map names schemas: its keys are property names (a property may be
				// called "type"), not keywords.
				for name, p := range props {
					checkStrictSchema(t, tool, path+"/properties/"+name, p)
				}
				continue
			}
			checkStrictSchema(t, tool, path+"/"+k, v)
		}
	case []any:
		for _, v := range s {
			checkStrictSchema(t, tool, path, v)
		}
	}
}

// checkDescriptions fails on an input property without a description.
func checkDescriptions(t *testing.T, tool string, s any) {
	props, _ := s.(map[string]any)["properties"].(map[string]any)
	for name, p := range props {
		if d, _ := p.(map[string]any)["description"].(string); d == "" {
			t.Errorf("%s: input property %s has no description", tool, name)
		}
	}
}

func TestUnknownPackage(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpol"},
			[]string{"github.com/acme/workpol", "not indexed", "did you mean: github.com/acme/workpool", "docidx crawl go:github.com/acme/workpol"}},
		{serve.ToolDescribeNPM, map[string]any{"package": "@acme/routr"},
			[]string{"did you mean: @acme/router", "docidx crawl npm:@acme/routr"}},
		{serve.ToolGetDoc, map[string]any{"ecosystem": "npm", "package": "@acme/router", "version": "9.9.9"},
			[]string{"@acme/router@9.9.9", "indexed versions: 2.0.0"}},
		{serve.ToolGetNPMDoc, map[string]any{"package": "acme-router"},
			[]string{"not indexed", "@acme/router"}},
		{serve.ToolSearch, map[string]any{"query": "pool", "package": "github.com/acme/workpol"},
			[]string{"did you mean: github.com/acme/workpool"}},
		{serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpool/retri"},
			[]string{"has no package github.com/acme/workpool/retri", "did you mean: github.com/acme/workpool/retry"}},
		{serve.ToolDescribeGo, map[string]any{"package": "github.com/acme/workpool", "symbol": "Pool.Gox"},
			[]string{`symbol "Pool.Gox" not found`, "did you mean: Pool.Go"}},
		{serve.ToolGetDoc, map[string]any{"ecosystem": "go", "package": "github.com/acme/workpool", "path": "docs/nope.md"},
			[]string{`has no document "docs/nope.md"`, "available documents: README.md, docs/retries.md"}},
		{serve.ToolSearch, map[string]any{"query": "zebra unicorn"},
			[]string{`no results for "zebra unicorn"`}},
	} {
		res := call(t, cs, c.tool, c.args)
		text := resultText(res)
		if !res.IsError {
			t.Errorf("%s %v: want isError, got %s", c.tool, c.args, text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: %q does not say %q", c.tool, c.args, text, w)
			}
		}
	}
}

// TestSearchKindNames checks that the search tool reads a kind as the CLI's --kind does: a long
// name, a plural or another letter case finds what the kind's own name finds.
func TestSearchKindNames(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var want answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "submit task", "ecosystem": "go", "kind": "method"}), &want)
	if len(want.Results) == 0 {
		t.Fatal("kind method: no hits")
	}
	for _, kind := range []string{"Method", "methods", "METHODS"} {
		var got answer.SearchOutput
		structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "submit task", "ecosystem": "go", "kind": kind}), &got)
		if !reflect.DeepEqual(got.Results, want.Results) {
			t.Errorf("kind %q: %v, want the hits of kind method", kind, got.Results)
		}
	}
	var funcs, functions answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool", "kind": "func"}), &funcs)
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool", "kind": "Function"}), &functions)
	if len(funcs.Results) == 0 || !reflect.DeepEqual(functions.Results, funcs.Results) {
		t.Errorf("kind Function: %v, want the hits of kind func %v", functions.Results, funcs.Results)
	}
	werr := callErr(t, cs, serve.ToolSearch, map[string]any{"query": "pool", "kind": "functionz"})
	if werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "func, method") || !strings.Contains(werr.Message, "function") {
		t.Errorf("kind functionz: %d %s, want -32602 listing the kinds", werr.Code, werr.Message)
	}
}

func TestBadArguments(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, c := range []struct {
		tool string
		args any
	}{
		{serve.ToolSearch, map[string]any{}},                                   // query missing
		{serve.ToolSearch, map[string]any{"query": 5}},                         // wrong type
		{serve.ToolSearch, map[string]any{"query": ""}},                        // empty
		{serve.ToolSearch, map[string]any{"query": "   "}},                     // blank
		{serve.ToolSearch, map[string]any{"query": "x", "limit": 1000}},        // over the maximum
		{serve.ToolSearch, map[string]any{"query": "x", "limit": 2.5}},         // not an integer
		{serve.ToolSearch, map[string]any{"query": "x", "limit": "ten"}},       // wrong type
		{serve.ToolSearch, map[string]any{"query": "x", "kind": "potato"}},     // not an enum value
		{serve.ToolSearch, map[string]any{"query": "x", "ecosystem": "cobol"}}, // unknown ecosystem
		{serve.ToolSearch, map[string]any{"query": "x", "bogus": true}},        // unknown argument
		{serve.ToolSearch, []any{"query"}},                                     // not an object
		{serve.ToolSearch, "query"},
		{serve.ToolSearch, map[string]any{"query": "x", "max_tokens": -1}},
		{serve.ToolDescribeGo, map[string]any{"version": "v1.0.0"}},
		{serve.ToolDescribeGo, map[string]any{"package": []string{"a"}}},
		{serve.ToolGetDoc, map[string]any{"package": "x"}},
		{serve.ToolGetDoc, map[string]any{"ecosystem": "haskell", "package": "x"}},
		{serve.ToolGetNPMDoc, map[string]any{"package": nil}},
		{serve.ToolListPackages, map[string]any{"limit": 0}},
		{serve.ToolListPackages, map[string]any{"ecosystem": 7}},
		{"no_such_tool", map[string]any{}},
	} {
		werr := callErr(t, cs, c.tool, c.args)
		if werr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s %v: code %d (%s), want -32602", c.tool, c.args, werr.Code, werr.Message)
		}
	}
	// Missing required arguments are named in data.
	werr := callErr(t, cs, serve.ToolGetDoc, map[string]any{})
	var data struct{ Missing []string }
	if err := json.Unmarshal(werr.Data, &data); err != nil || strings.Join(data.Missing, ",") != "ecosystem,package" {
		t.Errorf("missing arguments: data %s, want ecosystem and package named", werr.Data)
	}
}

func TestBadCursor(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	// A real cursor of another request.
	var page answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool", "limit": 1}), &page)
	if page.NextCursor == "" {
		t.Fatal("search for pool with limit 1 gave no nextCursor")
	}
	var doc answer.DocOutput
	structured(t, call(t, cs, serve.ToolGetNPMDoc, map[string]any{"package": npmName, "max_tokens": 50}), &doc)
	if doc.NextCursor == "" {
		t.Fatal("small max_tokens gave no nextCursor")
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{serve.ToolSearch, map[string]any{"query": "pool", "cursor": "garbage!"}},
		{serve.ToolSearch, map[string]any{"query": "pool", "cursor": "eyJ2IjoxfQ"}}, // {"v":1}
		{serve.ToolSearch, map[string]any{"query": "goroutines", "cursor": page.NextCursor}},
		{serve.ToolSearch, map[string]any{"query": "pool", "ecosystem": "npm", "cursor": page.NextCursor}},
		{serve.ToolGetNPMDoc, map[string]any{"package": npmName, "cursor": page.NextCursor}},
		{serve.ToolGetDoc, map[string]any{"ecosystem": "npm", "package": npmName, "cursor": doc.NextCursor}}, // another tool
		{serve.ToolGetDoc, map[string]any{"ecosystem": "go", "package": modPath, "cursor": doc.NextCursor}},
		{serve.ToolDescribeNPM, map[string]any{"package": npmName, "cursor": doc.NextCursor}},
		{serve.ToolListPackages, map[string]any{"cursor": "garbage"}},
		{serve.ToolListPackages, map[string]any{"cursor": page.NextCursor}},
		{serve.ToolSearch, map[string]any{"query": "pool", "cursor": strings.Repeat("A", 5000)}},
	} {
		werr := callErr(t, cs, c.tool, c.args)
		if werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "cursor") {
			t.Errorf("%s %v: %d %q, want -32602 about the cursor", c.tool, c.args, werr.Code, werr.Message)
		}
	}
}

// TestPagingRoundTrip follows nextCursor with a small budget and checks the pages put together
// are the whole answer.
func TestPagingRoundTrip(t *testing.T) {
	cs := connect(t, newServer(t), nil)

	t.Run("document", func(t *testing.T) {
		for _, args := range []map[string]any{
			{"package": npmName},
			{"package": npmName, "version": "2.0.0", "path": "README.md"},
		} {
			var full answer.DocOutput
			structured(t, call(t, cs, serve.ToolGetNPMDoc, merge(args, map[string]any{"max_tokens": 100000})), &full)
			if full.NextCursor != "" || !strings.Contains(full.Text, longLine) || !strings.Contains(full.Text, "## Middleware") {
				t.Fatalf("full document: cursor %q, text:\n%s", full.NextCursor, full.Text)
			}
			var joined strings.Builder
			pages, cursor := 0, ""
			for {
				var p answer.DocOutput
				a := merge(args, map[string]any{"max_tokens": 50})
				if cursor != "" {
					a["cursor"] = cursor
				}
				structured(t, call(t, cs, serve.ToolGetNPMDoc, a), &p)
				pages++
				if len(p.Text) > 50*4 {
					t.Errorf("page %d is %d bytes, over the 200-byte budget", pages, len(p.Text))
				}
				joined.WriteString(p.Text)
				if p.NextCursor == "" {
					break
				}
				if pages > 100 {
					t.Fatal("more than 100 pages")
				}
				cursor = p.NextCursor
			}
			if joined.String() != full.Text {
				t.Errorf("%d pages joined differ from the whole document:\n--- joined\n%s\n--- whole\n%s", pages, joined.String(), full.Text)
			}
			if pages < 4 {
				t.Errorf("%d pages; want the long section cut", pages)
			}
		}
	})

	t.Run("outline", func(t *testing.T) {
		var full answer.DescribeOutput
		structured(t, call(t, cs, serve.ToolDescribeGo, map[string]any{"package": modPath, "max_tokens": 100000}), &full)
		var entries []answer.OutlineEntry
		cursor, pages := "", 0
		for {
			a := map[string]any{"package": modPath, "max_tokens": 50}
			if cursor != "" {
				a["cursor"] = cursor
			}
			var p answer.DescribeOutput
			structured(t, call(t, cs, serve.ToolDescribeGo, a), &p)
			pages++
			if pages > 1 && (p.Readme != "" || len(p.Documents) > 0) {
				t.Errorf("page %d repeats the header", pages)
			}
			entries = append(entries, p.Outline...)
			if p.NextCursor == "" || pages > 100 {
				break
			}
			cursor = p.NextCursor
		}
		a, _ := json.Marshal(entries)
		b, _ := json.Marshal(full.Outline)
		if string(a) != string(b) || pages < 3 {
			t.Errorf("%d pages of outline entries %s, want %s", pages, a, b)
		}
	})

	t.Run("search", func(t *testing.T) {
		var all answer.SearchOutput
		structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool task router", "limit": 50}), &all)
		if len(all.Results) < 4 {
			t.Fatalf("only %d results", len(all.Results))
		}
		var got []answer.SearchResult
		cursor := ""
		for i := 0; i < 100; i++ {
			a := map[string]any{"query": "pool task router", "limit": 3}
			if cursor != "" {
				a["cursor"] = cursor
			}
			var p answer.SearchOutput
			structured(t, call(t, cs, serve.ToolSearch, a), &p)
			got = append(got, p.Results...)
			if cursor = p.NextCursor; cursor == "" {
				break
			}
		}
		seen := map[string]bool{}
		for _, r := range got {
			key := r.Ref().Name + "@" + r.Ref().Version + " " + r.URI
			if seen[key] {
				t.Errorf("result %s repeated across pages", key)
			}
			seen[key] = true
		}
		if len(got) != len(all.Results) {
			t.Errorf("paging gave %d results, one page %d", len(got), len(all.Results))
		}
		// A tight budget cuts at a hit boundary and continues.
		var tight answer.SearchOutput
		res := call(t, cs, serve.ToolSearch, map[string]any{"query": "pool task router", "limit": 50, "max_tokens": 50})
		structured(t, res, &tight)
		if len(tight.Results) == 0 || len(tight.Results) >= len(all.Results) || tight.NextCursor == "" {
			t.Errorf("max_tokens 50: %d results, cursor %q; want a cut with a cursor", len(tight.Results), tight.NextCursor)
		}
		// The text shows the hits of the structured results, and nothing of the hit cut.
		if text := resultText(res); strings.Count(text, "\n   docidx://") != len(tight.Results) {
			t.Errorf("max_tokens 50: %d results, text of %d hits:\n%s", len(tight.Results), strings.Count(text, "\n   docidx://"), text)
		}
	})
}

// TestLatestVersusVersion checks that search covers latest versions unless a version is given.
func TestLatestVersusVersion(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var latest answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool", "ecosystem": "golang"}), &latest)
	for _, r := range latest.Results {
		if r.Ref().Version != "v1.1.0" {
			t.Errorf("latest-only search returned %s@%s", r.Ref().Name, r.Ref().Version)
		}
	}
	res := call(t, cs, serve.ToolSearch, map[string]any{"query": "Shutdown"})
	if !res.IsError {
		var out answer.SearchOutput
		structured(t, res, &out)
		for _, r := range out.Results {
			if r.Ref().Version == "v1.0.0" {
				t.Errorf("latest-only search found old version's %s", r.Title)
			}
		}
	}
	var old answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "Shutdown", "package": modPath, "version": "v1.0.0"}), &old)
	if len(old.Results) == 0 || old.Results[0].Ref().Version != "v1.0.0" || !strings.Contains(old.Results[0].Title, "Shutdown") {
		t.Errorf("version filter: %+v, want Pool.Shutdown of v1.0.0 first", old.Results)
	}
	// describe follows the same rule.
	var d answer.DescribeOutput
	structured(t, call(t, cs, serve.ToolDescribeGo, map[string]any{"package": modPath + "@v1.0.0"}), &d)
	if d.Version != "v1.0.0" || d.Latest != "v1.1.0" || strings.Join(d.Versions, ",") != "v1.0.0,v1.1.0" {
		t.Errorf("describe @v1.0.0: version %s latest %s versions %v", d.Version, d.Latest, d.Versions)
	}
}

// TestHostileInputs sends odd values everywhere: every answer must be a result or a -32602, and
// the server must stay up.
func TestHostileInputs(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	odd := []string{"", " ", "@", "/", "@@", "a@", "@/", "../../etc/passwd", "\x00", "é\u0301", "🦀", strings.Repeat("x", 5000),
		"github.com/", "github.com/acme/workpool/", "*", "\"", "golang", "@acme/router@", "latest", "pkg:npm/%40acme/router"}
	tools := map[string][]string{
		serve.ToolSearch:       {"query", "ecosystem", "package", "version", "cursor"},
		serve.ToolDescribeGo:   {"package", "version", "symbol", "cursor"},
		serve.ToolDescribeNPM:  {"package", "version", "symbol", "cursor"},
		serve.ToolGetDoc:       {"ecosystem", "package", "version", "path", "cursor"},
		serve.ToolGetNPMDoc:    {"package", "version", "path", "cursor"},
		serve.ToolListPackages: {"ecosystem", "prefix", "cursor"},
	}
	base := map[string]map[string]any{
		serve.ToolSearch:       {"query": "pool"},
		serve.ToolDescribeGo:   {"package": modPath},
		serve.ToolDescribeNPM:  {"package": npmName},
		serve.ToolGetDoc:       {"ecosystem": "go", "package": modPath},
		serve.ToolGetNPMDoc:    {"package": npmName},
		serve.ToolListPackages: {},
	}
	for tool, fields := range tools {
		for _, f := range fields {
			for _, v := range odd {
				args := merge(base[tool], map[string]any{f: v})
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
				if err != nil {
					var werr *jsonrpc.Error
					if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
						t.Errorf("%s %s=%q: %v", tool, f, v, err)
					}
					continue
				}
				if len(res.Content) == 0 {
					t.Errorf("%s %s=%q: empty result", tool, f, v)
				}
			}
		}
	}
}

func merge(a, b map[string]any) map[string]any {
	m := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

// TestProtocolVersions calls the tools under every protocol revision the SDK supports.
func TestProtocolVersions(t *testing.T) {
	srv := newServer(t)
	for _, v := range mcp.SupportedProtocolVersions() {
		t.Run(v, func(t *testing.T) {
			cs := connect(t, srv, &mcp.ClientSessionOptions{ProtocolVersion: v})
			var out answer.SearchOutput
			structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "pool"}), &out)
			if len(out.Results) == 0 {
				t.Error("no results")
			}
			werr := callErr(t, cs, serve.ToolSearch, map[string]any{"query": 1})
			if werr.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("bad arguments: code %d", werr.Code)
			}
		})
	}
}
