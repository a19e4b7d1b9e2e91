package cargo

import (
	"slices"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// A crate's commands are its binary targets as Cargo finds them: the manifest's [[bin]] tables,
// and, unless autobins is off, src/main.rs and src/bin/.
func TestBinaries(t *testing.T) {
	for _, c := range []struct {
		name     string
		manifest string
		files    []string
		want     []string
	}{
		{"main.rs by the package's name", "[package]\nname = \"ripgrep\"\nversion = \"14.0.0\"\n", []string{"src/main.rs"}, []string{"ripgrep"}},
		{"[[bin]] and src/bin", "[package]\nname = \"tool\"\nversion = \"1.0.0\"\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n",
			[]string{"src/lib.rs", "src/bin/extra.rs", "src/bin/multi/main.rs", "src/bin/multi/util.rs", "src/bin/notes.txt"}, []string{"extra", "multi", "rg"}},
		{"a normalized manifest lists its binaries", "[package]\nname = \"tool\"\nversion = \"1.0.0\"\nautobins = false\n[[bin]]\nname = \"tool-cli\"\npath = \"src/main.rs\"\n",
			[]string{"src/main.rs", "src/bin/hidden.rs"}, []string{"tool-cli"}},
		{"a library only", "[package]\nname = \"lib-only\"\nversion = \"1.0.0\"\n", []string{"src/lib.rs"}, nil},
	} {
		files := map[string][]byte{"Cargo.toml": []byte(c.manifest)}
		for _, f := range c.files {
			files[f] = []byte("fn main() {}\n")
		}
		cont, err := buildContents(memfs.New(files), "x", Limits{}.withDefaults(), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var p docidx.Package
		cont.man.packageInfo(&p)
		if got := p.Commands; !slices.Equal(got, c.want) {
			t.Errorf("%s: commands %q, want %q", c.name, got, c.want)
		}
	}
}
