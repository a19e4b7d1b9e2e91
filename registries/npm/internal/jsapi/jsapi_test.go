package jsapi

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/testutil"
	"github.com/rogpeppe/go-internal/txtar"
)

// render prints a Result in the golden-file format: one header line per symbol, its signature,
// the first line of its doc, its params and examples, indented.
func render(res Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- entry: %s\n", res.Entry)
	for _, s := range res.Symbols {
		testutil.SymbolHeader(&b, s)
		fmt.Fprintf(&b, "\t%s\n", s.Signature)
		if s.Doc != "" {
			first, _, _ := strings.Cut(s.Doc, "\n")
			fmt.Fprintf(&b, "\t# %s\n", first)
		}
		for _, p := range s.Params {
			fmt.Fprintf(&b, "\tparam %s type=%q default=%q: %s\n", p.Name, p.Type, p.Default, p.Doc)
		}
		for _, e := range s.Examples {
			fmt.Fprintf(&b, "\texample %q\n", e.Code)
		}
	}
	testutil.Outcome(&b, res.Result)
	return b.String()
}

// loadFixture reads a txtar fixture into an in-memory package file system.
func loadFixture(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "fixtures", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, f := range ar.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
	}
	return fsys
}

// extractPackage runs Entries and Extract over a package file system the way the npm registry
// code does, naming the main export after the package.
func extractPackage(t testing.TB, fsys fstest.MapFS, opts Options) Result {
	t.Helper()
	var m struct {
		Name    string          `json:"name"`
		Main    string          `json:"main"`
		Exports json.RawMessage `json:"exports"`
	}
	if err := json.Unmarshal(fsys["package.json"].Data, &m); err != nil {
		t.Fatal(err)
	}
	opts.Package = m.Name
	opts.ExportName = path.Base(m.Name)
	opts.Exports = m.Exports
	return Extract(fsys, Entries(fsys, m.Exports, m.Main), opts)
}

// checkSymbols checks testutil.CheckSymbols and that each Parent names the container its
// symbol's qualified name ends in.
func checkSymbols(t *testing.T, syms []docidx.Symbol) {
	t.Helper()
	testutil.CheckSymbols(t, syms)
	for _, s := range syms {
		if s.Parent != "" && !strings.HasSuffix(s.QualifiedName, s.Parent+"."+s.Name) {
			t.Errorf("%s: parent %q does not name its container", s.QualifiedName, s.Parent)
		}
	}
}

// TestGolden extracts each fixture under testdata/fixtures and compares with
// testdata/golden/<name>.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, name := range []string{"cjs-function", "cjs-object", "express-like", "esm", "umd", "typescript-cjs", "cycles", "lexing", "bundled-cjs"} {
		t.Run(name, func(t *testing.T) {
			res := extractPackage(t, loadFixture(t, name), Options{})
			checkSymbols(t, res.Symbols)
			golden.Check(t, filepath.Join("testdata", "golden", name+".golden"), []byte(render(res)))
		})
	}
}

// TestFacts pins what the goldens could silently lose.
func TestFacts(t *testing.T) {
	type want struct {
		kind       docidx.SymbolKind
		parent     string
		sig        string // substring
		doc        string // substring
		deprecated bool
	}
	for _, tc := range []struct {
		fixture string
		want    map[string]want
		absent  []string
	}{
		{"cjs-function", map[string]want{
			"greeter":         {kind: docidx.KindFunc, sig: "function Greeter (name, options = {}, ...rest)", doc: "Create a greeter."},
			"greeter.greet":   {kind: docidx.KindMethod, parent: "greeter", doc: "Say hello.\n\nReturns: {string}"},
			"greeter.hi":      {kind: docidx.KindMethod, parent: "greeter", deprecated: true},
			"greeter.TIMES":   {kind: docidx.KindProperty, parent: "greeter", sig: "Greeter.TIMES = 1", doc: "Default: 1"},
			"greeter.version": {kind: docidx.KindProperty, sig: "Greeter.version = '1.2.3'"},
		}, []string{"greeter.secret", "greeter._hidden", "greeter.constructor"}},
		{"express-like", map[string]want{
			"express":                    {kind: docidx.KindFunc, sig: "function createApplication()"},
			"express.application.listen": {kind: docidx.KindMethod, parent: "express.application", sig: "app.listen = function listen()", doc: "Listen for connections."},
			"express.application.set":    {kind: docidx.KindMethod, doc: "Returns: {Server} for chaining"},
			"express.request.get":        {kind: docidx.KindMethod, parent: "express.request", doc: "Return request header."},
			// req.get = req.header = function header(name): one function, documented once.
			"express.request.header": {kind: docidx.KindMethod, parent: "express.request", sig: "req.header = req.get", doc: "Alias of `express.request.get`."},
			"express.json":           {kind: docidx.KindFunc, sig: "function json (options)"},
			// Properties defined through a helper that calls Object.defineProperty, through
			// Object.defineProperty itself and through Object.defineProperties, with their JSDoc.
			"express.request.protocol":      {kind: docidx.KindProperty, parent: "express.request", sig: "get protocol()", doc: `Return the protocol string "http" or "https"`},
			"express.request.secure":        {kind: docidx.KindProperty, doc: "Short-hand for"},
			"express.request.route":         {kind: docidx.KindProperty, sig: "get route()", doc: "computed once"},
			"express.request.maxHeaderSize": {kind: docidx.KindProperty, sig: "16384", doc: "Maximum header size in bytes."},
			"express.request.remote":        {kind: docidx.KindProperty, sig: "get remote()", doc: "remote address"},
		}, []string{"express.application.init", "express.request.noise"}},
		{"umd", map[string]want{
			"lodash":                         {kind: docidx.KindFunc, sig: "function lodash(value)"},
			"lodash.chunk":                   {kind: docidx.KindFunc, parent: "lodash", sig: "function chunk(array, size, guard)", doc: "Since: 3.0.0"},
			"lodash.delay":                   {kind: docidx.KindFunc, sig: "delay(func, wait, [args])"},
			"lodash.VERSION":                 {kind: docidx.KindProperty, sig: "var VERSION = '4.17.21'"},
			"lodash.templateSettings.escape": {kind: docidx.KindProperty, doc: "HTML-escaped"},
			"lodash.value":                   {kind: docidx.KindMethod, sig: "lodash.prototype.value = function wrapperValue()"},
		}, []string{"lodash.baseRest", "lodash._"}},
		{"esm", map[string]want{
			"parse":         {kind: docidx.KindFunc, sig: "function parse (input)", doc: "Parse input."},
			"load":          {kind: docidx.KindFunc, sig: "async function load (url, { timeout = 10 } = {})"},
			"Parser":        {kind: docidx.KindClass, sig: "class Parser extends Base"},
			"Parser.run":    {kind: docidx.KindMethod, parent: "Parser", doc: "Run it."},
			"Parser.create": {kind: docidx.KindMethod, sig: "static create ()"},
			"MAX_SIZE":      {kind: docidx.KindConst, sig: "const MAX_SIZE = 1024", doc: "Max size in bytes."},
			"MIN_SIZE":      {kind: docidx.KindConst, sig: "const MIN_SIZE = 1"},
			"counter":       {kind: docidx.KindVar},
			"helper":        {kind: docidx.KindFunc, doc: "Help."},
			"Default":       {kind: docidx.KindClass, doc: "Default class."},
			"more":          {kind: docidx.KindFunc},
			"other":         {kind: docidx.KindFunc, doc: "Other."},
			"utils.helper":  {kind: docidx.KindFunc, parent: "utils"},
			"esm-kit":       {kind: docidx.KindFunc, sig: "function main ()"},
			"create":        {kind: docidx.KindFunc, sig: "(args = [], cwd = shim.cwd()) =>", doc: "Made by a factory."},
			// What the factory's function makes: its instance methods, not its static ones.
			"create.option": {kind: docidx.KindMethod, parent: "create", sig: "option (key, opt)", doc: "Add an option."},
			"create.help":   {kind: docidx.KindMethod, parent: "create"},
		}, []string{"Parser.#secret", "wrong", "create.make", "create._hidden", "create.constructor"}},
		{"cjs-object", map[string]want{
			"trim":     {kind: docidx.KindFunc, sig: "const trim = (s) =>", doc: "Trim a string."},
			"pad":      {kind: docidx.KindFunc, sig: "function pad (s, n = 2)"},
			"add":      {kind: docidx.KindFunc, doc: "Add numbers."},
			"math.mul": {kind: docidx.KindFunc, parent: "math", doc: "Product."},
			"math.PI":  {kind: docidx.KindProperty},
			"upper":    {kind: docidx.KindFunc, sig: "upper (s)"},
			"VERSION":  {kind: docidx.KindVar, sig: "VERSION: '2.0.0'"},
			"extra":    {kind: docidx.KindFunc, doc: "Extra helper."},
		}, []string{"wrong"}},
		{"typescript-cjs", map[string]want{
			"connect":          {kind: docidx.KindFunc, sig: "function connect(url)", doc: "Connect to a server."},
			"Client":           {kind: docidx.KindClass, doc: "A client."},
			"Client.timeout":   {kind: docidx.KindField, sig: "timeout = 1000", doc: "Timeout in ms."},
			"Client.send":      {kind: docidx.KindMethod, sig: "async send(body)"},
			"Client.connected": {kind: docidx.KindProperty},
			"PROTOCOL":         {kind: docidx.KindVar, doc: "The protocol."},
		}, []string{"__esModule", "default"}},
		{"bundled-cjs", map[string]want{
			"createStore": {kind: docidx.KindFunc, sig: "const createStore = ((createState) =>", doc: "Create a store."},
			"useStore":    {kind: docidx.KindFunc, sig: "function useStore(api, selector = identity)"},
		}, nil},
		{"lexing", map[string]want{
			"after": {kind: docidx.KindFunc, sig: "function after (re = /[/]/)", doc: "Right after the tricky lines."},
			"ratio": {kind: docidx.KindVar},
		}, []string{"wrong"}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			res := extractPackage(t, loadFixture(t, tc.fixture), Options{})
			got := testutil.ByName(res.Symbols)
			for q, w := range tc.want {
				s, ok := got[q]
				switch {
				case !ok:
					t.Errorf("%s missing", q)
				case s.Kind != w.kind:
					t.Errorf("%s: kind %s, want %s", q, s.Kind, w.kind)
				case w.parent != "" && s.Parent != w.parent:
					t.Errorf("%s: parent %q, want %q", q, s.Parent, w.parent)
				case !strings.Contains(s.Signature, w.sig):
					t.Errorf("%s: signature %q, want it to hold %q", q, s.Signature, w.sig)
				case !strings.Contains(s.Doc, w.doc):
					t.Errorf("%s: doc %q, want it to hold %q", q, s.Doc, w.doc)
				case s.Deprecated != w.deprecated:
					t.Errorf("%s: deprecated %v", q, s.Deprecated)
				}
			}
			testutil.Absent(t, got, "left out", tc.absent...)
		})
	}
}

// TestCorpusExpressProperties extracts the real express of the corpus (scripts/corpus.sh; only
// when DOCIDX_CORPUS is set): the request properties lib/request.js defines through its
// defineGetter helper are members of express.request, with their JSDoc.
func TestCorpusExpressProperties(t *testing.T) {
	fsys := os.DirFS(testutil.CorpusDir(t, "npmproject", "node_modules", "express"))
	data, err := fs.ReadFile(fsys, "package.json")
	if err != nil {
		t.Skipf("no express in the corpus: %v", err)
	}
	var m struct {
		Main    string          `json:"main"`
		Exports json.RawMessage `json:"exports"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	res := Extract(fsys, Entries(fsys, m.Exports, m.Main), Options{Package: "express", ExportName: "express"})
	got := testutil.ByName(res.Symbols)
	for q, doc := range map[string]string{
		"express.request.protocol": `"X-Forwarded-Proto" header field will be trusted`,
		"express.request.ip":       `"trust proxy"`,
		"express.request.secure":   "req.protocol === 'https'",
		"express.request.hostname": "Parse the",
	} {
		s, ok := got[q]
		switch {
		case !ok:
			t.Errorf("%s missing", q)
		case s.Kind != docidx.KindProperty || s.Parent != "express.request":
			t.Errorf("%s: kind %s parent %q, want a property of express.request", q, s.Kind, s.Parent)
		case !strings.Contains(s.Doc, doc):
			t.Errorf("%s: doc %q, want it to hold %q", q, s.Doc, doc)
		}
	}
}

// TestNamedDoc: a JSDoc comment whose @name says what it documents documents that declaration
// even where another statement stands between them (async's bundle).
func TestNamedDoc(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"flow","main":"index.js"}`)},
		"index.js": {Data: []byte(`/**
 * Attempts to get a successful response from task no more than times times.
 *
 * @name retry
 * @static
 * @param {Object|number} [opts = {times: 5, interval: 0}] - times: the number of attempts. The default is 5.
 * @param {Function} task - the task to retry
 */
const DEFAULT_TIMES = 5;
const DEFAULT_INTERVAL = 0;

function retry(opts, task) {}

/** Runs in series. */
function series(tasks) {}

function other() {}

module.exports = { retry, series, other };
`)},
	}
	res := extractPackage(t, fsys, Options{})
	docs := map[string]string{}
	for _, s := range res.Symbols {
		docs[s.QualifiedName] = s.Doc
	}
	if !strings.Contains(docs["retry"], "no more than times times") || !strings.Contains(docs["retry"], "The default is 5") {
		t.Errorf("retry's doc %q, want its @name comment's", docs["retry"])
	}
	if docs["series"] != "Runs in series." || docs["other"] != "" {
		t.Errorf("series %q, other %q: a comment of their own or none", docs["series"], docs["other"])
	}
}

// TestJSDocInlineLinks: a JSDoc comment's inline link tags read as their text in the doc and in
// its parameters' descriptions ("{@link module:ControlFlow.queue}" is "ControlFlow.queue").
func TestJSDocInlineLinks(t *testing.T) {
	d := parseJSDoc("/**\n * Like [`queue`]{@link module:ControlFlow.queue}, one worker.\n * @param {Function} worker - see {@link AsyncFunction}\n */")
	if want := "Like `queue`, one worker."; !strings.HasPrefix(d.text, want) {
		t.Errorf("doc %q, want it to start %q", d.text, want)
	}
	if len(d.params) != 1 || d.params[0].Doc != "see AsyncFunction" {
		t.Errorf("params %+v, want worker documented as %q", d.params, "see AsyncFunction")
	}
}

// TestJSDocTagLists: a tag's body keeps its Markdown list items, paragraphs and code blocks on
// lines of their own, its wrapped lines joined, as async's retry documents the fields of its
// options object under @param opts.
func TestJSDocTagLists(t *testing.T) {
	d := parseJSDoc(`/**
 * Attempts a task.
 * @param {Object|number} [opts = {times: 5}| 5] - Can be either an
 * object with ` + "`times`" + ` or a number.
 * * ` + "`times`" + ` - The number of attempts to make before giving up.  The default
 *   is ` + "`5`" + `.
 * * ` + "`interval`" + ` - The time to wait between retries.
 *
 * A number is the times.
 * @returns {Promise} a promise
 *   if no callback provided
 */`)
	want := "Attempts a task.\n\n" +
		"@param {Object|number} [opts = {times: 5}| 5] - Can be either an object with `times` or a number.\n" +
		"* `times` - The number of attempts to make before giving up. The default is `5`.\n" +
		"* `interval` - The time to wait between retries.\n" +
		"A number is the times.\n" +
		"Returns: {Promise} a promise if no callback provided"
	if d.text != want {
		t.Errorf("doc:\n%s\nwant:\n%s", d.text, want)
	}
	if len(d.params) != 1 || !strings.Contains(d.params[0].Doc, "or a number. * `times` - The number") {
		t.Errorf("params %+v, want opts described on one line", d.params)
	}
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"a\nb", "a b"},
		{"a\n- b\n  c\n2. d", "a\n- b c\n2. d"},
		{"x\n```js\n  f()\n```\ny", "x\n```js\n  f()\n```\ny"},
		{"-1 is\nnone", "-1 is none"},
	} {
		if got := reflow(tc.in); got != tc.want {
			t.Errorf("reflow(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestThrownErrors: a function whose comment names no @throws says what its code throws and
// rejects with, in the closures it returns too, each error once; a message built by
// concatenation keeps its first part, one that interpolates is left out, and so is a body
// with a @throws tag.
func TestThrownErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"mw","main":"index.js"}`)},
		"index.js": {Data: []byte(`/**
 * Compose middleware.
 */
function compose (middleware) {
  if (!Array.isArray(middleware)) throw new TypeError('Middleware stack must be an array!')
  for (const fn of middleware) {
    if (typeof fn !== 'function') throw new TypeError('Middleware stack must be an array!')
  }
  return function (context, next) {
    function dispatch (i) {
      if (i <= index) return Promise.reject(new Error('next() called multiple times'))
      if (i > 9) throw new RangeError(` + "`too deep: ${i}`" + `)
      throw new Error('bad value: ' + i)
    }
  }
}

/**
 * Parses.
 * @throws {SyntaxError} when the input is not valid
 */
function parse (s) { throw new SyntaxError('unexpected token') }

function quiet () { return 1 }

/**
 * A cache.
 */
class Cache {
  constructor (options) {
    if (!options.max) throw new TypeError('At least one of max is required')
  }
  get (key) { return key }
}

module.exports = { compose, parse, quiet, Cache }
`)},
	}
	syms := map[string]docidx.Symbol{}
	for _, s := range extractPackage(t, fsys, Options{}).Symbols {
		syms[s.QualifiedName] = s
	}
	want := []string{"throw new TypeError('Middleware stack must be an array!')",
		"Promise.reject(new Error('next() called multiple times'))", "throw new Error('bad value: …')"}
	if c := syms["compose"]; !slices.Equal(c.Errors, want) || c.Doc != "Compose middleware." {
		t.Errorf("compose: doc %q, errors %q; want its comment and %q", c.Doc, c.Errors, want)
	}
	if p, q := syms["parse"], syms["quiet"]; p.Errors != nil || q.Errors != nil {
		t.Errorf("parse %q, quiet %q: a documented @throws and no throw add nothing", p.Errors, q.Errors)
	}
	// A class has what new Cache(…) throws: its constructor's.
	if want := []string{"throw new TypeError('At least one of max is required')"}; !slices.Equal(syms["Cache"].Errors, want) || syms["Cache.get"].Errors != nil {
		t.Errorf("Cache %q, Cache.get %q; want the constructor's %q", syms["Cache"].Errors, syms["Cache.get"].Errors, want)
	}
}
