package dts

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestInherited checks the members classes and interfaces inherit through extends and
// implements. want lists, per line, what render prints of the inherited or own members that
// matter ("kind qname parent=… pkg=… file:line" and the signature); absent lists qualified
// names that must not be there.
func TestInherited(t *testing.T) {
	core := fstest.MapFS{
		"index.d.ts": {Data: []byte("import * as http from 'http';\n" +
			"export interface Router { /** Routes GET. */\n get(path: string): this; }\n" +
			"export interface Application<L = any> extends Router, http.Server {\n  /** Listens. */\n  listen(port: number): void;\n  listen(path: string): void;\n}\n" +
			"export * from './more';\n")},
		"more.d.ts": {Data: []byte("export interface Response { /** Sends JSON. */\n json(body: any): this }\n")},
	}
	external := func(from, spec string) (Package, bool) {
		if spec == "core" {
			return Package{Name: "@types/core", FS: core, Entries: []string{"index.d.ts"}}, true
		}
		return Package{}, false
	}
	for _, tc := range []struct {
		name   string
		files  map[string]string
		opts   Options
		want   []string
		absent []string
	}{{
		name: "same file, own member wins",
		files: map[string]string{"index.d.ts": "interface A {\n  /** From A. */\n  a(): void;\n  b: number;\n}\n" +
			"export interface B extends A {\n  b: string;\n}\n"},
		want: []string{
			"method B.a parent=B pkg=pkg index.d.ts:3\n\ta(): void\n\t# From A.",
			"field B.b parent=B pkg=pkg index.d.ts:7\n\tb: string",
		},
	}, {
		name: "chain, generics and a namespace",
		files: map[string]string{"index.d.ts": "declare namespace ns { interface C<T> { c: T } }\n" +
			"export interface B<T> extends ns.C<T[]> { b: T }\nexport interface A extends B<string> { a: 1 }\n"},
		want: []string{
			"field A.b parent=A pkg=pkg index.d.ts:2\n\tb: T",
			"field A.c parent=A pkg=pkg index.d.ts:1\n\tc: T",
			"field B.c parent=B pkg=pkg index.d.ts:1\n\tc: T",
		},
	}, {
		name: "class extends and implements",
		files: map[string]string{"index.d.ts": "export declare class Base { base(): void; private hidden: 1 }\n" +
			"export interface Shape { area(): number }\n" +
			"export declare class Square extends Base implements Shape { area(): number; side: number }\n"},
		want: []string{
			"method Square.base parent=Square pkg=pkg index.d.ts:1\n\tbase(): void",
			"method Square.area parent=Square pkg=pkg index.d.ts:3\n\tarea(): number",
		},
		absent: []string{"Square.hidden"},
	}, {
		name: "cross file",
		files: map[string]string{
			"index.d.ts": "import { Base as B0 } from './base';\nimport type * as b from './base.js';\n" +
				"export interface X extends B0 {}\nexport interface Y extends b.Base {}\n",
			"base.d.ts": "export interface Base {\n  /** Base x. */\n  x(): void;\n}\n",
		},
		want: []string{
			"method X.x parent=X pkg=pkg base.d.ts:3\n\tx(): void\n\t# Base x.",
			"method Y.x parent=Y pkg=pkg base.d.ts:3\n\tx(): void\n\t# Base x.",
		},
	}, {
		name: "cross package through export =",
		files: map[string]string{"index.d.ts": "import * as core from 'core';\ndeclare function e(): void;\n" +
			"declare namespace e {\n  interface Application extends core.Application {}\n  interface Response extends core.Response {}\n}\nexport = e;\n"},
		opts: Options{External: external},
		want: []string{
			"method pkg.Application.listen parent=pkg.Application pkg=pkg @types/core/index.d.ts:6\n\tlisten(port: number): void\n\t# Listens.",
			"method pkg.Application.listen parent=pkg.Application pkg=pkg @types/core/index.d.ts:7\n\tlisten(path: string): void",
			"method pkg.Application.get parent=pkg.Application pkg=pkg @types/core/index.d.ts:3\n\tget(path: string): this\n\t# Routes GET.",
			"method pkg.Response.json parent=pkg.Response pkg=pkg @types/core/more.d.ts:2\n\tjson(body: any): this\n\t# Sends JSON.",
		},
	}, {
		name:   "cross package without External",
		files:  map[string]string{"index.d.ts": "import * as core from 'core';\nexport interface App extends core.Application {}\n"},
		want:   []string{"-- files: index.d.ts"},
		absent: []string{"App.listen"},
	}, {
		name: "cycle",
		files: map[string]string{"index.d.ts": "export interface A extends B { a: 1 }\nexport interface B extends C { b: 1 }\n" +
			"export interface C extends A { c: 1 }\nexport interface D extends D { d: 1 }\n"},
		want: []string{
			"field A.b parent=A pkg=pkg index.d.ts:2",
			"field A.c parent=A pkg=pkg index.d.ts:3",
			"field B.a parent=B pkg=pkg index.d.ts:1",
			"field C.b parent=C pkg=pkg index.d.ts:2",
		},
	}, {
		name:  "depth limit",
		files: map[string]string{"index.d.ts": chain(maxInheritDepth + 2)},
		want: []string{
			fmt.Sprintf("field T0.m%d parent=T0 pkg=pkg index.d.ts:%d", maxInheritDepth, maxInheritDepth+1),
		},
		absent: []string{fmt.Sprintf("T0.m%d", maxInheritDepth+1)},
	}, {
		name: "member limit",
		files: map[string]string{"index.d.ts": "interface A { a1: 1; a2: 1; a3: 1 }\n" +
			"export interface B extends A { b: 1 }\n"},
		opts:   Options{MaxMembers: 3},
		want:   []string{"field B.a2 parent=B pkg=pkg index.d.ts:1", "-- problem: index.d.ts: B: inherited members over 3 members left out"},
		absent: []string{"B.a3"},
	}, {
		name: "inherited limit, empty types first",
		files: map[string]string{"index.d.ts": "interface A { a1: 1; a2: 1 }\n" +
			"export interface B extends A { b: 1 }\nexport interface C extends A {}\n"},
		opts:   Options{MaxInherited: 2},
		want:   []string{"field C.a2 parent=C pkg=pkg index.d.ts:1", "-- problem: index.d.ts: B: inherited members left out: more than 2 in all"},
		absent: []string{"B.a1"},
	}, {
		// @babel/parser: `type ParserOptions = Partial<Options>`, Options not exported.
		name: "alias of a hidden interface",
		files: map[string]string{"index.d.ts": "interface Options {\n  /** Defaults to \"script\". */\n  sourceType?: string;\n}\n" +
			"type ParserOptions = Partial<Options>;\ntype Both = Readonly<Options> & Hidden2;\ninterface Hidden2 { h: 1 }\n" +
			"export interface Shown { s: 1 }\ntype OfShown = Shown;\ndeclare class K { k(): void }\ntype OfClass = K;\n" +
			"type Union = Options | Shown;\n" +
			"export { ParserOptions, Both, Shown, OfShown, OfClass, Union };\n"},
		want: []string{
			"field ParserOptions.sourceType parent=ParserOptions pkg=pkg index.d.ts:3\n\tsourceType?: string\n\t# Defaults to \"script\".",
			"field Both.sourceType parent=Both pkg=pkg index.d.ts:3",
			"field Both.h parent=Both pkg=pkg index.d.ts:7",
		},
		absent: []string{"OfShown.s", "OfClass.k", "Union.sourceType"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, src := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(src)}
			}
			opts := tc.opts
			opts.Package, opts.ExportName = "pkg", "pkg"
			res := Extract(fsys, []string{"index.d.ts"}, opts)
			checkUnique(t, res.Symbols)
			got := render(res)
			for _, w := range tc.want {
				if !strings.Contains(got, w+"\n") {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, s := range res.Symbols {
				for _, a := range tc.absent {
					if s.QualifiedName == a {
						t.Errorf("%s should not be there:\n%s", a, got)
					}
				}
			}
		})
	}
}

// chain returns interfaces T0 extends T1 … extends Tn-1, each Ti with one member mi, one a line.
func chain(n int) string {
	var b strings.Builder
	for i := range n {
		ext := ""
		if i+1 < n {
			ext = fmt.Sprintf(" extends T%d", i+1)
		}
		fmt.Fprintf(&b, "export interface T%d%s { m%d: %d }\n", i, ext, i, i)
	}
	return b.String()
}

func TestHeritage(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"interface A {}", nil},
		{"interface A<T extends X = Y> extends B<T, Map<K, V>>, ns.C.D {}", []string{"B", "ns.C.D"}},
		{"class A extends mixin(B) implements I, J<K> {}", []string{"I", "J"}},
		{"class A<T extends { x: Y }> extends B {}", []string{"B"}},
	} {
		toks, _, _ := tokenize([]byte(tc.src), len(tc.src)+1)
		if got := heritage(toks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("heritage(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestImportBindings(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []binding
	}{
		{`import * as core from "m";`, []binding{{"core", "*", "m"}}},
		{`import core = require("m");`, []binding{{"core", "*", "m"}}},
		{`import type { A, B as C, type D } from './x';`, []binding{{"A", "A", "./x"}, {"C", "B", "./x"}, {"D", "D", "./x"}}},
		{`import def, { a } from "m";`, []binding{{"def", "default", "m"}, {"a", "a", "m"}}},
		{`import def, * as ns from "m";`, []binding{{"def", "default", "m"}, {"ns", "*", "m"}}},
		{`import type T from "m";`, []binding{{"T", "default", "m"}}},
		{`import "side-effect";`, nil},
		{`import { a } from`, nil},
	} {
		toks, _, _ := tokenize([]byte(tc.src), len(tc.src)+1)
		if got := importBindings(toks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("importBindings(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestImportedThenExported checks that names a file imports from another package and lists in
// its export list are the package's exports, with the other package's declarations and docs
// (node-fetch's `import { Blob, blobFrom } from 'fetch-blob/from.js'` then `export { Blob,
// blobFrom }`), through the other package's own import-then-export, default export and
// `export *`; a name imported but not exported, and one without External, are not.
func TestImportedThenExported(t *testing.T) {
	blob := fstest.MapFS{
		"from.d.ts": {Data: []byte("import Blob from './index.js';\n/** Reads a file into a Blob. */\nexport function blobFrom(path: string): Promise<Blob>;\n" +
			"/** Synchronously. */\nexport function blobFromSync(path: string): Blob;\nexport { Blob };\nexport * from './more.js';\n")},
		"index.d.ts": {Data: []byte("/** A blob of bytes. */\ndeclare class Blob {\n  /** Its size in bytes. */\n  size: number;\n}\nexport default Blob;\n")},
		"more.d.ts":  {Data: []byte("/** A file. */\nexport declare class File {}\n")},
	}
	inject := fstest.MapFS{"index.d.ts": {Data: []byte("declare namespace inject {\n  /** How to inject. */\n  export interface Options { url: string }\n}\n" +
		"declare function inject(o: inject.Options): void;\nexport = inject;\n")}}
	external := func(from, spec string) (Package, bool) {
		switch spec {
		case "fetch-blob/from.js":
			return Package{Name: "fetch-blob", FS: blob, Entries: []string{"from.d.ts"}}, true
		case "inject":
			return Package{Name: "inject", FS: inject, Entries: []string{"index.d.ts"}}, true
		}
		return Package{}, false
	}
	src := "import { Blob, blobFrom, blobFromSync as readSync, File } from 'fetch-blob/from.js';\n" +
		"import { Other } from 'fetch-blob/from.js';\nimport { Options as InjectOptions } from 'inject';\n" +
		"export { Blob, blobFrom, readSync, File, InjectOptions };\n/** Fetches. */\nexport default function fetch(url: string): Promise<Blob>;\n"
	fsys := fstest.MapFS{"index.d.ts": {Data: []byte(src)}}
	res := Extract(fsys, []string{"index.d.ts"}, Options{Package: "node-fetch", External: external})
	checkUnique(t, res.Symbols)
	got := render(res)
	for _, w := range []string{
		"class Blob pkg=node-fetch fetch-blob/index.d.ts:2\n\tclass Blob\n\t# A blob of bytes.",
		"field Blob.size parent=Blob pkg=node-fetch fetch-blob/index.d.ts:4\n\tsize: number\n\t# Its size in bytes.",
		"func blobFrom pkg=node-fetch fetch-blob/from.d.ts:3\n\tfunction blobFrom(path: string): Promise<Blob>\n\t# Reads a file into a Blob.",
		"func readSync pkg=node-fetch fetch-blob/from.d.ts:5",
		"class File pkg=node-fetch fetch-blob/more.d.ts:2",
		"func fetch pkg=node-fetch index.d.ts:6",
		"interface InjectOptions pkg=node-fetch inject/index.d.ts:3\n\tinterface Options\n\t# How to inject.",
		"field InjectOptions.url parent=InjectOptions pkg=node-fetch inject/index.d.ts:3",
	} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	for _, s := range res.Symbols {
		if s.Name == "Other" || s.Name == "blobFromSync" {
			t.Errorf("%s should not be there:\n%s", s.QualifiedName, got)
		}
	}
	if res := Extract(fsys, []string{"index.d.ts"}, Options{Package: "node-fetch"}); len(res.Symbols) != 1 {
		t.Errorf("without External: %d symbols, want fetch only:\n%s", len(res.Symbols), render(res))
	}
	// An export list in a namespace names the file's imports (fastify's light-my-request
	// types), unless the namespace declares the name itself.
	ns := "import { blobFrom as read, File } from 'fetch-blob/from.js';\ndeclare function f(): void;\n" +
		"declare namespace f {\n  interface File { own: 1 }\n  export type { read, File }\n}\nexport = f;\n"
	res = Extract(fstest.MapFS{"index.d.ts": {Data: []byte(ns)}}, []string{"index.d.ts"}, Options{Package: "fastify", External: external})
	got = render(res)
	for _, w := range []string{"func f.read parent=f pkg=fastify fetch-blob/from.d.ts:3", "field f.File.own parent=f.File pkg=fastify index.d.ts:4"} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	if strings.Contains(got, "more.d.ts") {
		t.Errorf("the namespace's own File was taken for the import's:\n%s", got)
	}
}

// TestRenamedReexport: `export { _gt as gt } from "./core"` exports core's _gt as gt (zod's
// checks), with its doc and file; and another package importing gt from such a module finds
// _gt through the rename.
func TestRenamedReexport(t *testing.T) {
	core := fstest.MapFS{
		"index.d.ts": {Data: []byte("export { _gt as gt, same } from './core';\n")},
		"core.d.ts":  {Data: []byte("/** Greater than. */\nexport declare function _gt(n: number): Check;\nexport declare function same(): void;\n")},
	}
	res := Extract(core, []string{"index.d.ts"}, Options{Package: "checks"})
	checkUnique(t, res.Symbols)
	got := render(res)
	for _, w := range []string{"func gt pkg=checks core.d.ts:2\n\tfunction _gt(n: number): Check\n\t# Greater than.", "func same pkg=checks core.d.ts:3"} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
	external := func(from, spec string) (Package, bool) {
		return Package{Name: "checks", FS: core, Entries: []string{"index.d.ts"}}, spec == "checks"
	}
	user := fstest.MapFS{"index.d.ts": {Data: []byte("import { gt } from 'checks';\nexport { gt as greater };\n")}}
	got = render(Extract(user, []string{"index.d.ts"}, Options{Package: "user", External: external}))
	if w := "func greater pkg=user checks/core.d.ts:2"; !strings.Contains(got, w+"\n") {
		t.Errorf("missing %q in\n%s", w, got)
	}
}

// TestImportAlias: `export import format = logform.format;` in a namespace (winston) exports
// what the namespace import's module exports as format, under the alias; `export import
// Logform = logform;` exports the whole module under Logform.
func TestImportAlias(t *testing.T) {
	logform := fstest.MapFS{"index.d.ts": {Data: []byte("/** Makes a format. */\nexport function format(f: Fn): Wrap;\n" +
		"export namespace format {\n  /** Joins formats. */\n  function combine(...f: Format[]): Format;\n}\n/** A format. */\nexport class Format {}\n")}}
	external := func(from, spec string) (Package, bool) {
		return Package{Name: "logform", FS: logform, Entries: []string{"index.d.ts"}}, spec == "logform"
	}
	src := "import * as logform from 'logform';\nimport * as Config from './config';\ndeclare namespace winston {\n  export import format = logform.format;\n  export import Logform = logform;\n  export import config = Config;\n" +
		"  export import combine = logform.format.combine;\n}\nexport = winston;\n"
	config := "declare namespace winston {\n  interface Levels { [key: string]: number }\n}\nexport = winston;\n"
	res := Extract(fstest.MapFS{"index.d.ts": {Data: []byte(src)}, "config.d.ts": {Data: []byte(config)}}, []string{"index.d.ts"}, Options{Package: "winston", ExportName: "winston", External: external})
	checkUnique(t, res.Symbols)
	got := render(res)
	for _, w := range []string{
		"func winston.format parent=winston pkg=winston logform/index.d.ts:2\n\tfunction format(f: Fn): Wrap\n\t# Makes a format.",
		"func winston.format.combine parent=winston.format pkg=winston logform/index.d.ts:5",
		"func winston.combine parent=winston pkg=winston logform/index.d.ts:5",
		"class winston.Logform.Format parent=winston.Logform pkg=winston logform/index.d.ts:8",
		"package winston.Logform parent=winston pkg=winston logform/index.d.ts:1",
		"interface winston.config.Levels parent=winston.config pkg=winston config.d.ts:2",
	} {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("missing %q in\n%s", w, got)
		}
	}
}

// TestImportAliasCycle: two modules that alias each other as a whole end, at most
// maxInheritDepth namespaces deep.
func TestImportAliasCycle(t *testing.T) {
	pkgs := map[string]fstest.MapFS{
		"a": {"index.d.ts": {Data: []byte("import * as b from 'b';\nexport import B = b;\nexport declare function fa(): void;\n")}},
		"b": {"index.d.ts": {Data: []byte("import * as a from 'a';\nexport import A = a;\nexport declare function fb(): void;\n")}},
	}
	external := func(from, spec string) (Package, bool) {
		fsys, ok := pkgs[spec]
		return Package{Name: spec, FS: fsys, Entries: []string{"index.d.ts"}}, ok
	}
	res := Extract(pkgs["a"], []string{"index.d.ts"}, Options{Package: "a", External: external})
	checkUnique(t, res.Symbols)
	deepest := 0
	for _, s := range res.Symbols {
		deepest = max(deepest, strings.Count(s.QualifiedName, "."))
	}
	if deepest > maxInheritDepth+1 || len(res.Symbols) > 20 {
		t.Errorf("%d symbols, %d deep:\n%s", len(res.Symbols), deepest, render(res))
	}
	if got := render(res); !strings.Contains(got, "func B.fb parent=B pkg=a b/index.d.ts:3\n") {
		t.Errorf("missing B.fb in\n%s", got)
	}
}
