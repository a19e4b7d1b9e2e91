// The exports of one installed npm package's types, as the TypeScript compiler resolves them.
//
// Usage: node npm_api.cjs TYPESCRIPT_DIR NODE_MODULES PACKAGE
//
// TYPESCRIPT_DIR is a directory holding node_modules/typescript (a release with the JavaScript
// compiler API, 5.x). The package's types entry is, in order: the "types" condition of
// exports["."] (nested conditions followed, "import" before "require"), "types" or "typings" of
// package.json, index.d.ts beside "main" (or in the package root), else
// NODE_MODULES/@types/NAME's own entry found the same way. The entry is loaded as the root of a
// program; the exports of its module symbol (checker.getExportsOfModule, which follows
// "export =" and "export *") are the items. A file that is no module (a global script, like
// @types/node's index.d.ts) contributes the ambient modules its program declares under the
// package's own directory instead, each export named "MODULE:NAME" ("node:" dropped: "node:fs"
// and "fs" are one module).
//
// Prints {"package", "version", "entry", "items": [{"name", "kind", "doc"}]}: kind is the
// declaration kind of the resolved symbol (function, class, interface, type, variable, enum,
// namespace, other) and doc whether it has a JSDoc comment (documentation text, or any JSDoc tag
// other than none) on any of its declarations. Default exports are named "default".
"use strict";
const path = require("path");
const fs = require("fs");

const [tsDir, nodeModules, pkgName] = process.argv.slice(2);
const ts = require(path.join(tsDir, "node_modules", "typescript"));

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

function typesCondition(x) {
  if (typeof x === "string") return x.endsWith(".d.ts") || x.endsWith(".d.mts") || x.endsWith(".d.cts") ? x : null;
  if (!x || typeof x !== "object" || Array.isArray(x)) return null;
  for (const k of ["types", "import", "node", "require", "default"]) {
    if (k in x) {
      const r = typesCondition(x[k]);
      if (r) return r;
    }
  }
  return null;
}

function entryOf(dir) {
  const pj = readJSON(path.join(dir, "package.json"));
  const cands = [];
  let ex = pj.exports;
  if (ex && typeof ex === "object" && !Array.isArray(ex)) {
    if ("." in ex) ex = ex["."];
    else if (Object.keys(ex).some((k) => k.startsWith("."))) ex = null;
    const t = typesCondition(ex);
    if (t) cands.push(t);
  }
  if (pj.types) cands.push(pj.types);
  if (pj.typings) cands.push(pj.typings);
  if (pj.main) {
    const m = pj.main.replace(/\.(c|m)?js$/, "");
    cands.push(m + ".d.ts", path.join(m, "index.d.ts"));
  }
  cands.push("index.d.ts");
  for (const c of cands) {
    let f = path.join(dir, c);
    if (fs.existsSync(f) && fs.statSync(f).isDirectory()) f = path.join(f, "index.d.ts");
    if (fs.existsSync(f)) return { file: f, version: pj.version };
  }
  return { file: null, version: pj.version };
}

const dir = path.join(nodeModules, pkgName);
let { file, version } = entryOf(dir);
if (!file && !pkgName.startsWith("@types/")) {
  const at = path.join(nodeModules, "@types", pkgName.startsWith("@") ? pkgName.slice(1).replace("/", "__") : pkgName);
  if (fs.existsSync(path.join(at, "package.json"))) file = entryOf(at).file;
}
const out = { package: pkgName, version, entry: file ? path.relative(nodeModules, file) : "", items: [] };
if (!file) {
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

const program = ts.createProgram([file], {
  allowJs: false, noEmit: true, skipLibCheck: true, types: [],
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
});
const checker = program.getTypeChecker();

function kindOf(sym) {
  const f = sym.flags;
  if (f & ts.SymbolFlags.Class) return "class";
  if (f & ts.SymbolFlags.Function) return "function";
  if (f & ts.SymbolFlags.Interface) return "interface";
  if (f & ts.SymbolFlags.Enum) return "enum";
  if (f & ts.SymbolFlags.TypeAlias) return "type";
  if (f & ts.SymbolFlags.Variable) return "variable";
  if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) return "namespace";
  return "other";
}

function hasDoc(sym) {
  if (sym.getDocumentationComment(checker).length > 0) return true;
  for (const d of sym.declarations || []) {
    const tags = ts.getJSDocTags(d);
    if (tags && tags.length > 0) return true;
  }
  return false;
}

function add(prefix, exports) {
  for (const e of exports) {
    let s = e;
    if (s.flags & ts.SymbolFlags.Alias) {
      try { s = checker.getAliasedSymbol(s); } catch { /* keep the alias */ }
    }
    const item = { name: prefix + e.escapedName.toString(), kind: kindOf(s), doc: hasDoc(s) || hasDoc(e) };
    out.items.push(item);
  }
}

const sf = program.getSourceFile(file);
const msym = sf && checker.getSymbolAtLocation(sf);
if (msym) {
  add("", checker.getExportsOfModule(msym));
} else {
  const root = fs.realpathSync(dir) + path.sep;
  const seen = new Set(); // "node:fs" and "fs" are one module
  for (const m of checker.getAmbientModules()) {
    const decl = (m.declarations || [])[0];
    if (!decl || !fs.realpathSync(decl.getSourceFile().fileName).startsWith(root)) continue;
    const name = m.escapedName.toString().replace(/^"|"$/g, "").replace(/^node:/, "");
    if (seen.has(name)) continue;
    seen.add(name);
    add(name + ":", checker.getExportsOfModule(m));
  }
}
out.items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
process.stdout.write(JSON.stringify(out));
