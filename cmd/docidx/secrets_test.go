package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/npm/npmtest"
)

// secretWord is the password or token of every registry configured by the tests below; no
// output, log line, error, manifest or snapshot file may hold it.
const secretWord = "s3cretXYZ"

// crawlRun is one `docidx crawl` as a user runs it: a home and a project directory of its own,
// configuration files written into them, flags and environment variables.
type crawlRun struct {
	files map[string]string // path relative to the run's directory ("home/.npmrc", "proj/.npmrc") -> content
	env   []string
	args  []string // crawl flags and the spec
}

// run runs the docidx command (the test binary itself, which TestMain puts on $PATH) with a
// clean environment in a new directory, and returns that directory, with the index in
// dir/index, and what it printed to stdout and stderr.
func (cr crawlRun) run(t *testing.T) (dir, stdout, stderr string) {
	t.Helper()
	dir = t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		// go env, which docidx runs for GOPROXY, would otherwise write telemetry counters into
		// the home while the test removes it.
		"home/.config/go/telemetry/mode": "off\n",
	}
	maps.Copy(files, cr.files)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docidx", append([]string{"crawl"}, cr.args...)...)
	cmd.Dir = proj
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"DOCIDX_INDEX=" + filepath.Join(dir, "index"),
		"NPM_CONFIG_USERCONFIG=" + filepath.Join(home, ".npmrc"),
		"PIP_CONFIG_FILE=" + filepath.Join(home, "pip.conf"),
		"CARGO_HOME=" + filepath.Join(home, ".cargo"),
		"GOFLAGS=-mod=mod",
		"DOCIDX_LOG_LEVEL=debug",
	}, cr.env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); ctx.Err() != nil {
		t.Fatalf("docidx crawl %s did not finish: %v\nstderr:\n%s", strings.Join(cr.args, " "), err, errOut.String())
	}
	return dir, out.String(), errOut.String()
}

// leaks returns the files under dir/index that hold secret.
func leaks(t *testing.T, dir, secret string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(filepath.Join(dir, "index"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), secret) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return found
}

// urlShapes are the ways a registry URL carries a credential, as a user writes them; HOST stands
// for the fake registry's host and port.
var urlShapes = []struct{ name, url string }{
	{"userinfo", "http://alice:" + secretWord + "@HOST/"},
	{"bad escape in password", "http://alice:" + secretWord + "%zz@HOST/"},
	{"no scheme", "alice:" + secretWord + "@HOST"},
	{"slash in password", "http://alice:" + secretWord + "/x@HOST/"},
	{"token in query", "http://HOST/?token=" + secretWord},
}

// urlSources are the places each ecosystem reads its registry URL from: a flag, an environment
// variable, a configuration file.
var urlSources = []struct {
	name string
	make func(u string) crawlRun
}{
	{"go --goproxy", func(u string) crawlRun {
		return crawlRun{env: []string{"GOPROXY=off"}, args: []string{"--goproxy", u, "go:example.com/x@v1.0.0"}}
	}},
	{"go GOPROXY", func(u string) crawlRun {
		return crawlRun{env: []string{"GOPROXY=" + u}, args: []string{"go:example.com/x@v1.0.0"}}
	}},
	{"go env file", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"home/.config/go/env": "GOPROXY=" + u + "\n"}, args: []string{"go:example.com/x@v1.0.0"}}
	}},
	{"npm --npm-registry", func(u string) crawlRun {
		return crawlRun{args: []string{"--npm-registry", u, "npm:leftpad@1.0.0"}}
	}},
	{"npm npm_config_registry", func(u string) crawlRun {
		return crawlRun{env: []string{"npm_config_registry=" + u}, args: []string{"npm:leftpad@1.0.0"}}
	}},
	{"npm .npmrc registry=", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"proj/.npmrc": "registry=" + u + "\n"}, args: []string{"npm:leftpad@1.0.0"}}
	}},
	{"npm .npmrc @scope:registry=", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"home/.npmrc": "@acme:registry=" + u + "\n"}, env: []string{"npm_config_registry=http://127.0.0.1:9/"}, args: []string{"npm:@acme/leftpad@1.0.0"}}
	}},
	{"pypi --pypi-index", func(u string) crawlRun {
		return crawlRun{args: []string{"--pypi-index", u, "pypi:requests==1.0"}}
	}},
	{"pypi PIP_INDEX_URL", func(u string) crawlRun {
		return crawlRun{env: []string{"PIP_INDEX_URL=" + u}, args: []string{"pypi:requests==1.0"}}
	}},
	{"pypi pip.conf", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"home/pip.conf": "[global]\nindex-url = " + u + "\n"}, args: []string{"pypi:requests==1.0"}}
	}},
	{"cargo --cargo-index", func(u string) crawlRun {
		return crawlRun{args: []string{"--cargo-index", u, "cargo:serde@1.0.0"}}
	}},
	{"cargo config.toml", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"proj/.cargo/config.toml": cargoMirror(u)}, args: []string{"cargo:serde@1.0.0"}}
	}},
	{"cargo config.toml sparse+", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"proj/.cargo/config.toml": cargoMirror("sparse+" + u)}, args: []string{"cargo:serde@1.0.0"}}
	}},
	{"swift --swift-registry", func(u string) crawlRun {
		return crawlRun{args: []string{"--swift-registry", u, "swift:mona.LinkedList@1.0.0"}}
	}},
	{"swift registries.json", func(u string) crawlRun {
		return crawlRun{files: map[string]string{"proj/.swiftpm/configuration/registries.json": swiftRegistries(u)}, args: []string{"swift:mona.LinkedList@1.0.0"}}
	}},
}

// cargoMirror is a .cargo/config.toml that replaces cargo's default source (crates-io) with a registry at index.
func cargoMirror(index string) string {
	return fmt.Sprintf("[source.crates-io]\nreplace-with = \"mirror\"\n\n[registries.mirror]\nindex = %q\n", index)
}

// swiftRegistries is a registries.json whose default registry is at u.
func swiftRegistries(u string) string {
	return fmt.Sprintf(`{"version": 1, "registries": {"[default]": {"url": %q}}}`, u)
}

// notFound is a registry that has nothing: every crawl against it fails, and its errors name it.
func notFound(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestCredentialsStayOut crawls, through the docidx command, each ecosystem's registry
// configured in each way a user can (flag, environment, configuration file) with a URL of each
// shape that carries a credential, against a registry that has nothing (so the crawl fails and
// says where it looked): the credential appears neither in stdout, stderr (logs at debug level
// included) nor in any file of the index.
func TestCredentialsStayOut(t *testing.T) {
	host := notFound(t)
	for _, src := range urlSources {
		for _, shape := range urlShapes {
			t.Run(src.name+"/"+shape.name, func(t *testing.T) {
				t.Parallel()
				cr := src.make(strings.ReplaceAll(shape.url, "HOST", host))
				dir, stdout, stderr := cr.run(t)
				if strings.Contains(stdout+stderr, secretWord) {
					t.Errorf("the credential was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
				}
				// The crawl read this source: its error names the registry it was given.
				if !strings.Contains(stderr, host) {
					t.Errorf("stderr does not name the registry %s, so the source may have been ignored:\n%s", host, stderr)
				}
				if files := leaks(t, dir, secretWord); len(files) > 0 {
					t.Errorf("the credential was written to %s", strings.Join(files, ", "))
				}
			})
		}
	}
}

// TestTokensStayOut crawls with each ecosystem's token sources against a registry that has
// nothing, and checks that the token is printed nowhere and written to no index file.
func TestTokensStayOut(t *testing.T) {
	host := notFound(t)
	reg := "http://" + host + "/"
	for _, tc := range []struct {
		name string
		run  crawlRun
	}{
		{"npm .npmrc _authToken", crawlRun{files: map[string]string{"proj/.npmrc": "registry=" + reg + "\n//" + host + "/:_authToken=" + secretWord + "\n"}, args: []string{"npm:leftpad@1.0.0"}}},
		{"npm .npmrc _password", crawlRun{files: map[string]string{"home/.npmrc": "registry=" + reg + "\n//" + host + "/:username=alice\n//" + host + "/:_password=" + base64.StdEncoding.EncodeToString([]byte(secretWord)) + "\n"}, args: []string{"npm:leftpad@1.0.0"}}},
		{"cargo CARGO_REGISTRIES_MIRROR_TOKEN", crawlRun{files: map[string]string{"proj/.cargo/config.toml": cargoMirror("sparse+" + reg)}, env: []string{"CARGO_REGISTRIES_MIRROR_TOKEN=" + secretWord}, args: []string{"cargo:serde@1.0.0"}}},
		{"swift SWIFTPM_REGISTRY_TOKEN", crawlRun{env: []string{"SWIFTPM_REGISTRY_TOKEN=" + secretWord}, args: []string{"--swift-registry", reg, "swift:mona.LinkedList@1.0.0"}}},
		{"swift .netrc", crawlRun{files: map[string]string{"home/.netrc": "machine 127.0.0.1 login alice password " + secretWord + "\n"}, args: []string{"--swift-registry", reg, "swift:mona.LinkedList@1.0.0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, stdout, stderr := tc.run.run(t)
			if strings.Contains(stdout+stderr, secretWord) {
				t.Errorf("the token was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			// The crawl asked this registry: its error names it.
			if !strings.Contains(stderr, host) {
				t.Errorf("stderr does not name the registry %s, so it may not have been asked:\n%s", host, stderr)
			}
			if files := leaks(t, dir, secretWord); len(files) > 0 {
				t.Errorf("the token was written to %s", strings.Join(files, ", "))
			}
		})
	}
}

// hopRecorder is a pair of registries on two ports: home answers every request with a redirect
// to itself under /hop/, where it answers 401 to a request without credentials (as a private
// registry does; cargo sends its token only then) and a redirect to the same path on away to the
// others; away answers 404. Each records the Authorization headers it receives, home only those
// under /hop/.
type hopRecorder struct {
	home, away *httptest.Server
	mu         sync.Mutex
	homeAuth   []string
	awayAuth   []string
	awayHeader []http.Header
}

func newHopRecorder(t *testing.T) *hopRecorder {
	h := &hopRecorder{}
	h.away = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.awayAuth = append(h.awayAuth, r.Header.Get("Authorization"))
		h.awayHeader = append(h.awayHeader, r.Header.Clone())
		h.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(h.away.Close)
	h.home = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.RequestURI(), "/hop"); ok {
			h.mu.Lock()
			h.homeAuth = append(h.homeAuth, r.Header.Get("Authorization"))
			h.mu.Unlock()
			if r.Header.Get("Authorization") == "" {
				http.Error(w, "credentials required", http.StatusUnauthorized)
				return
			}
			http.Redirect(w, r, h.away.URL+rest, http.StatusFound)
			return
		}
		http.Redirect(w, r, h.home.URL+"/hop"+r.URL.RequestURI(), http.StatusFound)
	}))
	t.Cleanup(h.home.Close)
	return h
}

// TestRedirectCredentials crawls each ecosystem, through the docidx command, from a registry
// whose credentials are configured the way its users configure them, and which redirects first
// within its own origin, then to another port: the credential reaches the registry's own
// redirect target and never the other port.
func TestRedirectCredentials(t *testing.T) {
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:"+secretWord))
	for _, tc := range []struct {
		eco  string
		run  func(home string) crawlRun // home is the registry's http://host:port
		want string                     // the Authorization header the registry should get
	}{
		{"go", func(home string) crawlRun {
			return crawlRun{args: []string{"--goproxy", strings.Replace(home, "//", "//alice:"+secretWord+"@", 1) + "/", "go:example.com/x@v1.0.0"}}
		}, basic},
		{"npm", func(home string) crawlRun {
			return crawlRun{files: map[string]string{"proj/.npmrc": "registry=" + home + "/\n" + strings.TrimPrefix(home, "http:") + "/:_authToken=" + secretWord + "\n"}, args: []string{"npm:leftpad@1.0.0"}}
		}, "Bearer " + secretWord},
		{"pypi", func(home string) crawlRun {
			return crawlRun{args: []string{"--pypi-index", strings.Replace(home, "//", "//alice:"+secretWord+"@", 1) + "/simple/", "pypi:requests==1.0"}}
		}, basic},
		{"cargo", func(home string) crawlRun {
			return crawlRun{files: map[string]string{"proj/.cargo/config.toml": cargoMirror("sparse+" + home + "/index/")}, env: []string{"CARGO_REGISTRIES_MIRROR_TOKEN=" + secretWord}, args: []string{"cargo:serde@1.0.0"}}
		}, secretWord},
		{"swift", func(home string) crawlRun {
			return crawlRun{env: []string{"SWIFTPM_REGISTRY_TOKEN=" + secretWord}, args: []string{"--swift-registry", home + "/", "swift:mona.LinkedList@1.0.0"}}
		}, "Bearer " + secretWord},
	} {
		t.Run(tc.eco, func(t *testing.T) {
			t.Parallel()
			h := newHopRecorder(t)
			_, stdout, stderr := tc.run(h.home.URL).run(t)
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.awayAuth) == 0 {
				t.Fatalf("the crawl never reached the other port; the registry got Authorization %q on its own redirects\nstdout:\n%s\nstderr:\n%s", h.homeAuth, stdout, stderr)
			}
			if !slices.Contains(h.homeAuth, tc.want) {
				t.Errorf("the registry's redirect within its origin got Authorization %q, want %q", h.homeAuth, tc.want)
			}
			for _, got := range h.homeAuth {
				if got != "" && got != tc.want {
					t.Errorf("a redirect within the registry's origin carried Authorization %q, want %q", got, tc.want)
				}
			}
			for _, hdr := range h.awayHeader {
				for k, vs := range hdr {
					for _, v := range vs {
						if strings.Contains(v, secretWord) || strings.Contains(v, basic[len("Basic "):]) || k == "Authorization" {
							t.Errorf("the other port got %s: %s", k, v)
						}
					}
				}
			}
		})
	}
}

// TestCredentialsStayOutOfSnapshots crawls, through the docidx command, from a Go module proxy
// and an npm registry whose URLs and tokens carry credentials, and checks that the crawl
// succeeds and that neither its output nor any file of the snapshot it wrote (the manifest
// records each registry as a source) holds them.
func TestCredentialsStayOutOfSnapshots(t *testing.T) {
	proxy := gomodtest.NewServerFromDir(t, "../../registries/gomod/testdata/mod")
	registry := npmtest.NewServer(t, "../../registries/npm/testdata/registry")
	registry.RequireToken("@acme", secretWord)
	withUser := func(u string) string { return strings.Replace(u, "http://", "http://alice:"+secretWord+"@", 1) }
	npmHost := strings.Trim(strings.TrimPrefix(registry.URL, "http://"), "/")
	cr := crawlRun{
		files: map[string]string{"proj/.npmrc": "registry=" + withUser(registry.URL) + "\n//" + npmHost + "/:_authToken=" + secretWord + "\n"},
		args:  []string{"--goproxy", withUser(strings.TrimSuffix(proxy.URL, "/")) + "/", "go:example.com/hello", "npm:widget@^1.0.0", "npm:@acme/tools"},
	}
	dir, stdout, stderr := cr.run(t)
	if !strings.Contains(stderr, "3 indexed") {
		t.Fatalf("the crawl did not index its three packages:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if strings.Contains(stdout+stderr, secretWord) {
		t.Errorf("the credential was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if files := leaks(t, dir, secretWord); len(files) > 0 {
		t.Errorf("the credential was written to %s", strings.Join(files, ", "))
	}
	manifests, _ := filepath.Glob(filepath.Join(dir, "index", "gen-*", "manifest.json"))
	if len(manifests) == 0 {
		t.Fatal("the crawl wrote no manifest")
	}
	data, err := os.ReadFile(manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), npmHost) {
		t.Errorf("the manifest does not record the npm registry as a source:\n%s", data)
	}
}
