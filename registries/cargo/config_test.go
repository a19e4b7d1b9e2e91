package cargo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func loadTestConfig(t *testing.T, project, home string, env ...string) *Config {
	t.Helper()
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: project, CargoHome: home, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestConfigDefault(t *testing.T) {
	cfg := loadTestConfig(t, t.TempDir(), t.TempDir())
	s, err := cfg.Source("")
	if err != nil {
		t.Fatal(err)
	}
	if s.Index != DefaultIndex || s.Registry != CratesIO || s.Replaced != "" || s.From != "default" || s.HasToken() {
		t.Errorf("default source %+v", s)
	}
	if s.URL() != "https://index.crates.io/" {
		t.Errorf("URL() = %q", s.URL())
	}
}

func TestConfigHierarchy(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", ".cargo")
	project := filepath.Join(root, "work", "app")
	deep := filepath.Join(project, "crates", "inner")
	// The deepest directory's key wins; other keys still merge in from ancestors and home.
	testutil.WriteFile(t, filepath.Join(deep, ".cargo", "config.toml"), "[source.crates-io]\nreplace-with = \"m1\"\n")
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), `
[source.crates-io]
replace-with = "m2"

[source.m1]
registry = "sparse+https://m1.example.test/index"
`)
	testutil.WriteFile(t, filepath.Join(home, "config.toml"), "[source.m2]\nregistry = \"sparse+https://m2.example.test/\"\n\n[registries.corp]\nindex = \"sparse+https://corp.example.test/cargo/\"\n")
	cfg := loadTestConfig(t, deep, home)
	s, err := cfg.Source(CratesIO)
	if err != nil {
		t.Fatal(err)
	}
	if s.Replaced != "m1" || s.Index != "sparse+https://m1.example.test/index/" || s.From != filepath.Join(project, ".cargo", "config.toml") {
		t.Errorf("source %+v", s)
	}
	// From the project directory the m1 replacement is not seen.
	s, err = loadTestConfig(t, project, home).Source(CratesIO)
	if err != nil || s.Replaced != "m2" || s.Index != "sparse+https://m2.example.test/" {
		t.Errorf("from project: %+v %v", s, err)
	}
	if got := cfg.Registries(); len(got) != 1 || got[0] != "corp" {
		t.Errorf("Registries() = %q", got)
	}
	if files := cfg.Files(); len(files) != 3 || files[0] != filepath.Join(deep, ".cargo", "config.toml") || files[2] != filepath.Join(home, "config.toml") {
		t.Errorf("Files() = %q", files)
	}
}

func TestConfigFileWithoutExtensionWins(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config"), "[source.crates-io]\nreplace-with = \"a\"\n[source.a]\nregistry = \"sparse+https://a.example.test/\"\n")
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), "[source.crates-io]\nreplace-with = \"b\"\n[source.b]\nregistry = \"sparse+https://b.example.test/\"\n")
	s, err := loadTestConfig(t, project, t.TempDir()).Source("")
	if err != nil || s.Replaced != "a" {
		t.Errorf("source %+v %v", s, err)
	}
}

func TestConfigRegistriesAndEnv(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), `
[registries.corp]
index = "sparse+https://corp.example.test/"

[registries.git-reg]
index = "https://github.com/corp/index"

[source.crates-io]
replace-with = "corp"
`)
	testutil.WriteFile(t, filepath.Join(home, "credentials.toml"), "[registry]\ntoken = \"cio-home\"\n\n[registries.corp]\ntoken = \"corp-file\"\n")
	env := []string{"CARGO_REGISTRIES_ENV_ONLY_INDEX=sparse+https://env.example.test/", "CARGO_REGISTRIES_ENV_ONLY_TOKEN=env-token"}
	cfg := loadTestConfig(t, project, home, env...)

	// crates-io replaced by a [registries] entry: its index, and its token.
	s, err := cfg.Source("")
	if err != nil || s.Replaced != "corp" || s.Index != "sparse+https://corp.example.test/" || s.token.token != "corp-file" {
		t.Errorf("crates-io: %+v %v", s, err)
	}
	// A registry defined only by the environment.
	s, err = cfg.Source("env-only")
	if err != nil || s.Index != "sparse+https://env.example.test/" || s.From != "environment" || s.token.token != "env-token" {
		t.Errorf("env-only: %+v %v", s, err)
	}
	// The environment overrides files.
	cfg = loadTestConfig(t, project, home, "CARGO_REGISTRIES_CORP_INDEX=sparse+https://other.example.test/x/", "CARGO_REGISTRIES_CORP_TOKEN=corp-env")
	s, err = cfg.Source("corp")
	if err != nil || s.Index != "sparse+https://other.example.test/x/" || s.token.token != "corp-env" {
		t.Errorf("corp from env: %+v %v", s, err)
	}
	// A git index is refused with the reason.
	if _, err := cfg.Source("git-reg"); !errors.Is(err, ErrUnsupportedSource) || !strings.Contains(err.Error(), "git index") {
		t.Errorf("git index: %v", err)
	}
	if _, err := cfg.Source("nope"); !errors.Is(err, docidx.ErrBadSpec) || !strings.Contains(err.Error(), "CARGO_REGISTRIES_NOPE_INDEX") {
		t.Errorf("unknown registry: %v", err)
	}
}

func TestConfigCratesIOToken(t *testing.T) {
	home := t.TempDir()
	testutil.WriteFile(t, filepath.Join(home, "credentials"), "[registry]\ntoken = \"from-file\"\n")
	s, _ := loadTestConfig(t, "", home).Source("")
	if s.token.token != "from-file" {
		t.Errorf("token %q", s.token.token)
	}
	s, _ = loadTestConfig(t, "", home, "CARGO_REGISTRY_TOKEN=from-env").Source("")
	if s.token.token != "from-env" {
		t.Errorf("token %q", s.token.token)
	}
}

func TestConfigReplacedTokenByIndexURL(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), `
[source.crates-io]
replace-with = "mirror"
[source.mirror]
registry = "sparse+https://mirror.example.test/api/"
[registries.artifactory]
index = "sparse+https://mirror.example.test/api"
token = "Bearer abc"
`)
	s, err := loadTestConfig(t, project, t.TempDir()).Source("")
	if err != nil || s.token.token != "Bearer abc" {
		t.Errorf("source %+v %v", s, err)
	}
}

func TestConfigUnsupportedAndBroken(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         error
		msg          string
	}{
		{"directory", "[source.crates-io]\nreplace-with = \"v\"\n[source.v]\ndirectory = \"vendor\"\n", ErrUnsupportedSource, "vendored crates"},
		{"local registry", "[source.crates-io]\nreplace-with = \"l\"\n[source.l]\nlocal-registry = \"/srv/crates\"\n", ErrUnsupportedSource, "local registry at /srv/crates"},
		{"git source", "[source.crates-io]\nreplace-with = \"g\"\n[source.g]\ngit = \"https://user:pw@git.example.test/x\"\n", ErrUnsupportedSource, "git repository https://git.example.test/x"},
		{"git registry", "[source.crates-io]\nreplace-with = \"g\"\n[source.g]\nregistry = \"https://github.com/rust-lang/crates.io-index\"\n", ErrUnsupportedSource, "git index"},
		{"cycle", "[source.crates-io]\nreplace-with = \"a\"\n[source.a]\nreplace-with = \"b\"\n[source.b]\nreplace-with = \"a\"\n", docidx.ErrBadSpec, "loops"},
		{"unknown replacement", "[source.crates-io]\nreplace-with = \"ghost\"\n", docidx.ErrBadSpec, "ghost"},
		{"not http", "[source.crates-io]\nreplace-with = \"f\"\n[source.f]\nregistry = \"sparse+ftp://x/\"\n", docidx.ErrBadSpec, "not an http(s) URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project := t.TempDir()
			testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), tc.config)
			_, err := loadTestConfig(t, project, t.TempDir()).Source("")
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Source = %v; want %v mentioning %q", err, tc.want, tc.msg)
			}
			if err != nil && strings.Contains(err.Error(), "pw@") {
				t.Errorf("credentials in error: %v", err)
			}
		})
	}
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), "[source.crates-io\n")
	if _, err := LoadConfig(ConfigOptions{ProjectDir: project, CargoHome: t.TempDir(), Env: []string{}}); err == nil || !strings.Contains(err.Error(), "config.toml is not valid TOML") {
		t.Errorf("broken file: %v", err)
	}
}

func TestConfigOverride(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), "[source.crates-io]\nreplace-with = \"v\"\n[source.v]\ndirectory = \"vendor\"\n")
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: project, CargoHome: t.TempDir(), Env: []string{}, Index: "https://mirror.example.test/crates"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := cfg.Source("")
	if err != nil || s.Index != "sparse+https://mirror.example.test/crates/" || s.From != "flag" {
		t.Errorf("override: %+v %v", s, err)
	}
	for _, bad := range []string{"ftp://x/", "not a url", "sparse+", "git+https://x/"} {
		if _, err := NewConfig(bad); err == nil {
			t.Errorf("NewConfig(%q) accepted", bad)
		}
	}
	cfg, err = NewConfig("sparse+http://127.0.0.1:9/index")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := cfg.Source(""); s.Index != "sparse+http://127.0.0.1:9/index/" {
		t.Errorf("NewConfig source %+v", s)
	}
}

func TestConfigProtocolGit(t *testing.T) {
	s, err := loadTestConfig(t, "", t.TempDir(), "CARGO_REGISTRIES_CRATES_IO_PROTOCOL=git").Source("")
	if err != nil || s.Index != DefaultIndex || !strings.Contains(s.From, "ignored") {
		t.Errorf("protocol=git: %+v %v", s, err)
	}
}

func TestConfigNeverPrintsTokens(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), "[registries.corp]\nindex = \"sparse+https://u:pw@corp.example.test/\"\ntoken = \"t0k3n\"\n")
	cfg := loadTestConfig(t, project, home, "CARGO_REGISTRY_TOKEN=t0k3n")
	s, _ := cfg.Source("corp")
	for _, out := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%v %+v %#v", s, s, s), s.String()} {
		if strings.Contains(out, "t0k3n") || strings.Contains(out, "pw@") {
			t.Errorf("credentials printed: %s", out)
		}
	}
}

func TestDefaultCargoHome(t *testing.T) {
	if h, err := DefaultCargoHome([]string{"CARGO_HOME=/opt/cargo", "HOME=/home/x"}); err != nil || h != "/opt/cargo" {
		t.Errorf("CARGO_HOME: %q %v", h, err)
	}
	if h, err := DefaultCargoHome([]string{"HOME=/home/x"}); err != nil || h != filepath.Join("/home/x", ".cargo") {
		t.Errorf("HOME: %q %v", h, err)
	}
	if _, err := DefaultCargoHome([]string{}); err == nil {
		t.Error("no HOME: no error")
	}
}

func TestRegistryFor(t *testing.T) {
	project := t.TempDir()
	testutil.WriteFile(t, filepath.Join(project, ".cargo", "config.toml"), "[registries.corp]\nindex = \"sparse+https://corp.example.test/index/\"\n[registries.old]\nindex = \"https://git.example.test/index.git\"\n")
	cfg := loadTestConfig(t, project, t.TempDir(), "CARGO_REGISTRIES_FROM_ENV_INDEX=sparse+https://env.example.test/")
	for src, want := range map[string]string{
		"registry+https://github.com/rust-lang/crates.io-index": "crates-io",
		"sparse+https://index.crates.io/":                       "crates-io",
		"sparse+https://corp.example.test/index/":               "corp",
		"registry+https://git.example.test/index.git":           "old",
		"sparse+https://env.example.test/":                      "from_env",
	} {
		if got, ok := cfg.RegistryFor(src); !ok || got != want {
			t.Errorf("RegistryFor(%q) = %q, %v; want %q", src, got, ok, want)
		}
	}
	for _, src := range []string{"git+https://github.com/x/y?branch=main#abc", "path+file:///x", "sparse+https://unknown.example.test/", ""} {
		if got, ok := cfg.RegistryFor(src); ok {
			t.Errorf("RegistryFor(%q) = %q", src, got)
		}
	}
}
