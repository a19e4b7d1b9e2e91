package dts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"

	"github.com/docidx/docidx/internal/golden"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// render prints symbols in the golden-file format: one header line per symbol, then its
// signature lines and the first line of its doc, indented.
func render(res extracted.Result) string {
	var b strings.Builder
	for _, s := range res.Symbols {
		testutil.Symbol(&b, s)
	}
	testutil.Outcome(&b, res)
	return b.String()
}

// TestGolden runs Extract over real declaration files copied from published packages (see
// testdata/third_party/README.md) and compares with testdata/golden/*.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, dir, pkg, exportName string
		entries                    []string
	}{
		{"commander", "commander", "commander", "", []string{"typings/index.d.ts"}},
		{"express", "@types/express", "@types/express", "express", []string{"index.d.ts"}},
		{"node", "@types/node", "@types/node", "", []string{"fs/promises.d.ts", "path.d.ts"}},
		{"chalk", "chalk", "chalk", "", []string{"source/index.d.ts"}},
		{"p-limit", "p-limit", "p-limit", "", []string{"index.d.ts"}},
		{"axios", "axios", "axios", "", []string{"index.d.ts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := os.DirFS(filepath.Join("testdata", "third_party", filepath.FromSlash(tc.dir)))
			res := Extract(fsys, tc.entries, Options{Package: tc.pkg, ExportName: tc.exportName})
			checkUnique(t, res.Symbols)
			got := render(res)
			goldenPath := filepath.Join("testdata", "golden", tc.name+".golden")
			golden.Check(t, goldenPath, []byte(got))
		})
	}
}

// checkUnique checks that qualified names are unique but for overloads: symbols of one kind
// that separate allows, each with its own signature.
func checkUnique(t *testing.T, syms []docidx.Symbol) {
	t.Helper()
	seen := map[string]docidx.Symbol{}
	sigs := map[string]bool{}
	for _, s := range syms {
		if first, ok := seen[s.QualifiedName]; ok && (first.Kind != s.Kind || !separate(s.Kind)) {
			t.Errorf("duplicate qualified name %q (%s, %s)", s.QualifiedName, first.Kind, s.Kind)
		}
		if sigs[s.QualifiedName+"\x00"+s.Signature] {
			t.Errorf("%q: signature %q twice", s.QualifiedName, s.Signature)
		}
		sigs[s.QualifiedName+"\x00"+s.Signature] = true
		if _, ok := seen[s.QualifiedName]; !ok {
			seen[s.QualifiedName] = s
		}
		if s.Name == "" || s.Kind == "" || s.File == "" || s.Line < 1 {
			t.Errorf("incomplete symbol %+v", s)
		}
	}
}

// TestRealSpotChecks pins facts about the real files that the goldens could silently lose.
func TestRealSpotChecks(t *testing.T) {
	get := func(dir string, entries []string, opts Options) map[string]docidx.Symbol {
		return testutil.FirstByName(Extract(os.DirFS(filepath.Join("testdata", "third_party", dir)), entries, opts).Symbols)
	}
	cmd := get("commander", []string{"typings/index.d.ts"}, Options{Package: "commander"})
	for q, kind := range map[string]docidx.SymbolKind{
		"Command": docidx.KindClass, "Command.option": docidx.KindMethod, "Command.opts": docidx.KindMethod,
		"Option": docidx.KindClass, "program": docidx.KindConst, "createCommand": docidx.KindFunc,
		"InvalidOptionArgumentError": docidx.KindClass, "CommandOptions.noHelp": docidx.KindField,
	} {
		if s, ok := cmd[q]; !ok || s.Kind != kind {
			t.Errorf("commander %s: got %+v, want kind %s", q, s, kind)
		}
	}
	if s := cmd["Command.option"]; strings.Contains(s.Signature, "\n") || !strings.Contains(s.Doc, "@example") || s.Parent != "Command" {
		t.Errorf("Command.option doc/parent: %q %q %q", s.Signature, s.Doc, s.Parent)
	}
	if !cmd["CommandOptions.noHelp"].Deprecated {
		t.Error("CommandOptions.noHelp is @deprecated")
	}
	for q := range cmd {
		if strings.Contains(q, "_") && strings.HasPrefix(q, "Command._") {
			t.Errorf("private member leaked: %s", q)
		}
	}

	node := get("@types/node", []string{"fs/promises.d.ts", "path.d.ts"}, Options{Package: "@types/node"})
	testutil.Present(t, node, "@types/node", "fs/promises", "fs/promises.readFile", "fs/promises.FileHandle.read", "path", "path.path.join")
	if s := node["fs/promises.readFile"]; s.Package != "fs/promises" || s.Kind != docidx.KindFunc {
		t.Errorf("fs/promises.readFile = %+v", s)
	}

	ex := get("@types/express", []string{"index.d.ts"}, Options{Package: "@types/express", ExportName: "express"})
	if s := ex["express"]; s.Kind != docidx.KindFunc {
		t.Errorf("express = %+v, want the function exported with export =", s)
	}
	if s := ex["express.Router"]; s.Kind != docidx.KindFunc || s.Parent != "express" {
		t.Errorf("express.Router = %+v", s)
	}
	if _, ok := ex["express.json"]; !ok {
		t.Error("express.json missing")
	}
}

func extractSrc(t *testing.T, files map[string]string, entries ...string) map[string]docidx.Symbol {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	res := Extract(fsys, entries, Options{Package: "pkg", ExportName: "pkg"})
	checkUnique(t, res.Symbols)
	return testutil.FirstByName(res.Symbols)
}

func TestDeclarationForms(t *testing.T) {
	src := "/** Adds.\n * @param a first\n * @returns sum\n */\nexport declare function add(a: number, b: number): number;\n" +
		"export declare function add(a: string, b: string): string;\n" +
		"/** @deprecated use add */\nexport function plus(a: number): number\n" +
		"export declare const version: string, other: Map<string, number>;\n" +
		"export let mutable: number;\n" +
		"declare const hidden: number;\n" +
		"export type Str = `a${'b' | `c${string}`}d` | \"}\";\n" +
		"export type Multi =\n  | { kind: 'a'; x: number }\n  | { kind: 'b' }\n" +
		"export interface Opts<T extends { a: string } = { a: '' }> extends Base<{ b: 1 }> {\n" +
		"  /** The name. */\n  name: string;\n  readonly size?: number,\n  get(key: string): T\n  method?<U>(u: U): void;\n" +
		"  [key: string]: unknown;\n  (call: number): void;\n  new (x: number): Opts<T>;\n  'quoted-name': boolean;\n}\n" +
		"export declare abstract class Widget<T> extends Base<T> implements I {\n" +
		"  private secret;\n  protected guarded(): void;\n  #hash: number;\n  static create(): Widget<any>;\n" +
		"  constructor(x: string);\n  get value(): T;\n  set value(v: T);\n  abstract render(): string;\n  public readonly id: number;\n" +
		"  'static': string;\n}\n" +
		"export declare const enum Color { Red = 1 << 0, Green = \"g\", 'Blue' }\n" +
		"export declare namespace NS.Inner {\n  function f(): void;\n  interface I { x: number }\n  namespace Deep { const c = 1; }\n}\n" +
		"export default function (): void;\n"
	m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")

	add := m["add"]
	if add.Kind != docidx.KindFunc || add.Signature != "function add(a: number, b: number): number" {
		t.Errorf("add = %q", add.Signature)
	}
	if add.Doc != "Adds.\n@param a first\n@returns sum" || add.Line != 5 {
		t.Errorf("add doc/line = %q %d", add.Doc, add.Line)
	}
	if !m["plus"].Deprecated || m["plus"].Signature != "function plus(a: number): number" {
		t.Errorf("plus = %+v", m["plus"])
	}
	if m["version"].Kind != docidx.KindConst || m["other"].Signature != "const other: Map<string, number>" {
		t.Errorf("version/other = %+v / %+v", m["version"], m["other"])
	}
	if m["mutable"].Kind != docidx.KindVar {
		t.Errorf("mutable = %+v", m["mutable"])
	}
	// A declaration file without export lists is an "export context": everything is exported.
	if _, ok := m["hidden"]; !ok {
		t.Error("declare const in a declaration file without export lists is exported")
	}
	testutil.Signatures(t, m, map[string]string{
		"Str":   "type Str = `a${'b' | `c${string}`}d` | \"}\"",
		"Multi": "type Multi = | { kind: 'a'; x: number } | { kind: 'b' }",
	})
	if s := m["Opts"]; s.Kind != docidx.KindInterface || s.Signature != "interface Opts<T extends { a: string } = { a: '' }> extends Base<{ b: 1 }>" {
		t.Errorf("Opts = %q", s.Signature)
	}
	for q, kind := range map[string]docidx.SymbolKind{
		"Opts.name": docidx.KindField, "Opts.size": docidx.KindField, "Opts.get": docidx.KindMethod,
		"Opts.method": docidx.KindMethod, "Opts.quoted-name": docidx.KindField,
		"Opts.[key: string]": docidx.KindField, "Opts.()": docidx.KindMethod, "Opts.new": docidx.KindMethod,
		"Widget.create": docidx.KindMethod, "Widget.constructor": docidx.KindMethod, "Widget.value": docidx.KindField,
		"Widget.render": docidx.KindMethod, "Widget.id": docidx.KindField, "Widget.static": docidx.KindField,
		"Color": docidx.KindEnum, "Color.Red": docidx.KindConst, "Color.Green": docidx.KindConst, "Color.Blue": docidx.KindConst,
		"NS.Inner": docidx.KindPackage, "NS.Inner.f": docidx.KindFunc, "NS.Inner.I": docidx.KindInterface,
		"NS.Inner.I.x": docidx.KindField, "NS.Inner.Deep.c": docidx.KindConst, "default": docidx.KindFunc,
	} {
		if s, ok := m[q]; !ok || s.Kind != kind {
			t.Errorf("%s: got %+v, want kind %s", q, s, kind)
		}
	}
	if d := m["Opts.name"]; d.Doc != "The name." || d.Parent != "Opts" {
		t.Errorf("Opts.name = %+v", d)
	}
	testutil.Signatures(t, m, map[string]string{
		"Widget.value": "get value(): T",
		"Widget.id":    "readonly id: number",
		"Widget":       "abstract class Widget<T> extends Base<T> implements I",
		"Opts.()":      "(call: number): void",
		"Opts.new":     "new (x: number): Opts<T>",
	})
	if s := m["NS.Inner.f"]; s.Parent != "NS.Inner" {
		t.Errorf("NS.Inner.f parent = %q", s.Parent)
	}
	testutil.Absent(t, m, "private, protected and #private members are left out", "Widget.secret", "Widget.guarded", "Widget.#hash")
}

// TestHiddenMembers checks that members a JSDoc or TSDoc tag takes out of the public API are left
// out, as private members are, and that an exported declaration so marked is kept: it is what the
// module exports.
func TestHiddenMembers(t *testing.T) {
	src := "export interface Internals {\n" +
		"  /** @internal The set of values. */\n  values?: Set<string>;\n" +
		"  /**\n   * Three rungs.\n   * @internal\n   */\n  optin?: string;\n" +
		"  /** Kept. @internal in the middle of a sentence is a word. */\n  kept: number;\n" +
		"  /** @private */\n  secret(): void;\n  /** @ignore */\n  skipped: 1;\n  /** @hidden */\n  unseen: 2;\n" +
		"  /** @internals is another word. */\n  plural: 3;\n}\n" +
		"/** @internal Generates code. */\nexport declare function compileFn(): void;\n"
	m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
	testutil.Absent(t, m, "members marked @internal, @private, @ignore or @hidden are left out",
		"Internals.values", "Internals.optin", "Internals.secret", "Internals.skipped", "Internals.unseen")
	for _, q := range []string{"Internals", "Internals.kept", "Internals.plural", "compileFn"} {
		if _, ok := m[q]; !ok {
			t.Errorf("%s left out", q)
		}
	}
}

// TestOverloads checks that each overload of a function or method is a symbol of its own, with
// its own signature, doc and parameters, sharing the qualified name.
func TestOverloads(t *testing.T) {
	src := `export declare class Server {
  /**
   * Listens on a port.
   * @param {number} port - the TCP port
   * @param [host='localhost'] the address
   *   to bind
   */
  listen(port: number, host?: string): this;
  /** Listens on a socket path. */
  listen(path: string): this;
  listen(path: string): this;
}
/** One. */
export declare function f(a: number): void;
/** Two. */
export declare function f(a: string, ...rest: Array<() => void>): void;
`
	res := Extract(fstest.MapFS{"index.d.ts": {Data: []byte(src)}}, []string{"index.d.ts"}, Options{Package: "p"})
	checkUnique(t, res.Symbols)
	var listen, f []docidx.Symbol
	for _, s := range res.Symbols {
		switch s.QualifiedName {
		case "Server.listen":
			listen = append(listen, s)
		case "f":
			f = append(f, s)
		}
	}
	if len(listen) != 2 || len(f) != 2 {
		t.Fatalf("listen %d, f %d symbols; want 2 and 2", len(listen), len(f))
	}
	if listen[0].Signature != "listen(port: number, host?: string): this" || listen[1].Signature != "listen(path: string): this" ||
		listen[1].Doc != "Listens on a socket path." || listen[1].Parent != "Server" || listen[1].Kind != docidx.KindMethod {
		t.Errorf("listen = %+v", listen)
	}
	want := []docidx.Param{
		{Name: "port", Type: "number", Doc: "the TCP port"},
		{Name: "host", Type: "string", Default: "'localhost'", Doc: "the address\nto bind"},
	}
	if fmt.Sprint(listen[0].Params) != fmt.Sprint(want) {
		t.Errorf("listen params = %+v, want %+v", listen[0].Params, want)
	}
	if f[0].Doc != "One." || f[1].Doc != "Two." || f[1].Signature != "function f(a: string, ...rest: Array<() => void>): void" {
		t.Errorf("f = %+v", f)
	}
}

func TestSignatureParams(t *testing.T) {
	testutil.Mapping(t, "signatureParams", func(sig string) string { return fmt.Sprint(signatureParams(sig)) }, map[string]string{
		"function f<T extends Map<K, V>>(a: string, b?: T[], ...rest: any[]): void": "map[a:string b:T[] rest:any[]]",
		"on(event: 'x', cb: (err: Error, n: number) => void): this":                 "map[cb:(err: Error, n: number) => void event:'x']",
		"constructor(private readonly opts: { a: 1 }, { x }: Y)":                    "map[opts:{ a: 1 }]",
		"const x: number": "map[]",
	})
}

func TestObjectTypeAlias(t *testing.T) {
	m := extractSrc(t, map[string]string{"index.d.ts": "export type Options<T = {}> = {\n  /** Max bytes.\n   * @default 1024 */\n  limit?: number;\n  parse(s: string): T;\n};\n" +
		"export type Mixed = { a: 1 } & Other;\nexport type Mapped = { [K in keyof T]: T[K] };\n"}, "index.d.ts")
	if s := m["Options"]; s.Kind != docidx.KindType || s.Signature != "type Options<T = {}> = { … }" {
		t.Errorf("Options = %+v", s)
	}
	if s := m["Options.limit"]; s.Kind != docidx.KindField || s.Signature != "limit?: number" || s.Doc != "Max bytes.\n@default 1024" || s.Parent != "Options" {
		t.Errorf("Options.limit = %+v", s)
	}
	if s := m["Options.parse"]; s.Kind != docidx.KindMethod {
		t.Errorf("Options.parse = %+v", s)
	}
	testutil.Signatures(t, m, map[string]string{
		"Mixed":  "type Mixed = { a: 1 } & Other",
		"Mapped": "type Mapped = { [K in keyof T]: T[K] }",
	})
	testutil.Absent(t, m, "members of an intersection are not the alias's own", "Mixed.a")
}

func TestExportForms(t *testing.T) {
	files := map[string]string{
		"index.d.ts": `import { Local } from './local';
import type { T } from "./types.js";
import dep = require('./dep');
import ext from 'external-package';
/// <reference path="globals.d.ts" />
export * from './star';
export * as ns from './ns.mjs';
export { picked, other as renamed } from './picked';
declare function main(): void;
declare namespace main { const helper: number; }
declare class Hidden {}
declare function internal(): void;
export { internal as publicName };
export = main;
`,
		"local.d.ts":        "export interface Local { a: 1 }\n",
		"types.d.ts":        "export type T = 1;\n",
		"dep.d.ts":          "declare function dep(): void; export = dep;\n",
		"star.d.ts":         "export declare const fromStar: 1;\n",
		"ns.d.mts":          "export declare function inNs(): void;\nexport declare class K { m(): void }\n",
		"picked/index.d.ts": "export declare const picked: 1;\nexport declare const other: 2;\n",
		"globals.d.ts":      "declare var GLOBAL_FLAG: boolean;\ninterface Window { x: 1 }\ndeclare global { var nested: 1 }\n",
	}
	m := extractSrc(t, files, "index.d.ts")
	testutil.Present(t, m, "", "pkg", "pkg.helper", "publicName", "Local", "T", "dep", "fromStar", "ns.inNs", "ns.K", "ns.K.m",
		"picked", "other", "GLOBAL_FLAG", "Window", "Window.x", "nested")
	testutil.Absent(t, m, "not exported", "main", "Hidden", "internal")
	if s := m["ns.K.m"]; s.Parent != "ns.K" {
		t.Errorf("ns.K.m parent = %q", s.Parent)
	}
	if s := m["pkg.helper"]; s.Parent != "pkg" || s.Kind != docidx.KindConst {
		t.Errorf("pkg.helper = %+v", s)
	}
}

// TestTSExtensionSpecifiers: declaration files that name their siblings by the TypeScript
// source's extension (date-fns' index.d.ts: export * from "./add.ts") re-export the
// declaration files beside them, as the compiler resolves them.
func TestTSExtensionSpecifiers(t *testing.T) {
	files := map[string]string{
		"index.d.ts": "export * from \"./add.ts\";\nexport * from \"./sub.mts\";\nexport * from \"./comp.tsx\";\n",
		"add.d.ts":   "/** Adds. */\nexport declare function add(a: number): number;\n",
		"sub.d.mts":  "export declare function sub(): void;\n",
		"comp.d.ts":  "export declare const Comp: 1;\n",
	}
	m := extractSrc(t, files, "index.d.ts")
	testutil.Present(t, m, "", "add", "sub", "Comp")
	if s := m["add"]; s.Doc != "Adds." {
		t.Errorf("add doc %q", s.Doc)
	}
}

func TestAmbientModules(t *testing.T) {
	src := `declare module "node:fs" {
    /** Reads. */
    export function readFile(path: string): void;
    export namespace promises { function readFile(path: string): Promise<string>; }
    interface Internal { a: 1 }
    export {};
}
declare module "fs" { export * from "node:fs"; }
declare module "shorthand";
declare module 'events' {
    class EventEmitter { on(e: string): this }
    namespace EventEmitter { const defaultMaxListeners: number }
    export = EventEmitter;
}
declare module '../vanilla.mjs' {
    interface StoreMutators<S, A> { 'zustand/persist': S }
}
`
	m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
	for q, s := range m {
		if strings.Contains(q, "vanilla") || strings.Contains(s.Package, "vanilla") {
			t.Errorf("%s (package %s): an augmentation of the package's own module is not a module", q, s.Package)
		}
	}
	if s := m["fs.readFile"]; s.Kind != docidx.KindFunc || s.Package != "fs" || s.Doc != "Reads." {
		t.Errorf("fs.readFile = %+v", s)
	}
	if s := m["fs.promises.readFile"]; s.Parent != "promises" || s.Package != "fs" {
		t.Errorf("fs.promises.readFile = %+v", s)
	}
	if s := m["fs"]; s.Kind != docidx.KindPackage || s.Signature != "declare module \"node:fs\"\ndeclare module \"fs\"" {
		t.Errorf("fs = %+v", s)
	}
	if _, ok := m["fs.Internal"]; ok {
		t.Error("fs.Internal: a module with export {} exports only what it marks")
	}
	if _, ok := m["shorthand"]; ok {
		t.Error("shorthand ambient module has no declarations")
	}
	testutil.Present(t, m, "", "events", "events.EventEmitter", "events.EventEmitter.on", "events.EventEmitter.defaultMaxListeners")
}

func TestTokenizerEdgeCases(t *testing.T) {
	src := "// line comment with 'quote\n/* block `tick */\n" +
		"export declare const a: \"str // not a comment\";\n" +
		"export declare const b: 'it\\'s';\n" +
		"export declare const c: `x${`y${{ a: '}' }}`}`;\n" +
		"/** doc for d */ /* plain comment between */\nexport declare const d: 1;\n" +
		"export declare function e(cb: (x: number) => void /* => */): Array<Map<string, Set<number>>>\n" +
		"export declare const f: number\n" +
		"/// <reference path='ignored-missing.d.ts' />\n" +
		"export declare const g: { h: () => void }\n" +
		"export declare function withBody(a: number): { ok: true } { return { ok: true } }\n" +
		"export declare const after: 1;\n"
	m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
	testutil.Signatures(t, m, map[string]string{
		"a":        `const a: "str // not a comment"`,
		"b":        `const b: 'it\'s'`,
		"c":        "const c: `x${`y${{ a: '}' }}`}`",
		"d":        "const d: 1",
		"e":        "function e(cb: (x: number) => void): Array<Map<string, Set<number>>>",
		"f":        "const f: number",
		"g":        "const g: { h: () => void }",
		"withBody": "function withBody(a: number): { ok: true }",
		"after":    "const after: 1",
	})
	if m["d"].Doc != "doc for d" || m["d"].Line != 7 {
		t.Errorf("d doc/line = %q %d", m["d"].Doc, m["d"].Line)
	}
	if m["after"].Line != 13 {
		t.Errorf("after line = %d", m["after"].Line)
	}
}

// TestTruncatedString: a file cut off inside a string, right after a backslash, is read up to
// there; the string's end was once sought past the end of the input, and Extract panicked.
func TestTruncatedString(t *testing.T) {
	for _, src := range []string{"export declare const a: 1;\nexport declare const b: \"x\\", "export declare const a: 1;\nimport x from '\\"} {
		m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
		testutil.Signatures(t, m, map[string]string{"a": "const a: 1"})
	}
}

func TestLimits(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "export declare const c%d: number;\n", i)
	}
	fsys := fstest.MapFS{
		"index.d.ts": {Data: []byte(b.String() + "export * from './a';\n")},
		"a.d.ts":     {Data: []byte("export * from './b';\nexport declare const inA: 1;\n")},
		"b.d.ts":     {Data: []byte("export * from './a';\nexport * from '../outside';\nexport declare const inB: 1;\n")},
		"big.d.ts":   {Data: make([]byte, 100)},
	}
	res := Extract(fsys, []string{"index.d.ts"}, Options{MaxSymbols: 10})
	if len(res.Symbols) != 10 || !res.Truncated {
		t.Errorf("MaxSymbols: %d symbols, truncated=%v", len(res.Symbols), res.Truncated)
	}
	res = Extract(fsys, []string{"index.d.ts"}, Options{MaxFiles: 2})
	if len(res.Files) != 2 || !res.Truncated {
		t.Errorf("MaxFiles: files %v truncated=%v", res.Files, res.Truncated)
	}
	res = Extract(fsys, []string{"index.d.ts"}, Options{})
	if strings.Join(res.Files, " ") != "index.d.ts a.d.ts b.d.ts" {
		t.Errorf("cycle: files %v", res.Files)
	}
	res = Extract(fsys, []string{"big.d.ts", "missing.d.ts", "../x.d.ts"}, Options{MaxFileSize: 10})
	if len(res.Files) != 0 || len(res.Problems) != 3 {
		t.Errorf("size/missing: files %v problems %v", res.Files, res.Problems)
	}
}

func TestCleanDoc(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		dep       bool
	}{
		{"/** one */", "one", false},
		{"/**\n * a\n *   indented\n * @deprecated since 2\n */", "a\n  indented\n@deprecated since 2", true},
		{"/**\n\tNo stars.\n\n\t```\n\tcode\n\t\tnested\n\t```\n\t*/", "No stars.\n\n```\ncode\n\tnested\n```", false},
		{"/***/", "", false},
		{"/** The {@link differenceInDays} options; see {@linkcode Options.limit}. */", "The differenceInDays options; see `Options.limit`.", false},
	} {
		got, dep := cleanDoc(tc.raw)
		if got != tc.want || dep != tc.dep {
			t.Errorf("cleanDoc(%q) = %q, %v; want %q, %v", tc.raw, got, dep, tc.want, tc.dep)
		}
	}
}

func FuzzExtract(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "third_party", "p-limit"))
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".d.ts") {
			continue // its license file
		}
		if data, err := os.ReadFile(filepath.Join("testdata", "third_party", "p-limit", e.Name())); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("export declare function f<T>(a: `${T}`): { [k: string]: T };\ndeclare module 'm' { export = x }"))
	f.Add([]byte("`${`${`${"))
	f.Add([]byte("export declare const b: \"x\\"))
	f.Add([]byte("export { a as b } from './x'; export * as n from './y'; /// <reference path=\"z\" />"))
	f.Add([]byte("class { get set static ( } ] > < export default"))
	f.Add([]byte("interface I { a: { b?: { c: { d: { e: { f: 1 } } } }, g: { h(): { i: 1 } } | {} } }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{
			"index.d.ts": {Data: data},
			"x.d.ts":     {Data: data},
		}
		res := Extract(fsys, []string{"index.d.ts"}, Options{Package: "p", ExportName: "p"})
		seen := map[string]int{}
		for _, s := range res.Symbols {
			if seen[s.QualifiedName]++; seen[s.QualifiedName] > maxOverloads {
				t.Fatalf("%q: %d symbols", s.QualifiedName, seen[s.QualifiedName])
			}
			if len(s.Signature) > maxOverloads*(maxSignature+10) {
				t.Fatalf("signature of %d bytes", len(s.Signature))
			}
		}
	})
}

func TestTypeScriptSourceNeedsExport(t *testing.T) {
	m := extractSrc(t, map[string]string{"index.ts": "export function pub(): void {\n  const inner = 1\n}\nfunction priv() {}\nexport const x = { a: 1 };\nexport class C { m() { return 1 } }\n"}, "index.ts")
	testutil.Present(t, m, "", "pub", "x", "C", "C.m")
	testutil.Absent(t, m, "not exported from a .ts file", "priv", "inner")
	testutil.Signatures(t, m, map[string]string{"pub": "function pub(): void"})
}

func TestNamespaceThenInterfaceMerge(t *testing.T) {
	m := extractSrc(t, map[string]string{"index.d.ts": "declare global {\n  namespace Express { interface Request { user: string } }\n}\nexport interface Express { x: 1 }\n"}, "index.d.ts")
	if s := m["Express"]; s.Kind != docidx.KindInterface || s.Signature != "interface Express" {
		t.Errorf("Express = %+v", s)
	}
	if _, ok := m["Express.Request.user"]; !ok {
		t.Error("Express.Request.user missing")
	}
}

func TestSelfReexport(t *testing.T) {
	fsys := fstest.MapFS{
		"index.d.ts":   {Data: []byte("export * from 'zustand/vanilla';\nexport * from 'zustand';\nexport * from 'zustandish';\n")},
		"vanilla.d.ts": {Data: []byte("export interface StoreApi<T> { getState(): T }\n")},
	}
	res := Extract(fsys, []string{"index.d.ts"}, Options{Package: "zustand"})
	if got := render(res); !strings.Contains(got, "method StoreApi.getState parent=StoreApi pkg=zustand vanilla.d.ts:1") ||
		strings.Join(res.Files, " ") != "index.d.ts vanilla.d.ts" {
		t.Errorf("self re-export:\n%s", got)
	}
}

// TestInlineObjectLiterals checks that the members of a property's inline object-literal type
// are symbols of their own, parented by the property, and which types are left alone.
func TestInlineObjectLiterals(t *testing.T) {
	type want struct {
		kind             docidx.SymbolKind
		parent, sig, doc string
		line             int
	}
	socketIO := `interface ServerOptions {
    /**
     * Whether to enable the recovery of connection state when a client temporarily disconnects.
     */
    connectionStateRecovery: {
        /**
         * The backup duration of the sessions and the packets.
         *
         * @default 120000 (2 minutes)
         */
        maxDisconnectionDuration?: number;
        /**
         * Whether to skip middlewares upon successful connection state recovery.
         *
         * @default true
         */
        skipMiddlewares?: boolean;
    };
    /** @default false */
    cleanupEmptyChildNamespaces: boolean;
}
`
	for _, tc := range []struct {
		name   string
		src    string
		want   map[string]want
		absent []string
	}{
		{
			name: "socket.io",
			src:  socketIO,
			want: map[string]want{
				"ServerOptions.connectionStateRecovery": {docidx.KindField, "ServerOptions",
					"connectionStateRecovery: { maxDisconnectionDuration?: number; skipMiddlewares?: boolean; }",
					"Whether to enable the recovery of connection state when a client temporarily disconnects.", 5},
				"ServerOptions.connectionStateRecovery.maxDisconnectionDuration": {docidx.KindField, "ServerOptions.connectionStateRecovery",
					"maxDisconnectionDuration?: number", "The backup duration of the sessions and the packets.\n\n@default 120000 (2 minutes)", 11},
				"ServerOptions.connectionStateRecovery.skipMiddlewares": {docidx.KindField, "ServerOptions.connectionStateRecovery",
					"skipMiddlewares?: boolean", "Whether to skip middlewares upon successful connection state recovery.\n\n@default true", 17},
				"ServerOptions.cleanupEmptyChildNamespaces": {docidx.KindField, "ServerOptions", "cleanupEmptyChildNamespaces: boolean", "@default false", 20},
			},
		},
		{
			name: "depth",
			src:  "export interface I {\n  a: {\n    b: {\n      c: {\n        /** deepest kept */\n        d: { e: 1 };\n      };\n    };\n  };\n}\n",
			want: map[string]want{
				"I.a":       {docidx.KindField, "I", "a: { b: { c: { d: { e: 1 }; }; }; }", "", 2},
				"I.a.b":     {docidx.KindField, "I.a", "b: { c: { d: { e: 1 }; }; }", "", 3},
				"I.a.b.c":   {docidx.KindField, "I.a.b", "c: { d: { e: 1 }; }", "", 4},
				"I.a.b.c.d": {docidx.KindField, "I.a.b.c", "d: { e: 1 }", "deepest kept", 6},
			},
			absent: []string{"I.a.b.c.d.e"},
		},
		{
			name: "class, alias, methods and commas",
			src: "export declare class C {\n  static readonly opts: { /** m */ m(x: number): void, n?: string }\n  private hidden: { p: 1 };\n  get acc(): { q: 1 };\n}\n" +
				"export type T = {\n  inner: { /** r */ readonly r: number };\n};\n",
			want: map[string]want{
				"C.opts.m":  {docidx.KindMethod, "C.opts", "m(x: number): void", "m", 2},
				"C.opts.n":  {docidx.KindField, "C.opts", "n?: string", "", 2},
				"T.inner":   {docidx.KindField, "T", "inner: { readonly r: number }", "", 7},
				"T.inner.r": {docidx.KindField, "T.inner", "readonly r: number", "r", 7},
			},
			absent: []string{"C.hidden.p", "C.acc.q"},
		},
		{
			name: "not a single literal",
			src: "export interface U {\n  union: { a: 1 } | { b: 2 };\n  inter: { c: 1 } & Other;\n  arr: { d: 1 }[];\n  gen: Partial<{ e: 1 }>;\n" +
				"  mapped: { [K in Keys]: V };\n  fn(): { f: 1 };\n  cb: (x: { g: 1 }) => void;\n  empty: {};\n" +
				"  dict: { [key: string]: number };\n  mixed: { [key: string]: unknown; named: 1 };\n}\n",
			want: map[string]want{
				"U.union": {docidx.KindField, "U", "union: { a: 1 } | { b: 2 }", "", 2},
				"U.arr":   {docidx.KindField, "U", "arr: { d: 1 }[]", "", 4},
				// A literal with a named member keeps its index signature, as an interface does.
				"U.mixed.[key: string]": {docidx.KindField, "U.mixed", "[key: string]: unknown", "", 11},
				"U.mixed.named":         {docidx.KindField, "U.mixed", "named: 1", "", 11},
			},
			absent: []string{"U.union.a", "U.union.b", "U.inter.c", "U.arr.d", "U.gen.e", "U.mapped.K", "U.fn.f", "U.cb.g",
				"U.dict.[key: string]"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Extract(fstest.MapFS{"index.d.ts": {Data: []byte(tc.src)}}, []string{"index.d.ts"}, Options{Package: "pkg"})
			checkUnique(t, res.Symbols)
			m := testutil.ByName(res.Symbols)
			for q, w := range tc.want {
				s, ok := m[q]
				if !ok {
					t.Errorf("%s missing", q)
					continue
				}
				got := want{s.Kind, s.Parent, s.Signature, s.Doc, s.Line}
				if got != w {
					t.Errorf("%s = %+v, want %+v", q, got, w)
				}
				if name := q[strings.LastIndex(q, ".")+1:]; s.Name != name {
					t.Errorf("%s: Name %q, want %q", q, s.Name, name)
				}
			}
			testutil.Absent(t, m, "", tc.absent...)
		})
	}
}

// TestConstObjectType checks that a variable declared with an object literal type, as older
// typings declare a function with properties for `export =` (find-up 5's findUp), has that
// type's members, each with its JSDoc, and the doc of its first documented call signature.
func TestConstObjectType(t *testing.T) {
	src := `declare const findUp: {
	sync: {
		/**
		Synchronously check if a path exists.
		*/
		exists: (path: string) => boolean;
	};

	/**
	Check if a path exists.
	*/
	exists: (path: string) => Promise<boolean>;

	/**
	Return this in a matcher function to stop the search.
	*/
	readonly stop: unique symbol;

	/**
	Find a file or directory by walking up parent directories.
	*/
	(name: string): Promise<string | undefined>;
};

export = findUp;
`
	res := Extract(fstest.MapFS{"index.d.ts": {Data: []byte(src)}}, []string{"index.d.ts"}, Options{Package: "find-up", ExportName: "findUp"})
	checkUnique(t, res.Symbols)
	m := testutil.ByName(res.Symbols)
	testutil.Docs(t, m, map[string]string{
		"findUp":             "Find a file or directory by walking up parent directories.",
		"findUp.exists":      "Check if a path exists.",
		"findUp.stop":        "Return this in a matcher function to stop the search.",
		"findUp.sync.exists": "Synchronously check if a path exists.",
	})
	if s := m["findUp.sync.exists"]; s.Parent != "findUp.sync" {
		t.Errorf("findUp.sync.exists: parent %q, want findUp.sync", s.Parent)
	}
}

// TestMaxMembers checks that MaxMembers bounds the members of a type, and of each inline literal
// like any type, and that a problem names the type cut short.
func TestMaxMembers(t *testing.T) {
	for _, tc := range []struct {
		name, open, close, problem string
		symbols                    int // Big, five members, and opts where the literal is inline
	}{
		{"interface", "export interface Big {\n", "}\n", "Big: 20 members", 6},
		{"inline literal", "export interface Big {\n  opts: {\n", "  };\n}\n", "Big.opts: 20 members", 7},
	} {
		var b strings.Builder
		b.WriteString(tc.open)
		for i := range 20 {
			fmt.Fprintf(&b, "    m%d: number;\n", i)
		}
		b.WriteString(tc.close)
		res := Extract(fstest.MapFS{"index.d.ts": {Data: []byte(b.String())}}, []string{"index.d.ts"}, Options{MaxMembers: 5})
		if len(res.Symbols) != tc.symbols || len(res.Problems) != 1 || !strings.Contains(res.Problems[0], tc.problem) {
			t.Errorf("%s: %d symbols, problems %v; want %d symbols and a problem %q", tc.name, len(res.Symbols), res.Problems, tc.symbols, tc.problem)
		}
	}
}

// TestTokenBound: the files one extraction parses hold at most maxTokens tokens in all; a file
// that would pass the bound is not scanned, nor any after it, and says why, while the files
// before it still count.
func TestTokenBound(t *testing.T) {
	dense := func(s string) string { return strings.Repeat(s, maxTokens*6/10/2) } // 60% of the bound
	fsys := fstest.MapFS{
		"index.d.ts": {Data: []byte("export declare const first: number;\nexport * from './b';\nexport * from './c';\n" + dense("x;"))},
		"b.d.ts":     {Data: []byte("export declare const second: number;\n" + dense("y;"))},
		"c.d.ts":     {Data: []byte("export declare const third: number;\n")},
	}
	res := Extract(fsys, []string{"index.d.ts"}, Options{})
	// b and c are not read, each with a problem naming the bound.
	testutil.CutShort(t, res, "first", ErrTooManyTokens, 2)
}

// TestManyModules: a package of one declaration file per function (date-fns ships some 250,
// each re-exported by index.d.ts) is read whole with the default limits.
func TestManyModules(t *testing.T) {
	files := map[string]string{}
	var index strings.Builder
	for i := range 400 {
		fmt.Fprintf(&index, "export * from \"./f%d.js\";\n", i)
		files[fmt.Sprintf("f%d.d.ts", i)] = fmt.Sprintf("export declare function f%d(): void;\n", i)
	}
	files["index.d.ts"] = index.String()
	m := extractSrc(t, files, "index.d.ts")
	for i := range 400 {
		if _, ok := m[fmt.Sprintf("f%d", i)]; !ok {
			t.Fatalf("f%d missing of 400", i)
		}
	}
}

// TestReferencedLocalTypes: a bundled declaration file's local interface that an exported
// signature names is documented with its members, and so is a local type its members name; a
// local declaration nothing exported names is not.
func TestReferencedLocalTypes(t *testing.T) {
	src := `import { MiddlewareHandler } from "../../types.js";
interface PrettyOptions {
  /**
   * Query conditions for when to Pretty.
   * @default 'pretty'
   */
  query?: string;
  indent?: Indent;
}
type Indent = number | "tab";
interface Unused { a: string }
declare function helper(): void;
/** Pretty JSON Middleware. */
export declare const prettyJSON: (options?: PrettyOptions) => MiddlewareHandler;
export {};
`
	m := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
	testutil.Present(t, m, "", "prettyJSON", "PrettyOptions", "PrettyOptions.query", "PrettyOptions.indent", "Indent")
	testutil.Absent(t, m, "a local declaration no exported signature names", "Unused", "Unused.a", "helper")
	testutil.Docs(t, m, map[string]string{"PrettyOptions.query": "Query conditions for when to Pretty.\n@default 'pretty'"})
}

// TestOptionParams checks that a function taking an options type of its own gets the type's
// documented fields as parameters (name, type, @default, doc without tags), after its own
// @param tags and without repeating one, and that a type two functions take stays apart.
func TestOptionParams(t *testing.T) {
	src := `export interface CreateOptions {
    /**
     * Content-Disposition type.
     * @default "attachment"
     */
    type?: string;
    /**
     * Fallback filename for non-US-ASCII strings.
     * @default true
     */
    fallback?: string | boolean;
    undocumented?: number;
}
export interface Shared {
    /** Shared knob. */
    knob?: number;
}
/**
 * Create a header.
 * @param filename the file name
 * @param options.type the type, documented here
 */
export declare function create(filename?: string, options?: Partial<CreateOptions> | undefined): string;
export declare function a(o?: Shared): void;
export declare function b(o: Shared): void;
`
	syms := extractSrc(t, map[string]string{"index.d.ts": src}, "index.d.ts")
	want := []docidx.Param{
		{Name: "filename", Type: "string", Doc: "the file name"},
		{Name: "options.type", Doc: "the type, documented here"},
		{Name: "options.fallback", Type: "string | boolean", Default: "true", Doc: "Fallback filename for non-US-ASCII strings."},
	}
	if got := syms["create"].Params; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("create's params =\n%+v\nwant\n%+v", got, want)
	}
	if got := syms["a"].Params; len(got) != 0 {
		t.Errorf("a's params = %+v, want none: Shared is taken by a and b", got)
	}

	// A function whose options fill maxOptionParams does not stop the next one from getting its own.
	var big strings.Builder
	big.WriteString("export interface BigOptions {\n")
	for i := range maxOptionParams + 5 {
		fmt.Fprintf(&big, "    /** Knob %d. */\n    k%d?: number;\n", i, i)
	}
	big.WriteString("}\nexport declare function first(o?: BigOptions): void;\n" +
		"export interface SmallOptions {\n    /** The only knob. */\n    only?: boolean;\n}\nexport declare function second(o?: SmallOptions): void;\n")
	syms = extractSrc(t, map[string]string{"index.d.ts": big.String()}, "index.d.ts")
	if n, p := len(syms["first"].Params), syms["second"].Params; n != maxOptionParams || len(p) != 1 || p[0].Name != "o.only" {
		t.Errorf("first has %d params (want %d), second %+v (want o.only)", n, maxOptionParams, p)
	}
}

// TestSourceDocs checks that an undocumented function of a declaration file takes the doc
// comment of the TypeScript source its declaration map names, as rxjs documents firstValueFrom
// on the implementation signature that declaration emit leaves out; and that a documented
// function, a source the package does not ship and a map naming a URL change nothing.
func TestSourceDocs(t *testing.T) {
	dts := `export interface FirstValueFromConfig<T> { defaultValue: T; }
export declare function firstValueFrom<T, D>(source: Observable<T>, config: FirstValueFromConfig<D>): Promise<T | D>;
export declare function firstValueFrom<T>(source: Observable<T>): Promise<T>;
/** Own doc. */
export declare function lastValueFrom<T>(source: Observable<T>): Promise<T>;
export declare function unshipped(): void;
//# sourceMappingURL=firstValueFrom.d.ts.map
`
	src := `export function firstValueFrom<T, D>(source: Observable<T>, config: FirstValueFromConfig<D>): Promise<T | D>;
export function firstValueFrom<T>(source: Observable<T>): Promise<T>;

/**
 * Converts an observable to a promise. If the observable stream completes before any values
 * were emitted, the returned promise will reject with {@link EmptyError}.
 *
 * @param source the observable to convert to a promise
 * @param config a configuration object to define the defaultValue
 */
export function firstValueFrom<T, D>(source: Observable<T>, config?: FirstValueFromConfig<D>): Promise<T | D> {
  return new Promise((resolve, reject) => {});
}

/** Source doc, not the declaration's. */
export function lastValueFrom<T>(source: Observable<T>): Promise<T> { return null as any; }
`
	fsys := fstest.MapFS{
		"dist/types/index.d.ts":                       {Data: []byte(`export * from './internal/firstValueFrom';`)},
		"dist/types/internal/firstValueFrom.d.ts":     {Data: []byte(dts)},
		"dist/types/internal/firstValueFrom.d.ts.map": {Data: []byte(`{"version":3,"file":"firstValueFrom.d.ts","sourceRoot":"","sources":["../../../src/internal/firstValueFrom.ts"],"names":[],"mappings":""}`)},
		"src/internal/firstValueFrom.ts":              {Data: []byte(src)},
	}
	docs := func(fsys fstest.MapFS) map[string][]string {
		res := Extract(fsys, []string{"dist/types/index.d.ts"}, Options{Package: "rxjs"})
		out := map[string][]string{}
		for _, s := range res.Symbols {
			out[s.Name] = append(out[s.Name], s.Doc)
			if s.Name == "firstValueFrom" && s.Doc != "" && len(s.Params) == 0 {
				t.Errorf("firstValueFrom's @param tags are not its Params: %+v", s)
			}
		}
		return out
	}
	got := docs(fsys)
	if d := got["firstValueFrom"]; len(d) != 2 || !strings.Contains(d[0], "reject with EmptyError") || d[0] != d[1] {
		t.Errorf("firstValueFrom's two overloads have docs %q, want the implementation's on both", d)
	}
	if d := got["lastValueFrom"]; len(d) != 1 || d[0] != "Own doc." {
		t.Errorf("lastValueFrom's doc is %q, want its declaration's own", d)
	}
	if d := got["unshipped"]; len(d) != 1 || d[0] != "" {
		t.Errorf("unshipped's doc is %q, want none", d)
	}
	// A map naming a URL, or a source the package does not ship, gives nothing.
	for _, m := range []string{
		`{"version":3,"sources":["https://example.invalid/src/internal/firstValueFrom.ts"]}`,
		`{"version":3,"sources":["../../../../elsewhere/firstValueFrom.ts"]}`,
	} {
		fsys["dist/types/internal/firstValueFrom.d.ts.map"] = &fstest.MapFile{Data: []byte(m)}
		if d := docs(fsys)["firstValueFrom"]; len(d) != 2 || d[0] != "" {
			t.Errorf("map %s: firstValueFrom's docs %q, want none", m, d)
		}
	}
}
