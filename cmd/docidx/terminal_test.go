package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx/internal/safetext/safetexttest"
)

// hostileNodeModules writes a node_modules directory holding one package, "hostile", whose
// package.json (description, version, license), README (headings, text, code) and type
// declarations (doc comments, symbol names) carry safetexttest.Hostile, and returns its path.
func hostileNodeModules(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "node_modules")
	h, name := safetexttest.Hostile, safetexttest.HostileName
	manifest, err := json.Marshal(map[string]string{
		"name": "hostile", "version": "1.0.0-\u202e\x1b[2J", "description": "hostile description " + h,
		"license": "MIT\x1b]0;pwned\a", "homepage": "http://127.0.0.1:9/\u202e", "types": "index.d.ts",
	})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"package.json": string(manifest),
		"README.md":    "# hostile " + h + "\n\nThe README says " + h + "\n\n## Usage " + h + "\n\n```js\ncode(" + h + ")\n```\n",
		"index.d.ts": "/** Greets with " + h + " */\nexport declare function greet" + name + "(name: string): string;\n" +
			"/** The class " + h + " */\nexport declare class " + name + " {\n  /** run " + h + " */\n  run(): void;\n}\n",
	}
	for f, content := range files {
		p := filepath.Join(dir, "hostile", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runApp runs the docidx command line args in-process and returns its stdout, its stderr
// (with the error main would print) and exit status.
func runApp(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	code = exitCode(&errOut, app.RunContext(context.Background(), append([]string{"docidx"}, args...)))
	return out.String(), errOut.String(), code
}

// TestTerminalInjection is issue 25's point 3 for the CLI: search, show, read, list and the
// errors that quote package content print no control, bidi, zero-width or tag character of a
// hostile package, in text (whether or not stdout is a terminal) and with --json; the text
// shows them as escapes, and the JSON still decodes to the package's own text.
func TestTerminalInjection(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "index")
	if _, stderr, code := runApp(t, "crawl", "--offline", "--quiet", "--index", idx, "--node-modules", hostileNodeModules(t)); code != 0 {
		t.Fatalf("crawl: exit %d\n%s", code, stderr)
	}
	const ver = "1.0.0-\u202e\x1b[2J"
	uri := "docidx://npm/hostile@1.0.0-%E2%80%AE%1B%5B2J/readme#usage-label-ed2j-osc5252cchduzwq-osc88http1270019link8-osc00pwned-dsr6n-bel-bs-cr-over-c1csi2j-del-rloevil-lrix-zw-tag-end"
	runs := []struct {
		args     []string
		wantCode int
	}{
		{[]string{"search", "label"}, 0},
		{[]string{"search", "greets"}, 0},
		{[]string{"show", "npm:hostile"}, 0},
		{[]string{"show", "npm:hostile", safetexttest.HostileName}, 0},
		{[]string{"show", "npm:hostile@" + ver, "greet" + safetexttest.HostileName}, 0},
		{[]string{"read", "docidx://npm/hostile@1.0.0-%E2%80%AE%1B%5B2J/readme"}, 0},
		{[]string{"read", "docidx://npm/hostile@1.0.0-%E2%80%AE%1B%5B2J/api"}, 0},
		{[]string{"read", uri}, 0},
		{[]string{"list"}, 0},
		// Errors that name what the package holds: a did-you-mean of its symbols, its anchors.
		{[]string{"show", "npm:hostile", "Wid"}, 1},
		{[]string{"read", "docidx://npm/hostile@1.0.0-%E2%80%AE%1B%5B2J/readme#nosuch"}, 1},
	}
	for _, r := range runs {
		for _, asJSON := range []bool{false, true} {
			args := append([]string{r.args[0], "--index", idx}, r.args[1:]...)
			if asJSON {
				args = append([]string{r.args[0], "--index", idx, "--json"}, r.args[1:]...)
			}
			stdout, stderr, code := runApp(t, args...)
			name := strings.Join(args, " ")
			if code != r.wantCode {
				t.Errorf("%q: exit %d, want %d\n%s%s", name, code, r.wantCode, stdout, stderr)
				continue
			}
			for what, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if err := safetexttest.CheckPeople(name+": "+what, text); err != nil {
					t.Error(err)
				}
			}
			if r.wantCode != 0 {
				if !strings.Contains(stderr, `\u202e`) {
					t.Errorf("%q: the error does not show the hostile characters as escapes:\n%s", name, stderr)
				}
				continue
			}
			if asJSON {
				var v any
				if err := json.Unmarshal([]byte(stdout), &v); err != nil {
					t.Errorf("%q: not JSON: %v\n%s", name, err, stdout)
				} else if decoded, _ := json.Marshal(v); !bytes.Contains(decoded, []byte("\u202e")) {
					t.Errorf("%q: the JSON lost the package's own characters:\n%s", name, stdout)
				}
				continue
			}
			// Readable: the words are there, the hostile characters are visible escapes.
			want := []string{`ED\x1b[2J`, `OSC52\x1b]52;c;cHduZWQ=\a`, `C1CSI\u009b2J`, `RLO\u202eevil\u202c`, `TAG\U000e0041`, `\u202e`}
			if r.args[0] == "list" {
				want = []string{`1.0.0-\u202e\x1b[2J`}
			}
			for _, w := range want {
				if !strings.Contains(stdout, w) {
					t.Errorf("%q: output lacks %s:\n%s", name, w, stdout)
				}
			}
		}
	}
}
