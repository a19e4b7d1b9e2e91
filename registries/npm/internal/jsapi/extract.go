package jsapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// Default limits for Options' zero fields.
const (
	DefaultMaxSymbols  = 5000    // symbols per package version
	DefaultMaxFiles    = 64      // JavaScript files read per package version
	DefaultMaxFileSize = 2 << 20 // bytes of one JavaScript file; larger files are skipped
	DefaultMaxDepth    = 8       // require/import hops from an entry point
	maxMemberDepth     = 3       // levels of members below an exported name (express.application.listen)
	maxResolve         = 16      // steps resolving one value through bindings, requires and calls
	// maxTokens bounds the tokens of all the files one Extract reads: each token costs 80 bytes
	// (twice that while the slice grows), and dense code (minified "a=1;b=2;…") has one token
	// per 2 bytes, so DefaultMaxFiles files of DefaultMaxFileSize could hold gigabytes; this
	// bound keeps one extraction near 100 MB. A file whose tokens would
	// pass the bound is not read, nor any after it (ErrTooManyTokens in Result.Problems,
	// Truncated set).
	maxTokens = 1 << 19
)

// ErrTooManyTokens is the reason, quoted in Result.Problems, why a file was not read: its
// tokens would pass the bound on all the files of one extraction, or a file's before it did.
// Extract reports it as text, not as an error to test with errors.Is.
var ErrTooManyTokens = errors.New("javascript too large to scan: too many tokens")

// ErrFileTooLarge is returned (wrapped, in Result.Problems) for a file over Options.MaxFileSize.
var ErrFileTooLarge = errors.New("javascript file too large")

// Options configures Extract.
type Options struct {
	// Package is the npm package name, the Package of every symbol.
	Package string
	// ExportName is the name the entry point's own value (module.exports = X, or an anonymous
	// export default) is shown under: the name users import the package by, e.g. "express".
	ExportName string
	// Exports is package.json's "exports" field, raw, or nil. It resolves the package's
	// requires and imports of itself by name ("zustand/vanilla" inside zustand), as Node.js
	// does (https://nodejs.org/api/packages.html#self-referencing-a-package-using-its-name).
	Exports json.RawMessage
	// Limits; zero means the Default* constant.
	MaxSymbols  int
	MaxFiles    int
	MaxFileSize int64
	MaxDepth    int
}

// Result is what Extract found: the symbols in export order, QualifiedName unique, the
// JavaScript files read, and the entry point they come from.
type Result struct {
	extracted.Result
	Entry string // the entry point the symbols come from, "" when none gave any
}

// Extract returns the exported API of the first of entries (slash paths of JavaScript files
// inside fsys, best first, as Entries returns them) that yields any symbol.
//
// The entry's module.exports value (or anonymous default export) becomes a symbol named
// ExportName, its properties "ExportName.x"; when module.exports is an object (or only
// exports.x assignments and ECMAScript named exports exist), each property is a top-level
// symbol "x". Members of exported classes, objects and functions (class bodies, prototype
// methods, assigned properties) follow with Parent set, down to three levels.
func Extract(fsys fs.FS, entries []string, opts Options) Result {
	limit.Default(&opts.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&opts.MaxFiles, DefaultMaxFiles)
	limit.Default(&opts.MaxFileSize, DefaultMaxFileSize)
	limit.Default(&opts.MaxDepth, DefaultMaxDepth)
	x := &extractor{fsys: fsys, opts: opts, files: map[string]*jsFile{}}
	for _, e := range entries {
		p, ok := cleanPath(e)
		if !ok {
			continue
		}
		f := x.load(p)
		if f == nil {
			continue
		}
		x.index = map[string]bool{}
		x.res.Symbols = x.res.Symbols[:0]
		x.emitModule(f)
		if len(x.res.Symbols) > 0 {
			x.res.Entry = p
			break
		}
	}
	return x.res
}

type extractor struct {
	fsys   fs.FS
	opts   Options
	res    Result
	files  map[string]*jsFile // path -> parsed file; nil when unreadable
	index  map[string]bool    // qualified names emitted
	tokens int                // tokens of the files read so far
}

// load reads and scans the file at p once; nil when it cannot be read or a limit forbids it.
func (x *extractor) load(p string) *jsFile {
	if f, ok := x.files[p]; ok {
		return f
	}
	if len(x.res.Files) >= x.opts.MaxFiles {
		x.res.Truncated = true
		x.res.Problem(p, fmt.Sprintf("not read: more than %d files", x.opts.MaxFiles))
		x.files[p] = nil
		return nil
	}
	src, err := x.read(p)
	if err != nil {
		x.res.Problem(p, err.Error())
		x.files[p] = nil
		return nil
	}
	toks, ok := tokenize(src, maxTokens-x.tokens)
	if !ok {
		x.tokens = maxTokens // no later file is read either: each would fill the bound again
		x.res.Truncated = true
		x.res.Problem(p, fmt.Sprintf("not read: %v (more than %d in all files)", ErrTooManyTokens, maxTokens))
		x.files[p] = nil
		return nil
	}
	x.tokens += len(toks)
	x.res.Files = append(x.res.Files, p)
	f := parseFile(p, toks)
	x.files[p] = f
	return f
}

func (x *extractor) read(name string) ([]byte, error) {
	data, err := memfs.ReadLimited(x.fsys, name, x.opts.MaxFileSize)
	if errors.Is(err, docidx.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", ErrFileTooLarge, err)
	}
	return data, err
}

// cleanPath cleans a slash path inside the package; ok is false for paths that leave it.
func cleanPath(p string) (string, bool) {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(p, "/") {
		return "", false
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// resolveSpec maps a relative module specifier written in file from to a file of the package,
// the way Node.js resolves files: the exact path, then with .js, .cjs, .mjs, then as a
// directory's index.js, index.cjs, index.mjs. Bare specifiers (other packages) resolve to "".
func (x *extractor) resolveSpec(from, spec string) string {
	if pkg := x.opts.Package; pkg != "" && len(x.opts.Exports) > 0 && (spec == pkg || strings.HasPrefix(spec, pkg+"/")) {
		return x.selfTarget("." + strings.TrimPrefix(spec, pkg))
	}
	if !(spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")) {
		return ""
	}
	joined, ok := cleanPath(path.Join(path.Dir(from), spec))
	if !ok && !(joined == "" && spec == ".") {
		return ""
	}
	return resolveFile(x.fsys, joined)
}

// selfTarget resolves the subpath ("." or "./x") of the package's own exports map to a file.
func (x *extractor) selfTarget(sub string) string {
	var v any
	if json.Unmarshal(x.opts.Exports, &v) != nil {
		return ""
	}
	star := "" // what a "./*" pattern matched
	if obj, ok := v.(map[string]any); ok && hasSubpaths(obj) {
		target, ok := obj[sub]
		if !ok {
			for k, t := range obj {
				pre, suf, found := strings.Cut(k, "*")
				if found && len(sub) >= len(pre)+len(suf) && strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, suf) {
					target, star = t, sub[len(pre):len(sub)-len(suf)]
					break
				}
			}
		}
		v = target
	} else if sub != "." {
		return ""
	}
	for _, c := range scriptTargets(v) {
		if star != "" {
			c = strings.ReplaceAll(c, "*", star)
		}
		if p, ok := cleanPath(c); ok && !strings.Contains(p, "*") {
			if r := resolveFile(x.fsys, p); r != "" {
				return r
			}
		}
	}
	return ""
}

// resolveFile returns the JavaScript file Node.js would load for p, or "".
func resolveFile(fsys fs.FS, p string) string {
	isFile := func(c string) bool {
		st, err := fs.Stat(fsys, c)
		return err == nil && st.Mode().IsRegular()
	}
	if p == "" || p == "." {
		p = "."
	} else {
		switch path.Ext(p) {
		case ".js", ".cjs", ".mjs", ".jsx":
			if isFile(p) {
				return p
			}
		case ".json", ".node", ".ts", ".css":
			return ""
		}
		for _, ext := range []string{".js", ".cjs", ".mjs"} {
			if isFile(p + ext) {
				return p + ext
			}
		}
	}
	for _, idx := range []string{"index.js", "index.cjs", "index.mjs"} {
		if c := path.Join(p, idx); isFile(c) {
			return c
		}
	}
	return ""
}

// moduleOf loads the file a vModule value names, or nil.
func (x *extractor) moduleOf(v *value, hops int) *jsFile {
	if hops > x.opts.MaxDepth {
		x.res.Truncated = true
		return nil
	}
	p := x.resolveSpec(v.file.path, v.spec)
	if p == "" {
		return nil
	}
	return x.load(p)
}

// resolved is a value followed through bindings, requires and calls, with the names whose
// assigned properties are its members.
type resolved struct {
	v      *value
	binds  []bind
	mainOf []*jsFile // the files whose module.exports v is: their exports.x assignments are v's members
}

// bind is a name a value is bound to in a file.
type bind struct {
	f    *jsFile
	name string
}

func bindsOf(v *value) []bind {
	out := make([]bind, 0, len(v.binds))
	for _, n := range v.binds {
		out = append(out, bind{v.file, n})
	}
	return out
}

// resolve follows v to what it stands for; it returns v itself when it leads nowhere known.
func (x *extractor) resolve(v *value, hops int) resolved {
	r := resolved{v: v, binds: bindsOf(v)}
	if hops > maxResolve {
		return r // a cycle of bindings, or a chain too long to follow
	}
	hops++
	for step := 0; step < maxResolve && r.v != nil; step++ {
		v := r.v
		switch v.kind {
		case vRef:
			parts := strings.Split(v.ref, ".")
			base, ok := v.file.decls[parts[0]]
			if !ok || base == v {
				if (parts[0] == "exports" || parts[0] == "module") && len(parts) <= 2 {
					return x.resolveMembers(x.fileValue(v.file, hops), parts[1:], hops)
				}
				return r
			}
			next := x.resolve(base, hops)
			if next.v == v {
				return r
			}
			if len(parts) == 1 {
				next.binds = append(next.binds, bind{v.file, parts[0]})
			}
			return x.resolveMembers(next, parts[1:], hops)
		case vModule:
			f := x.moduleOf(v, hops)
			if f == nil {
				return r
			}
			hops++
			fv := x.fileValue(f, hops)
			if v.prop == "" {
				return fv
			}
			if v.prop == "default" && f.esmDef != nil {
				return x.resolve(f.esmDef, hops)
			}
			if m := x.findMember(fv, v.prop, hops); m != nil {
				return x.resolve(m.val, hops)
			}
			if v.prop == "default" {
				return x.resolve(fv.v, hops)
			}
			return r
		case vCall:
			if strings.Contains(v.ref, ".") {
				return r
			}
			callee := x.resolve(&value{kind: vRef, file: v.file, ref: v.ref}, hops).v
			if callee.kind != vFunc {
				return r
			}
			ret := x.returned(callee)
			if ret == nil || ret == v {
				return r
			}
			r = resolved{v: ret, binds: bindsOf(ret)}
			continue
		default:
			return r
		}
	}
	return r
}

// resolveMembers follows the member path parts from r.
func (x *extractor) resolveMembers(r resolved, parts []string, hops int) resolved {
	for _, p := range parts {
		m := x.findMember(r, p, hops)
		if m == nil {
			return resolved{v: &value{kind: vUnknown, file: r.v.file}}
		}
		r = x.resolve(m.val, hops+1)
	}
	return r
}

// fileValue is the value a file's module stands for: its module.exports, else a namespace
// of its exports.
func (x *extractor) fileValue(f *jsFile, hops int) resolved {
	if f.main != nil {
		r := resolved{v: f.main, binds: bindsOf(f.main), mainOf: []*jsFile{f}}
		for _, n := range f.mainBind {
			r.binds = append(r.binds, bind{f, n})
		}
		if f.main.kind == vRef || f.main.kind == vCall || f.main.kind == vModule {
			inner := x.resolve(f.main, hops+1)
			r.v = inner.v
			r.binds = append(r.binds, inner.binds...)
			r.mainOf = append(r.mainOf, inner.mainOf...)
		}
		return r
	}
	if f.nsVal == nil {
		f.nsVal = &value{kind: vObject, file: f, ns: true}
	}
	return resolved{v: f.nsVal, mainOf: []*jsFile{f}}
}

// returned returns the identifier a named function's body returns last (return X;), or "".
//
// It returns the binding of `return name;` (runInContext's `return lodash;`) or the function
// returned as an expression (yargs' factory returns an arrow function), or nil.
func (x *extractor) returned(fn *value) *value {
	f := fn.file
	if fn.at <= 0 || f.tok(fn.at).text != "function" {
		return nil
	}
	k := fn.at + 1
	if f.tok(k).text == "*" {
		k++
	}
	if f.tok(k).kind == tIdent {
		k++
	}
	open := f.closeOf(k) + 1
	if f.tok(k).text != "(" || f.tok(open).text != "{" {
		return nil
	}
	close := f.closeOf(open)
	depth := f.tok(open).depth + 1
	var last *value
	for k := open + 1; k < close; k++ {
		r := f.toks[k]
		if r.text != "return" || r.depth != depth {
			continue
		}
		if n := f.tok(k + 2); f.tok(k+1).kind == tIdent && (n.text == ";" || n.text == "}" || n.nl) {
			if d, ok := f.decls[f.tok(k+1).text]; ok {
				last = d
			}
			continue
		}
		if v, _ := f.parseValue(k+1, k+1); v.kind == vFunc || v.kind == vClass {
			last = v
		}
	}
	return last
}

// members lists the members of r: an object literal's properties, a class body, properties
// assigned onto its bindings and prototype, and for a module's own value its exports.
func (x *extractor) members(r resolved, hops int) []*member {
	var out []*member
	v := r.v
	out = append(out, v.members...)
	seen := map[bind]bool{}
	binds := r.binds
	for _, mf := range r.mainOf {
		binds = append(binds, bind{mf, "exports"}, bind{mf, "module.exports"})
	}
	for _, b := range binds {
		if seen[b] {
			continue
		}
		seen[b] = true
		out = append(out, b.f.props[b.name]...)
		out = append(out, b.f.props[b.name+".prototype"]...)
	}
	for i, mf := range r.mainOf {
		if i >= maxResolve {
			break
		}
		out = append(out, mf.named...)
		if v.ns && mf.esmDef != nil {
			out = append(out, &member{name: "default", val: mf.esmDef, line: mf.esmDef.line})
		}
		for _, s := range mf.stars {
			if hops > x.opts.MaxDepth {
				break
			}
			var fv resolved
			if s.ref != "" {
				fv = x.resolve(&value{kind: vRef, file: mf, ref: s.ref}, hops+1)
				if fv.v.kind != vObject {
					continue
				}
			} else {
				f := x.moduleOf(&value{file: mf, spec: s.spec}, hops)
				if f == nil || f == mf {
					continue
				}
				fv = x.fileValue(f, hops+1)
			}
			if fv.v.ns || fv.v.kind == vObject {
				for _, m := range x.members(fv, hops+1) {
					if m.name != "default" {
						out = append(out, m)
					}
				}
			}
		}
	}
	// Spreads: ...require("./x") in an object literal.
	var flat []*member
	for _, m := range out {
		if !m.spread {
			flat = append(flat, m)
			continue
		}
		if hops > x.opts.MaxDepth {
			continue
		}
		sr := x.resolve(m.val, hops+1)
		if sr.v != m.val && (sr.v.kind == vObject) {
			flat = append(flat, x.members(sr, hops+1)...)
		}
	}
	// A name assigned twice keeps its first place and its last value, as in JavaScript
	// (TypeScript's output starts with exports.a = exports.b = void 0).
	last := map[string]int{}
	for i, m := range flat {
		last[m.name] = i
	}
	out = flat[:0:0]
	for i, m := range flat {
		if j := last[m.name]; j != i {
			if j > i {
				out = append(out, flat[j])
			}
			continue
		}
		if !slicesContains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func slicesContains(ms []*member, m *member) bool {
	for _, o := range ms {
		if o == m {
			return true
		}
	}
	return false
}

func (x *extractor) findMember(r resolved, name string, hops int) *member {
	if hops > x.opts.MaxDepth {
		return nil
	}
	ms := x.members(r, hops+1)
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].name == name {
			return ms[i]
		}
	}
	return nil
}

// emitModule emits the exports of entry file f.
func (x *extractor) emitModule(f *jsFile) {
	r := x.fileValue(f, 0)
	switch {
	case r.v.ns || r.v.kind == vObject:
		if f.esmDef != nil && r.v.ns {
			name := x.opts.ExportName
			def := x.resolve(f.esmDef, 0)
			if def.v.name != "" && (def.v.kind == vFunc || def.v.kind == vClass) && x.opts.ExportName == "" {
				name = def.v.name
			}
			x.emit(&member{name: name, val: f.esmDef, line: f.esmDef.line}, "", "", 0, map[*value]bool{}, true, vUnknown)
			r.v.file = f
		}
		onPath := map[*value]bool{r.v: true} // exports.self = require("./index") ends here
		for _, m := range x.members(r, 0) {
			if m.name == "default" {
				continue
			}
			x.emit(m, "", "", 0, onPath, false, vUnknown)
		}
	default:
		name := x.opts.ExportName
		if name == "" {
			name = path.Base(strings.TrimSuffix(f.path, path.Ext(f.path)))
		}
		x.emit(&member{name: name, val: f.main, doc: f.main.doc, sig: f.main.sig, line: f.main.line}, "", "", 0,
			map[*value]bool{}, true, vUnknown)
	}
}

// emit adds the symbol for member m of a container (parent "" at the top level, container the
// kind of the enclosing value), then its own members.
func (x *extractor) emit(m *member, parent, prefix string, depth int, onPath map[*value]bool, entry bool, container vkind) {
	if len(x.res.Symbols) >= x.opts.MaxSymbols {
		x.res.Truncated = true
		return
	}
	if m.name == "" || m.val == nil || m.proto && m.name == "constructor" || !entry && strings.ContainsAny(m.name, ". '\"") || !entry && (strings.HasPrefix(m.name, "_") || strings.HasPrefix(m.name, "#")) {
		return
	}
	qname := prefix + m.name
	if x.index[qname] {
		return
	}
	var r resolved
	if entry && m.val == m.val.file.main {
		r = x.fileValue(m.val.file, 0)
	} else {
		r = x.resolve(m.val, 0)
	}
	v := r.v
	rawDoc := m.doc
	if entry && v != m.val && v.doc != "" || rawDoc == "" {
		rawDoc = m.val.doc
		if v != m.val && v.doc != "" {
			rawDoc = v.doc
		}
	}
	if rawDoc == "" {
		rawDoc = v.doc
	}
	if rawDoc == "" {
		rawDoc = v.file.namedDoc(m.name) // a comment that names what it documents
	}
	d := parseJSDoc(rawDoc)
	if d.private && depth > 0 {
		// Members marked private are left out; a name the module exports itself is its API
		// whatever its comment says (TJ-style packages mark exported functions "@api private").
		return
	}
	sig := m.sig
	if sig == "" || v != m.val && (v.kind == vFunc || v.kind == vClass) || m.val.kind == vRef && v.sig != "" && v.kind != vUnknown {
		sig = v.sig
	}
	if sig == "" {
		sig = m.val.sig
	}
	kind := x.kindOf(m, v, d, container, depth)
	if v.kind != vFunc && v.kind != vClass && v.kind != vObject && v.kind != vLiteral && len(d.params) > 0 {
		// A function made by a call (lodash's `var bind = baseRest(function …)`): the JSDoc
		// says how it is called.
		kind = docidx.KindFunc
		if depth > 0 && container != vFunc && container != vModule {
			kind = docidx.KindMethod
		}
		sig = jsdocSignature(m.name, d)
	} else if v.kind != vFunc && v.kind != vClass && len(sig) > maxValueSig {
		sig = limit.Cut(sig, maxValueSig) + " …"
	}
	line, file := m.line, m.val.file.path
	if v != m.val && (v.kind == vFunc || v.kind == vClass) {
		line, file = v.line, v.file.path
	}
	params := d.params
	var ctor *member // a class's constructor: new X(a, b) is documented and refused there
	if v.kind == vClass {
		for _, c := range v.members {
			if c.name == "constructor" && !c.static {
				ctor = c
				break
			}
		}
	}
	refuser, throws := v, d.throws // whose body says what the symbol refuses, and whether its doc does
	if ctor != nil {
		cd := parseJSDoc(ctor.doc)
		if len(params) == 0 {
			params = cd.params
		}
		refuser, throws = ctor.val, throws || cd.throws // what new X(…) refuses
	}
	doc, examples := d.text, d.examples
	var errs []string
	if !throws && m.aliasOf == "" {
		errs = thrown(refuser) // what it refuses, when its comment does not say
	}
	if m.aliasOf != "" {
		// The function is documented under its first name; this one points there.
		doc, examples, params, sig = "Alias of `"+prefix+m.aliasOf+"`.", nil, nil, m.sig
	}
	x.index[qname] = true
	x.res.Symbols = append(x.res.Symbols, docidx.Symbol{
		Kind:          kind,
		Name:          m.name,
		Parent:        parent,
		Package:       x.opts.Package,
		QualifiedName: qname,
		Signature:     sig,
		Doc:           doc,
		File:          file,
		Line:          line,
		Deprecated:    d.deprecated,
		Examples:      examples,
		Params:        params,
		Values:        linkedValues(refuser), // what the constants its defaults name hold
		Errors:        errs,
	})
	if depth >= maxMemberDepth || onPath[v] || v.kind == vLiteral {
		return
	}
	onPath[v] = true
	defer delete(onPath, v)
	childParent := m.name
	if parent != "" {
		childParent = parent + "." + m.name
	}
	container = v.kind
	if v.ns {
		container = vModule // a module namespace: its functions are functions, not methods
	}
	for _, c := range x.members(r, 0) {
		if c.name == "default" && !v.ns {
			continue
		}
		x.emit(c, childParent, qname+".", depth+1, onPath, false, container)
	}
	// A factory's API is that of what it makes: yargs' default export is a function returning
	// a YargsInstance, whose methods (yargs(argv).option(…)) are what its users call.
	if c := x.instanceClass(v, 0); c != nil && !onPath[c] {
		onPath[c] = true
		defer delete(onPath, c)
		for _, cm := range x.members(resolved{v: c, binds: bindsOf(c)}, 0) {
			if cm.static || cm.name == "constructor" {
				continue
			}
			x.emit(cm, childParent, qname+".", depth+1, onPath, false, vClass)
		}
	}
}

// instanceClass returns the class of the instance function fn returns, when its body says so
// plainly, at its own level: "return new C(…)", or "return c" after "c = new C(…)"; else nil.
func (x *extractor) instanceClass(fn *value, hops int) *value {
	open, end, ok := fn.body()
	if !ok {
		return nil
	}
	f := fn.file
	depth := f.tok(open).depth + 1
	made := map[string]string{} // a local name -> the class of the instance assigned to it
	cls := ""
	for k := open + 1; k < end; k++ {
		t := f.toks[k]
		if t.kind == tIdent && f.tok(k+1).text == "=" && f.tok(k+2).text == "new" && f.tok(k+3).kind == tIdent {
			made[t.text] = f.tok(k + 3).text
		}
		if t.text != "return" || t.depth != depth {
			continue
		}
		switch next := f.tok(k + 1); {
		case next.text == "new" && f.tok(k+2).kind == tIdent:
			cls = f.tok(k + 2).text
		case next.kind == tIdent && made[next.text] != "":
			cls = made[next.text]
		}
	}
	if cls == "" {
		return nil
	}
	if c := x.resolve(&value{kind: vRef, file: f, ref: cls}, hops).v; c.kind == vClass {
		return c
	}
	return nil
}

// kindOf chooses the symbol kind of member m whose value resolved to v.
func (x *extractor) kindOf(m *member, v *value, d jsdoc, container vkind, depth int) docidx.SymbolKind {
	switch {
	case v.kind == vClass:
		return docidx.KindClass
	case v.kind == vFunc && depth == 0:
		return docidx.KindFunc
	case v.kind == vFunc && (m.proto || container != vFunc && container != vModule):
		if m.field {
			return docidx.KindProperty
		}
		return docidx.KindMethod
	case v.kind == vFunc:
		return docidx.KindFunc
	case depth > 0 && container == vClass && m.field:
		return docidx.KindField
	case depth > 0:
		return docidx.KindProperty
	case v.isConst || m.val.isConst || d.isConst:
		return docidx.KindConst
	}
	return docidx.KindVar
}

// maxValueSig bounds the signature of a value that is neither a function nor a class (the
// expression it is assigned, as written).
const maxValueSig = 120

// jsdocSignature renders name(a, [b], c = 1) from the top-level @param tags of d.
func jsdocSignature(name string, d jsdoc) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	n := 0
	for i, p := range d.params {
		if strings.ContainsAny(p.Name, ".[") {
			continue // options.x: a property of an earlier parameter
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		switch {
		case p.Default != "":
			b.WriteString(p.Name + " = " + p.Default)
		case i < len(d.optional) && d.optional[i]:
			b.WriteString("[" + p.Name + "]")
		default:
			b.WriteString(p.Name)
		}
	}
	b.WriteByte(')')
	return b.String()
}
