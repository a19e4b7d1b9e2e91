package packaging

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestMCPBManifest validates mcpb/manifest.json against the MCPB manifest schema of its
// manifest_version (testdata/mcpb-manifest-v0.3.schema.json, from the npm package
// @anthropic-ai/mcpb 2.1.2, dist/), so that `make test` catches what `mcpb validate` would reject
// at release time, and checks what the schema cannot: the server is started as
// `serve --stdio --index ${user_config.index}` from one binary per operating system, at the paths
// scripts/mcpb.sh puts them.
func TestMCPBManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "mcpb-manifest-v0.3.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, filepath.Join("mcpb", "manifest.json"))
	if err := rs.Validate(m); err != nil {
		t.Fatalf("mcpb/manifest.json does not validate against the MCPB 0.3 schema: %v", err)
	}
	if m["manifest_version"] != "0.3" {
		t.Errorf("manifest_version %v; testdata has the 0.3 schema", m["manifest_version"])
	}

	var man struct {
		Server struct {
			Type       string `json:"type"`
			EntryPoint string `json:"entry_point"`
			MCPConfig  struct {
				Command           string                              `json:"command"`
				Args              []string                            `json:"args"`
				PlatformOverrides map[string]struct{ Command string } `json:"platform_overrides"`
			} `json:"mcp_config"`
		} `json:"server"`
		UserConfig map[string]struct {
			Required bool `json:"required"`
		} `json:"user_config"`
	}
	raw, _ := json.Marshal(m)
	if err := json.Unmarshal(raw, &man); err != nil {
		t.Fatal(err)
	}
	cfg := man.Server.MCPConfig
	if man.Server.Type != "binary" {
		t.Errorf("server.type %q, want binary", man.Server.Type)
	}
	if want := []string{"serve", "--stdio", "--index", "${user_config.index}"}; !slices.Equal(cfg.Args, want) {
		t.Errorf("args %q, want %q", cfg.Args, want)
	}
	if !man.UserConfig["index"].Required {
		t.Errorf("user_config.index is not required; serve needs the index")
	}
	commands := map[string]string{"linux": cfg.Command}
	for _, p := range []string{"darwin", "win32"} {
		commands[p] = cfg.PlatformOverrides[p].Command
	}
	want := map[string]string{
		"linux":  "${__dirname}/server/linux/docidx",
		"darwin": "${__dirname}/server/darwin/docidx",
		"win32":  "${__dirname}/server/win32/docidx.exe",
	}
	for p, w := range want {
		if commands[p] != w {
			t.Errorf("%s command %q, want %q (where scripts/mcpb.sh puts the binary)", p, commands[p], w)
		}
	}
	if "${__dirname}/"+man.Server.EntryPoint != cfg.Command {
		t.Errorf("entry_point %q is not the default command %q", man.Server.EntryPoint, cfg.Command)
	}
}
