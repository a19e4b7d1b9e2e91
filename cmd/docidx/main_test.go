package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/gomod/gomodtest"
	"github.com/docidx/docidx/registries/npm/npmtest"
	"github.com/docidx/docidx/registries/pypi/pypitest"
)

// TestMain lets the test binary run as the docidx command inside testscripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"docidx": func() { os.Exit(run()) },
		// docidx-code runs docidx and prints its exit status, so scripts can tell 1 from 2.
		"docidx-code": func() {
			code := run()
			fmt.Printf("exit %d\n", code)
			os.Exit(0)
		},
	})
}

// oldSnapshots is the directory of the archives of older snapshot formats (index/testdata).
var oldSnapshots = func() string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "index", "testdata"))
	if err != nil {
		panic(err)
	}
	return dir
}()

// setupScript gives every script a home of its own and registries that cannot be reached, so
// nothing a script does can touch the user's index, configuration or the network.
func setupScript(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	for _, kv := range [][2]string{
		{"HOME", home},
		{"XDG_DATA_HOME", filepath.Join(home, ".local", "share")},
		{"DOCIDX_INDEX", filepath.Join(env.WorkDir, "index")},
		{"GOPROXY", "off"},
		{"GOFLAGS", "-mod=mod"},
		{"NPM_CONFIG_REGISTRY", "http://127.0.0.1:9/"},
		{"NPM_CONFIG_USERCONFIG", filepath.Join(home, ".npmrc")},
		// Snapshots of older formats, packed by the docidx that wrote them.
		{"OLD_SNAPSHOTS", oldSnapshots},
	} {
		env.Setenv(kv[0], kv[1])
	}
	return nil
}

// scriptCmds are the commands scripts have beside testscript's own.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"mkfifo": mkfifo,
	// truncate PATH SIZE makes a (sparse) file of SIZE bytes, for files too large to read.
	"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: truncate PATH SIZE")
		}
		size, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		p := ts.MkAbs(args[0])
		ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
		f, err := os.Create(p)
		ts.Check(err)
		ts.Check(f.Truncate(size))
		ts.Check(f.Close())
	},
	// setformat MANIFEST N rewrites the format a snapshot's manifest.json states, to stand for
	// a snapshot written by an older or newer docidx.
	"setformat": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: setformat MANIFEST N")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		p := ts.MkAbs(args[0])
		data, err := os.ReadFile(p)
		ts.Check(err)
		var m map[string]any
		ts.Check(json.Unmarshal(data, &m))
		m["format"] = n
		data, err = json.MarshalIndent(m, "", "  ")
		ts.Check(err)
		ts.Check(os.WriteFile(p, data, 0o644))
	},
}

// TestScripts runs the end-to-end CLI scripts in testdata/script (testscript format: commands,
// then the files they use). Registries are never reached: scripts use local caches and
// --offline, or fake registries that the test harness starts.
//
// Scripts that crawl remotely point GOPROXY at $FAKE_GOPROXY, the npm registry at
// $FAKE_NPM_REGISTRY, the Python index at $FAKE_PYPI_INDEX and the crates index at
// $FAKE_CARGO_INDEX: fake registries (gomodtest, npmtest, pypitest, cargotest) serving the
// registries' own fixtures.
func TestScripts(t *testing.T) {
	proxy := gomodtest.NewServerFromDir(t, "../../registries/gomod/testdata/mod")
	registry := npmtest.NewServer(t, "../../registries/npm/testdata/registry")
	// A Python index and a crates registry for scripts that resolve ranges remotely; one release
	// of each is yanked, which resolving a range must pass over (PEP 592, cargo's resolver).
	pyIndex := pypitest.NewServer(t, "../../registries/pypi/testdata/index")
	pyIndex.Yank("Demo_Widgets", "1.1.0", "broken wheel")
	crates := cargotest.NewServer(t, "../../registries/cargo/testdata/crates")
	crates.Yank("ferris-json", "1.2.0", true)
	// hang is a registry that never answers: scripts crawl from it and interrupt the crawl. Each
	// script gets its own path on it ($HANGING_REGISTRY), so that waithang in one script waits
	// for its own crawl's request, not for another script's that ran in parallel.
	var mu sync.Mutex
	hits := map[string]chan struct{}{}
	hitFor := func(script string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		c, ok := hits[script]
		if !ok {
			c = make(chan struct{})
			hits[script] = c
		}
		return c
	}
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		script, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		c := hitFor(script)
		mu.Lock()
		select {
		case <-c:
		default:
			close(c)
		}
		mu.Unlock()
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	cmds := maps.Clone(scriptCmds)
	// waithang waits until the hanging registry has been asked something by this script.
	cmds["waithang"] = func(ts *testscript.TestScript, neg bool, args []string) {
		<-hitFor(filepath.Base(ts.Getenv("WORK")))
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                cmds,
		Setup: func(env *testscript.Env) error {
			env.Setenv("FAKE_GOPROXY", proxy.URL)
			env.Setenv("FAKE_NPM_REGISTRY", registry.URL)
			env.Setenv("FAKE_PYPI_INDEX", pyIndex.SimpleURL())
			env.Setenv("FAKE_CARGO_INDEX", crates.Index())
			env.Setenv("HANGING_REGISTRY", hang.URL+"/"+filepath.Base(env.WorkDir))
			return setupScript(env)
		},
	})
}
