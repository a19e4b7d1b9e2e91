package pypi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestNewConfig(t *testing.T) {
	for _, tc := range []struct{ in, index, simple, json string }{
		{"https://pypi.org/simple", "https://pypi.org/simple/", "https://pypi.org/simple/", "https://pypi.org/pypi/"},
		{"https://pypi.org/simple/", "https://pypi.org/simple/", "https://pypi.org/simple/", "https://pypi.org/pypi/"},
		{"https://pypi.org", "https://pypi.org/", "https://pypi.org/simple/", "https://pypi.org/pypi/"},
		{"https://pypi.org/pypi", "https://pypi.org/pypi/", "https://pypi.org/simple/", "https://pypi.org/pypi/"},
		{"https://u:p@nexus.example.test/repository/pypi-proxy/simple/", "https://u:p@nexus.example.test/repository/pypi-proxy/simple/",
			"https://u:p@nexus.example.test/repository/pypi-proxy/simple/", "https://u:p@nexus.example.test/repository/pypi-proxy/pypi/"},
		{"https://devpi.example.test/root/pypi/+simple/", "https://devpi.example.test/root/pypi/+simple/", "https://devpi.example.test/root/pypi/+simple/", ""},
		{"http://127.0.0.1:8080/simple?x=1#f", "http://127.0.0.1:8080/simple/", "http://127.0.0.1:8080/simple/", "http://127.0.0.1:8080/pypi/"},
	} {
		c, err := NewConfig(tc.in)
		if err != nil {
			t.Errorf("NewConfig(%q): %v", tc.in, err)
			continue
		}
		if c.IndexURL != tc.index || c.SimpleURL != tc.simple || c.JSONURL != tc.json {
			t.Errorf("NewConfig(%q) = %q %q %q, want %q %q %q", tc.in, c.IndexURL, c.SimpleURL, c.JSONURL, tc.index, tc.simple, tc.json)
		}
	}
	for _, bad := range []string{"", "ftp://x/simple", "pypi.org/simple", "https:///simple", "::"} {
		if _, err := NewConfig(bad); err == nil {
			t.Errorf("NewConfig(%q) succeeded", bad)
		}
	}
	c, _ := NewConfig("https://user:s3cret@mirror.example.test/simple/")
	for _, s := range []string{c.String(), fmt.Sprintf("%v %+v %#v %s", c, c, c, *c), c.LogValue().String()} {
		if strings.Contains(s, "s3cret") || !strings.Contains(s, "mirror.example.test") {
			t.Errorf("printed config shows credentials or no host: %s", s)
		}
	}
}

// pipEnv builds a hermetic environment: a home, no system files (etcDir points into the temp dir).
func pipEnv(t *testing.T) (home string, env []string) {
	t.Helper()
	root := t.TempDir()
	old := etcDir
	etcDir = filepath.Join(root, "etc")
	t.Cleanup(func() { etcDir = old })
	home = filepath.Join(root, "home")
	os.MkdirAll(home, 0o755)
	return home, []string{"HOME=" + home}
}

func TestLoadConfigPrecedence(t *testing.T) {
	home, env := pipEnv(t)
	load := func(opts ConfigOptions) *Config {
		t.Helper()
		if opts.Env == nil {
			opts.Env = env
		}
		c, err := LoadConfig(opts)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	if c := load(ConfigOptions{}); c.IndexURL != DefaultIndexURL || c.Source != "default" || c.JSONURL != "https://pypi.org/pypi/" {
		t.Errorf("nothing configured: %+v", *c)
	}

	global := filepath.Join(etcDir, "pip.conf")
	testutil.WriteFile(t, filepath.Join(etcDir, "xdg", "pip", "pip.conf"), "[global]\nindex-url = https://xdg.example.test/simple\n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://xdg.example.test/simple/" {
		t.Errorf("XDG global file: %+v", *c)
	}
	os.Remove(filepath.Join(etcDir, "xdg", "pip", "pip.conf"))
	testutil.WriteFile(t, global, "[global]\ncert = /x.pem\nindex-url = https://etc.example.test/simple\n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://etc.example.test/simple/" || c.Source != global {
		t.Errorf("/etc/pip.conf: %+v", *c)
	}
	testutil.WriteFile(t, filepath.Join(etcDir, "xdg", "pip", "pip.conf"), "[global]\nindex-url = https://xdg.example.test/simple\n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://etc.example.test/simple/" {
		t.Errorf("/etc/pip.conf is read after the XDG one: %+v", *c)
	}
	os.Remove(filepath.Join(etcDir, "xdg", "pip", "pip.conf"))
	legacy := filepath.Join(home, ".pip", "pip.conf")
	testutil.WriteFile(t, legacy, "[global]\nindex_url = https://legacy.example.test/simple\n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://legacy.example.test/simple/" {
		t.Errorf("~/.pip/pip.conf (index_url spelling): %+v", *c)
	}
	user := filepath.Join(home, ".config", "pip", "pip.conf")
	testutil.WriteFile(t, user, "# comment\n[global]\n; another\nINDEX-URL: https://user.example.test/simple\n  \n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://user.example.test/simple/" || c.Source != user {
		t.Errorf("~/.config/pip/pip.conf: %+v", *c)
	}
	// [install] beats [global], even from a file read earlier.
	testutil.WriteFile(t, global, "[install]\nindex-url = https://install.example.test/simple\n")
	if c := load(ConfigOptions{}); c.IndexURL != "https://install.example.test/simple/" {
		t.Errorf("[install] over [global]: %+v", *c)
	}
	testutil.WriteFile(t, global, "[global]\n")
	venv := filepath.Join(home, "venv")
	testutil.WriteFile(t, filepath.Join(venv, "pip.conf"), "[global]\nindex-url = https://venv.example.test/simple\n")
	if c := load(ConfigOptions{Env: append(env, "VIRTUAL_ENV="+venv)}); c.IndexURL != "https://venv.example.test/simple/" {
		t.Errorf("$VIRTUAL_ENV/pip.conf: %+v", *c)
	}
	// PIP_CONFIG_FILE is read last and, when it exists, the user files are skipped.
	custom := filepath.Join(home, "custom.conf")
	testutil.WriteFile(t, custom, "[global]\ntimeout = 60\n")
	if c := load(ConfigOptions{Env: append(env, "PIP_CONFIG_FILE="+custom)}); c.IndexURL != DefaultIndexURL {
		t.Errorf("PIP_CONFIG_FILE skips the user files: %+v", *c)
	}
	testutil.WriteFile(t, custom, "[global]\nindex-url = https://custom.example.test/simple\n")
	if c := load(ConfigOptions{Env: append(env, "PIP_CONFIG_FILE="+custom)}); c.IndexURL != "https://custom.example.test/simple/" || c.Files[len(c.Files)-1] != custom {
		t.Errorf("PIP_CONFIG_FILE: %+v", *c)
	}
	if c := load(ConfigOptions{Env: append(env, "PIP_CONFIG_FILE="+os.DevNull)}); c.IndexURL != DefaultIndexURL || len(c.Files) != 0 {
		t.Errorf("PIP_CONFIG_FILE=/dev/null reads no file: %+v", *c)
	}
	// The environment beats the files, the flag beats the environment.
	withEnv := append(env, "PIP_INDEX_URL=https://env.example.test/simple/")
	if c := load(ConfigOptions{Env: withEnv}); c.IndexURL != "https://env.example.test/simple/" || c.Source != "PIP_INDEX_URL" {
		t.Errorf("PIP_INDEX_URL: %+v", *c)
	}
	if c := load(ConfigOptions{Env: withEnv, IndexURL: "https://flag.example.test/simple"}); c.IndexURL != "https://flag.example.test/simple/" || c.Source != "flag" {
		t.Errorf("flag: %+v", *c)
	}

	// Errors.
	if _, err := LoadConfig(ConfigOptions{Env: append(env, "PIP_INDEX_URL=file:///srv/simple")}); err == nil {
		t.Error("a file: index URL is refused")
	}
	testutil.WriteFile(t, user, "[global]\nindex-url = not a url\n")
	if _, err := LoadConfig(ConfigOptions{Env: env}); err == nil || !strings.Contains(err.Error(), user) {
		t.Errorf("a bad index-url names its file: %v", err)
	}
	testutil.WriteFile(t, user, strings.Repeat("x", MaxPipConf+1))
	if _, err := LoadConfig(ConfigOptions{Env: env}); err == nil {
		t.Error("an oversized pip.conf is refused")
	}
}

func TestParsePipConf(t *testing.T) {
	got := parsePipConf([]byte("\xef\xbb\xbfkey = before any section\n[global]\nindex-url =\n    https://a.example.test/simple\nextra-index-url = https://b.example.test/simple\n  https://c.example.test/simple\n[install]\nno_deps: yes\nbroken line\n"))
	want := map[string]string{
		"global.index-url":       "https://a.example.test/simple",
		"global.extra-index-url": "https://b.example.test/simple\nhttps://c.example.test/simple",
		"install.no-deps":        "yes",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parsePipConf = %q\nwant %q", got, want)
	}
}
