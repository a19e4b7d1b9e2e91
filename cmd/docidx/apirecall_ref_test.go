package main

// The reference listings of the API recall benchmark that are parsed in Go: the text of
// `go doc -all` and rustdoc's HTML. Both are a tool's own output, read as that tool writes it
// (go1.2x's go doc; rustdoc of Rust 1.9x), not untrusted input.

import (
	"html"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// parseGoDoc lists the exported items of one package's `go doc -all` text. Each declaration
// starts at column 0 under the CONSTANTS, VARIABLES, FUNCTIONS and TYPES headings, its body
// (a struct, interface, or const/var block) indented by a tab up to a closing line at column
// 0, its doc comment indented by four spaces after it. Items are named as in the package:
// "Name", "Type.Method"; exported struct fields and interface methods written in a type's
// declaration are members "Type.Field" tagged "member", documented by a comment on their
// line or on the lines above; entries of a const or var block are items, documented by the
// block's doc or their own comment.
func parseGoDoc(text string) []refItem {
	lines := strings.Split(text, "\n")
	var items []refItem
	inSections := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch line {
		case "CONSTANTS", "VARIABLES", "FUNCTIONS", "TYPES":
			inSections = true
			continue
		}
		if !inSections || line == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		// A declaration: its body, then its doc.
		decl := []string{line}
		if open := strings.TrimSpace(stripGoComment(line)); strings.HasSuffix(open, "{") || strings.HasSuffix(open, "(") {
			for i+1 < len(lines) {
				i++
				decl = append(decl, lines[i])
				if l := lines[i]; l != "" && l[0] != '\t' && l[0] != ' ' {
					break
				}
			}
		}
		documented := false
		for i+1 < len(lines) && (lines[i+1] == "" || strings.HasPrefix(lines[i+1], "    ")) {
			i++
			if strings.TrimSpace(lines[i]) != "" {
				documented = true
			}
		}
		items = append(items, goDeclItems(decl, documented)...)
	}
	return items
}

// goDeclItems names the items of one go doc declaration.
func goDeclItems(decl []string, documented bool) []refItem {
	head := decl[0]
	switch {
	case strings.HasPrefix(head, "func ("):
		recv, rest, ok := strings.Cut(head[len("func ("):], ")")
		if !ok {
			return nil
		}
		recv, _, _ = strings.Cut(recv, "[") // "c *Cache[K, V]"
		f := strings.Fields(recv)
		typ := strings.TrimPrefix(f[len(f)-1], "*")
		name := goIdent(strings.TrimSpace(rest))
		if !goExported(name) || !goExported(typ) {
			return nil
		}
		return []refItem{{Paths: []string{typ + "." + name}, Kind: "method", Doc: documented}}
	case strings.HasPrefix(head, "func "):
		name := goIdent(head[len("func "):])
		if !goExported(name) {
			return nil
		}
		return []refItem{{Paths: []string{name}, Kind: "func", Doc: documented}}
	case strings.HasPrefix(head, "type "):
		name := goIdent(head[len("type "):])
		if !goExported(name) {
			return nil
		}
		items := []refItem{{Paths: []string{name}, Kind: "type", Doc: documented}}
		if body := stripGoComment(head); len(decl) > 1 && (strings.HasSuffix(body, "struct {") || strings.HasSuffix(body, "interface {")) {
			for _, m := range goBlockEntries(decl, strings.HasSuffix(body, "interface {"), false) {
				m.Paths[0] = name + "." + m.Paths[0]
				m.Tags = []string{"member"}
				items = append(items, m)
			}
		}
		return items
	case strings.HasPrefix(head, "const "), strings.HasPrefix(head, "var "):
		kind, rest, _ := strings.Cut(head, " ")
		if strings.HasSuffix(stripGoComment(head), "(") {
			var items []refItem
			for _, e := range goBlockEntries(decl, false, true) {
				e.Kind = kind
				e.Doc = e.Doc || documented
				items = append(items, e)
			}
			return items
		}
		var items []refItem
		names, _, _ := strings.Cut(stripGoComment(rest), "=")
		for n := range strings.SplitSeq(names, ",") {
			n = goIdent(strings.TrimSpace(n))
			if goExported(n) {
				items = append(items, refItem{Paths: []string{n}, Kind: kind, Doc: documented || strings.Contains(rest, "//")})
			}
		}
		return items
	}
	return nil
}

// goBlockEntries lists the exported names declared one tab deep in a declaration's body: struct
// fields (embedded ones left out), interface methods, const or var block entries; each
// documented by a comment on its line or on the comment lines right above it.
func goBlockEntries(decl []string, iface, block bool) []refItem {
	var items []refItem
	commented := false
	depth := 0
	for _, l := range decl[1 : len(decl)-1] {
		if depth > 0 {
			depth += strings.Count(l, "{") - strings.Count(l, "}")
			continue
		}
		if !strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "\t\t") {
			continue
		}
		body := strings.TrimSpace(l)
		if strings.HasPrefix(body, "//") {
			commented = !strings.HasPrefix(body, "// Has unexported")
			continue
		}
		if body == "" {
			commented = false
			continue
		}
		code := stripGoComment(body)
		doc := commented || len(code) < len(body)
		commented = false
		depth = strings.Count(code, "{") - strings.Count(code, "}")
		var names []string
		tokens := strings.Fields(code)
		switch {
		case iface:
			if n := goIdent(code); len(n) < len(code) && code[len(n)] == '(' {
				names = []string{n}
			}
		case len(tokens) == 1 && !block:
			// An embedded field: left out.
		default:
			// "A, B int", "A = 1", "A" (an iota continuation): the names up to the first
			// one without a trailing comma.
			for _, tok := range tokens {
				names = append(names, goIdent(tok))
				if !strings.HasSuffix(tok, ",") {
					break
				}
			}
		}
		for _, n := range names {
			if goExported(n) {
				items = append(items, refItem{Paths: []string{n}, Kind: "field", Doc: doc})
			}
		}
	}
	return items
}

func stripGoComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		return strings.TrimRight(s[:i], " \t")
	}
	return s
}

// goIdent is the identifier s starts with.
func goIdent(s string) string {
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return s[:i]
		}
	}
	return s
}

func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// rustdocEntry is one item of rustdoc's all.html.
type rustdocEntry struct {
	Path string // "de::Deserializer", relative to the crate
	Href string // the item's page, relative to the crate's doc directory
	Kind string // struct, enum, trait, fn, macro, type, constant, static, union, attr, derive, …
}

var rustdocAllItem = regexp.MustCompile(`<li><a href="([^"]+)">([^<]+)</a></li>`)

// parseRustdocAll lists the items of a crate's all.html: each `<li><a href="dir/kind.Name.html">`
// of its lists, named by the page's directory and name.
func parseRustdocAll(page []byte) []rustdocEntry {
	s := string(page)
	if i := strings.Index(s, `id="main-content"`); i >= 0 {
		s = s[i:]
	}
	var out []rustdocEntry
	for _, m := range rustdocAllItem.FindAllStringSubmatch(s, -1) {
		href := html.UnescapeString(m[1])
		dir, file := path.Split(href)
		kind, rest, ok := strings.Cut(file, ".")
		name, _, _ := strings.Cut(rest, ".html")
		if !ok || name == "" || strings.Contains(href, "://") {
			continue
		}
		p := name
		if dir = strings.Trim(dir, "/"); dir != "" {
			p = strings.ReplaceAll(dir, "/", "::") + "::" + name
		}
		if kind == "fn" {
			kind = "func"
		}
		out = append(out, rustdocEntry{Path: p, Href: href, Kind: kind})
	}
	return out
}

// rustdocItem is what parseRustdocItem reads of an item's page.
type rustdocItem struct {
	Doc      bool // the page has a top doc block
	Reexport bool // the item's source is in another crate (a re-export from a dependency)
	Feature  bool // the page says the item is available on a crate feature only
	Members  []rustdocMember
}

// rustdocMember is a method, associated item, field or variant on an item's page.
type rustdocMember struct {
	Name      string
	Doc       bool
	TraitImpl bool // from a trait implementation written for this type (not auto, not blanket)
}

var (
	rustdocSection = regexp.MustCompile(`<section id="((?:method|tymethod|associatedconstant|associatedtype)\.[^"]+)" class="([^"]+)"|<span id="((?:structfield|variant)\.[^"]+)" class="[^"]*`)
	rustdocSrc     = regexp.MustCompile(`<a class="src" href="([^"]*)"`)
	rustdocDedup   = regexp.MustCompile(`-\d+$`)
)

// parseRustdocItem reads an item's page: whether it has docs, where its source is, its
// portability note, and its members: inherent and trait-declared methods and associated items,
// struct fields and enum variants ("member"), and the members of the trait implementations
// listed under "Trait Implementations" ("trait-impl"); auto-trait and blanket implementations
// are left out. A member listed twice (rustdoc's "fmt-1") counts once.
func parseRustdocItem(page []byte, lib string) rustdocItem {
	s := string(page)
	var it rustdocItem
	head := s
	if i := strings.Index(s, `<h2 id=`); i >= 0 {
		head = s[:i]
	}
	it.Doc = strings.Contains(head, `class="toggle top-doc"`)
	it.Feature = strings.Contains(head, `class="stab portability"`) && strings.Contains(head, "crate feature")
	if m := rustdocSrc.FindStringSubmatch(head); m != nil {
		it.Reexport = !strings.Contains(m[1], "/src/"+lib+"/")
	}
	// Stop where the synthetic (auto trait) and blanket implementations start.
	body := s
	for _, end := range []string{`id="synthetic-implementations"`, `id="blanket-implementations"`} {
		if i := strings.Index(body, end); i >= 0 {
			body = body[:i]
		}
	}
	traitImpls := strings.Index(body, `id="trait-implementations"`)
	seen := map[string]bool{}
	locs := rustdocSection.FindAllStringSubmatchIndex(body, -1)
	for k, loc := range locs {
		var id, class string
		if loc[2] >= 0 {
			id, class = body[loc[2]:loc[3]], body[loc[4]:loc[5]]
		} else {
			id = body[loc[6]:loc[7]]
		}
		_, name, _ := strings.Cut(id, ".")
		name = rustdocDedup.ReplaceAllString(name, "")
		trait := strings.Contains(class, "trait-impl") || (traitImpls >= 0 && loc[0] > traitImpls)
		key := name
		if trait {
			key = "trait:" + name
		}
		if seen[key] || (!trait && seen["trait:"+name]) {
			continue
		}
		seen[key] = true
		next := len(body)
		if k+1 < len(locs) {
			next = locs[k+1][0]
		}
		between := body[loc[1]:next]
		doc := strings.Contains(between, "docblock")
		if loc[2] < 0 { // a field or variant: its docblock follows its span
			doc = strings.Contains(between, `class="docblock`)
		}
		it.Members = append(it.Members, rustdocMember{Name: name, Doc: doc, TraitImpl: trait})
	}
	return it
}
