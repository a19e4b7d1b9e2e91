package pypi

import (
	"context"
	"slices"
	"testing"

	"github.com/docidx/docidx/registries/pypi/pypitest"
)

func TestEntryPointCommands(t *testing.T) {
	for _, c := range []struct {
		name, txt string
		want      []string
	}{
		{"console and GUI scripts, sorted", "[console_scripts]\nnormalizer = charset_normalizer.cli:cli_detect\n\n[gui_scripts]\nwidget-gui=demo.gui:main [gui]\n", []string{"normalizer", "widget-gui"}},
		{"other groups are plugins", "[pytest11]\nxdist = xdist.plugin\n[console_scripts]\n; a comment\n# another\ncelery = celery.__main__:main\n", []string{"celery"}},
		{"none", "[flake8.extension]\nE = pycodestyle\n", nil},
		{"a name no command can have", "[console_scripts]\nbad name = x:y\n= x:y\nok = x:y\n", []string{"ok"}},
	} {
		if got := entryPointCommands([]byte(c.txt)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// An installed distribution's and a wheel's entry points are the commands it installs.
func TestCommandsInstalled(t *testing.T) {
	dir := pypitest.SitePackages(t, t.TempDir(),
		pypitest.Installed{
			Name: "charset-normalizer", Version: "3.4.0", Form: pypitest.DistInfo,
			Metadata: "Summary: Detects encodings\n",
			Files: map[string]string{
				"charset_normalizer/__init__.py":                      "def from_bytes(b): ...\n",
				"charset_normalizer-3.4.0.dist-info/entry_points.txt": "[console_scripts]\nnormalizer = charset_normalizer.cli:cli_detect\n",
			},
		},
		pypitest.Installed{
			Name: "plain", Version: "1.0", Form: pypitest.DistInfo, Metadata: "Summary: No commands\n",
			Files: map[string]string{"plain/__init__.py": "def f(): ...\n"},
		})
	sp, err := NewSitePackages(dir, SitePackagesConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, version string
		want          []string
	}{{"charset-normalizer", "3.4.0", []string{"normalizer"}}, {"plain", "1.0", nil}} {
		name, want := c.name, c.want
		pd, err := sp.Fetch(context.Background(), name, c.version)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pd.Package.Commands, want) {
			t.Errorf("%s: commands %q, want %q", name, pd.Package.Commands, want)
		}
	}

	whl := pypitest.Wheel("charset-normalizer", "3.4.0", "Metadata-Version: 2.1\nName: charset-normalizer\nVersion: 3.4.0\n", map[string]string{
		"charset_normalizer/__init__.py":                      "def from_bytes(b): ...\n",
		"charset_normalizer-3.4.0.dist-info/entry_points.txt": "[console_scripts]\nnormalizer = charset_normalizer.cli:cli_detect\n",
	})
	arch, err := readArchive(pypitest.WheelName("charset-normalizer", "3.4.0"), whl, Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if got := arch.commands(); !slices.Equal(got, []string{"normalizer"}) {
		t.Errorf("wheel commands %q, want [normalizer]", got)
	}
}
