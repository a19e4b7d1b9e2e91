package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
	} {
		env.Setenv(kv[0], kv[1])
	}
	return nil
}

// TestScripts runs the end-to-end CLI scripts in testdata/script (testscript format: commands,
// then the files they use). Registries are never reached: scripts use local caches and
// --offline, or fake registries that the test harness starts.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup:               setupScript,
	})
}
