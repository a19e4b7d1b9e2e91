package rustapi

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx/registries/internal/clex"
	"github.com/docidx/docidx/registries/internal/limit"
)

// Parser limits that keep hostile input cheap.
const (
	maxNesting     = 64      // inline modules, impls and traits inside one another
	maxSignature   = 2 << 10 // bytes of one rendered signature; longer ones are cut with " …"
	maxFields      = 40      // struct fields or enum variants rendered in a signature
	maxArms        = 16      // macro_rules arms rendered in a signature
	maxMacroDepth  = 8       // item-level macro invocations nested in one another, read as items
	maxNoArgMacros = 256     // macro_rules with a "() => { items }" rule remembered per crate, and their expansions
	maxInitValue   = 80      // bytes of a const or static initializer shown in its signature
)

type itemKind uint8

const (
	kOther itemKind = iota
	kFn
	kStruct
	kUnion
	kEnum
	kTrait
	kType
	kConst
	kStatic
	kMod
	kUse
	kImpl
	kMacro
	kExternBlock
	// kMacroItems is an item-level macro invocation with braces whose body parses as items
	// (tokio's cfg_net! { pub mod net; }, cfg_if! { if #[cfg(x)] { pub use a::B; } }): its items,
	// in body, belong to the enclosing module like an extern block's.
	kMacroItems
	// kMacroCall is an invocation "name!();" of a macro_rules not defined yet when its file
	// was parsed: the loader expands it (parser.noArgs).
	kMacroCall
	// kMacroDeferred is an item-level invocation "name! { … }" of a macro_rules not defined yet
	// when its file was parsed: tokio's cfg_fs! { pub mod fs; } in lib.rs, whose macro the
	// #[macro_use] module declared above it (read when the module is loaded) defines. The
	// loader expands its tokens (call) through the macro when the macro is defined by then,
	// so that the items carry the attributes it adds (#[doc(cfg(feature = "fs"))]); else it
	// takes the items the body holds (body, read by macroItems).
	kMacroDeferred
	kField   // a pub field of a struct or union (in the item's body)
	kVariant // a variant of an enum (in the item's body)
)

type visibility uint8

const (
	visPrivate    visibility = iota
	visPub                   // pub
	visRestricted            // pub(crate), pub(super), pub(self), pub(in path), crate
)

// docFrag is one piece of an item's documentation: a doc comment, a #[doc = "…"] string, or a
// #[doc = include_str!("path")] reference to be read by the extractor.
type docFrag struct {
	text    string
	block   bool   // a /** */ or /*! */ comment, or a #[doc] string, which may span lines
	raw     bool   // a #[doc = "…"] attribute rather than a doc comment
	include string // include_str! path, relative to the file
}

// attrs is what docidx reads from an item's outer (or a module's inner) attributes and doc comments.
type attrs struct {
	docs       []docFrag
	testOnly   bool // #[cfg(test)], or a cfg that needs test
	hidden     bool // #[doc(hidden)]
	inline     bool // #[doc(inline)]
	deprecated bool // #[deprecated], with or without a note
	// deprecation is what rustdoc shows of #[deprecated]'s since and note ("Deprecated since
	// 0.4.23: use `from_ymd_opt()` instead"); empty when it gives neither.
	deprecation string
	macroExport bool // #[macro_export]
	// procMacro is what a proc-macro crate's function is (#[proc_macro], #[proc_macro_attribute]
	// or #[proc_macro_derive(Name, attributes(…))]); derive and helpers are a derive's name and
	// helper attributes.
	procMacro procMacroKind
	derive    string
	helpers   []string
	// docCfg is what #[doc(cfg(…))] says the item needs, as rustdoc words it ("crate feature
	// `x`"); empty without one or when it names more than features (see cfgWords).
	docCfg string
	// autoCfg is what its #[cfg(…)] says it needs, in docCfg's words: rustdoc shows it as the
	// portability note of a crate that turns auto_cfg on (see extractor.cfgOf).
	autoCfg string
	// docAutoCfg says a crate root's #![feature(doc_cfg)] or #![feature(doc_auto_cfg)] (under
	// cfg_attr(docsrs, …), as docs.rs builds) turns rustdoc's auto_cfg on: every item under a
	// #[cfg] of features carries that cfg's portability note, though it has no #[doc(cfg)].
	docAutoCfg bool
	path       string // #[path = "…"] of a module
}

// usePath is one leaf of a use tree: `use a::b::{c as d, e::*}` gives [a b c] as d and [a b e] glob.
type usePath struct {
	segs  []string // may start with "crate", "self", "super" or "::"
	alias string   // the `as` name, or ""
	glob  bool
}

// item is one parsed item.
type item struct {
	kind  itemKind
	name  string // without r#
	vis   visibility
	attrs attrs
	line  int
	sig   string

	body   []*item  // inline module, trait, impl or extern block contents; struct fields; enum variants
	errors []string // kFn: the errors its body makes with a literal message (bodyErrors)
	inner  attrs    // an inline module's inner attributes (//!, #![…])

	inline bool      // a module with a body
	uses   []usePath // kUse
	call   []token   // kMacroDeferred: the invocation's braces and what they hold

	selfPath  []string // kImpl: the path of the implementing type, e.g. [crate a Foo]; nil when not a path
	selfText  string   // kImpl: the implementing type as written, e.g. "Foo<T>" or "[T]"
	traitImpl bool     // kImpl: impl Trait for Type
	traitPath []string // kImpl of a trait: the trait's path, e.g. [serde Serialize]
	traitText string   // kImpl of a trait: the trait as written, e.g. "Serialize"
}

// file is a parsed source file or inline module body.
type file struct {
	inner attrs
	items []*item
}

// parser reads items from one file's tokens.
type parser struct {
	toks  []token
	match []int // for each bracket token, the index of its partner
	// noArgs are the items of the rules with an empty matcher, "() => { … }", of the
	// macro_rules the crate defined so far, by name, shared by the files of a crate: an
	// invocation "name!();" expands to them (serde's crate_root!()). One defined in a file
	// read later (a #[macro_use] mod) is expanded when the module is loaded (kMacroCall).
	noArgs map[string][]*item
	// rules are the rules of the macro_rules the crate defined so far, by name, shared by the
	// files of a crate: an item-level invocation expands through them (expand.go).
	rules map[string][]macroRule
	// expDepth counts the macro expansions whose output this parser reads.
	expDepth int
	// expanded counts the tokens all expansions of the crate produced (maxCrateExpansion).
	expanded *int
	// extern gives the #[macro_export] macro_rules of another crate, by name, for an
	// invocation written with its path (digest::buffer_fixed!); nil when not known.
	extern func(crate string) map[string][]macroRule
	// home is the crate whose macro produced the tokens this parser reads, "" for the crate's
	// own: the "$crate::name!" its transcription wrote as "crate::name!" is home's macro.
	home string
}

// parseFile tokenizes and parses src. noArgs, when not nil, is shared by the files of a crate
// (see parser.noArgs); extern, when not nil, gives other crates' macros (see parser.extern).
func parseFile(src string, noArgs map[string][]*item, rules map[string][]macroRule, expanded *int, extern func(string) map[string][]macroRule) *file {
	p := &parser{toks: tokenize(src), noArgs: noArgs, rules: rules, expanded: expanded, extern: extern}
	p.match = matchBrackets(p.toks)
	f := &file{}
	f.items = p.items(0, len(p.toks)-1, 0, &f.inner)
	return f
}

// matchBrackets pairs (), [] and {} tokens. A closer without an opener is ignored; an opener
// left unclosed by a closer of another kind ends just before that closer, and one left unclosed
// at the end of input ends at the tEOF token.
func matchBrackets(toks []token) []int {
	m := make([]int, len(toks))
	for i := range m {
		m[i] = -1
	}
	var stack []int
	for i, t := range toks {
		if t.kind != tPunct || len(t.text) != 1 {
			continue
		}
		switch c := t.text[0]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			open := byte('(')
			switch c {
			case ']':
				open = '['
			case '}':
				open = '{'
			}
			k := len(stack) - 1
			for k >= 0 && toks[stack[k]].text[0] != open {
				k--
			}
			if k < 0 {
				continue
			}
			for _, o := range stack[k+1:] {
				m[o] = i - 1
			}
			m[stack[k]], m[i] = i, stack[k]
			stack = stack[:k]
		}
	}
	for _, o := range stack {
		m[o] = len(toks) - 1
	}
	return m
}

func (p *parser) punct(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tPunct && p.toks[i].text == s
}

func (p *parser) ident(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent && p.toks[i].text == s
}

func (p *parser) isIdent(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent
}

// close returns the index of the bracket closing the opener at i, never less than i.
func (p *parser) close(i int) int {
	if i < 0 || i >= len(p.match) || p.match[i] < i {
		return i
	}
	return p.match[i]
}

// items parses the items in toks[start:end]. Inner doc comments and inner attributes go to inner.
func (p *parser) items(start, end, depth int, inner *attrs) []*item {
	var out []*item
	for i := start; i < end; {
		switch t := p.toks[i]; {
		case t.kind == tInnerDoc:
			inner.docs = append(inner.docs, docFrag{text: t.text, block: strings.Contains(t.text, "\n")})
			i++
			continue
		case p.punct(i, "#") && p.punct(i+1, "!") && p.punct(i+2, "["):
			c := min(p.close(i+2), end)
			p.attr(i+3, c, inner)
			i = c + 1
			continue
		}
		it, next := p.item(i, end, depth)
		if next <= i {
			next = i + 1
		}
		i = next
		if it == nil {
			continue
		}
		if it.kind == kExternBlock || it.kind == kMacroItems {
			// Foreign items, and the items of a macro invocation, belong to the enclosing module.
			for _, b := range it.body {
				inherit(b, it)
			}
			out = append(out, it.body...)
			continue
		}
		out = append(out, it)
	}
	return out
}

// item parses one item starting at i and returns it (nil for what docidx does not keep) and the
// index after it.
func (p *parser) item(i, end, depth int) (*item, int) {
	var a attrs
	for i < end {
		t := p.toks[i]
		switch {
		case t.kind == tOuterDoc:
			a.docs = append(a.docs, docFrag{text: t.text, block: strings.Contains(t.text, "\n")})
			i++
			continue
		case p.punct(i, "#") && p.punct(i+1, "["):
			c := min(p.close(i+1), end)
			p.attr(i+2, c, &a)
			i = c + 1
			continue
		}
		break
	}
	if i >= end || p.toks[i].kind == tInnerDoc || p.punct(i, "#") {
		return nil, i
	}
	start := i
	v, i := p.visibility(i, end)
	it := &item{vis: v, attrs: a, line: p.toks[start].line}

	// Qualifiers before the item keyword.
	for i < end && p.toks[i].kind == tIdent {
		switch p.toks[i].text {
		case "default", "async", "unsafe", "safe", "auto":
			if p.isIdent(i + 1) {
				i++
				continue
			}
		case "const":
			if p.ident(i+1, "fn") || p.ident(i+1, "unsafe") || p.ident(i+1, "async") || p.ident(i+1, "extern") {
				i++
				continue
			}
		case "extern":
			if p.ident(i+1, "crate") {
				return nil, p.stmtEnd(i, end) + 1
			}
			j := i + 1
			if j < end && p.toks[j].kind == tLiteral {
				j++ // the ABI string
			}
			if p.punct(j, "{") {
				c := min(p.close(j), end)
				it.kind = kExternBlock
				var ignored attrs
				it.body = undeferred(p.items(j+1, c, depth+1, &ignored))
				return it, c + 1
			}
			i = j
			continue
		}
		break
	}
	if i >= end {
		return nil, i
	}
	kw := p.toks[i]
	if kw.kind != tIdent {
		return nil, p.skipStatement(i, end)
	}
	switch kw.text {
	case "fn":
		it, next := p.fnItem(it, start, i, end)
		if it != nil && it.attrs.procMacro != procNone {
			procMacroItem(it)
		}
		return it, next
	case "struct":
		return p.structItem(it, start, i, end, kStruct)
	case "union":
		if p.isIdent(i+1) && (p.punct(i+2, "{") || p.punct(i+2, "<") || p.ident(i+2, "where")) {
			return p.structItem(it, start, i, end, kUnion)
		}
	case "enum":
		return p.enumItem(it, start, i, end)
	case "trait":
		return p.traitItem(it, start, i, end, depth)
	case "type":
		it.kind = kType
		return p.valueItem(it, start, i, end, false)
	case "const":
		if p.isIdent(i+1) || p.punct(i+1, "_") {
			it.kind = kConst
			return p.valueItem(it, start, i, end, true)
		}
	case "static":
		it.kind = kStatic
		j := i
		if p.ident(j+1, "mut") || p.ident(j+1, "ref") {
			j++ // "static ref" is lazy_static!'s, whose item is a static of that name
		}
		return p.valueItem(it, start, j, end, true)
	case "mod":
		return p.modItem(it, i, end, depth)
	case "use":
		it.kind = kUse
		semi := p.stmtEnd(i, end)
		p.useTree(i+1, semi, nil, &it.uses)
		return it, semi + 1
	case "impl":
		return p.implItem(it, i, end, depth)
	case "macro_rules":
		if p.punct(i+1, "!") && p.isIdent(i+2) {
			return p.macroItem(it, i, end)
		}
	}
	if start == i {
		// A macro invocation, its path perhaps qualified (cfg_if::cfg_if!).
		j, name := i, kw.text
		for p.punct(j+1, "::") && p.isIdent(j+2) {
			j += 2
			name = p.toks[j].text
		}
		// A macro named by its path with braces (pin_project_lite::pin_project! { pub struct
		// … }) wraps the items it is given: they are read as written (macroItems below) rather
		// than through another crate's internal rules.
		if rules, home, ok := p.macroRules(i, j, name); ok && p.punct(j+1, "!") && (p.punct(j+2, "(") || p.punct(j+2, "[") || j == i && p.punct(j+2, "{")) && p.close(j+2) > j+3 {
			if out, next, ok := p.expand(rules, home, j+2, end, depth); ok {
				it.kind = kMacroItems
				it.body = out
				return it, next
			}
		}
		if p.punct(j+1, "!") && p.punct(j+2, "{") {
			it, next := p.macroItems(it, name, j+2, end, depth)
			if it != nil && j == i && p.rules != nil && p.rules[name] == nil && name != "cfg_if" {
				it.kind, it.name = kMacroDeferred, name
				it.call = append(slices.Clip(p.toks[j+2:min(p.close(j+2), end)+1]), token{kind: tEOF, line: p.toks[j+2].line})
			}
			return it, next
		}
		if j == i && p.punct(j+1, "!") && p.punct(j+2, "(") && p.close(j+2) == j+3 {
			// "name!();": a macro_rules with a "() => { items }" rule expands to those items,
			// now when it is defined already, else when the module is loaded.
			next := j + 4
			if p.punct(next, ";") {
				next++
			}
			it.name = name
			if body, ok := p.noArgs[name]; ok {
				it.kind = kMacroItems
				it.body = body
			} else {
				it.kind = kMacroCall
			}
			return it, next
		}
	}
	return nil, p.skipStatement(i, end)
}

// macroRules returns the rules of the macro an item-level invocation names with the path
// toks[i..j] (name its last segment), and the crate they belong to for what their
// transcription invokes ("" for this crate): a bare name is a macro_rules of this crate defined
// so far; "crate::name" (or the "$crate::name" of a transcription) is the home crate's;
// "dep::name" is the #[macro_export] macro of crate dep (parser.extern), as RustCrypto's sha2
// declares Sha256 with digest::buffer_fixed!. ok is false for a longer path; rules are nil for a
// macro not known.
func (p *parser) macroRules(i, j int, name string) (rules []macroRule, home string, ok bool) {
	switch {
	case j == i:
		// A bare name resolves where the macro is invoked, also in another crate's
		// transcription (macro_rules' mixed-site hygiene); hence "$crate::".
		return p.rules[name], "", true
	case j != i+2:
		return nil, "", false
	case p.toks[i].text == "crate":
		if p.home == "" {
			return p.rules[name], "", true
		}
		return p.externRules(p.home, name), p.home, true
	}
	crate := p.toks[i].text
	return p.externRules(crate, name), crate, true
}

// externRules returns the rules of crate's exported macro name, nil when unknown.
func (p *parser) externRules(crate, name string) []macroRule {
	if p.extern == nil {
		return nil
	}
	return p.extern(crate)[name]
}

// expand expands the invocation of a macro_rules with rules whose arguments open at lb through the
// first of its rules that matches (see expand.go) and parses the result as items, which invoke
// "crate::" macros of home (see macroRules); ok is false when there are no rules or none of
// them matches.
func (p *parser) expand(rules []macroRule, home string, lb, end, depth int) ([]*item, int, bool) {
	if len(rules) == 0 || p.expDepth >= maxExpandDepth || depth >= maxMacroDepth || p.expanded == nil || *p.expanded >= maxCrateExpansion {
		return nil, 0, false
	}
	c := min(p.close(lb), end)
	next := c + 1
	if p.punct(next, ";") {
		next++
	}
	in := desugarDocs(p.toks[lb+1 : c])
	line := p.toks[lb].line
	for _, r := range rules {
		binds, ok := matchRule(r, in)
		if !ok {
			continue
		}
		out, ok := transcribe(r.body, binds, nil)
		if !ok {
			return nil, 0, false
		}
		*p.expanded += len(out)
		toks := make([]token, 0, len(out)+1)
		for _, t := range out {
			t.line = line // the items are where the invocation is
			toks = append(toks, t)
		}
		toks = append(toks, token{kind: tEOF, line: line})
		sub := &parser{toks: toks, noArgs: p.noArgs, rules: p.rules, expDepth: p.expDepth + 1, expanded: p.expanded, extern: p.extern, home: home}
		sub.match = matchBrackets(sub.toks)
		var inner attrs
		return sub.items(0, len(toks)-1, depth+1, &inner), next, true
	}
	return nil, 0, false
}

// undeferred returns items with each kMacroDeferred invocation replaced by the items its body
// holds, for the bodies of traits, impls and extern blocks, which the loader does not expand
// (only a module's items are loaded).
func undeferred(items []*item) []*item {
	if !slices.ContainsFunc(items, func(it *item) bool { return it.kind == kMacroDeferred }) {
		return items
	}
	var out []*item
	for _, it := range items {
		if it.kind != kMacroDeferred {
			out = append(out, it)
			continue
		}
		for _, b := range it.body {
			inherit(b, it)
		}
		out = append(out, it.body...)
	}
	return out
}

// inherit gives the item b of an invocation's body what the invocation's own attributes say
// of it: test-only and hidden (#[cfg(test)] or #[doc(hidden)] on the invocation).
func inherit(b, invocation *item) {
	if !b.attrs.testOnly {
		b.attrs.testOnly = invocation.attrs.testOnly
		b.attrs.hidden = b.attrs.hidden || invocation.attrs.hidden
	}
}

// expandDeferred expands the tokens of a kMacroDeferred invocation, its braces and what they
// hold (call, ending in tEOF), through rules, as parser.expand would have where it was written.
// ok is false when no rule matches or a bound of expansion is reached.
func expandDeferred(call []token, rules []macroRule, all map[string][]macroRule, noArgs map[string][]*item, expanded *int, extern func(string) map[string][]macroRule, depth int) (items []*item, ok bool) {
	p := &parser{toks: call, noArgs: noArgs, rules: all, expanded: expanded, extern: extern}
	p.match = matchBrackets(p.toks)
	items, _, ok = p.expand(rules, "", 0, len(call)-1, depth)
	return items, ok
}

// macroItems reads an item-level macro invocation "name! { … }" whose braces open at lb as the
// items its body holds, as the many crates that gate groups of items behind a macro_rules of
// their own (cfg_rt! { pub mod runtime; }, if_hyper! { pub use … }) write them: a macro whose
// body are items passes them through, perhaps under a cfg, and docidx keeps items under every
// cfg. cfg_if!'s "if #[cfg(…)] { … } else { … }" contributes the items of every branch. A
// body that is no items (lazy_static!'s "static ref", a DSL) gives none that are public, or
// only what does parse as an item.
func (p *parser) macroItems(it *item, name string, lb, end, depth int) (*item, int) {
	c := min(p.close(lb), end)
	next := c + 1
	if p.punct(next, ";") {
		next++
	}
	if depth >= maxMacroDepth {
		return nil, next
	}
	it.kind = kMacroItems
	var inner attrs
	if name == "cfg_if" {
		for i := lb + 1; i < c; i++ {
			if p.punct(i, "{") {
				e := min(p.close(i), c)
				it.body = append(it.body, p.items(i+1, e, depth+1, &inner)...)
				i = e
			} else if p.punct(i, "[") || p.punct(i, "(") {
				i = min(p.close(i), c)
			}
		}
	} else {
		it.body = p.items(lb+1, c, depth+1, &inner)
	}
	if inner.testOnly {
		it.attrs.testOnly = true
	}
	return it, next
}

// visibility reads a visibility at i: pub, pub(crate), pub(super), pub(self), pub(in path) or the
// old `crate`. A `pub (` that opens a tuple type is left alone.
func (p *parser) visibility(i, end int) (visibility, int) {
	switch {
	case p.ident(i, "pub"):
		if p.punct(i+1, "(") {
			c := p.close(i + 1)
			if c > i+1 && c < end && (c == i+3 && (p.ident(i+2, "crate") || p.ident(i+2, "super") || p.ident(i+2, "self")) || p.ident(i+2, "in")) {
				return visRestricted, c + 1
			}
		}
		return visPub, i + 1
	case p.ident(i, "crate") && !p.punct(i+1, "::") && p.isIdent(i+1):
		return visRestricted, i + 1
	}
	return visPrivate, i
}

// attr reads one attribute's tokens toks[a:b] (inside #[…]) into at.
func (p *parser) attr(a, b int, at *attrs) {
	if a >= b || p.toks[a].kind != tIdent {
		return
	}
	switch p.toks[a].text {
	case "doc":
		switch {
		case p.punct(a+1, "=") && a+2 < b && p.toks[a+2].kind == tLiteral:
			if s, ok := unquote(p.toks[a+2].text); ok {
				at.docs = append(at.docs, docFrag{text: s, block: true, raw: true})
			}
		case p.punct(a+1, "=") && p.ident(a+2, "concat") && p.punct(a+3, "!") && p.punct(a+4, "("):
			if s, ok := p.concatLiterals(a+5, min(p.close(a+4), b)); ok {
				at.docs = append(at.docs, docFrag{text: s, block: true, raw: true})
			}
		case p.punct(a+1, "=") && p.ident(a+2, "include_str") && p.punct(a+3, "!") && a+5 < b && p.toks[a+5].kind == tLiteral:
			if s, ok := unquote(p.toks[a+5].text); ok {
				at.docs = append(at.docs, docFrag{include: s, block: true, raw: true})
			}
		case p.punct(a+1, "("):
			c := min(p.close(a+1), b)
			for j := a + 2; j < c; j++ {
				if p.punct(j-1, "(") || p.punct(j-1, ",") {
					switch {
					case p.ident(j, "hidden"):
						at.hidden = true
					case p.ident(j, "inline"):
						at.inline = true
					case p.ident(j, "cfg") && p.punct(j+1, "("):
						at.docCfg = cfgWords(p.cfgPredicate(j+2, min(p.close(j+1), c)))
					}
				}
			}
		}
	case "cfg":
		if p.punct(a+1, "(") {
			c := p.cfgPredicate(a+2, min(p.close(a+1), b))
			if needsTest(c) {
				at.testOnly = true
			}
			at.autoCfg = cfgWords(c)
		}
	case "feature":
		// #![feature(doc_cfg)]: rustdoc's auto_cfg is on with it since doc_auto_cfg merged
		// into doc_cfg (RFC 3631); the older name turned it on alone.
		if p.punct(a+1, "(") {
			for j := a + 2; j < min(p.close(a+1), b); j++ {
				if p.ident(j, "doc_cfg") || p.ident(j, "doc_auto_cfg") {
					at.docAutoCfg = true
				}
			}
		}
	case "cfg_attr":
		// #[cfg_attr(predicate, attr, …)]: the attributes apply when the predicate holds in
		// the build rustdoc documents (see docBuild). Crates choose doc strings this way,
		// toml's and mio's fences among them: #![cfg_attr(feature = "default", doc = " ```")].
		if !p.punct(a+1, "(") {
			return
		}
		parts := p.splitTop(a+2, min(p.close(a+1), b), false)
		if len(parts) < 2 || !docBuild(p.cfgPredicate(parts[0][0], parts[0][1])) {
			return
		}
		for _, r := range parts[1:] {
			if r[0] < r[1] && !p.ident(r[0], "cfg_attr") {
				p.attr(r[0], r[1], at)
			}
		}
	case "deprecated":
		at.deprecated = true
		at.deprecation = p.deprecation(a+1, b)
	case "macro_export":
		at.macroExport = true
	case "proc_macro":
		at.procMacro = procBang
	case "proc_macro_attribute":
		at.procMacro = procAttribute
	case "proc_macro_derive":
		// #[proc_macro_derive(Error, attributes(backtrace, error, from, source))]
		if !p.punct(a+1, "(") {
			return
		}
		c := min(p.close(a+1), b)
		if !p.isIdent(a + 2) {
			return
		}
		at.procMacro, at.derive = procDerive, identName(p.toks[a+2].text)
		for j := a + 3; j < c; j++ {
			if p.ident(j, "attributes") && p.punct(j+1, "(") {
				for k := j + 2; k < min(p.close(j+1), c); k++ {
					if p.isIdent(k) {
						at.helpers = append(at.helpers, identName(p.toks[k].text))
					}
				}
				break
			}
		}
	case "path":
		if p.punct(a+1, "=") && a+2 < b && p.toks[a+2].kind == tLiteral {
			if s, ok := unquote(p.toks[a+2].text); ok {
				at.path = s
			}
		}
	}
}

// cfg is a parsed configuration predicate: an option (name, or name = "value") or all/any/not.
type cfg struct {
	name  string // "feature=" for feature = "x"
	value string // "x" for feature = "x"
	args  []cfg
}

func (p *parser) cfgPredicate(a, b int) cfg {
	if a >= b || !p.isIdent(a) {
		return cfg{}
	}
	c := cfg{name: p.toks[a].text}
	if p.punct(a+1, "(") && (c.name == "all" || c.name == "any" || c.name == "not") {
		close := min(p.close(a+1), b)
		for _, r := range p.splitTop(a+2, close, false) {
			c.args = append(c.args, p.cfgPredicate(r[0], r[1]))
		}
	} else if p.punct(a+1, "=") {
		c.name += "=" // a key-value option such as feature = "x" is never `test`
		if a+2 < b && p.toks[a+2].kind == tLiteral {
			c.value, _ = unquote(p.toks[a+2].text)
		}
	}
	return c
}

// docBuild reports whether a cfg predicate holds in the build whose documentation docidx
// reads: rustdoc's (doc), as docs.rs runs it (docsrs), with every feature on, since docidx
// keeps the items of every feature; any other option (test, a target, a --cfg flag) is off.
func docBuild(c cfg) bool {
	switch c.name {
	case "doc", "docsrs", "feature=":
		return len(c.args) == 0
	case "not":
		return len(c.args) == 1 && !docBuild(c.args[0])
	case "all":
		for _, a := range c.args {
			if !docBuild(a) {
				return false
			}
		}
		return true
	case "any":
		for _, a := range c.args {
			if docBuild(a) {
				return true
			}
		}
	}
	return false
}

// cfgWords returns the features a #[doc(cfg(…))] predicate needs as rustdoc's "Available on
// … only." words them: "crate feature `x`", "crate features `x` and `y`" for all(…), "crate
// features `x` or `y`" for any(…). It returns "" for a predicate of anything but features
// (a target, not(…)), which docidx does not word.
func cfgWords(c cfg) string {
	if c.name == "feature=" && len(c.args) == 0 && c.value != "" {
		return "crate feature `" + c.value + "`"
	}
	join := map[string]string{"all": " and ", "any": " or "}[c.name]
	if join == "" || len(c.args) == 0 {
		return ""
	}
	var names []string
	for _, a := range c.args {
		w := cfgWords(a)
		if !strings.HasPrefix(w, "crate feature `") {
			return ""
		}
		names = append(names, strings.TrimPrefix(w, "crate feature "))
	}
	if len(names) == 1 {
		return "crate feature " + names[0]
	}
	return "crate features " + strings.Join(names, join)
}

// needsTest reports whether a cfg predicate can only hold in test builds: test, all(…, test, …),
// and doctest, which rustdoc sets only while it collects doctests, never in the documentation
// it builds (https://doc.rust-lang.org/rustdoc/write-documentation/documentation-tests.html#include-items-only-when-collecting-doctests):
// the `#[doc = include_str!("../README.md")] #[cfg(doctest)] pub struct ReadmeDoctests;` that
// crates write to test their README is no item of theirs.
func needsTest(c cfg) bool {
	switch c.name {
	case "test", "doctest":
		return len(c.args) == 0
	case "all":
		for _, a := range c.args {
			if needsTest(a) {
				return true
			}
		}
	case "any":
		if len(c.args) == 0 {
			return false
		}
		for _, a := range c.args {
			if !needsTest(a) {
				return false
			}
		}
		return true
	}
	return false
}

// stmtEnd returns the index of the ";" that ends the statement starting at i (brackets skipped),
// or end.
func (p *parser) stmtEnd(i, end int) int {
	for i < end {
		t := p.toks[i]
		if t.kind == tPunct && len(t.text) == 1 {
			switch t.text[0] {
			case ';':
				return i
			case '(', '[', '{':
				i = p.close(i) + 1
				continue
			case ')', ']', '}':
				return i
			}
		}
		i++
	}
	return end
}

// skipStatement skips what starts at i — up to and including a ";" or a braced block at depth 0 —
// and returns the index after it.
func (p *parser) skipStatement(i, end int) int {
	start := i
	for i < end {
		t := p.toks[i]
		if t.kind == tPunct && len(t.text) == 1 {
			switch t.text[0] {
			case ';':
				return i + 1
			case '{':
				c := p.close(i)
				if p.punct(c+1, ";") {
					c++
				}
				return c + 1
			case '(', '[':
				i = p.close(i) + 1
				continue
			case ')', ']', '}':
				if i == start {
					return i + 1
				}
				return i
			}
		}
		i++
	}
	return end
}

// header returns the index of the "{" or ";" that ends a declaration header starting at i,
// skipping generics (also const-generic blocks inside them) and bracketed groups, or end.
func (p *parser) header(i, end int) int {
	angle := 0
	for i < end {
		t := p.toks[i]
		if t.kind == tPunct && len(t.text) == 1 {
			switch t.text[0] {
			case '(', '[':
				i = p.close(i) + 1
				continue
			case '{':
				// Inside generics a brace opens a const-generic block (Foo<{ N }>), which
				// follows "<", "," or "="; anywhere else it is the body.
				if angle > 0 && (p.punct(i-1, "<") || p.punct(i-1, ",") || p.punct(i-1, "=")) {
					i = p.close(i) + 1
					continue
				}
				return i
			case ';', ')', ']', '}':
				return i
			case '<':
				angle++
			case '>':
				if angle > 0 {
					angle--
				}
			}
		}
		i++
	}
	return end
}

// skipAngles returns the index after the ">" closing the "<" at i.
func (p *parser) skipAngles(i, end int) int {
	depth := 0
	for i < end {
		t := p.toks[i]
		if t.kind == tPunct && len(t.text) == 1 {
			switch t.text[0] {
			case '<':
				depth++
			case '>':
				depth--
				if depth <= 0 {
					return i + 1
				}
			case '(', '[', '{':
				i = p.close(i) + 1
				continue
			case ';', ')', ']', '}':
				return i
			}
		}
		i++
	}
	return end
}

// concatLiterals evaluates the arguments toks[a:b] of a concat! in a doc attribute, as rustdoc
// shows its string: string, number, char and bool literals, and stringify!(…) of tokens (which
// a macro's transcription fills with its fragments: portable-atomic's #[doc = concat!("An
// integer type …, [`", stringify!($int_type), "`].")]). ok is false when an argument is
// anything else (env!, a nested macro), which only a compiler could evaluate.
func (p *parser) concatLiterals(a, b int) (string, bool) {
	var sb strings.Builder
	for _, r := range p.splitTop(a, b, false) {
		i, j := r[0], r[1]
		switch {
		case i+1 == j && p.toks[i].kind == tLiteral:
			t := p.toks[i].text
			if s, ok := unquote(t); ok {
				sb.WriteString(s)
			} else if s, ok := unquoteChar(t); ok {
				sb.WriteString(s)
			} else {
				sb.WriteString(t)
			}
		case i+1 == j && (p.ident(i, "true") || p.ident(i, "false")):
			sb.WriteString(p.toks[i].text)
		case p.ident(i, "stringify") && p.punct(i+1, "!") && i+2 < j && isOpen(p.toks[i+2]) && p.close(i+2) == j-1:
			sb.WriteString(p.render(i+3, j-1))
		case i == j:
			// a trailing comma
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// unquoteChar returns the character a char literal ('a', '\n') writes.
func unquoteChar(lit string) (string, bool) {
	if len(lit) < 3 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return "", false
	}
	r, _, tail, err := strconv.UnquoteChar(lit[1:len(lit)-1], '\'')
	if err != nil || tail != "" {
		return "", false
	}
	return string(r), true
}

// splitTop splits toks[a:b] at commas outside brackets (and, with angles, outside <…> before any
// "=" of each part, since after "=" an expression's < and > compare or shift).
func (p *parser) splitTop(a, b int, angles bool) [][2]int {
	var parts [][2]int
	start, angle, seenEq := a, 0, false
	for i := a; i < b; i++ {
		t := p.toks[i]
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			i = min(p.close(i), b)
		case "<":
			if angles && !seenEq {
				angle++
			}
		case ">":
			if angles && !seenEq && angle > 0 {
				angle--
			}
		case "=":
			if angle == 0 {
				seenEq = true
			}
		case ",":
			if angle == 0 {
				parts = append(parts, [2]int{start, i})
				start, seenEq = i+1, false
			}
		}
	}
	if start < b {
		parts = append(parts, [2]int{start, b})
	}
	return parts
}

func (p *parser) fnItem(it *item, start, i, end int) (*item, int) {
	if !p.isIdent(i + 1) {
		return nil, p.skipStatement(i, end)
	}
	it.kind = kFn
	it.name = identName(p.toks[i+1].text)
	h := p.header(i+2, end)
	it.sig = clip(p.render(start, h))
	if p.punct(h, "{") {
		c := p.close(h)
		it.errors = p.bodyErrors(h+1, c)
		return it, c + 1
	}
	return it, h + 1
}

// procMacroKind tells the three kinds of procedural macros
// (https://doc.rust-lang.org/reference/procedural-macros.html).
type procMacroKind uint8

const (
	procNone      procMacroKind = iota
	procBang                    // #[proc_macro]: used as name!(…)
	procAttribute               // #[proc_macro_attribute]: used as #[name]
	procDerive                  // #[proc_macro_derive(Name)]: used as #[derive(Name)]
)

// procMacroItem turns the function of a procedural macro into the macro a proc-macro crate
// exports, as rustdoc lists it: a derive macro under its derive name (thiserror_impl's
// derive_error is the derive macro Error, which `pub use thiserror_impl::*` makes
// thiserror::Error), an attribute or function-like macro under the function's name; its
// signature is how the macro is written where it is used. The function itself is not an item
// other crates can name.
func procMacroItem(it *item) {
	switch it.attrs.procMacro {
	case procBang:
		it.sig = it.name + "!() { /* proc-macro */ }"
	case procAttribute:
		it.sig = "#[" + it.name + "]"
	case procDerive:
		it.name = it.attrs.derive
		it.sig = "#[derive(" + it.name + ")]"
		if len(it.attrs.helpers) > 0 {
			it.sig += "\n// Attributes available to this derive: #[" + strings.Join(it.attrs.helpers, "] #[") + "]"
		}
	}
}

func (p *parser) structItem(it *item, start, i, end int, kind itemKind) (*item, int) {
	if !p.isIdent(i + 1) {
		return nil, p.skipStatement(i, end)
	}
	it.kind = kind
	it.name = identName(p.toks[i+1].text)
	j := i + 2
	if p.punct(j, "<") {
		j = p.skipAngles(j, end)
	}
	if p.punct(j, "(") {
		// Tuple struct: fields, then an optional where clause, then ";".
		c := min(p.close(j), end)
		h := p.header(c+1, end)
		var b strings.Builder
		b.WriteString(p.render(start, j))
		b.WriteString("(")
		b.WriteString(p.fields(j+1, c))
		b.WriteString(")")
		if h > c+1 {
			b.WriteString(" " + p.render(c+1, h))
		}
		b.WriteString(";")
		it.sig = clip(b.String())
		return it, h + 1
	}
	h := p.header(j, end)
	if !p.punct(h, "{") {
		it.sig = clip(p.render(start, h) + ";")
		return it, h + 1
	}
	c := min(p.close(h), end)
	fields := p.fields(h+1, c)
	it.body = p.fieldItems(h+1, c)
	if fields == "" {
		it.sig = clip(p.render(start, h) + " {}")
	} else {
		it.sig = clip(p.render(start, h) + " { " + fields + " }")
	}
	return it, c + 1
}

// fields renders the public fields of a struct or union (pub only), or every field of a tuple
// struct marked pub, with "/* private fields */" standing for the others, as rustdoc shows them.
func (p *parser) fields(a, b int) string {
	var shown []string
	private := false
	for _, r := range p.splitTop(a, b, true) {
		j, at := p.skipAttrs(r[0], r[1])
		if j >= r[1] {
			continue
		}
		if at.testOnly || at.hidden {
			if !at.testOnly {
				private = true
			}
			continue
		}
		v, _ := p.visibility(j, r[1])
		if v != visPub {
			private = true
			continue
		}
		if len(shown) == maxFields {
			private = true
			continue
		}
		shown = append(shown, p.render(j, r[1]))
	}
	if private {
		shown = append(shown, "/* private fields */")
	}
	return strings.Join(shown, ", ")
}

// fieldItems returns the pub fields of a named-field struct or union body toks[a:b] as kField
// items, each with its doc comments and its declaration as written ("pub port: u16").
func (p *parser) fieldItems(a, b int) []*item {
	var out []*item
	for _, r := range p.splitTop(a, b, true) {
		j, at := p.skipAttrs(r[0], r[1])
		if j >= r[1] || at.testOnly || at.hidden {
			continue
		}
		v, k := p.visibility(j, r[1])
		if v != visPub || !p.isIdent(k) || !p.punct(k+1, ":") {
			continue
		}
		out = append(out, &item{kind: kField, name: identName(p.toks[k].text), vis: v, attrs: at,
			line: p.toks[j].line, sig: clip(p.render(j, r[1]))})
	}
	return out
}

// skipAttrs skips doc comments and outer attributes at a, returning the next index and what the
// attributes say (outer doc comments included).
func (p *parser) skipAttrs(a, b int) (int, attrs) {
	var at attrs
	for a < b {
		switch {
		case p.toks[a].kind == tOuterDoc:
			at.docs = append(at.docs, docFrag{text: p.toks[a].text, block: strings.Contains(p.toks[a].text, "\n")})
			a++
			continue
		case p.toks[a].kind == tInnerDoc:
			a++
			continue
		case p.punct(a, "#") && p.punct(a+1, "["):
			c := min(p.close(a+1), b)
			p.attr(a+2, c, &at)
			a = c + 1
			continue
		}
		break
	}
	return a, at
}

func (p *parser) enumItem(it *item, start, i, end int) (*item, int) {
	if !p.isIdent(i + 1) {
		return nil, p.skipStatement(i, end)
	}
	it.kind = kEnum
	it.name = identName(p.toks[i+1].text)
	h := p.header(i+2, end)
	if !p.punct(h, "{") {
		it.sig = clip(p.render(start, h) + ";")
		return it, h + 1
	}
	c := min(p.close(h), end)
	var variants []string
	more := 0
	for _, r := range p.splitTop(h+1, c, true) {
		j, at := p.skipAttrs(r[0], r[1])
		if j >= r[1] || at.hidden || at.testOnly {
			continue
		}
		if p.isIdent(j) {
			it.body = append(it.body, &item{kind: kVariant, name: identName(p.toks[j].text), vis: visPub, attrs: at,
				line: p.toks[j].line, sig: clip(p.render(j, r[1]))})
		}
		if len(variants) == maxFields {
			more++
			continue
		}
		variants = append(variants, p.render(j, r[1]))
	}
	if more > 0 {
		variants = append(variants, "/* "+strconv.Itoa(more)+" more variants */")
	}
	if len(variants) == 0 {
		it.sig = clip(p.render(start, h) + " {}")
	} else {
		it.sig = clip(p.render(start, h) + " { " + strings.Join(variants, ", ") + " }")
	}
	return it, c + 1
}

func (p *parser) traitItem(it *item, start, i, end, depth int) (*item, int) {
	if !p.isIdent(i + 1) {
		return nil, p.skipStatement(i, end)
	}
	it.kind = kTrait
	it.name = identName(p.toks[i+1].text)
	h := p.header(i+2, end)
	if !p.punct(h, "{") {
		it.sig = clip(p.render(start, h) + ";") // a trait alias
		return it, h + 1
	}
	it.sig = clip(p.render(start, h))
	c := min(p.close(h), end)
	if depth < maxNesting {
		var ignored attrs
		it.body = undeferred(p.items(h+1, c, depth+1, &ignored))
	}
	return it, c + 1
}

// valueItem reads a type alias, associated type, const or static: everything to its ";", an
// initializer shown only when it is short.
func (p *parser) valueItem(it *item, start, i, end int, value bool) (*item, int) {
	if !p.isIdent(i+1) && !p.punct(i+1, "_") {
		return nil, p.skipStatement(i, end)
	}
	it.name = identName(p.toks[i+1].text)
	semi := p.stmtEnd(i, end)
	sigEnd := semi
	if value {
		// Find the "=" of the initializer: outside generics of the type (Box<dyn Fn() -> u8>).
		angle := 0
		for j := i + 2; j < semi; j++ {
			t := p.toks[j]
			if t.kind != tPunct {
				continue
			}
			switch t.text {
			case "(", "[", "{":
				j = p.close(j)
			case "<":
				angle++
			case ">":
				if angle > 0 {
					angle--
				}
			case "=":
				if angle == 0 {
					if len(p.render(j+1, semi)) > maxInitValue || p.hasBlock(j+1, semi) {
						sigEnd = j
					}
					j = semi
				}
			}
		}
	}
	it.sig = clip(p.render(start, sigEnd) + ";")
	return it, semi + 1
}

// hasBlock reports whether toks[a:b] holds a braced block (a block expression, a struct literal).
func (p *parser) hasBlock(a, b int) bool {
	for i := a; i < b; i++ {
		if p.punct(i, "{") {
			return true
		}
	}
	return false
}

func (p *parser) modItem(it *item, i, end, depth int) (*item, int) {
	if !p.isIdent(i + 1) {
		return nil, p.skipStatement(i, end)
	}
	it.kind = kMod
	it.name = identName(p.toks[i+1].text)
	if !p.punct(i+2, "{") {
		return it, p.stmtEnd(i, end) + 1
	}
	c := min(p.close(i+2), end)
	it.inline = true
	if depth < maxNesting {
		it.body = p.items(i+3, c, depth+1, &it.inner)
	}
	return it, c + 1
}

// useTree flattens the use tree in toks[a:b] into out, each path prefixed by prefix.
func (p *parser) useTree(a, b int, prefix []string, out *[]usePath) {
	segs := append([]string(nil), prefix...)
	i := a
	if p.punct(i, "::") {
		if len(segs) == 0 {
			segs = append(segs, "::")
		}
		i++
	}
	for i < b {
		t := p.toks[i]
		switch {
		case t.kind == tIdent:
			segs = append(segs, identName(t.text))
			i++
			if p.punct(i, "::") {
				i++
				continue
			}
			u := usePath{segs: segs}
			if p.ident(i, "as") && i+1 < b && (p.isIdent(i+1) || p.punct(i+1, "_")) {
				u.alias = identName(p.toks[i+1].text)
			}
			if n := len(u.segs); n > 1 && u.segs[n-1] == "self" {
				u.segs = u.segs[:n-1] // a::{self} binds a
			}
			if len(*out) < 1000 {
				*out = append(*out, u)
			}
			return
		case p.punct(i, "*"):
			if len(*out) < 1000 {
				*out = append(*out, usePath{segs: segs, glob: true})
			}
			return
		case p.punct(i, "{"):
			c := min(p.close(i), b)
			if len(segs) > 32 {
				return
			}
			for _, r := range p.splitTop(i+1, c, false) {
				p.useTree(r[0], r[1], segs, out)
			}
			return
		default:
			return
		}
	}
}

func (p *parser) implItem(it *item, i, end, depth int) (*item, int) {
	it.kind = kImpl
	j := i + 1
	if p.punct(j, "<") {
		j = p.skipAngles(j, end)
	}
	h := p.header(j, end)
	if p.ident(j, "const") {
		j++
	}
	if p.punct(j, "!") {
		j++
	}
	// The type follows `for` in a trait impl; `for<'a>` is a higher-ranked bound, not that.
	typeStart, typeEnd := j, h
	angle := 0
	for k := j; k < h; k++ {
		t := p.toks[k]
		switch {
		case t.kind == tPunct && (t.text == "(" || t.text == "["):
			k = p.close(k)
		case t.kind == tPunct && t.text == "<":
			angle++
		case t.kind == tPunct && t.text == ">":
			if angle > 0 {
				angle--
			}
		case angle == 0 && p.ident(k, "where"):
			typeEnd = k
			k = h
		case angle == 0 && p.ident(k, "for") && !p.punct(k+1, "<"):
			it.traitImpl = true
			it.traitPath, it.traitText = p.typePath(j, k)
			typeStart = k + 1
		}
	}
	it.selfPath, it.selfText = p.typePath(typeStart, typeEnd)
	if !p.punct(h, "{") {
		return it, h + 1
	}
	c := min(p.close(h), end)
	if depth < maxNesting {
		var ignored attrs
		it.body = undeferred(p.items(h+1, c, depth+1, &ignored))
	}
	return it, c + 1
}

// typePath reads the path of a type in toks[a:b] ("crate::a::Foo<T>" gives [crate a Foo]); for a
// type that is not a path (a slice, a tuple, a reference) it returns nil and the type as written.
func (p *parser) typePath(a, b int) ([]string, string) {
	text := p.render(a, b)
	if p.ident(a, "dyn") {
		a++
	}
	var segs []string
	i := a
	if p.punct(i, "::") {
		i++
	}
	for i < b && p.isIdent(i) {
		segs = append(segs, identName(p.toks[i].text))
		i++
		if !p.punct(i, "::") {
			break
		}
		i++
		if p.punct(i, "<") { // Foo::<T>
			break
		}
	}
	return segs, text
}

func (p *parser) macroItem(it *item, i, end int) (*item, int) {
	it.kind = kMacro
	it.name = identName(p.toks[i+2].text)
	j := i + 3
	if !(p.punct(j, "{") || p.punct(j, "(") || p.punct(j, "[")) {
		return nil, p.skipStatement(j, end)
	}
	c := min(p.close(j), end)
	var b strings.Builder
	b.WriteString("macro_rules! " + it.name + " {")
	arms := 0
	// A macro_rules shadows one of the same name defined before it: serde_core's de and ser
	// modules each define their own declare_error_trait!, and ser's Error is not de's.
	if p.rules != nil {
		delete(p.rules, it.name)
	}
	for k := j + 1; k < c; {
		if !(p.punct(k, "(") || p.punct(k, "[") || p.punct(k, "{")) {
			k++
			continue
		}
		mc := min(p.close(k), c)
		if arms < maxArms {
			b.WriteString("\n    " + p.render(k, mc+1) + " => { ... };")
		}
		arms++
		empty := mc == k+1
		matcher := p.toks[k+1 : mc]
		k = mc + 1
		if p.punct(k, "=>") {
			k++
			if p.punct(k, "(") || p.punct(k, "[") || p.punct(k, "{") {
				bc := min(p.close(k), c)
				if p.rules != nil && (p.rules[it.name] != nil || len(p.rules) < maxMacroRules) && len(p.rules[it.name]) < maxArms*4 {
					p.rules[it.name] = append(p.rules[it.name], macroRule{matcher: matcher, body: p.toks[k+1 : bc]})
				}
				if empty && p.noArgs != nil && p.noArgs[it.name] == nil && len(p.noArgs) < maxNoArgMacros {
					var inner attrs
					p.noArgs[it.name] = p.items(k+1, bc, 1, &inner)
				}
				k = bc + 1
			}
		}
	}
	if arms > maxArms {
		b.WriteString("\n    /* " + strconv.Itoa(arms-maxArms) + " more rules */")
	}
	b.WriteString("\n}")
	it.sig = clip(b.String())
	next := c + 1
	if p.punct(next, ";") {
		next++
	}
	return it, next
}

// render prints toks[a:b] as one line: a single space wherever the source had whitespace or
// comments, none inside brackets at a line break, no trailing comma before a closer on the next
// line or at the end, and no doc comments or attributes.
func (p *parser) render(a, b int) string {
	var sb strings.Builder
	for i := a; i < b && i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.kind == tOuterDoc || t.kind == tInnerDoc || t.kind == tEOF:
			continue
		case p.punct(i, "#") && p.punct(i+1, "["):
			i = p.close(i + 1)
			continue
		}
		if sb.Len() > 0 && t.gap {
			prev := lastByte(sb.String())
			switch {
			case prev == '(' || prev == '[' || prev == ' ':
			case t.kind == tPunct && (t.text == ")" || t.text == "]"):
			case t.nl && (prev == '<' || t.kind == tPunct && t.text == ">"):
			default:
				sb.WriteByte(' ')
			}
		}
		if t.kind == tPunct && t.text == "," && p.trailingComma(i, b) {
			continue
		}
		sb.WriteString(t.text)
		if sb.Len() > 4*maxSignature {
			break
		}
	}
	return strings.TrimRight(sb.String(), " ,")
}

// trailingComma reports whether the comma at i is the last element before a closer that starts
// a new line (rustfmt's vertical lists) or before the end of the rendered range.
func (p *parser) trailingComma(i, b int) bool {
	j := i + 1
	for j < b && (p.toks[j].kind == tOuterDoc || p.toks[j].kind == tInnerDoc) {
		j++
	}
	if j >= b {
		return true
	}
	t := p.toks[j]
	return t.nl && t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == ">" || t.text == "}")
}

func lastByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// clip cuts a signature at maxSignature bytes (on a rune boundary), marking the cut with " …".
func clip(s string) string {
	if len(s) <= maxSignature {
		return s
	}
	return limit.Cut(s, maxSignature) + " …"
}

// identName drops the r# of a raw identifier.
func identName(s string) string { return strings.TrimPrefix(s, "r#") }

// deprecation returns the words rustdoc shows for a #[deprecated] attribute whose tokens after
// the name are [a, b): `= "note"`, or `(since = "…", note = "…")` with either or both. rustdoc
// renders "Deprecated since SINCE: NOTE", "Deprecated: NOTE" or "Deprecated since SINCE"; a bare
// #[deprecated] (or one whose values are not string literals) gives "".
func (p *parser) deprecation(a, b int) string {
	var since, note string
	switch {
	case p.punct(a, "=") && a+1 < b && p.toks[a+1].kind == tLiteral:
		note, _ = unquote(p.toks[a+1].text)
	case p.punct(a, "("):
		c := min(p.close(a), b)
		for j := a + 1; j+2 < c; j++ {
			if !p.punct(j-1, "(") && !p.punct(j-1, ",") || !p.punct(j+1, "=") || p.toks[j+2].kind != tLiteral {
				continue
			}
			if v, ok := unquote(p.toks[j+2].text); ok {
				switch {
				case p.ident(j, "since"):
					since = v
				case p.ident(j, "note"):
					note = v
				}
			}
		}
	}
	since, note = strings.TrimSpace(since), strings.Join(strings.Fields(note), " ")
	switch {
	case since != "" && note != "":
		return "Deprecated since " + since + ": " + note
	case note != "":
		return "Deprecated: " + note
	case since != "":
		return "Deprecated since " + since
	}
	return ""
}

// unquote returns the value of a string literal token: "…" with Rust escapes, or a raw string.
func unquote(lit string) (string, bool) {
	switch {
	case strings.HasPrefix(lit, "r"):
		s := strings.TrimPrefix(lit, "r")
		h := len(s) - len(strings.TrimLeft(s, "#"))
		s = s[h:]
		if len(s) < 2+h || s[0] != '"' || !strings.HasSuffix(s, "\""+strings.Repeat("#", h)) {
			return "", false
		}
		return s[1 : len(s)-1-h], true
	case strings.HasPrefix(lit, "\""):
		if len(lit) < 2 || !strings.HasSuffix(lit, "\"") {
			return "", false
		}
		body := lit[1 : len(lit)-1]
		if !strings.Contains(body, `\`) {
			return body, true
		}
		var b strings.Builder
		for i := 0; i < len(body); i++ {
			c := body[i]
			if c != '\\' || i+1 >= len(body) {
				b.WriteByte(c)
				continue
			}
			i++
			if e, ok := clex.Escape(body[i]); ok {
				b.WriteByte(e)
				continue
			}
			switch body[i] {
			case '\n':
				// A line continuation: the break and the next line's leading whitespace vanish.
				for i+1 < len(body) && (body[i+1] == ' ' || body[i+1] == '\t' || body[i+1] == '\n' || body[i+1] == '\r') {
					i++
				}
			case 'u':
				if i+1 < len(body) && body[i+1] == '{' {
					if end := strings.IndexByte(body[i:], '}'); end > 0 {
						if n, err := strconv.ParseUint(strings.ReplaceAll(body[i+2:i+end], "_", ""), 16, 32); err == nil && utf8.ValidRune(rune(n)) {
							b.WriteRune(rune(n))
						}
						i += end
						continue
					}
				}
				b.WriteByte('u')
			case 'x':
				if i+2 < len(body) {
					if n, err := strconv.ParseUint(body[i+1:i+3], 16, 8); err == nil && n < 0x80 {
						b.WriteByte(byte(n))
						i += 2
						continue
					}
				}
				b.WriteByte('x')
			default:
				b.WriteByte(body[i])
			}
		}
		return b.String(), true
	}
	return "", false
}
