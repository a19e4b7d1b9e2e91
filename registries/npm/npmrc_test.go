package npm

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestParseNPMRC(t *testing.T) {
	src := "\ufeff# comment\n; another\n  registry = https://r.example.test/npm/  \r\n" +
		"@MyCo:registry=\"https://co.example.test/\"\n" +
		"//r.example.test/npm/:_authToken='tok;en#1'\n" +
		"plain=value ; inline comment\n" +
		"escaped=a\\;b\\#c\n" +
		"eq=a=b==\n" +
		"flag\n" +
		"arr[]=one\n" +
		"=novalue\n" +
		"[section]\n" +
		"registry=https://ignored.example.test/\n"
	got := map[string]string{}
	for _, e := range parseNPMRC([]byte(src)) {
		got[e.key] = e.value
	}
	want := map[string]string{
		"registry":                         "https://r.example.test/npm/",
		"@MyCo:registry":                   "https://co.example.test/",
		"//r.example.test/npm/:_authToken": "tok;en#1",
		"plain":                            "value",
		"escaped":                          "a;b#c",
		"eq":                               "a=b==",
		"flag":                             "true",
		"arr":                              "one",
	}
	if len(got) != len(want) {
		t.Errorf("got %d keys %v, want %d", len(got), got, len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestEnvReplace(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "EMPTY": ""}
	testutil.Mapping(t, "envReplace", func(in string) string { return envReplace(in, env) }, map[string]string{
		"${TOKEN}":     "s3cret",
		"x-${TOKEN}-y": "x-s3cret-y",
		"${UNSET}":     "${UNSET}",
		"${UNSET?}":    "",
		"${TOKEN?}":    "s3cret",
		"${EMPTY}":     "",
		`\${TOKEN}`:    "${TOKEN}",
		`\\${TOKEN}`:   `\s3cret`,
		`\\\${TOKEN}`:  `\${TOKEN}`,
		"${":           "${",
		"${}":          "${}",
		"${A${TOKEN}}": "${As3cret}",
		"$TOKEN":       "$TOKEN",
	})
}

func TestNerfDart(t *testing.T) {
	testutil.Mapping(t, "nerfDart", nerfDart, map[string]string{
		"https://r.example.test/":               "//r.example.test/",
		"https://r.example.test":                "//r.example.test/",
		"http://u:p@r.example.test:8080/a/b/":   "//r.example.test:8080/a/b/",
		"https://r.example.test/a/b/c.tgz?x=1":  "//r.example.test/a/b/",
		"https://r.example.test/api/npm/npm-x/": "//r.example.test/api/npm/npm-x/",
		"not a url":                             "",
	})
}

func TestLoadConfigPrecedence(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	global := t.TempDir()
	testutil.WriteFile(t, filepath.Join(global, "etc", "npmrc"),
		"registry=https://global.example.test/\n@g:registry=https://g.example.test/\n")
	testutil.WriteFile(t, filepath.Join(home, ".npmrc"),
		"registry=https://user.example.test/\n@u:registry=https://u.example.test/\n"+
			"@p:registry=https://user-p.example.test/\n"+
			"//user.example.test/:_authToken=${USER_TOKEN}\n")
	testutil.WriteFile(t, filepath.Join(proj, ".npmrc"),
		"registry=https://proj.example.test/npm\n@p:registry=https://p.example.test/repo/\n"+
			"//p.example.test/repo/:_authToken=${PROJ_TOKEN}\n"+
			"always-auth=true\n")
	env := []string{
		"HOME=" + home,
		"npm_config_prefix=" + global,
		"USER_TOKEN=utok",
		"PROJ_TOKEN=ptok",
		"npm_config_@e:registry=https://e.example.test",
	}

	cfg, err := LoadConfig(ConfigOptions{ProjectDir: proj, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Registry != "https://proj.example.test/npm/" {
		t.Errorf("Registry = %q", cfg.Registry)
	}
	if cfg.RegistrySource != filepath.Join(proj, ".npmrc") {
		t.Errorf("RegistrySource = %q", cfg.RegistrySource)
	}
	testutil.Mapping(t, "RegistryFor", cfg.RegistryFor, map[string]string{
		"@g/x":     "https://g.example.test/",
		"@u/x":     "https://u.example.test/",
		"@p/x":     "https://p.example.test/repo/",
		"@P/x":     "https://p.example.test/repo/",
		"@e/x":     "https://e.example.test/",
		"@other/x": "https://proj.example.test/npm/",
		"lodash":   "https://proj.example.test/npm/",
	})
	if got := cfg.AuthFor("https://p.example.test/repo/@p%2fx"); got != "Bearer ptok" {
		t.Errorf("AuthFor(p) = %q", got)
	}
	if got := cfg.AuthFor("https://user.example.test/x/-/x-1.0.0.tgz"); got != "Bearer utok" {
		t.Errorf("AuthFor(user) = %q", got)
	}
	if got := cfg.AuthFor("https://p.example.test/other/x"); got != "" {
		t.Errorf("AuthFor(outside prefix) = %q, want none", got)
	}
	if len(cfg.Files) != 3 || cfg.Files[0] != filepath.Join(proj, ".npmrc") {
		t.Errorf("Files = %v", cfg.Files)
	}

	// Environment beats files; the flag beats the environment.
	env2 := append(env, "NPM_CONFIG_REGISTRY=https://env.example.test")
	cfg, err = LoadConfig(ConfigOptions{ProjectDir: proj, Env: env2})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Registry != "https://env.example.test/" || cfg.RegistrySource != "NPM_CONFIG_REGISTRY" {
		t.Errorf("env: Registry = %q from %q", cfg.Registry, cfg.RegistrySource)
	}
	cfg, err = LoadConfig(ConfigOptions{ProjectDir: proj, Env: env2, Registry: "http://flag.example.test:4873"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Registry != "http://flag.example.test:4873/" || cfg.RegistrySource != "flag" {
		t.Errorf("flag: Registry = %q from %q", cfg.Registry, cfg.RegistrySource)
	}

	// NPM_CONFIG_USERCONFIG moves the user file.
	other := filepath.Join(t.TempDir(), "rc")
	testutil.WriteFile(t, other, "@u:registry=https://moved.example.test/\n")
	cfg, err = LoadConfig(ConfigOptions{Env: append(env, "NPM_CONFIG_USERCONFIG="+other)})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.RegistryFor("@u/x"); got != "https://moved.example.test/" {
		t.Errorf("userconfig: RegistryFor = %q", got)
	}
	if cfg.Registry != "https://global.example.test/" {
		t.Errorf("userconfig: Registry = %q", cfg.Registry)
	}
}

func TestAuthForLongestPrefix(t *testing.T) {
	dir := t.TempDir()
	pw := base64.StdEncoding.EncodeToString([]byte("pa:ss"))
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), strings.Join([]string{
		"registry=https://r.example.test/",
		"//r.example.test/:_authToken=root",
		"//r.example.test/private/:_authToken=private",
		"//r.example.test/private/deeper:_auth=ZGVlcDpwdw==",
		"//r.example.test:8443/:username=bob",
		"//r.example.test:8443/:_password=" + pw,
		"//half.example.test/:username=only-user",
		"//other.example.test/x/:_authToken=other",
	}, "\n"))
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Mapping(t, "AuthFor", cfg.AuthFor, map[string]string{
		"https://r.example.test/lodash":                     "Bearer root",
		"http://r.example.test/lodash":                      "Bearer root",
		"https://r.example.test/private/@s%2fp":             "Bearer private",
		"https://r.example.test/private/deeper/x.tgz":       "Basic ZGVlcDpwdw==",
		"https://r.example.test/private/deeper":             "Basic ZGVlcDpwdw==",
		"https://r.example.test/privateer/x":                "Bearer root",
		"https://r.example.test:8443/x":                     "Basic " + base64.StdEncoding.EncodeToString([]byte("bob:pa:ss")),
		"https://half.example.test/x":                       "",
		"https://other.example.test/x/y":                    "Bearer other",
		"https://other.example.test/y":                      "",
		"https://sub.r.example.test/lodash":                 "",
		"https://r.example.test.evil.example/lodash":        "",
		"https://evil.example/r.example.test/private/x.tgz": "",
		"::not a url": "",
	})
}

func TestLegacyAuthAppliesToDefaultRegistry(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), "registry=https://r.example.test/npm/\n_authToken=legacy\n")
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.AuthFor("https://r.example.test/npm/x"); got != "Bearer legacy" {
		t.Errorf("AuthFor = %q", got)
	}
	if got := cfg.AuthFor("https://elsewhere.example.test/npm/x"); got != "" {
		t.Errorf("AuthFor(elsewhere) = %q", got)
	}
}

func TestConfigNeverPrintsCredentials(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), "registry=https://user:pw@r.example.test/\n//r.example.test/:_authToken=SECRET-TOKEN\n")
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("config", "npm", cfg)
	for _, s := range []string{
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%v", *cfg),
		fmt.Sprintf("%+v", *cfg), logged.String(),
	} {
		if strings.Contains(s, "SECRET") || strings.Contains(s, "pw@") {
			t.Errorf("credentials printed: %s", s)
		}
	}
	if !strings.Contains(cfg.String(), "//r.example.test/:<credentials>") {
		t.Errorf("String() = %q, want the prefix listed", cfg.String())
	}
}

func TestLoadConfigNPMFallback(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script stand-in for npm")
	}
	bin := t.TempDir()
	good := filepath.Join(bin, "npm-good")
	testutil.WriteFile(t, good, "#!/bin/sh\necho 'npm warn something' >&2\necho https://fallback.example.test/base\n")
	bad := filepath.Join(bin, "npm-bad")
	testutil.WriteFile(t, bad, "#!/bin/sh\necho 'npm error broken' >&2\nexit 1\n")
	for _, p := range []string{good, bad} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + t.TempDir()}

	cfg, err := LoadConfig(ConfigOptions{Env: env, NPM: good})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Registry != "https://fallback.example.test/base/" || cfg.RegistrySource != "npm config get registry" {
		t.Errorf("Registry = %q from %q", cfg.Registry, cfg.RegistrySource)
	}

	for _, npmBin := range []string{bad, "-", filepath.Join(bin, "missing")} {
		_, err = LoadConfig(ConfigOptions{Env: env, NPM: npmBin})
		if !errors.Is(err, ErrNoRegistry) {
			t.Errorf("NPM=%s: err = %v, want ErrNoRegistry", npmBin, err)
		}
		if err != nil && !strings.Contains(err.Error(), "--npm-registry") {
			t.Errorf("error does not say what to do: %v", err)
		}
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFile(t, filepath.Join(dir, ".npmrc"), "registry=ftp://r.example.test/\n")
	_, err := LoadConfig(ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + t.TempDir()}})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".npmrc")) {
		t.Errorf("bad registry URL: err = %v, want the file named", err)
	}
	if _, err := NewConfig("no-scheme.example.test"); err == nil {
		t.Error("NewConfig accepted a URL without scheme")
	}
	cfg, err := NewConfig("https://r.example.test/x")
	if err != nil || cfg.Registry != "https://r.example.test/x/" {
		t.Errorf("NewConfig = %v, %v", cfg, err)
	}
}

func FuzzParseNPMRC(f *testing.F) {
	f.Add([]byte("registry=https://r.example.test/\n//r.example.test/:_authToken=${TOKEN}\n"))
	f.Add([]byte("@s:registry = \"https://s.example.test\" ; c\n[sec]\nk=v\n"))
	f.Add([]byte("a='b'\nc=\"d\\\"\"\ne=\\\\${X?}\\${Y}\n# x\n;y\nflag"))
	f.Fuzz(func(t *testing.T, data []byte) {
		env := map[string]string{"TOKEN": "t", "X": "x"}
		for _, e := range parseNPMRC(data) {
			if e.key == "" {
				t.Fatalf("bad entry %+v", e)
			}
			envReplace(e.key, env)
			envReplace(e.value, env)
		}
		envReplace(string(data), env)
		_ = nerfDart(string(data))
		cfg := &Config{auth: map[string]*credential{"//r.example.test/": {token: "t"}}}
		cfg.AuthFor(string(data))
	})
}
