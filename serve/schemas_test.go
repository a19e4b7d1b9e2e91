package serve_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/docidx/docidx/serve"
)

// toolDocuments names the published schema (schemas/NAME.schema.json at the repository's root,
// written by cmd/docidx's TestSchemas) of each tool's structured content.
var toolDocuments = map[string]string{
	serve.ToolSearch:         "search",
	serve.ToolDescribeGo:     "describe",
	serve.ToolDescribeNPM:    "describe",
	serve.ToolDescribePython: "describe",
	serve.ToolDescribeRust:   "describe",
	serve.ToolDescribeSwift:  "describe",
	serve.ToolGetDoc:         "doc",
	serve.ToolGetNPMDoc:      "doc",
	serve.ToolListPackages:   "list",
	serve.ToolRead:           "read",
}

// TestOutputSchemasPublished checks that every tool's output schema, as tools/list gives it, is
// the schema published in schemas/ for its document: the CLI's --json and the MCP structured
// content are one shape, described once.
func TestOutputSchemasPublished(t *testing.T) {
	cs := connect(t, newServer(t), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(toolDocuments) {
		t.Errorf("%d tools, %d in toolDocuments: name the published schema of each", len(res.Tools), len(toolDocuments))
	}
	for _, tool := range res.Tools {
		name, ok := toolDocuments[tool.Name]
		if !ok {
			t.Errorf("%s: no published schema named in toolDocuments", tool.Name)
			continue
		}
		path := filepath.Join("..", "schemas", name+".schema.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: output schema is not %s (run make schemas)", tool.Name, path)
		}
	}
}
