package packaging

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// license is docidx's license as an SPDX identifier (https://spdx.org/licenses/Apache-2.0.html),
// as the MCPB manifest, server.json and the OCI image's label name it.
const license = "Apache-2.0"

// apacheSHA256 is the SHA-256 of the Apache License 2.0 text exactly as the Apache Software
// Foundation publishes it (LICENSE-2.0.txt, 11,358 bytes; Debian ships the same bytes as
// /usr/share/common-licenses/Apache-2.0).
const apacheSHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

// TestLicense checks that the repository's LICENSE is the unmodified Apache-2.0 text and that
// both release manifests name that license: the MCPB manifest in its license field, and
// server.json, whose schema has no license field, in the publisher-provided metadata, the one
// key of _meta the MCP Registry keeps.
func TestLicense(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != apacheSHA256 {
		t.Errorf("LICENSE (%d bytes) is not the Apache License 2.0 text as published (sha256 %x, want %s)", len(data), sum, apacheSHA256)
	}
	if got := readJSON(t, filepath.Join("mcpb", "manifest.json"))["license"]; got != license {
		t.Errorf("mcpb/manifest.json license = %v, want %q", got, license)
	}
	meta, _ := readJSON(t, "server.json")["_meta"].(map[string]any)
	pp, _ := meta["io.modelcontextprotocol.registry/publisher-provided"].(map[string]any)
	if got := pp["license"]; got != license {
		t.Errorf("server.json _meta[io.modelcontextprotocol.registry/publisher-provided].license = %v, want %q", got, license)
	}
}

// TestNotice checks that NOTICE carries, word for word, the NOTICE file of every module linked
// into the docidx binary that has one: the Apache License 2.0 (section 4(d)) asks whoever
// distributes a work built from such a module to pass its attribution notices on, and the
// release archives, the bundle and the image distribute docidx's binary with NOTICE. The modules
// are the build list of ./cmd/docidx as `go list -deps` reports it, read from the module cache.
func TestNotice(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	notice, err := os.ReadFile(filepath.Join("..", "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}", "../cmd/docidx").Output()
	if err != nil {
		t.Fatalf("go list -deps ../cmd/docidx: %v", err)
	}
	seen := map[string]bool{}
	checked := 0
	for line := range strings.Lines(string(out)) {
		mod, dir, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || seen[mod] || strings.HasPrefix(mod, "github.com/docidx/docidx@") {
			continue
		}
		seen[mod] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", mod, err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasPrefix(strings.ToUpper(e.Name()), "NOTICE") {
				continue
			}
			theirs, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			checked++
			if !bytes.Contains(notice, bytes.TrimSpace(theirs)) {
				t.Errorf("NOTICE does not carry %s's %s; add it", mod, e.Name())
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("go list -deps ../cmd/docidx listed no modules")
	}
	t.Logf("%d modules, %d NOTICE files", len(seen), checked)
}
