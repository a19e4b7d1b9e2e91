package rustapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
	"github.com/docidx/docidx/registries/internal/limit"
)

// Default limits for Options' zero fields.
const (
	DefaultMaxFiles    = 2000      // source files read per crate
	DefaultMaxFileSize = 1 << 20   // bytes of one source file; larger files are skipped
	DefaultMaxSymbols  = 20000     // symbols per crate
	maxDoc             = limit.Doc // bytes of one item's docs
	// MaxCrateDoc is the most bytes of Result.CrateDoc: the crate-level documentation is the
	// crate's front page, often a guide longer than a symbol's doc may be.
	MaxCrateDoc     = 512 << 10
	maxInclude      = 256 << 10 // bytes of a file named by #[doc = include_str!(…)]
	maxResolveSteps = 200000    // name lookups per crate while resolving re-exports
	maxResolveDepth = 16        // re-export hops followed from one `pub use`
	maxModuleDepth  = 32        // file modules nested in one another
	maxOverloads    = 16        // signature lines merged into one symbol
	maxExports      = 50000     // names one glob re-export may bring
	maxAliases      = 50000     // other public paths recorded in Result.Aliases
)

// Options configures Extract.
type Options struct {
	// Crate is the crate's name as Rust paths spell it: the library target's name, with "-"
	// replaced by "_" (e.g. "serde_json"). It starts every Symbol.Package and QualifiedName.
	Crate string
	// Root is the slash path of the crate root inside fsys; "" means "src/lib.rs".
	Root string
	// Edition is the crate's Rust edition ("2015", "2018", "2021", "2024"), which decides how
	// `use` paths resolve; "" means 2015, Cargo's default.
	Edition string
	// Extern, when set, gives the public API of another crate that a `pub use` names (its name
	// as Rust paths spell it, "clap_builder"), as Extract lists it for that crate: symbols whose
	// QualifiedName starts with that name; nil when it is not known. A `pub use` into another
	// crate from a public module then lists what it names under the re-exporting path, the way
	// rustdoc inlines it: `pub use clap_builder::*` in clap lists clap_builder's items as
	// clap::Arg …, `pub use futures_util::stream` in futures lists futures::stream and what is
	// in it. Symbols keep their File and Line (Extern's caller says which crate's they are).
	// Without Extern, paths into other crates give nothing.
	Extern func(crate string) ExternAPI
	// Limits; zero means the Default* constant.
	MaxFiles    int
	MaxFileSize int64
	MaxSymbols  int
}

// ExternAPI is another crate's public API as Options.Extern gives it: Extract's Symbols and
// Aliases of that crate.
type ExternAPI struct {
	Symbols []docidx.Symbol
	Aliases map[string]string
	// Macros are its #[macro_export] macro_rules (Result.Macros), which an item-level
	// invocation written with the crate's path expands through: RustCrypto's sha2 declares
	// Sha256 with digest::buffer_fixed!.
	Macros Macros
}

// Macros are a crate's #[macro_export] macro_rules, as Extract read them, by name; the zero
// value holds none. Their rules are rustapi's own, handed from one Extract to another.
type Macros struct {
	rules map[string][]macroRule
}

// Result is what Extract found: the symbols, crate root first and each type or trait followed
// by its members, the source files read, and what rustdoc shows besides.
type Result struct {
	extracted.Result
	// Aliases are the other public paths of listed items and modules, each to the
	// QualifiedName it is listed under ("http::header::HeaderMap" -> "http::HeaderMap"): the
	// re-exports that Extract, listing each item once, does not list.
	Aliases map[string]string
	// CrateDoc is the crate-level documentation (the crate root's //! and /*! */ comments and
	// #![doc = …] attributes, include_str! files read) as rustdoc shows it on the crate's front
	// page, markdown, cut at MaxCrateDoc bytes; the crate symbol's Doc is its first 16 KiB.
	CrateDoc string
	// CrateDocIncludes are the slash paths (relative to the crate's root directory) of the files
	// the crate-level documentation includes with #![doc = include_str!(…)], in order: often the
	// README.
	CrateDocIncludes []string
	// Macros are the crate's #[macro_export] macro_rules, for ExternAPI.Macros.
	Macros Macros
}

// Extract reads the crate whose root file is opts.Root inside fsys and returns its public API.
//
// Public means reachable from outside the crate, as rustdoc documents it: items declared `pub`
// (not pub(crate), pub(super), pub(self) or pub(in …)) in the crate root or in modules reachable
// through `pub mod` chains, and items and modules of the crate re-exported with `pub use` (glob
// re-exports included) under the re-exporting module's path. Each item appears once, under its
// shortest public path, except that a path keeping the item's declared name wins over a renamed
// re-export (pub use a::Foo as Bar) of it. Items and modules marked #[doc(hidden)], #[cfg(test)]
// or #[cfg(doctest)] (or any cfg that needs one of them, needsTest) are left out; items under
// other cfgs are all kept, so platform and feature variants of one item merge into one symbol
// with one signature line each. The attributes of a
// #[cfg_attr(predicate, …)] apply when the predicate holds in the build docs.rs documents (doc
// and docsrs set, every feature on; docBuild), so doc strings chosen by a cfg read as rustdoc
// shows them. A documented item under #[doc(cfg(…))] of features (its own, or its module's)
// has rustdoc's portability note after its doc's first paragraph: "Available on crate feature
// `x` only." (withCfg). Items written inside
// item-level macro invocations count as written there: a braced invocation's body is read as
// items (cfg_rt! { … }, cfg_if!), and an invocation of a macro_rules of the crate is expanded
// (expand.go). Re-exports of other crates are listed through Options.Extern.
//
// Symbols: the crate and each public module (KindPackage, doc from //! and #![doc]); fn (KindFunc);
// struct and union (KindStruct, the signature listing pub fields) followed by each pub named
// field (KindField, "pub port: u16"); enum (KindEnum, the signature listing its variants)
// followed by each variant (KindConst, "Times(u32)", "Code = 7"); trait (KindTrait) followed by
// its methods (KindMethod), associated types (KindType) and consts (KindConst); type alias
// (KindType); const (KindConst); static (KindVar); macro_rules! with #[macro_export] (KindMacro,
// at the crate root, its rules as the signature); and the members of impls, wherever the impl is:
// the `pub fn` methods and `pub const`s of inherent impls (KindMethod, KindConst), and of trait
// impls the associated types and consts and the fns with doc comments of their own (the others
// are documented by the trait); an impl of a crate's trait on a foreign type has no type of the
// crate to hold them, so its doc comment and its documented fns join the trait's doc, as
// rustdoc's "Implementations on Foreign Types" (implDoc). Members have their own doc, file and line, and Parent set to the
// type or trait. Package is the module path ("serde::de"); QualifiedName is the full path
// ("serde::de::Deserialize", "serde_json::Value::as_str", "serde_json::Value::Null", macros
// "serde_json::json!"); a pub field named like a method of its type is "field@…::name".
func Extract(fsys fs.FS, opts Options) Result {
	if opts.Root == "" {
		opts.Root = "src/lib.rs"
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.MaxSymbols <= 0 {
		opts.MaxSymbols = DefaultMaxSymbols
	}
	if opts.Crate == "" {
		opts.Crate = "crate"
	}
	x := &extractor{fsys: fsys, opts: opts, edition2015: opts.Edition == "" || opts.Edition == "2015", seenFile: map[string]bool{},
		lookups: map[lookupKey][]entity{}, inLookup: map[lookupKey]bool{}, exported: map[*module][]named{}, inExports: map[*module]bool{}}
	root, ok := x.file(opts.Root)
	if !ok {
		return x.res
	}
	x.root = &module{name: opts.Crate, file: opts.Root, dir: path.Dir(opts.Root), vis: visPub, line: 1}
	x.autoCfg = root.inner.docAutoCfg
	x.load(x.root, root, opts.Root, false, 0)
	// The crate-level docs are read once (their include_str! files too): the crate symbol's doc
	// is their first maxDoc bytes.
	x.res.CrateDoc = x.docLimit(x.root.docs, x.root.file, MaxCrateDoc)
	x.emit()
	for _, d := range x.macros {
		if rules := x.rules[d.it.name]; len(rules) > 0 {
			if x.res.Macros.rules == nil {
				x.res.Macros.rules = map[string][]macroRule{}
			}
			x.res.Macros.rules[d.it.name] = rules
		}
	}
	for _, f := range x.root.docs {
		if f.include == "" {
			continue
		}
		if p, ok := cleanJoin(path.Dir(x.root.file), f.include); ok {
			x.res.CrateDocIncludes = append(x.res.CrateDocIncludes, p)
		}
	}
	return x.res
}

type extractor struct {
	fsys        fs.FS
	opts        Options
	edition2015 bool
	res         Result
	root        *module
	seenFile    map[string]bool
	steps       int // name lookups so far

	entries []*entry
	count   int         // symbols in entries, members included
	externs []externUse // pub uses into other crates, from public modules
	// Other public paths of listed items and modules, for Result.Aliases.
	itemAliases []itemAlias
	modAliases  [][2]string // path, the module's listed path
	listedAs    map[*entry]string
	noArgs      map[string][]*item                // see parser.noArgs
	rules       map[string][]macroRule            // see parser.rules
	externRules map[string]map[string][]macroRule // other crates' exported macros (externMacros)
	expanded    int                               // see parser.expanded
	expands     int                               // kMacroCall expansions so far
	byDecl      map[*decl]*entry
	macros      []*decl
	autoCfg     bool // the crate turns rustdoc's auto_cfg on (attrs.docAutoCfg; see cfgOf)

	// Memoized name resolution: each (module, name) is looked up once; a lookup that meets
	// itself again (glob imports in a cycle) sees nothing on the second visit.
	lookups   map[lookupKey][]entity
	inLookup  map[lookupKey]bool
	exported  map[*module][]named
	inExports map[*module]bool
}

type lookupKey struct {
	m    *module
	name string
}

// module is one module of the crate, public or not.
type module struct {
	name       string
	parent     *module
	file       string // the file holding its items
	dir        string // where `mod x;` inside it looks for x.rs and x/mod.rs
	line       int
	vis        visibility
	hidden     bool
	deprecated bool
	docs       []docFrag
	docCfg     string // its #[doc(cfg(…))] (attrs.docCfg), which its items inherit

	children []*module
	items    []*decl
	uses     []useDecl
	impls    []*item
}

// decl is a named item of a module.
type decl struct {
	it   *item
	mod  *module
	file string
}

type useDecl struct {
	u      usePath
	vis    visibility
	hidden bool
	inline bool // #[doc(inline)]
}

// entity is what a path names: an item or a module.
type entity struct {
	d *decl
	m *module
}

// externUse is a `pub use` into another crate from the public module at path.
type externUse struct {
	path   []string
	u      usePath
	inline bool // #[doc(inline)]
}

// entry is one public item (or module) and the members listed after it.
type entry struct {
	sym     docidx.Symbol
	members []docidx.Symbol
	// implDocs are the impl docs implDoc added to sym.Doc, counted against maxImplDocs.
	implDocs string
}

// errTooBig marks a source file over MaxFileSize.
var errTooBig = errors.New("source file too large")

func (x *extractor) read(name string, limit int64) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading blocks until a writer comes.
	if st, err := fs.Stat(x.fsys, name); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := x.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes (limit %d)", errTooBig, st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: over %d bytes", errTooBig, limit)
	}
	return data, nil
}

// file reads and parses one source file, at most once and within the limits.
func (x *extractor) file(name string) (*file, bool) {
	if x.seenFile[name] {
		x.res.Problem(name, "already loaded as another module")
		return nil, false
	}
	if len(x.res.Files) >= x.opts.MaxFiles {
		x.res.Truncated = true
		x.res.Problem(name, fmt.Sprintf("not read: more than %d source files", x.opts.MaxFiles))
		return nil, false
	}
	data, err := x.read(name, x.opts.MaxFileSize)
	if err != nil {
		x.res.Problem(name, err.Error())
		return nil, false
	}
	x.seenFile[name] = true
	x.res.Files = append(x.res.Files, name)
	if x.noArgs == nil {
		x.noArgs = map[string][]*item{}
		x.rules = map[string][]macroRule{}
	}
	return parseFile(string(data), x.noArgs, x.rules, &x.expanded, x.externMacros), true
}

// externMacros returns the #[macro_export] macro_rules of crate (Options.Extern), asking for
// each crate once; nil without Extern.
func (x *extractor) externMacros(crate string) map[string][]macroRule {
	if x.opts.Extern == nil {
		return nil
	}
	if m, ok := x.externRules[crate]; ok {
		return m
	}
	if x.externRules == nil {
		x.externRules = map[string]map[string][]macroRule{}
	}
	m := x.opts.Extern(crate).Macros.rules
	x.externRules[crate] = m
	return m
}

// exists reports whether name is a regular file of fsys.
func (x *extractor) exists(name string) bool {
	st, err := fs.Stat(x.fsys, name)
	return err == nil && st.Mode().IsRegular()
}

// cleanJoin joins dir and rel as a slash path inside fsys; ok is false when it leaves the root.
func cleanJoin(dir, rel string) (string, bool) {
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, `\`) || strings.ContainsRune(rel, 0) {
		return "", false
	}
	p := path.Join(dir, rel)
	if p == ".." || strings.HasPrefix(p, "../") || p == "." || p == "" {
		return "", false
	}
	return p, true
}

// load fills m from a parsed file (or inline module body) f found in fileName. inline says whether
// f is an inline module's body, which changes where #[path] attributes are relative to.
func (x *extractor) load(m *module, f *file, fileName string, inline bool, depth int) {
	m.docs = append(m.docs, f.inner.docs...)
	m.deprecated = m.deprecated || f.inner.deprecated
	m.hidden = m.hidden || f.inner.hidden
	if c := x.cfgOf(f.inner); c != "" {
		m.docCfg = c
	}
	for _, it := range f.items {
		if it.attrs.testOnly || it.name == "_" {
			continue
		}
		switch it.kind {
		case kMod:
			x.loadChild(m, it, fileName, inline, depth)
		case kUse:
			for _, u := range it.uses {
				m.uses = append(m.uses, useDecl{u: u, vis: it.vis, hidden: it.attrs.hidden, inline: it.attrs.inline})
			}
		case kImpl:
			m.impls = append(m.impls, it)
		case kMacro:
			if it.attrs.macroExport {
				x.macros = append(x.macros, &decl{it: it, mod: x.root, file: fileName})
			}
		case kMacroCall:
			if body, ok := x.noArgs[it.name]; ok && x.expands < maxNoArgMacros && depth < maxModuleDepth {
				x.expands++
				x.load(m, &file{items: body}, fileName, inline, depth+1)
			}
		case kMacroDeferred:
			// The items the body holds, or the macro's expansion of them when it brings as
			// many: a macro defined once per cfg (portable-atomic's cfg_has_atomic_8!, whose
			// variant for targets without 8-bit atomics expands to nothing) matches its first
			// definition, and docidx keeps the items of every cfg.
			if depth >= maxModuleDepth {
				continue
			}
			body := it.body
			if rules := x.rules[it.name]; len(rules) > 0 {
				if out, ok := expandDeferred(it.call, rules, x.rules, x.noArgs, &x.expanded, x.externMacros, depth); ok && len(out) >= len(body) {
					body = out
				}
			}
			for _, b := range body {
				inherit(b, it)
			}
			x.load(m, &file{items: body}, fileName, inline, depth+1)
		case kOther, kExternBlock, kMacroItems:
		default:
			m.items = append(m.items, &decl{it: it, mod: m, file: fileName})
		}
	}
}

// loadChild adds the module declared by it inside m, reading its file for `mod x;`.
func (x *extractor) loadChild(m *module, it *item, fileName string, inline bool, depth int) {
	for _, c := range m.children {
		if c.name == it.name {
			return // cfg variants of one module: the first wins
		}
	}
	c := &module{name: it.name, parent: m, vis: it.vis, hidden: it.attrs.hidden, deprecated: it.attrs.deprecated,
		docs: append([]docFrag(nil), it.attrs.docs...), docCfg: x.cfgOf(it.attrs), line: it.line, file: fileName, dir: path.Join(m.dir, it.name)}
	if it.inline {
		if it.inner.testOnly {
			return
		}
		x.load(c, &file{inner: it.inner, items: it.body}, fileName, true, depth)
		m.children = append(m.children, c)
		return
	}
	if depth >= maxModuleDepth {
		x.res.Problem(fileName, "module "+it.name+" nested too deep; not read")
		return
	}
	var candidates []string
	if it.attrs.path != "" {
		base := path.Dir(fileName)
		if inline {
			base = m.dir
		}
		p, ok := cleanJoin(base, it.attrs.path)
		if !ok {
			x.res.Problem(fileName, fmt.Sprintf("module %s: #[path = %q] leaves the crate", it.name, it.attrs.path))
			return
		}
		candidates = []string{p}
		c.dir = path.Dir(p) // a #[path] file owns its directory, like mod.rs
	} else {
		candidates = []string{path.Join(m.dir, it.name+".rs"), path.Join(m.dir, it.name, "mod.rs")}
	}
	for _, cand := range candidates {
		if !x.exists(cand) {
			continue
		}
		f, ok := x.file(cand)
		if !ok {
			return
		}
		if f.inner.testOnly {
			return
		}
		c.file, c.line = cand, 1
		x.load(c, f, cand, false, depth+1)
		m.children = append(m.children, c)
		return
	}
	x.res.Problem(fileName, fmt.Sprintf("module %s: none of %s found", it.name, strings.Join(candidates, ", ")))
}

func (m *module) child(name string) *module {
	for _, c := range m.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// useName is the name a non-glob use binds.
func useName(u usePath) string {
	if u.alias != "" {
		return u.alias
	}
	if len(u.segs) == 0 {
		return ""
	}
	return u.segs[len(u.segs)-1]
}

// budget reports whether another lookup may run, recording the problem once when not.
func (x *extractor) budget() bool {
	x.steps++
	if x.steps == maxResolveSteps {
		x.res.Problem(x.opts.Root, "re-export resolution stopped: too many lookups")
	}
	return x.steps < maxResolveSteps
}

// pathStart returns the module a path from module from starts in and the index of its first
// segment to look up there, after "crate", "self" and "super"; extern reports a path that
// starts with "::" into another crate (in edition 2015, "::" is the crate root). usePath selects
// `use` semantics (2015: from the crate root).
func (x *extractor) pathStart(from *module, segs []string, usePath bool) (cur *module, i int, extern bool) {
	cur = from
	switch segs[0] {
	case "crate", "$crate":
		cur, i = x.root, 1
	case "self":
		i = 1
	case "super":
		for i < len(segs) && segs[i] == "super" {
			if cur.parent != nil {
				cur = cur.parent
			}
			i++
		}
	case "::":
		if !x.edition2015 {
			return cur, 0, true
		}
		cur, i = x.root, 1
	default:
		if usePath && x.edition2015 {
			cur = x.root
		}
	}
	return cur, i, false
}

// resolve returns what a path names from module from: an item, a module, or several (one name can
// be a type and a function). usePath selects `use` semantics (2015: from the crate root). Paths
// into other crates give nothing.
func (x *extractor) resolve(from *module, segs []string, usePath bool, depth int) []entity {
	if len(segs) == 0 || depth > maxResolveDepth || !x.budget() {
		return nil
	}
	cur, i, extern := x.pathStart(from, segs, usePath)
	if extern {
		return nil
	}
	if i == len(segs) {
		return []entity{{m: cur}}
	}
	for ; i < len(segs)-1; i++ {
		var next *module
		for _, e := range x.lookup(cur, segs[i], depth+1) {
			if e.m != nil {
				next = e.m
				break
			}
		}
		if next == nil {
			return nil
		}
		cur = next
	}
	return x.lookup(cur, segs[len(segs)-1], depth+1)
}

// externPath returns the path in another crate that segs, a use path in module from that names
// nothing of this crate, leads to through this crate's own modules and use bindings: in
// parking_lot, "self::condvar::WaitTimeoutResult" where condvar has "pub use
// lock_api::WaitTimeoutResult" leads to lock_api::WaitTimeoutResult, and
// "self::lock_api::Mutex" after "pub use ::lock_api" to lock_api::Mutex. A path that starts with
// a name that is neither a module nor a binding of this crate names another crate already. ok is
// false when segs leads nowhere.
func (x *extractor) externPath(from *module, segs []string, depth int) ([]string, bool) {
	if len(segs) == 0 || depth > maxResolveDepth || !x.budget() {
		return nil, false
	}
	cur, i, extern := x.pathStart(from, segs, true)
	if extern {
		return segs[1:], len(segs) > 1
	}
	for ; i < len(segs); i++ {
		if i < len(segs)-1 {
			if c := cur.child(segs[i]); c != nil {
				cur = c
				continue
			}
		}
		for _, u := range cur.uses {
			if u.u.glob || useName(u.u) != segs[i] || len(u.u.segs) == 0 || len(x.resolve(cur, u.u.segs, true, depth+1)) > 0 {
				continue
			}
			rest := append(append([]string(nil), u.u.segs...), segs[i+1:]...)
			return x.externPath(cur, rest, depth+1)
		}
		if i == 0 && segs[0] != "self" && len(segs) > 1 && len(x.lookup(cur, segs[0], depth+1)) == 0 {
			return segs, true // another crate's name
		}
		return nil, false
	}
	return nil, false
}

// lookup returns what name names inside module m: its items, child modules and use bindings, then
// what its glob imports bring when nothing else matched.
func (x *extractor) lookup(m *module, name string, depth int) []entity {
	key := lookupKey{m, name}
	if out, ok := x.lookups[key]; ok {
		return out
	}
	if depth > maxResolveDepth || x.inLookup[key] || !x.budget() {
		return nil
	}
	x.inLookup[key] = true
	out := x.lookupUncached(m, name, depth)
	delete(x.inLookup, key)
	x.lookups[key] = out
	return out
}

func (x *extractor) lookupUncached(m *module, name string, depth int) []entity {
	var out []entity
	for _, d := range m.items {
		if d.it.name == name {
			out = append(out, entity{d: d})
		}
	}
	if c := m.child(name); c != nil {
		out = append(out, entity{m: c})
	}
	for _, u := range m.uses {
		if !u.u.glob && useName(u.u) == name && len(u.u.segs) > 0 && !(len(u.u.segs) == 1 && u.u.segs[0] == name && u.u.alias == "") {
			out = append(out, x.resolve(m, u.u.segs, true, depth+1)...)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, u := range m.uses {
		if !u.u.glob {
			continue
		}
		for _, t := range x.resolve(m, u.u.segs, true, depth+1) {
			if t.m != nil && t.m != m {
				out = append(out, x.lookup(t.m, name, depth+1)...)
			}
		}
	}
	return out
}

// named is an entity under the name it is exported as.
type named struct {
	name string
	e    entity
}

// exports lists what a glob re-export of m brings: m's pub items, pub modules and pub re-exports.
func (x *extractor) exports(m *module, depth int) []named {
	if out, ok := x.exported[m]; ok {
		return out
	}
	if depth > maxResolveDepth || x.inExports[m] || !x.budget() {
		return nil
	}
	x.inExports[m] = true
	var out []named
	for _, d := range m.items {
		if d.it.vis == visPub && !d.it.attrs.hidden {
			out = append(out, named{d.it.name, entity{d: d}})
		}
	}
	for _, c := range m.children {
		if c.vis == visPub && !c.hidden {
			out = append(out, named{c.name, entity{m: c}})
		}
	}
	for _, u := range m.uses {
		if u.vis != visPub || u.hidden {
			continue
		}
		if u.u.glob {
			for _, t := range x.resolve(m, u.u.segs, true, depth+1) {
				if t.m != nil {
					out = append(out, x.exports(t.m, depth+1)...)
				}
			}
			continue
		}
		if name := useName(u.u); name != "" && name != "_" {
			for _, e := range x.resolve(m, u.u.segs, true, depth+1) {
				out = append(out, named{name, e})
			}
		}
	}
	delete(x.inExports, m)
	if len(out) > maxExports {
		out = out[:maxExports]
	}
	x.exported[m] = out
	return out
}

// emit walks the public module graph breadth-first from the crate root, so each item is listed
// under its shortest public path, then attaches trait members and inherent methods.
func (x *extractor) emit() {
	x.byDecl = map[*decl]*entry{}
	type job struct {
		m    *module
		path []string
	}
	queue := []job{{x.root, []string{x.opts.Crate}}}
	seenMod := map[*module]bool{x.root: true}
	modPath := map[*module]string{x.root: x.opts.Crate}
	enqueue := func(m *module, p []string, name string) {
		if m.hidden {
			return
		}
		if seenMod[m] {
			if at, ok := modPath[m]; ok && len(x.modAliases) < maxAliases {
				x.modAliases = append(x.modAliases, [2]string{strings.Join(p, "::") + "::" + name, at})
			}
			return
		}
		seenMod[m] = true
		path := append(append([]string(nil), p...), name)
		modPath[m] = strings.Join(path, "::")
		queue = append(queue, job{m, path})
	}
	for head := 0; head < len(queue) && !x.full(); head++ {
		j := queue[head]
		x.moduleEntry(j.m, j.path)
		if head == 0 {
			for _, d := range x.macros {
				if !d.it.attrs.hidden {
					x.add(d, j.path, d.it.name)
				}
			}
		}
		for _, d := range j.m.items {
			if d.it.vis == visPub && !d.it.attrs.hidden {
				x.add(d, j.path, d.it.name)
			}
		}
		for _, c := range j.m.children {
			if c.vis == visPub {
				enqueue(c, j.path, c.name)
			}
		}
		for _, u := range j.m.uses {
			if u.vis != visPub || u.hidden {
				continue
			}
			var found []named
			if u.u.glob {
				for _, t := range x.resolve(j.m, u.u.segs, true, 0) {
					if t.m != nil {
						found = append(found, x.exports(t.m, 0)...)
					}
				}
			} else if name := useName(u.u); name != "" && name != "_" {
				for _, e := range x.resolve(j.m, u.u.segs, true, 0) {
					found = append(found, named{name, e})
				}
			}
			if len(found) == 0 && x.opts.Extern != nil {
				eu := externUse{path: j.path, u: u.u, inline: u.inline}
				if p, ok := x.externPath(j.m, u.u.segs, 0); ok {
					eu.u.segs = p
					if !u.u.glob {
						eu.u.alias = useName(u.u)
					}
				}
				x.externs = append(x.externs, eu)
			}
			for _, n := range found {
				switch {
				case n.e.m != nil:
					enqueue(n.e.m, j.path, n.name)
				case n.e.d.it.vis == visPub && !n.e.d.it.attrs.hidden:
					x.add(n.e.d, j.path, n.name)
				}
			}
		}
	}
	x.methods()
	x.flatten()
	for _, a := range x.modAliases {
		x.alias(a[0], a[1])
	}
	for _, a := range x.itemAliases {
		if q, ok := x.listedAs[a.e]; ok {
			x.alias(a.path, q)
		}
	}
	x.inlineExterns()
}

// alias records another public path of what is listed as q.
func (x *extractor) alias(path, q string) {
	if path == q {
		return
	}
	if x.res.Aliases == nil {
		x.res.Aliases = map[string]string{}
	}
	if _, ok := x.res.Aliases[path]; !ok {
		x.res.Aliases[path] = q
	}
}

// itemAlias is another public path of the item listed as e.
type itemAlias struct {
	path string
	e    *entry
}

// inlineExterns lists what the `pub use`s into other crates name, under the paths that re-export
// them (see Options.Extern), after the crate's own items: a name already listed keeps its
// symbol. A glob brings everything under the module it names; a single name brings the item
// (a macro too) or module of that path and everything under it, renamed by "as". What the
// other crate lists at a shorter path and re-exports under the named one (http lists
// http::HeaderMap and re-exports it as http::header::HeaderMap) comes through its Aliases.
func (x *extractor) inlineExterns() {
	have := map[string]bool{}
	for _, s := range x.res.Symbols {
		have[s.QualifiedName] = true
	}
	apis := map[string]ExternAPI{}
	for _, eu := range x.externs {
		segs := eu.u.segs
		if len(segs) > 0 && segs[0] == "::" {
			segs = segs[1:]
		}
		if len(segs) == 0 {
			continue
		}
		switch segs[0] {
		case "crate", "$crate", "self", "super":
			continue
		}
		if len(segs) == 1 && !eu.u.glob && !eu.inline {
			// "pub use digest;": rustdoc lists a re-exported crate root as a re-export and
			// inlines it only when asked to (#[doc(inline)]; rust-lang/rust#55804), so its
			// items stay the other crate's, indexed once, under their own paths.
			continue
		}
		api, ok := apis[segs[0]]
		if !ok {
			api = x.opts.Extern(segs[0])
			apis[segs[0]] = api
		}
		from := strings.Join(segs, "::")
		to := strings.Join(eu.path, "::")
		if !eu.u.glob {
			name := useName(eu.u)
			if name == "" || name == "_" {
				continue
			}
			to += "::" + name
		}
		if !x.place(api.Symbols, from, to, !eu.u.glob, have) {
			return
		}
		// Re-exports inside the other crate, under the path named, of what it lists elsewhere.
		aliases := make([]string, 0, len(api.Aliases))
		for a := range api.Aliases {
			if a == from && !eu.u.glob || strings.HasPrefix(a, from+"::") {
				aliases = append(aliases, a)
			}
		}
		sort.Strings(aliases)
		for _, a := range aliases {
			q := api.Aliases[a]
			if !x.place(api.Symbols, strings.TrimSuffix(q, "!"), to+strings.TrimSuffix(a[len(from):], "!"), true, have) {
				return
			}
		}
	}
}

// place appends the symbols of api at path from (when self) and under it, moved to path to,
// skipping paths have holds; false means the symbol limit was reached.
func (x *extractor) place(api []docidx.Symbol, from, to string, self bool, have map[string]bool) bool {
	parentPath := to[:max(strings.LastIndex(to, "::"), 0)]
	for _, s := range api {
		// "field@a::B::x", "fn@…": the disambiguated path stays disambiguated.
		at, qn := "", s.QualifiedName
		if i := strings.Index(qn, "@"); i >= 0 && !strings.Contains(qn[:i], ":") {
			at, qn = qn[:i+1], qn[i+1:]
		}
		var rest string
		switch {
		case strings.HasPrefix(qn, from+"::"):
			rest = qn[len(from):]
		case self && (qn == from || qn == from+"!"):
			rest = qn[len(from):]
			if s.Kind != docidx.KindPackage {
				s.Name = to[strings.LastIndex(to, ":")+1:]
			}
		default:
			continue
		}
		q := at + to + rest
		if have[q] {
			continue
		}
		if len(x.res.Symbols) >= x.opts.MaxSymbols {
			x.res.Truncated = true
			return false
		}
		have[q] = true
		s.QualifiedName = q
		switch {
		case s.Package == from || strings.HasPrefix(s.Package, from+"::"):
			s.Package = to + s.Package[len(from):]
		case self:
			s.Package = parentPath // the item named, and its members
		}
		if s.Kind == docidx.KindPackage {
			s.Name = q[strings.LastIndex(q, ":")+1:]
			s.Signature = "pub mod " + s.Name
		}
		x.res.Symbols = append(x.res.Symbols, s)
	}
	return true
}

func (x *extractor) full() bool {
	if x.count >= x.opts.MaxSymbols {
		x.res.Truncated = true
		return true
	}
	return false
}

// cfgOf returns what an item's attributes a say it needs, for its portability note (withCfg):
// its #[doc(cfg(…))], or in a crate that turns rustdoc's auto_cfg on (x.autoCfg), its #[cfg(…)]
// of features (lock_api's #[cfg(feature = "arc_lock")] on ArcMutexGuard, under
// #![cfg_attr(docsrs, feature(doc_cfg))]: "Available on crate feature arc_lock only." on
// docs.rs).
func (x *extractor) cfgOf(a attrs) string {
	if a.docCfg != "" || !x.autoCfg {
		return a.docCfg
	}
	return a.autoCfg
}

// cfg returns what an item of m whose own #[doc(cfg(…))] says own needs (see attrs.docCfg):
// own, or else what m or the nearest module around it says, as rustdoc shows an item of a
// module under doc(cfg) as needing it too.
func (m *module) cfg(own string) string {
	for ; own == "" && m != nil; m = m.parent {
		own = m.docCfg
	}
	return own
}

// withCfg returns doc with rustdoc's portability note for cfg ("Available on crate feature
// `x` only.") as a paragraph after its first, the summary that listings show, as near as that
// allows to where rustdoc shows it, above the docs; at the end when the first paragraph is
// the whole doc or opens a code block. It returns doc itself when cfg or doc is empty: an
// undocumented item stays undocumented, as search ranks it.
func withCfg(doc, cfg string) string {
	if cfg == "" {
		return doc
	}
	return withNote(doc, "Available on "+cfg+" only.")
}

// withDeprecation returns doc with what rustdoc shows of the item's #[deprecated] (at's
// deprecation: since when, and what to use instead) after its first paragraph, as rustdoc shows
// it above the doc. An undocumented item stays undocumented.
func withDeprecation(doc string, at *attrs) string {
	return withNote(doc, at.deprecation)
}

// withNote returns doc with the paragraph note after its first paragraph (at its end when the
// first paragraph holds a code block or is all of it); doc unchanged when either is empty.
func withNote(doc, note string) string {
	if note == "" || doc == "" {
		return doc
	}
	if first, rest, ok := strings.Cut(doc, "\n\n"); ok && !strings.Contains(first, "```") {
		return first + "\n\n" + note + "\n\n" + rest
	}
	return doc + "\n\n" + note
}

// moduleEntry lists module m at its public path p.
func (x *extractor) moduleEntry(m *module, p []string) {
	sig, doc := "pub mod "+p[len(p)-1], ""
	if m == x.root {
		sig, doc = "crate "+x.opts.Crate, cutDoc(x.res.CrateDoc, maxDoc)
	} else {
		doc = withCfg(x.doc(m.docs, m.file), m.cfg(""))
	}
	x.count++
	x.entries = append(x.entries, &entry{sym: docidx.Symbol{
		Kind:          docidx.KindPackage,
		Name:          p[len(p)-1],
		Package:       strings.Join(p, "::"),
		QualifiedName: strings.Join(p, "::"),
		Signature:     sig,
		Doc:           doc,
		File:          m.file,
		Line:          max(m.line, 1),
		Deprecated:    m.deprecated,
	}})
}

// bang reports whether the item is a macro invoked as name!(…), whose qualified name rustdoc
// writes with the "!": a macro_rules or a function-like procedural macro, not a derive or
// attribute macro.
func bang(it *item) bool {
	return it.kind == kMacro || it.attrs.procMacro == procBang
}

var symbolKinds = map[itemKind]docidx.SymbolKind{
	kFn: docidx.KindFunc, kStruct: docidx.KindStruct, kUnion: docidx.KindStruct, kEnum: docidx.KindEnum,
	kTrait: docidx.KindTrait, kType: docidx.KindType, kConst: docidx.KindConst, kStatic: docidx.KindVar,
	kMacro: docidx.KindMacro,
}

// add lists declaration d under module path p as name, once: the first (shortest) path wins.
func (x *extractor) add(d *decl, p []string, name string) {
	if e, ok := x.byDecl[d]; ok {
		if e.sym.Name != d.it.name && name == d.it.name {
			// First seen under a renamed re-export (pub use a::Foo as Bar): the declared name,
			// at any public path, is what users look the item up by.
			x.rename(e, d, p)
		}
		if len(x.itemAliases) < maxAliases {
			alias := strings.Join(p, "::") + "::" + name
			if bang(d.it) {
				alias += "!"
			}
			x.itemAliases = append(x.itemAliases, itemAlias{alias, e})
		}
		return
	}
	if x.full() {
		return
	}
	kind, ok := symbolKinds[d.it.kind]
	if !ok {
		return
	}
	if d.it.attrs.procMacro != procNone {
		kind = docidx.KindMacro
	}
	pkg := strings.Join(p, "::")
	q := pkg + "::" + name
	if bang(d.it) {
		q += "!"
	}
	e := &entry{sym: docidx.Symbol{
		Kind: kind, Name: name, Package: pkg, QualifiedName: q,
		Signature: renamed(d.it, name), Doc: withDeprecation(withCfg(x.doc(d.it.attrs.docs, d.file), d.mod.cfg(x.cfgOf(d.it.attrs))), &d.it.attrs),
		File: d.file, Line: d.it.line, Deprecated: d.it.attrs.deprecated, Errors: d.it.errors,
	}}
	x.count++
	x.entries = append(x.entries, e)
	x.byDecl[d] = e
	switch d.it.kind {
	case kTrait, kStruct, kUnion, kEnum:
		// Trait items, pub fields and variants (the parser keeps only those in the body of a
		// struct, union or enum).
		for _, m := range d.it.body {
			if m.attrs.testOnly || m.attrs.hidden || m.name == "" {
				continue
			}
			x.member(e, m, d.file, memberKinds[m.kind])
		}
	}
}

// rename moves entry e of declaration d to its declared name under module path p.
func (x *extractor) rename(e *entry, d *decl, p []string) {
	pkg := strings.Join(p, "::")
	e.sym.Name, e.sym.Package = d.it.name, pkg
	e.sym.QualifiedName = pkg + "::" + d.it.name
	if bang(d.it) {
		e.sym.QualifiedName += "!"
	}
	e.sym.Signature = d.it.sig
	for i := range e.members {
		e.members[i].Parent, e.members[i].Package = e.sym.Name, pkg
	}
}

// memberKinds maps the items of a trait, struct, union or enum body to their symbol kinds: an
// enum variant is a constant of its enum, as in Go and Python.
var memberKinds = map[itemKind]docidx.SymbolKind{
	kFn: docidx.KindMethod, kType: docidx.KindType, kConst: docidx.KindConst,
	kField: docidx.KindField, kVariant: docidx.KindConst,
}

// renamed returns d's signature with its name replaced by the name it is re-exported as.
func renamed(it *item, name string) string {
	if name == it.name {
		return it.sig
	}
	// The name follows the item keyword: "pub fn old(" -> "pub fn new(".
	for _, kw := range []string{"fn ", "struct ", "union ", "enum ", "trait ", "type ", "const ", "static mut ", "static ", "macro_rules! "} {
		if i := strings.Index(it.sig, kw+it.name); i >= 0 {
			return it.sig[:i] + kw + name + it.sig[i+len(kw)+len(it.name):]
		}
	}
	return it.sig
}

// member lists a trait or impl member m after its parent entry e.
func (x *extractor) member(e *entry, m *item, file string, kind docidx.SymbolKind) {
	if kind == "" || x.full() {
		return
	}
	x.count++
	e.members = append(e.members, docidx.Symbol{
		Kind: kind, Name: m.name, Parent: e.sym.Name, Package: e.sym.Package,
		QualifiedName: e.sym.QualifiedName + "::" + m.name,
		Signature:     m.sig, Doc: withDeprecation(withCfg(x.doc(m.attrs.docs, file), x.cfgOf(m.attrs)), &m.attrs), File: file, Line: m.line, Deprecated: m.attrs.deprecated,
		Errors: m.errors,
	})
}

// methods attaches the members of impls to the public types they implement: the pub fns and
// consts of inherent impls; of trait impls (whose items have no visibility of their own), the
// associated types and consts, and the fns that carry doc comments of their own (the others are
// documented by the trait, and would repeat its signatures).
func (x *extractor) methods() {
	typeByName := map[string][]*entry{}
	for d, e := range x.byDecl {
		switch d.it.kind {
		case kStruct, kUnion, kEnum, kType, kTrait:
			typeByName[d.it.name] = append(typeByName[d.it.name], e)
		}
	}
	var walk func(m *module)
	walk = func(m *module) {
		for _, im := range m.impls {
			e := x.implTarget(m, im, typeByName)
			x.implDoc(m, im, e)
			if e == nil {
				continue
			}
			for _, it := range im.body {
				if it.attrs.testOnly || it.attrs.hidden {
					continue
				}
				if im.traitImpl {
					if it.kind == kFn && len(it.attrs.docs) == 0 {
						continue
					}
				} else if it.vis != visPub || it.kind == kType {
					continue
				}
				switch it.kind {
				case kFn:
					x.member(e, it, m.file, docidx.KindMethod)
				case kConst:
					x.member(e, it, m.file, docidx.KindConst)
				case kType:
					x.member(e, it, m.file, docidx.KindType)
				}
			}
		}
		for _, c := range m.children {
			walk(c)
		}
	}
	walk(x.root)
}

// maxImplDocs bounds the impl docs implDoc adds to one type's or trait's doc, in bytes.
const maxImplDocs = 8 << 10

// implDoc adds the doc comment of impl im in module m, if it has one, to the doc of the public
// type it implements (e, when not nil) or else of the public trait it implements for a foreign
// type, under a heading that names the impl in code ("## `impl Serialize for Rc<T>`", whose
// generics markdown would otherwise read as HTML), as rustdoc shows it among the type's trait
// implementations or the trait's implementations on foreign types: serde's "impl<T> Serialize for
// Rc<T>" says "Serialization will not attempt to deduplicate these repeated data". An impl on a
// foreign type also brings the fns of its own that carry doc comments, each under a heading
// that gives its declaration, as rustdoc's "Implementations on Foreign Types" lists them:
// subtle's "impl<T: ConstantTimeEq> ConstantTimeEq for [T]" documents only its ct_eq, which
// "short-circuits if the lengths of the input slices are different" (an impl on a crate's own
// type has those fns as members of the type: methods). At most maxImplDocs bytes of them join
// one doc, whole sections only.
func (x *extractor) implDoc(m *module, im *item, e *entry) {
	if im.attrs.hidden || im.attrs.testOnly {
		return
	}
	foreign := false
	if e == nil && im.traitImpl && len(im.traitPath) > 0 && !x.localType(m, im.selfPath) {
		for _, t := range x.resolve(m, im.traitPath, false, 0) {
			if t.d != nil && t.d.it.kind == kTrait {
				e, foreign = x.byDecl[t.d], true
				break
			}
		}
	}
	if e == nil {
		return
	}
	var parts []string
	if len(im.attrs.docs) > 0 {
		if doc := withCfg(x.doc(im.attrs.docs, m.file), x.cfgOf(im.attrs)); doc != "" {
			parts = append(parts, doc)
		}
	}
	if foreign {
		for _, it := range im.body {
			if it.kind != kFn || len(it.attrs.docs) == 0 || it.attrs.hidden || it.attrs.testOnly {
				continue
			}
			if doc := withCfg(x.doc(it.attrs.docs, m.file), x.cfgOf(it.attrs)); doc != "" {
				parts = append(parts, "### `"+strings.Join(strings.Fields(it.sig), " ")+"`\n\n"+doc)
			}
		}
	}
	if len(parts) == 0 {
		return
	}
	header := im.selfText
	if im.traitImpl {
		header = im.traitText + " for " + im.selfText
	}
	section := "## `impl " + header + "`\n\n" + strings.Join(parts, "\n\n")
	if len(e.implDocs)+len(section) > maxImplDocs {
		return
	}
	e.implDocs += section + "\n\n"
	if e.sym.Doc != "" {
		e.sym.Doc += "\n\n"
	}
	e.sym.Doc += section
}

// localType reports whether path, from module m, names a type the crate declares, public or
// not: an impl for it is the type's, not one on a foreign type.
func (x *extractor) localType(m *module, path []string) bool {
	if len(path) == 0 {
		return false
	}
	for _, t := range x.resolve(m, path, false, 0) {
		if t.d != nil {
			switch t.d.it.kind {
			case kStruct, kUnion, kEnum, kType, kTrait:
				return true
			}
		}
	}
	return false
}

// implTarget returns the public entry of the type an inherent impl in module m implements, or nil.
func (x *extractor) implTarget(m *module, im *item, typeByName map[string][]*entry) *entry {
	if len(im.selfPath) == 0 {
		return nil
	}
	for _, t := range x.resolve(m, im.selfPath, false, 0) {
		if t.d != nil {
			switch t.d.it.kind {
			case kStruct, kUnion, kEnum, kType, kTrait:
				return x.byDecl[t.d] // nil when the type is not public
			}
		}
	}
	// The path could not be followed (a type from a macro, an import docidx does not resolve):
	// fall back to the one public type of that name, if there is exactly one.
	if es := typeByName[im.selfPath[len(im.selfPath)-1]]; len(es) == 1 {
		return es[0]
	}
	return nil
}

// flatten writes the entries into res.Symbols, each followed by its members, with unique qualified
// names: repeated declarations of one kind (cfg variants, overloaded impls) merge, and a name
// taken by another kind (a function and a module both called json) gets rustdoc's disambiguator
// prefix ("fn@serde_json::json").
func (x *extractor) flatten() {
	index := map[string]int{}
	// add appends s (or merges it into an earlier symbol) and returns the qualified name it ended
	// up under, or "" when the symbol limit dropped it.
	add := func(s docidx.Symbol) string {
		q := s.QualifiedName
		for n := 0; ; n++ {
			i, taken := index[q]
			if !taken {
				break
			}
			old := &x.res.Symbols[i]
			if old.Kind == s.Kind && old.Parent == s.Parent {
				if strings.Count(old.Signature, "\n")+1 < maxOverloads && !slices.Contains(strings.Split(old.Signature, "\n"), s.Signature) && !strings.Contains(s.Signature, "\n") {
					old.Signature += "\n" + s.Signature
				}
				if old.Doc == "" {
					old.Doc = s.Doc
				}
				old.Deprecated = old.Deprecated && s.Deprecated
				return q
			}
			if n == 0 {
				q = disambiguator(s.Kind) + "@" + s.QualifiedName
			} else {
				q = fmt.Sprintf("%s@%s~%d", disambiguator(s.Kind), s.QualifiedName, n)
			}
		}
		if len(x.res.Symbols) >= x.opts.MaxSymbols {
			x.res.Truncated = true
			return ""
		}
		s.QualifiedName = q
		index[q] = len(x.res.Symbols)
		x.res.Symbols = append(x.res.Symbols, s)
		return q
	}
	x.listedAs = map[*entry]string{}
	for _, e := range x.entries {
		parentQ := add(e.sym)
		if parentQ == "" {
			continue
		}
		x.listedAs[e] = parentQ
		for _, m := range e.members {
			m.QualifiedName = parentQ + "::" + m.Name
			if m.Kind == docidx.KindField && hasNonField(e.members, m.Name) {
				// A getter named like its field (pub x and fn x) keeps the plain path.
				m.QualifiedName = "field@" + m.QualifiedName
			}
			add(m)
		}
	}
}

// hasNonField reports whether members hold a member called name that is not a field.
func hasNonField(members []docidx.Symbol, name string) bool {
	for _, m := range members {
		if m.Name == name && m.Kind != docidx.KindField {
			return true
		}
	}
	return false
}

// disambiguator returns rustdoc's intra-doc link prefix for a kind
// (https://doc.rust-lang.org/rustdoc/write-documentation/linking-to-items-by-name.html).
func disambiguator(k docidx.SymbolKind) string {
	switch k {
	case docidx.KindPackage:
		return "mod"
	case docidx.KindFunc:
		return "fn"
	case docidx.KindStruct:
		return "struct"
	case docidx.KindEnum:
		return "enum"
	case docidx.KindTrait:
		return "trait"
	case docidx.KindType:
		return "type"
	case docidx.KindConst:
		return "const"
	case docidx.KindVar:
		return "static"
	case docidx.KindMacro:
		return "macro"
	case docidx.KindMethod:
		return "method"
	}
	return string(k)
}

// doc turns doc fragments into text, cut at 16 KiB, the way rustdoc does (unindent_doc_fragments): /** */ blocks
// lose a leading "*" column, include_str! files are read (relative to file), and the indentation
// all lines share goes, where a #[doc] string's lines count one column deeper when it is mixed
// with doc comments (whose text starts after "///", usually with a space).
func (x *extractor) doc(frags []docFrag, file string) string {
	return x.docLimit(frags, file, maxDoc)
}

// docLimit is doc cut at limit bytes (at a character boundary, marked with " …").
func (x *extractor) docLimit(frags []docFrag, file string, limit int) string {
	if len(frags) == 0 {
		return ""
	}
	type line struct {
		text string
		raw  bool // from #[doc = …], not a doc comment
	}
	var lines []line
	sugared, raw := false, false
	for _, f := range frags {
		text := f.text
		isRaw := f.raw || f.include != ""
		if f.include != "" {
			p, ok := cleanJoin(path.Dir(file), f.include)
			if !ok {
				continue
			}
			data, err := x.read(p, maxInclude)
			if err != nil {
				continue
			}
			text = string(data)
		}
		sugared = sugared || !isRaw
		raw = raw || isRaw
		ls := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		if f.block && !isRaw {
			ls = beautifyBlock(ls)
		}
		for _, l := range ls {
			lines = append(lines, line{strings.TrimRight(l, " \t\r"), isRaw})
		}
	}
	add := 0
	if sugared && raw {
		add = 1
	}
	indent := -1
	for _, l := range lines {
		t := strings.TrimLeft(l.text, " \t")
		if t == "" {
			continue
		}
		n := len(l.text) - len(t)
		if l.raw {
			n += add
		}
		if indent < 0 || n < indent {
			indent = n
		}
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		cut := indent
		if l.raw {
			cut -= add
		}
		ws := len(l.text) - len(strings.TrimLeft(l.text, " \t"))
		out = append(out, l.text[min(max(cut, 0), ws):])
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return cutDoc(visible(strings.Join(out, "\n")), limit)
}

// cutDoc returns text cut at max bytes, at a character boundary, marked with " …" when cut.
func cutDoc(text string, max int) string {
	if len(text) <= max {
		return text
	}
	return limit.Cut(text, max) + " …"
}

// beautifyBlock drops a block comment's blank first and last lines and, when every line after
// the first (the first too when it has one) starts with "*", that column, as rustc's
// beautify_doc_string does.
func beautifyBlock(lines []string) []string {
	if len(lines) > 1 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) > 1 && strings.Trim(lines[len(lines)-1], " \t*") == "" {
		lines = lines[:len(lines)-1]
	}
	from := 0
	if len(lines) > 1 && !strings.HasPrefix(strings.TrimLeft(lines[0], " \t"), "*") {
		from = 1
	}
	star := len(lines) > from
	for _, l := range lines[from:] {
		t := strings.TrimLeft(l, " \t")
		if t != "" && !strings.HasPrefix(t, "*") {
			star = false
			break
		}
	}
	if !star {
		return lines
	}
	out := append([]string(nil), lines...)
	for i := from; i < len(out); i++ {
		out[i] = strings.TrimPrefix(strings.TrimLeft(out[i], " \t"), "*")
	}
	return out
}
