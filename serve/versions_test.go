package serve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/serve"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestVersionRanges passes versions as people write them to every tool that takes one: each
// reads the newest indexed version that matches (the fixture indexes workpool v1.0.0 and v1.1.0).
func TestVersionRanges(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	const mod = "github.com/acme/workpool"
	for _, tc := range []struct{ version, want string }{
		{"v1", "v1.1.0"}, {"1", "v1.1.0"}, {"^1", "v1.1.0"}, {"1.x", "v1.1.0"}, {"v1.0", "v1.0.0"},
		{"~1.0", "v1.0.0"}, {">=1 <1.1", "v1.0.0"}, {"1.0.0", "v1.0.0"}, {"latest", "v1.1.0"},
	} {
		var d answer.DescribeOutput
		structured(t, call(t, cs, serve.ToolDescribeGo, map[string]any{"package": mod, "version": tc.version}), &d)
		if d.Version != tc.want {
			t.Errorf("describe version %q: got %s, want %s", tc.version, d.Version, tc.want)
		}
		var g answer.DocOutput
		structured(t, call(t, cs, serve.ToolGetDoc, map[string]any{"ecosystem": "golang", "package": mod, "version": tc.version, "path": "README.md"}), &g)
		if g.Version != tc.want {
			t.Errorf("get_package_doc version %q: got %s, want %s", tc.version, g.Version, tc.want)
		}
		var s answer.SearchOutput
		structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "retry policy", "package": mod, "version": tc.version}), &s)
		if len(s.Results) == 0 {
			t.Errorf("search version %q: no hits", tc.version)
		}
		for _, h := range s.Results {
			if h.Ref().Version != tc.want {
				t.Errorf("search version %q: a hit of %s, want only %s", tc.version, h.Ref().Version, tc.want)
			}
		}
		var r answer.ReadOutput
		structured(t, call(t, cs, serve.ToolRead, map[string]any{"uri": "docidx://golang/" + mod + "@" + tc.version + "/overview"}), &r)
		if r.Version != tc.want {
			t.Errorf("read @%s: got %s, want %s", tc.version, r.Version, tc.want)
		}
	}

	// A range that matches nothing names the indexed versions.
	for _, args := range []map[string]any{
		{"package": mod, "version": "^2"},
		{"package": mod, "version": "v9"},
	} {
		res := call(t, cs, serve.ToolDescribeGo, args)
		if text := resultText(res); !res.IsError || !strings.Contains(text, "v1.0.0, v1.1.0") {
			t.Errorf("describe %v: want a tool error naming the indexed versions, got %s", args, text)
		}
		res = call(t, cs, serve.ToolSearch, map[string]any{"query": "retry", "package": mod, "version": args["version"]})
		if text := resultText(res); !res.IsError || !strings.Contains(text, "v1.0.0, v1.1.0") {
			t.Errorf("search %v: want a tool error naming the indexed versions, got %s", args, text)
		}
	}
}

// TestReadWithoutVersion reads URIs that leave out @VERSION: they read the latest indexed version.
func TestReadWithoutVersion(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, tc := range []struct{ uri, version, want string }{
		{"docidx://npm/@acme/router/readme#middleware", "2.0.0", "router.use(fn)"},
		{"docidx://golang/github.com/acme/workpool/symbol/workpool.Pool.TryGo", "v1.1.0", "TryGo submits task"},
		{"docidx://golang/github.com/acme/workpool", "v1.1.0", "Bounded goroutine pools"},
	} {
		res := call(t, cs, serve.ToolRead, map[string]any{"uri": tc.uri})
		var out answer.ReadOutput
		structured(t, res, &out)
		if out.Version != tc.version || !strings.Contains(resultText(res), tc.want) {
			t.Errorf("read %s: version %s, want %s with %q:\n%s", tc.uri, out.Version, tc.version, tc.want, resultText(res))
		}
	}
}

// TestBareName passes a Go module's last path element where the whole path is wanted.
func TestBareName(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var d answer.DescribeOutput
	structured(t, call(t, cs, serve.ToolDescribeGo, map[string]any{"package": "workpool", "version": "1.0"}), &d)
	if d.Package != "github.com/acme/workpool" || d.Version != "v1.0.0" {
		t.Errorf("describe workpool@1.0: got %s@%s", d.Package, d.Version)
	}
	res := call(t, cs, serve.ToolDescribeGo, map[string]any{"package": "nosuchpool"})
	if !res.IsError || !strings.Contains(resultText(res), "not indexed") {
		t.Errorf("describe nosuchpool: want a not-indexed tool error, got %s", resultText(res))
	}
}

// TestReadSectionBounded reads a README section with its subsections without max_tokens: the
// server's default budget (set small here) bounds it, the cursor continues it to its end, and
// no page cuts a word (the fixture has a line longer than the budget).
func TestReadSectionBounded(t *testing.T) {
	const defaultTokens = 60
	srv := serve.New(snapshot(t), serve.Options{Version: "v0.0.0-test", Logger: testLogger(t), DefaultMaxTokens: defaultTokens})
	cs := connect(t, srv, nil)
	uri := "docidx://npm/@acme/router/readme#routing" // without a version too
	whole := resultText(call(t, cs, serve.ToolRead, map[string]any{"uri": uri, "max_tokens": 100_000}))
	_, whole, _ = strings.Cut(whole, "-->\n\n")
	var got strings.Builder
	cursor := ""
	pages := 0
	for ; pages < 50; pages++ {
		args := map[string]any{"uri": uri}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := call(t, cs, serve.ToolRead, args)
		var out answer.ReadOutput
		structured(t, res, &out)
		_, body, _ := strings.Cut(resultText(res), "-->\n\n")
		body, _, _ = strings.Cut(body, "\n---\nMore: ")
		if len(body) > defaultTokens*4 {
			t.Errorf("page %d: %d bytes, over the default budget of %d", pages, len(body), defaultTokens*4)
		}
		if out.NextCursor != "" && !strings.HasSuffix(body, "\n") && !strings.HasSuffix(body, " ") {
			t.Errorf("page %d ends inside a word: %q", pages, body)
		}
		got.WriteString(body)
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if pages == 0 {
		t.Errorf("the section came in one page; want it bounded by the default budget")
	}
	if strings.TrimSpace(got.String()) != strings.TrimSpace(whole) {
		t.Errorf("pages joined:\n%s\nwant:\n%s", got.String(), whole)
	}
}

// TestResourceWithoutVersion reads resources whose URIs leave out @VERSION or give a range.
func TestResourceWithoutVersion(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, tc := range []struct{ uri, want string }{
		{"docidx://npm/@acme/router/readme", "router.use(fn)"},
		{"docidx://golang/github.com/acme/workpool@v1.0/overview", "v1.0.0"},
		{"docidx://golang/github.com/acme/workpool/overview", "v1.1.0"},
	} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tc.uri})
		if err != nil {
			t.Errorf("read resource %s: %v", tc.uri, err)
			continue
		}
		if len(res.Contents) == 0 || !strings.Contains(res.Contents[0].Text, tc.want) {
			t.Errorf("read resource %s: want %q in %+v", tc.uri, tc.want, res.Contents)
		}
	}
}

// TestSearchBareName filters a search by a Go module's last path element.
func TestSearchBareName(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var s answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "retry policy", "package": "workpool", "version": "1.0"}), &s)
	if len(s.Results) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range s.Results {
		if h.Ref().Name != "github.com/acme/workpool" || h.Ref().Version != "v1.0.0" {
			t.Errorf("a hit of %s@%s, want only github.com/acme/workpool@v1.0.0", h.Ref().Name, h.Ref().Version)
		}
	}
}
