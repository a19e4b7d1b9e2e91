package serve_test

//lint:file-ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/safetext/safetexttest"
	"github.com/docidx/docidx/serve"
)

// checkStrings fails t for every string in the JSON form of v that holds a control an AI client
// must not be sent, and returns the strings joined, for the caller to look for what must stay.
func checkStrings(t *testing.T, what string, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var decoded any
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var all strings.Builder
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			if err := safetexttest.CheckClients(what+" "+path, v); err != nil {
				t.Error(err)
			}
			all.WriteString(v + "\n")
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			for k, e := range v {
				walk(path+"."+k, e)
			}
		}
	}
	walk("", decoded)
	return all.String()
}

// TestHostileContentMCP is issue 25's point 3 for MCP: tool results (text and structured
// content, errors), resources (list and read), prompts and completions carry no C0 or C1
// control but tab and newline from a hostile package, under each protocol revision; the
// controls are shown as escapes and printable Unicode (a bidi override) is kept.
func TestHostileContentMCP(t *testing.T) {
	srv := serve.New(safetexttest.Snapshot(t), serve.Options{Version: "v0.0.0-test", Logger: testLogger(t)})
	name, v2 := safetexttest.HostileName, safetexttest.HostileVersions[1]
	ctx := context.Background()
	for _, version := range testVersions {
		t.Run(version, func(t *testing.T) {
			var n notifications
			cs := connectWith(t, srv, n.options(), version, nil)
			// Progress and log messages too: they name package versions and quote errors.
			meta := mcp.Meta{"progressToken": "p"}
			if version >= "2026-07-28" {
				meta[mcp.MetaKeyLogLevel] = "debug"
			} else if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatal(err)
			}
			var seen strings.Builder
			see := func(what string, v any) { seen.WriteString(checkStrings(t, what, v)) }
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{serve.ToolSearch, map[string]any{"query": "label"}},
				{serve.ToolSearch, map[string]any{"query": "greets", "kind": "symbols"}},
				{serve.ToolDescribeNPM, map[string]any{"package": "hostile"}},
				{serve.ToolDescribeNPM, map[string]any{"package": "hostile", "version": v2}},
				{serve.ToolDescribeNPM, map[string]any{"package": "hostile", "symbol": name}},
				{serve.ToolGetDoc, map[string]any{"ecosystem": "npm", "package": "hostile"}},
				{serve.ToolGetDoc, map[string]any{"ecosystem": "npm", "package": "hostile", "path": "docs/guide" + name + ".md"}},
				{serve.ToolRead, map[string]any{"uri": docidx.PageURI(docidx.NPM, "hostile", v2, docidx.PageAPI)}},
				{serve.ToolListPackages, map[string]any{}},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: c.tool, Arguments: c.args})
				if err != nil {
					t.Errorf("%s %v: %v", c.tool, c.args, err)
					continue
				}
				see(fmt.Sprint(c.tool, c.args), res)
			}
			// Errors quoting the package: a did-you-mean of its symbols, of its anchors.
			for _, c := range []struct {
				tool string
				args map[string]any
			}{
				{serve.ToolDescribeNPM, map[string]any{"package": "hostile", "symbol": "Wid"}},
				{serve.ToolRead, map[string]any{"uri": docidx.PageURI(docidx.NPM, "hostile", v2, docidx.PageReadme) + "#nosuch"}},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: c.tool, Arguments: c.args})
				if err == nil {
					see(fmt.Sprint(c.tool, c.args), res)
				} else {
					see(fmt.Sprint(c.tool, c.args), wireErr(t, err))
				}
			}
			resources, _ := allResources(t, cs)
			see("resources/list", resources)
			for _, r := range resources {
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
				if err != nil {
					t.Errorf("resources/read %s: %v", r.URI, err)
					continue
				}
				see("resources/read "+r.URI, res)
			}
			for _, p := range []struct {
				name string
				args map[string]string
			}{
				{serve.PromptUsePackage, map[string]string{"ecosystem": "npm", "package": "hostile", "task": "greet"}},
				{serve.PromptExplainSymbol, map[string]string{"ecosystem": "npm", "package": "hostile", "symbol": name}},
				{serve.PromptUpgradePackage, map[string]string{"ecosystem": "npm", "package": "hostile", "from": "1.0.0", "to": v2}},
			} {
				res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: p.name, Arguments: p.args})
				if err != nil {
					t.Errorf("prompts/get %s: %v", p.name, err)
					continue
				}
				see("prompts/get "+p.name, res)
			}
			for _, arg := range []struct{ name, value string }{{"version", ""}, {"symbol", "W"}} {
				res, err := cs.Complete(ctx, &mcp.CompleteParams{
					Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: serve.PromptExplainSymbol},
					Argument: mcp.CompleteParamsArgument{Name: arg.name, Value: arg.value},
					Context:  &mcp.CompleteContext{Arguments: map[string]string{"ecosystem": "npm", "package": "hostile"}},
				})
				if err != nil {
					t.Errorf("completion/complete %s: %v", arg.name, err)
					continue
				}
				see("completion/complete "+arg.name, res)
			}
			n.wait(t, "the log message of a failed describe", func() bool {
				for _, l := range n.logs {
					if d, _ := l.Data.(map[string]any); d != nil && d["isError"] == true && strings.Contains(fmt.Sprint(d["error"]), "did you mean") {
						return true
					}
				}
				return false
			})
			n.mu.Lock()
			see("notifications/message", n.logs)
			see("notifications/progress", n.progress)
			n.mu.Unlock()
			all := seen.String()
			for _, want := range []string{`ED\x1b[2J`, `OSC52\x1b]52;c;cHduZWQ=\a`, `C1CSI\u009b2J`, "RLO\u202eevil", `2.0.0-` + "\u202e" + `\x1b[2J`, "The guide says label"} {
				if !strings.Contains(all, want) {
					t.Errorf("no answer holds %q", want)
				}
			}
		})
	}
}
