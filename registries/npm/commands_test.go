package npm

import (
	"slices"
	"testing"
)

// A package.json's bin is the commands the package installs: a string installs one named like
// the package without its scope, an object one per key.
func TestManifestCommands(t *testing.T) {
	for _, c := range []struct {
		name, json string
		want       []string
	}{
		{"typescript", `{"bin": {"tsserver": "./bin/tsserver", "tsc": "./bin/tsc"}}`, []string{"tsc", "tsserver"}},
		{"@vue/cli", `{"bin": "bin/vue.js"}`, []string{"cli"}},
		{"semver", `{"bin": "bin/semver.js"}`, []string{"semver"}},
		{"empty", `{"bin": ""}`, nil},
		{"odd", `{"bin": ["a", "b"]}`, nil},
		{"none", `{"name": "none"}`, nil},
	} {
		m, err := parseManifest([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := packageFromManifest(m, m, c.name, "1.0.0").Commands; !slices.Equal(got, c.want) {
			t.Errorf("%s: commands %q, want %q", c.name, got, c.want)
		}
	}
	// The registry's version object wins; the tarball's package.json fills in when it has none.
	reg, _ := parseManifest([]byte(`{}`))
	tarball, _ := parseManifest([]byte(`{"bin": {"x": "x.js"}}`))
	if got := packageFromManifest(reg, tarball, "x", "1.0.0").Commands; !slices.Equal(got, []string{"x"}) {
		t.Errorf("commands from the tarball's package.json: %q", got)
	}
}
