package packaging

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// registrySchema loads the MCP Registry's server.json schema (draft-07) and resolves it.
func registrySchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "server.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("server.schema.json: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving server.schema.json: %v", err)
	}
	return rs
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// TestServerJSON validates server.json against the registry's schema, and also the release's
// stamped copy when DOCIDX_SERVER_JSON names it (`make release-check` sets it to
// dist/server.json). Beyond the schema it checks what the official registry requires of the two
// package types (docs/modelcontextprotocol-io/package-types.mdx in the registry's repository):
// an mcpb package is a GitHub release URL containing "mcp" with a fileSha256, and an oci
// package names its image with a tag but no separate version.
func TestServerJSON(t *testing.T) {
	rs := registrySchema(t)
	paths := []string{"server.json"}
	if p := os.Getenv("DOCIDX_SERVER_JSON"); p != "" {
		paths = append(paths, p)
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			v := readJSON(t, path)
			if err := rs.Validate(v); err != nil {
				t.Fatalf("%s does not validate against the registry's schema: %v", path, err)
			}
			if got, want := v["$schema"], "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"; got != want {
				t.Errorf("$schema = %v, want %v (the schema in testdata)", got, want)
			}
			types := map[string]bool{}
			for _, p := range v["packages"].([]any) {
				pkg := p.(map[string]any)
				id, _ := pkg["identifier"].(string)
				switch pkg["registryType"] {
				case "mcpb":
					if !strings.HasPrefix(id, "https://github.com/") || !strings.Contains(id, "mcp") {
						t.Errorf("mcpb identifier %q: want a GitHub release URL containing \"mcp\"", id)
					}
					if pkg["fileSha256"] == nil {
						t.Errorf("mcpb package has no fileSha256; the registry requires it")
					}
				case "oci":
					if !strings.HasPrefix(id, "ghcr.io/") || !strings.Contains(id, ":") {
						t.Errorf("oci identifier %q: want ghcr.io/OWNER/NAME:TAG", id)
					}
					if pkg["version"] != nil {
						t.Errorf("oci package has a version; the registry takes it from the identifier's tag")
					}
				}
				types[pkg["registryType"].(string)] = true
			}
			if !types["mcpb"] || !types["oci"] {
				t.Errorf("package types %v, want mcpb and oci", types)
			}
		})
	}
}

// TestServerJSONSchemaRejects checks that the schema check can fail: server.json with a
// description over the registry's 100 characters, or without a name, must not validate.
func TestServerJSONSchemaRejects(t *testing.T) {
	rs := registrySchema(t)
	for name, edit := range map[string]func(map[string]any){
		"long description": func(v map[string]any) { v["description"] = strings.Repeat("x", 101) },
		"no name":          func(v map[string]any) { delete(v, "name") },
		"bad name":         func(v map[string]any) { v["name"] = "docidx" },
		"no transport": func(v map[string]any) {
			delete(v["packages"].([]any)[0].(map[string]any), "transport")
		},
	} {
		v := readJSON(t, "server.json")
		edit(v)
		if err := rs.Validate(v); err == nil {
			t.Errorf("%s: server.json validates, want an error", name)
		}
	}
}
