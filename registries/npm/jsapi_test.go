package npm

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"

	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/docidx/docidx/registries/npm/npmtest"
)

// TestJSAPIFallback checks the order of API sources: declaration files when the package has
// any, else its JavaScript, for packages read from a tarball (whose .js files must be kept).
func TestJSAPIFallback(t *testing.T) {
	js := map[string]string{
		"package.json": `{"name": "greet", "version": "1.0.0", "main": "lib/index"}`,
		"README.md":    "# greet\n",
		"lib/index.js": "/**\n * Greet someone.\n * @param {string} name Who.\n */\nexports.greet = function greet (name) {}\n" +
			"exports.helper = require('./helper')\n",
		"lib/helper.js":             "module.exports = function helper () {}\n",
		"test/index.js":             "exports.notAPI = 1\n",
		"node_modules/dep/index.js": "exports.dep = 1\n",
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]string // qualified name -> signature
	}{
		{"javascript only", js, map[string]string{"greet": "exports.greet = function greet (name)", "helper": "module.exports = function helper ()"}},
		{"declarations win", with(js, "lib/index.d.ts", "export declare function greet(name: string): void;\n"),
			map[string]string{"greet": "function greet(name: string): void"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tgz := npmtest.Tarball("package", tc.files)
			files, _, err := untar(tgz, func(p string) bool { return keepTarballFile(p) || keepTarballScript(p) }, bigLimits)
			if err != nil {
				t.Fatal(err)
			}
			m, err := parseManifest(files["package.json"])
			if err != nil {
				t.Fatal(err)
			}
			c := packageAPI(context.Background(), memfs.New(files), m, "greet", "1.0.0", Limits{}, nil)
			got := map[string]string{}
			for _, s := range c.symbols {
				got[s.QualifiedName] = s.Signature
			}
			if len(got) != len(tc.want) {
				t.Errorf("symbols %v, want %v (problems %v)", got, tc.want, c.problems)
			}
			for q, sig := range tc.want {
				if got[q] != sig {
					t.Errorf("%s: signature %q, want %q", q, got[q], sig)
				}
			}
		})
	}
}

func with(files map[string]string, name, body string) map[string]string {
	out := map[string]string{name: body}
	for k, v := range files {
		out[k] = v
	}
	return out
}

func TestKeepTarballScript(t *testing.T) {
	testutil.Mapping(t, "keepTarballScript", keepTarballScript, map[string]bool{
		"index.js": true, "lib/a.cjs": true, "esm/b.mjs": true, "dist/x.min.js": false, "lib/x.ts": false,
		"node_modules/x/index.js": false, "test/a.js": false, "Tests/b.js": false, "__tests__/c.js": false,
		"benchmark/d.js": false, "coverage/e.js": false, "lib/test/f.js": true, "README.md": false,
	})
}

// TestWithJSDocs: declarations from @types take the parameters, docs and errors that only the
// package's own JavaScript gives, matched by qualified name.
func TestWithJSDocs(t *testing.T) {
	types := []docidx.Symbol{
		{QualifiedName: "ws.WebSocketServer.constructor", Doc: "Create a server."},
		{QualifiedName: "ws.WebSocket.send"},
		{QualifiedName: "ws.createWebSocketStream", Doc: "typed doc", Params: []docidx.Param{{Name: "ws"}}},
		{QualifiedName: "ws.WebSocket.ping", Doc: "Send a ping. Throws if the socket is not open."},
	}
	overflow := []string{"throw new RangeError('Max payload size exceeded')"}
	js := []docidx.Symbol{
		{QualifiedName: "ws.WebSocketServer.constructor", Doc: "js doc", Params: []docidx.Param{{Name: "options.maxPayload", Default: "104857600"}}, Errors: overflow},
		{QualifiedName: "ws.WebSocket.send", Doc: "Send a data message."},
		{QualifiedName: "ws.createWebSocketStream", Doc: "js doc", Params: []docidx.Param{{Name: "other"}}},
		{QualifiedName: "ws.WebSocket.ping", Errors: []string{"throw new Error('WebSocket is not open')"}},
	}
	got := withJSDocs(types, js)
	if p := got[0].Params; len(p) != 1 || p[0].Default != "104857600" || got[0].Doc != "Create a server." {
		t.Errorf("constructor: %+v", got[0])
	}
	if got[1].Doc != "Send a data message." {
		t.Errorf("send: %+v", got[1])
	}
	if got[2].Doc != "typed doc" || got[2].Params[0].Name != "ws" {
		t.Errorf("createWebSocketStream: the declarations' own doc and params must win: %+v", got[2])
	}
	// What the code throws, unless the declaration's doc speaks of throwing.
	if !slices.Equal(got[0].Errors, overflow) || got[3].Errors != nil {
		t.Errorf("errors: constructor %q, ping %q", got[0].Errors, got[3].Errors)
	}
}

// TestWithJSDocsOtherCase: a declaration matches the JavaScript symbol of its name in another
// letter case (an interface for an exported object: express.Response.status for
// express.response.status) when only one has it.
func TestWithJSDocsOtherCase(t *testing.T) {
	types := []docidx.Symbol{
		{QualifiedName: "express.Response.status", Doc: "Set status `code`."},
		{QualifiedName: "express.Request.get"},
	}
	js := []docidx.Symbol{
		{QualifiedName: "express.response.status", Doc: "Set the HTTP status code for the response. Expects an integer value between 100 and 999 inclusive.",
			Values: []string{"const MAX_STATUS = 999"}},
		{QualifiedName: "express.request.get", Doc: "Return request header.", Values: []string{"const X = 1"}},
		{QualifiedName: "express.Request.Get", Doc: "Another one."},
	}
	got := withJSDocs(types, js)
	if !strings.HasPrefix(got[0].Doc, "Set status `code`.\n\n") || !strings.Contains(got[0].Doc, "between 100 and 999 inclusive") {
		t.Errorf("status: doc %q, want the declaration's, then the JavaScript's", got[0].Doc)
	}
	if !slices.Equal(got[0].Values, []string{"const MAX_STATUS = 999"}) {
		t.Errorf("status: values %q, want the JavaScript's", got[0].Values)
	}
	if got[1].Doc != "" || got[1].Values != nil {
		t.Errorf("get: doc %q from one of two JavaScript symbols of its name in other cases, want none", got[1].Doc)
	}
}
