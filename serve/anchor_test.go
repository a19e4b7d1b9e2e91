package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
)

// resources/read and read_package_doc agree on a section anchor a document does not have: both
// refuse it with the same message, which names the anchors the document has (a bounded list,
// the closest first), and both read an anchor it has.
func TestUnknownAnchorAgrees(t *testing.T) {
	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	var secs []docidx.Section
	for i := 1; i <= 15; i++ {
		h := fmt.Sprintf("Part %d", i)
		text := fmt.Sprintf("The words of part %d.", i)
		secs = append(secs, docidx.Section{Heading: []string{h}, Anchor: fmt.Sprintf("part-%d", i), Text: text, Plain: text})
	}
	pkg := &docidx.PackageDocs{
		Package:   docidx.Package{Ecosystem: docidx.NPM, Name: "parts", Version: "1.0.0", Versions: []string{"1.0.0"}},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "parts", Sections: secs}},
	}
	if err := w.Put(context.Background(), pkg); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	cs := connect(t, serve.New(r, serve.Options{Version: "v0.0.0-test", Logger: testLogger(t)}), nil)
	ctx := context.Background()

	for _, c := range []struct {
		anchor string
		want   []string // in the message
		not    []string // not in it
	}{
		{"nosuchanchor", []string{`parts@1.0.0 README.md has no section "#nosuchanchor"`, "its anchors: #part-1, #part-2,", "#part-10 and 5 more"}, []string{"#part-11", "did you mean"}},
		{"part-21", []string{"did you mean: #part-1, ", "#part-2", "Its other anchors: #part-3,", "and 5 more"}, nil},
		{"a\x1b[2J", []string{`"#a\x1b[2J"`}, []string{"\x1b"}},
	} {
		uri := "docidx://npm/parts@1.0.0/readme#" + c.anchor
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) {
			t.Errorf("resources/read %q: err = %v, want resource not found", uri, err)
			continue
		}
		var data struct{ Reason string }
		json.Unmarshal(werr.Data, &data)
		res := call(t, cs, serve.ToolRead, map[string]any{"uri": uri})
		if !res.IsError {
			t.Errorf("read_package_doc %q: not an error: %s", uri, resultText(res))
		}
		if got := resultText(res); got != data.Reason {
			t.Errorf("%q: the tool and the resource disagree:\n tool:     %s\n resource: %s", c.anchor, got, data.Reason)
		}
		for _, s := range c.want {
			if !strings.Contains(data.Reason, s) {
				t.Errorf("%q: %q lacks %q", c.anchor, data.Reason, s)
			}
		}
		for _, s := range c.not {
			if strings.Contains(data.Reason, s) {
				t.Errorf("%q: %q has %q", c.anchor, data.Reason, s)
			}
		}
	}

	uri := "docidx://npm/parts@1.0.0/readme#part-7"
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "part 7") || strings.Contains(rr.Contents[0].Text, "part 8") {
		t.Errorf("resources/read %s: %v %+v", uri, err, rr)
	}
	if res := call(t, cs, serve.ToolRead, map[string]any{"uri": uri}); res.IsError || !strings.Contains(resultText(res), "part 7") {
		t.Errorf("read_package_doc %s: %s", uri, resultText(res))
	}
}
