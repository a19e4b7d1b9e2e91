package swift

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func registriesJSON(entries string) string {
	return `{"registries": {` + entries + `}, "version": 1}`
}

func TestLoadConfigPrecedence(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".swiftpm", "configuration", "registries.json")
	proj := filepath.Join(project, ".swiftpm", "configuration", "registries.json")
	testutil.WriteFile(t, user, registriesJSON(`"[default]": {"url": "https://global.example.test/"}, "foo": {"url": "https://global.example.test"}, "bar": {"url": "https://bar.example.test/reg"}`))
	testutil.WriteFile(t, proj, registriesJSON(`"FOO": {"url": "https://local.example.test"}`))
	cfg, err := LoadConfig(ConfigOptions{ProjectDir: project, Env: []string{"HOME=" + home}})
	if err != nil {
		t.Fatal(err)
	}
	for scope, want := range map[string]string{
		"foo": "https://local.example.test", // the project file wins, case-insensitively
		"Foo": "https://local.example.test",
		"bar": "https://bar.example.test/reg",
		"baz": "https://global.example.test", // [default]
	} {
		if got, err := cfg.RegistryFor(scope); err != nil || got != want {
			t.Errorf("RegistryFor(%q) = %q, %v; want %q", scope, got, err, want)
		}
	}
	if !slices.Equal(cfg.Files, []string{proj, user}) {
		t.Errorf("Files = %v", cfg.Files)
	}
	if got := cfg.Registries(); !slices.Equal(got, []string{"https://global.example.test", "https://bar.example.test/reg", "https://local.example.test"}) {
		t.Errorf("Registries() = %v", got)
	}

	// The flag replaces [default] only.
	cfg, err = LoadConfig(ConfigOptions{ProjectDir: project, Env: []string{"HOME=" + home}, Registry: "http://127.0.0.1:8080/swift/"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := cfg.RegistryFor("baz"); got != "http://127.0.0.1:8080/swift" {
		t.Errorf("flag: RegistryFor(baz) = %q", got)
	}
	if got, _ := cfg.RegistryFor("foo"); got != "https://local.example.test" {
		t.Errorf("flag: RegistryFor(foo) = %q", got)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		file string
		flag string
		want error
		msg  string
	}{
		"nothing":      {"", "", ErrNoRegistry, "swift package-registry set"},
		"scopes only":  {registriesJSON(`"acme": {"url": "https://acme.example.test"}`), "", nil, ""},
		"bad json":     {`{"registries": `, "", nil, "not a registries.json document"},
		"newer":        {`{"registries": {}, "version": 2}`, "", nil, "version 2 is not supported"},
		"bad url":      {registriesJSON(`"[default]": {"url": "ftp://x.example"}`), "", nil, "bad registry URL"},
		"relative url": {registriesJSON(`"[default]": {"url": "/just/a/path"}`), "", nil, "bad registry URL"},
		"bad scope":    {registriesJSON(`"a_b": {"url": "https://x.example"}`), "", nil, "not a valid package scope"},
		"bad flag":     {"", "not a url", nil, "--swift-registry"},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			if tc.file != "" {
				testutil.WriteFile(t, filepath.Join(home, ".swiftpm", "configuration", "registries.json"), tc.file)
			}
			cfg, err := LoadConfig(ConfigOptions{Env: []string{"HOME=" + home}, Registry: tc.flag})
			switch {
			case tc.want == nil && tc.msg == "":
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if _, err := cfg.RegistryFor("other"); !errors.Is(err, ErrNoRegistry) {
					t.Errorf("RegistryFor(other) err = %v, want ErrNoRegistry", err)
				}
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Errorf("err = %v, want %v", err, tc.want)
			case err == nil || !strings.Contains(err.Error(), tc.msg):
				t.Errorf("err = %v, want one saying %q", err, tc.msg)
			}
		})
	}
}

func TestAuthFor(t *testing.T) {
	home := t.TempDir()
	testutil.WriteFile(t, filepath.Join(home, ".swiftpm", "configuration", "registries.json"), `{
		"registries": {"[default]": {"url": "https://reg.example.test"}, "acme": {"url": "https://acme.example.test:8443/swift"}},
		"authentication": {"acme.example.test:8443": {"type": "token", "loginAPIPath": "/login"}},
		"version": 1}`)
	testutil.WriteFile(t, filepath.Join(home, ".netrc"), `
# a comment
machine reg.example.test login alice password s3cret
machine acme.example.test
	login token
	password acmetoken
macdef init
	cd /pub
	machine evil.example.test login x password y

default login anon password anonpw
`)
	cfg, err := LoadConfig(ConfigOptions{Env: []string{"HOME=" + home}})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Mapping(t, "AuthFor", cfg.AuthFor, map[string]string{
		"https://reg.example.test/mona/LinkedList":              basic("alice", "s3cret"),
		"https://acme.example.test:8443/swift/acme/tools/1.0.0": "Bearer acmetoken",
		"https://cdn.example.test/archive.zip":                  "", // not a registry host
		"https://evil.example.test/":                            "",
		"::bad":                                                 "",
	})
	var nilCfg *Config
	if nilCfg.AuthFor("https://reg.example.test/") != "" {
		t.Error("nil Config gives credentials")
	}

	// Printing never shows credentials.
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("cfg", "config", cfg)
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%+v", *cfg), buf.String()} {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "acmetoken") || strings.Contains(s, "anonpw") {
			t.Errorf("credentials printed: %s", s)
		}
	}
	if !strings.Contains(cfg.String(), "credentials from "+filepath.Join(home, ".netrc")) {
		t.Errorf("String() = %q", cfg.String())
	}
}

func TestParseNetrc(t *testing.T) {
	got := parseNetrc("machine a.example login u1 password p1 account x machine b.example\nlogin u2\r\npassword p2\nmacdef m\nline\nmachine c.example login bad\n\ndefault login d password dp\npassword orphan")
	want := []netrcEntry{{"a.example", "u1", "p1"}, {"b.example", "u2", "p2"}, {"", "d", "orphan"}}
	if !slices.Equal(got, want) {
		t.Errorf("parseNetrc = %+v, want %+v", got, want)
	}
}

func TestParseIdentity(t *testing.T) {
	// identity is the identity ParseIdentity reads, or "" for an error, which must wrap ErrBadSpec.
	identity := func(in string) string {
		scope, name, err := ParseIdentity(in)
		if err != nil {
			if !errors.Is(err, docidx.ErrBadSpec) {
				t.Errorf("ParseIdentity(%q) error %v does not wrap ErrBadSpec", in, err)
			}
			return ""
		}
		return scope + "." + name
	}
	testutil.Mapping(t, "ParseIdentity", identity, map[string]string{
		"mona.LinkedList":               "mona.linkedlist",
		" Apple.swift-nio ":             "apple.swift-nio",
		"a.b_c":                         "a.b_c",
		"a1-b2.x":                       "a1-b2.x",
		"mona":                          "",
		".x":                            "",
		"mona.":                         "",
		"-mona.x":                       "",
		"mo--na.x":                      "",
		"mona.x__y":                     "",
		"mona.x-":                       "",
		"mona.x.y":                      "",
		strings.Repeat("a", 40) + ".x":  "",
		"a." + strings.Repeat("b", 101): "",
	})
}

func TestSelectVersion(t *testing.T) {
	versions := []string{"2.0.0-rc.1", "1.0.0", "1.10.0", "1.9.3", "0.9.0"}
	for _, tc := range []struct {
		q, want string
		err     error
	}{
		{"", "1.10.0", nil},
		{"1.9.3", "1.9.3", nil},
		{"1.9", "1.9.3", nil}, // a partial version is a range, as in npm
		{"1.9.x", "1.9.3", nil},
		{"^1.2", "1.10.0", nil},
		{"1.0.0..<1.10.0", "1.9.3", nil},
		{"0.1.0...1.0.0", "1.0.0", nil},
		{">=2.0.0-0", "2.0.0-rc.1", nil},
		{"2.0.0-rc.1", "2.0.0-rc.1", nil},
		{"3", "", docidx.ErrNotFound},
		{"what?", "", docidx.ErrBadSpec},
	} {
		got, err := selectVersion(versions, tc.q)
		testutil.Result(t, fmt.Sprintf("selectVersion(%q)", tc.q), got, err, tc.want, tc.err)
	}
	if got, err := selectVersion([]string{"1.0.0-beta", "1.0.0-alpha"}, ""); err != nil || got != "1.0.0-beta" {
		t.Errorf("only pre-releases: %q, %v", got, err)
	}
	if _, err := selectVersion(nil, ""); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("no versions: %v", err)
	}
}

func FuzzParseRegistriesJSON(f *testing.F) {
	f.Add([]byte(registriesJSON(`"[default]": {"url": "https://x.example"}, "acme": {"url": "https://y.example"}`)))
	f.Add([]byte(`{"registries": {"a": 1}, "authentication": {"h": []}, "version": "1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := parseRegistriesJSON(data)
		if err != nil {
			return
		}
		c := &Config{Scopes: map[string]string{}}
		c.auth.tokenHosts = map[string]bool{}
		if err := c.merge("fuzz.json", rf); err != nil {
			return
		}
		for _, reg := range c.Registries() {
			if _, err := normalizeRegistry(reg); err != nil {
				t.Fatalf("accepted registry %q does not normalize: %v", reg, err)
			}
		}
	})
}

func FuzzParseNetrc(f *testing.F) {
	f.Add("machine a login b password c\ndefault login d password e")
	f.Add("macdef x\nmachine y\n\nmachine z password")
	f.Fuzz(func(t *testing.T, data string) {
		for _, e := range parseNetrc(data) {
			if strings.ContainsAny(e.machine+e.login+e.password, " \t\n") {
				t.Fatalf("whitespace in entry %+v", e)
			}
		}
	})
}
