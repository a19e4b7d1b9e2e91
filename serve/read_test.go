package serve_test

import (
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/serve"
)

// TestReadSearchHit reads the URI of every hit of a search, as a model with only tools would:
// each read names the hit's package version and holds every word of its passage, and more, in
// its text content and in its structured content alike.
func TestReadSearchHit(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var found answer.SearchOutput
	structured(t, call(t, cs, serve.ToolSearch, map[string]any{"query": "middleware route handler"}), &found)
	if len(found.Results) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range found.Results {
		res := call(t, cs, serve.ToolRead, map[string]any{"uri": h.URI})
		if res.IsError {
			t.Fatalf("read %s: %s", h.URI, resultText(res))
		}
		var out answer.ReadOutput
		structured(t, res, &out)
		read := docidx.Ref{Ecosystem: docidx.Ecosystem(out.Ecosystem), Name: out.Package, Version: out.Version}
		if out.URI != h.URI || purl.Format(read) != h.PURL {
			t.Errorf("read %s: got %+v", h.URI, out)
		}
		text := resultText(res)
		// Claude Code and the Copilot CLI give the model the structured content alone.
		if out.Text != text {
			t.Errorf("read %s: structured text (%d bytes) is not the text content (%d bytes)", h.URI, len(out.Text), len(text))
		}
		if len(text) < len(h.Snippet) {
			t.Errorf("read %s: %d bytes, less than the hit's passage (%d)", h.URI, len(text), len(h.Snippet))
		}
		// The passage's words are in what the read returns (the passage is plain text, the read
		// markdown, so words are compared, not lines).
		flat := strings.ToLower(strings.NewReplacer("`", "", "*", "").Replace(text))
		for _, w := range strings.Fields(strings.ToLower(h.Snippet)) {
			w = strings.Trim(w, "…`*.,:;()")
			if len(w) > 5 {
				w = w[:5] // a stem: the passage is indexed text, the read what the author wrote
			}
			if len(w) >= 4 && !strings.Contains(flat, w) {
				t.Errorf("read %s lacks %q of the hit's passage %q", h.URI, w, h.Snippet)
			}
		}
	}
}

func TestRead(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, tc := range []struct {
		name, uri string
		kind      string
		want      []string // in the text
		not       []string // not in the text
		symbols   []string // ReadOutput.Symbols
	}{
		{name: "section with its subsections", uri: "docidx://npm/@acme/router@2.0.0/readme#routing", kind: "section",
			want: []string{"# Routing", "Route option 12", "## Middleware", "router.use(fn)"}, not: []string{"npm install"}},
		{name: "subsection", uri: "docidx://npm/@acme/router@latest/readme#middleware", kind: "section",
			want: []string{"router.use(fn)"}, not: []string{"Route option 1:"}},
		{name: "whole document", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/doc/docs/retries.md", kind: "document",
			want: []string{"exponential backoff"}},
		{name: "type with its members", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/symbol/retry.Policy", kind: "symbol",
			want:    []string{"type Policy struct", "### Policy.Attempts (field)", "zero means 3", "### Policy.Base (field)", "default 100ms"},
			symbols: []string{"retry.Policy", "retry.Policy.Attempts", "retry.Policy.Base"}},
		{name: "one member", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/symbol/retry.Policy.Base", kind: "symbol",
			want: []string{"Base time.Duration", "default 100ms"}, not: []string{"Attempts"}, symbols: []string{"retry.Policy.Base"}},
		{name: "methods are members too", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/symbol/workpool.Pool", kind: "symbol",
			want: []string{"### Pool.Go (method)", "### Pool.TryGo (method)"}},
		{name: "npm interface property", uri: "docidx://npm/@acme/router@2.0.0/symbol/RouterOptions.strict", kind: "symbol",
			want: []string{"strict?: boolean", "different routes"}},
		{name: "overview", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/overview", kind: "overview",
			want: []string{"# github.com/acme/workpool v1.1.0", "Bounded goroutine pools"}, not: []string{"TryGo"}},
		{name: "api outline", uri: "docidx://golang/github.com/acme/workpool@v1.1.0/api", kind: "api",
			want: []string{"TryGo", "type Policy struct", "(2 members)"}, not: []string{"Attempts int"}},
		{name: "snapshot", uri: "docidx://snapshot", kind: "snapshot", want: []string{`"format"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, serve.ToolRead, map[string]any{"uri": tc.uri})
			text := resultText(res)
			if res.IsError {
				t.Fatalf("tool error: %s", text)
			}
			var out answer.ReadOutput
			structured(t, res, &out)
			if out.Kind != tc.kind {
				t.Errorf("kind %q, want %q", out.Kind, tc.kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(text, n) {
					t.Errorf("text has %q:\n%s", n, text)
				}
			}
			if tc.symbols != nil && strings.Join(out.Symbols, " ") != strings.Join(tc.symbols, " ") {
				t.Errorf("symbols %q, want %q", out.Symbols, tc.symbols)
			}
		})
	}
}

// TestReadPaged follows nextCursor through a section at a small budget: the pages together are
// the whole text, and each unit is listed once.
func TestReadPaged(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	uri := "docidx://npm/@acme/router@2.0.0/readme"
	whole := resultText(call(t, cs, serve.ToolRead, map[string]any{"uri": uri}))
	var got strings.Builder
	var headings []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatal("no last page after 50")
		}
		args := map[string]any{"uri": uri, "max_tokens": 60}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := call(t, cs, serve.ToolRead, args)
		var out answer.ReadOutput
		structured(t, res, &out)
		text := resultText(res)
		_, body, _ := strings.Cut(text, "-->\n\n")
		body, _, _ = strings.Cut(body, "\n---\nMore: ")
		got.WriteString(body)
		for _, s := range out.Sections {
			headings = append(headings, s.Heading)
		}
		if out.NextCursor == "" {
			break
		}
		cursor = out.NextCursor
	}
	_, want, _ := strings.Cut(whole, "-->\n\n")
	if strings.TrimSpace(got.String()) != strings.TrimSpace(want) {
		t.Errorf("pages joined:\n%s\nwant:\n%s", got.String(), want)
	}
	if strings.Join(headings, "|") != "|Install|Routing|Routing › Middleware" {
		t.Errorf("sections listed %q", headings)
	}
}

func TestReadErrors(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	for _, uri := range []string{"", "https://example.invalid/x", "docidx://nope/x@1/readme", "docidx://npm/x@1/bogus"} {
		if e := callErr(t, cs, serve.ToolRead, map[string]any{"uri": uri}); e.Code != -32602 {
			t.Errorf("uri %q: code %d, want -32602", uri, e.Code)
		}
	}
	for _, tc := range []struct{ uri, want string }{
		{"docidx://npm/@acme/routr@2.0.0/readme", "did you mean: @acme/router"},
		{"docidx://npm/@acme/router@2.0.0/readme#midleware", "did you mean: #middleware"},
		{"docidx://npm/@acme/router@2.0.0/symbol/Routr", "did you mean: Router"},
		{"docidx://npm/@acme/router@2.0.0/doc/docs/nope.md", "available documents"},
	} {
		res := call(t, cs, serve.ToolRead, map[string]any{"uri": tc.uri})
		if !res.IsError || !strings.Contains(resultText(res), tc.want) {
			t.Errorf("%s: isError %v, %q; want %q", tc.uri, res.IsError, resultText(res), tc.want)
		}
	}
}

// TestSearchTwins: a member declared alike on two types (retry.Policy.Attempts and
// retry.Limits.Attempts: same name, declaration and doc) is one hit, which names the other.
func TestSearchTwins(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	var out answer.SearchOutput
	res := call(t, cs, serve.ToolSearch, map[string]any{"query": "how many times a task runs at most", "package": modPath})
	structured(t, res, &out)
	var kept []answer.SearchResult
	for _, h := range out.Results {
		if strings.HasSuffix(h.Title, ".Attempts") {
			kept = append(kept, h)
		}
	}
	if len(kept) != 1 {
		t.Fatalf("%d Attempts hits, want 1: %+v", len(kept), out.Results)
	}
	other := map[string]string{"retry.Policy.Attempts": "retry.Limits.Attempts", "retry.Limits.Attempts": "retry.Policy.Attempts"}[kept[0].Title]
	if len(kept[0].Also) != 1 || kept[0].Also[0] != other {
		t.Errorf("%s: also %q, want [%s]", kept[0].Title, kept[0].Also, other)
	}
	if want := "   also: " + other + "\n"; !strings.Contains(resultText(res), want) {
		t.Errorf("text lacks %q:\n%s", want, resultText(res))
	}
}
