package answer

// describe.go is Describe (MCP's describe_<ecosystem>_package): metadata, README summary and an API outline, or
// one symbol with its members.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/purl"
)

// DescribeInput is the arguments of describe_go_package and describe_npm_package.
type DescribeInput struct {
	Package   string `json:"package" jsonschema:"package name; for Go a module path or the import path of a package inside an indexed module (the outline then covers that package only); 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"version: exact (4.29.1), partial (4, 4.2) or a range (^4, ~4.2, >=4 <5), the newest indexed match; default the latest indexed version"`
	Symbol    string `json:"symbol,omitempty" jsonschema:"one API symbol to describe in full instead of the outline, e.g. 'Group.Go', 'errgroup.Group.Go' or 'Router'"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same description, to continue it"`
}

// DescribeOutput is the structured result of the describe_* tools: metadata always, the README
// summary and documents on the first page, then either outline entries or full symbols.
type DescribeOutput struct {
	SchemaVersion int            `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	Ecosystem     string         `json:"ecosystem" jsonschema:"purl type of the package"`
	Package       string         `json:"package" jsonschema:"package name or Go module path"`
	ImportPath    string         `json:"importPath,omitempty" jsonschema:"Go: the package inside the module that the outline is focused on"`
	Version       string         `json:"version" jsonschema:"version described"`
	Latest        string         `json:"latest" jsonschema:"newest indexed version"`
	Default       string         `json:"default,omitempty" jsonschema:"the version read when none is asked for, when it is not latest: the one the project resolves (node_modules' top-level copy), or the newest release when a pre-release is newer"`
	Versions      []string       `json:"versions" jsonschema:"indexed versions, oldest first"`
	PURL          string         `json:"purl" jsonschema:"Package URL of the version described"`
	Description   string         `json:"description,omitempty" jsonschema:"the package's own description"`
	License       string         `json:"license,omitempty" jsonschema:"SPDX license expression"`
	Homepage      string         `json:"homepage,omitempty" jsonschema:"homepage URL"`
	Repository    string         `json:"repository,omitempty" jsonschema:"source repository URL"`
	Published     string         `json:"published,omitempty" jsonschema:"release time of the version, RFC 3339"`
	Deprecated    string         `json:"deprecated,omitempty" jsonschema:"deprecation message, when the version is deprecated"`
	Requires      []Requirement  `json:"requires,omitempty" jsonschema:"runtimes and toolchains the version declares it needs (npm engines, Requires-Python, rust-version, the go directive, the Swift tools version), sorted by name"`
	Commands      []string       `json:"commands,omitempty" jsonschema:"the commands the version installs, sorted: npm bin, console and GUI scripts, a crate's binaries, a Go module's main packages, a Swift package's executables"`
	URI           string         `json:"uri" jsonschema:"docidx:// resource URI of the version's overview page"`
	Readme        string         `json:"readme,omitempty" jsonschema:"summary of the README, plain text (first page only)"`
	Documents     []DocumentRef  `json:"documents,omitempty" jsonschema:"documents readable with get_package_doc (first page only)"`
	Outline       []OutlineEntry `json:"outline,omitempty" jsonschema:"API outline entries on this page, grouped by package then kind; describe one with the symbol argument, or read docidx://ECOSYSTEM/PACKAGE@VERSION/symbol/NAME"`
	Symbols       []SymbolDetail `json:"symbols,omitempty" jsonschema:"the symbols matching the symbol argument, in full"`
	NextCursor    string         `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// Requirement is a runtime or toolchain a package version needs, with the range of its versions
// the package supports (docidx.Requirement).
type Requirement struct {
	Name  string `json:"name" jsonschema:"runtime or toolchain: node, npm, python, rust, go, swift …"`
	Range string `json:"range" jsonschema:"the versions supported, in the ecosystem's range syntax: >=18, >=3.8, >=1.63"`
}

// DocumentRef names one document of a package version.
type DocumentRef struct {
	Path  string `json:"path" jsonschema:"path inside the package, the path argument of get_package_doc"`
	Kind  string `json:"kind" jsonschema:"readme, doc or example"`
	Title string `json:"title,omitempty" jsonschema:"first heading or file name"`
	URI   string `json:"uri" jsonschema:"docidx:// resource URI of the document"`
}

// OutlineEntry is one symbol in an API outline.
type OutlineEntry struct {
	Package    string `json:"package" jsonschema:"import path or module that declares the symbol"`
	Kind       string `json:"kind" jsonschema:"func, method, type, const, var, class, interface …"`
	Name       string `json:"name" jsonschema:"qualified name, unique in the package version"`
	Signature  string `json:"signature" jsonschema:"declaration on one line; ' …' marks an elided body"`
	Synopsis   string `json:"synopsis,omitempty" jsonschema:"first sentence of the doc comment"`
	Deprecated bool   `json:"deprecated,omitempty" jsonschema:"true when the symbol is deprecated"`
	Internal   bool   `json:"internal,omitempty" jsonschema:"true when its doc marks the symbol @internal, not meant for the package's users; such symbols come after the others of their package"`
	Members    int    `json:"members,omitempty" jsonschema:"number of fields, properties and constants of the type, listed when the symbol is described or its URI read"`
	// Parent, Overloads and Alike came with schemaVersion 1 unchanged: fields added.
	Parent    string         `json:"parent,omitempty" jsonschema:"for a method listed under its type, the type's name; the type's entry comes before it"`
	Overloads int            `json:"overloads,omitempty" jsonschema:"declarations of the same qualified name after this one (TypeScript overloads, which share its URI), folded into this entry"`
	Alike     []AlikeMethods `json:"alike,omitempty" jsonschema:"methods of this type not listed under it because a type listed before it declares them alike (same name, signature and doc), as inherited copies are"`
	// URI is the symbol's docidx:// resource URI, for Go callers (the web's links). The JSON
	// leaves it out (schemaVersion 2): it is the symbol page of the document's package version
	// (…/symbol/NAME), and most MCP clients give the model the structured content, in which the
	// URIs were a quarter of an outline's bytes (npm:commander's first page: 9.9 of 40.9 KB).
	URI string `json:"-"`
}

// Declarations returns how many declarations of its qualified name the entry stands for: itself
// and its Overloads.
func (e OutlineEntry) Declarations() int { return 1 + e.Overloads }

// AlikeMethods names the methods of an outline's type that another type, listed before it,
// declares alike.
type AlikeMethods struct {
	Type    string   `json:"type" jsonschema:"the type listed before, whose entries list the methods"`
	Methods []string `json:"methods" jsonschema:"the methods' names"`
}

// SymbolDetail is one symbol in full.
type SymbolDetail struct {
	Package       string         `json:"package" jsonschema:"import path or module that declares the symbol"`
	Kind          string         `json:"kind" jsonschema:"func, method, type, const, var, class, interface …"`
	Name          string         `json:"name" jsonschema:"the symbol's own name"`
	Parent        string         `json:"parent,omitempty" jsonschema:"for a member (field, method, property, nested constant), the type it belongs to"`
	QualifiedName string         `json:"qualifiedName" jsonschema:"name unique in the package version, e.g. errgroup.Group.Go"`
	Signature     string         `json:"signature" jsonschema:"the declaration as written, without body"`
	Doc           string         `json:"doc,omitempty" jsonschema:"doc comment"`
	Params        []docidx.Param `json:"params,omitempty" jsonschema:"the parameters the doc documents one by one (name, type, default, doc), when the source documents them apart"`
	Values        []string       `json:"values,omitempty" jsonschema:"declarations of the package-level constants and variables holding the symbol's default or named by its doc, e.g. const DefaultMaxElapsedTime = 15 * time.Minute"`
	Errors        []string       `json:"errors,omitempty" jsonschema:"errors its code makes with a literal message that its doc does not name, each call as written, e.g. raise ValueError(\"Fernet key must be 32 url-safe base64-encoded bytes.\")"`
	File          string         `json:"file,omitempty" jsonschema:"slash path of the declaring file inside the package"`
	Line          int            `json:"line,omitempty" jsonschema:"1-based line of the declaration"`
	Deprecated    bool           `json:"deprecated,omitempty" jsonschema:"true when the symbol is deprecated"`
	Examples      []Example      `json:"examples,omitempty" jsonschema:"usage examples"`
	// Aliases came with schemaVersion 2: a field added.
	Aliases []string `json:"aliases,omitempty" jsonschema:"other qualified names of the same declaration that the symbol argument matched, described once under this one: a re-export, e.g. requests.sessions.Session.request for requests.Session.request"`
	// URI is the symbol's docidx:// resource URI, for Go callers (the web's links). The JSON
	// leaves it out, as OutlineEntry's (schemaVersion 2): it is …/symbol/QUALIFIEDNAME of the
	// described version, a tenth of a type's description with its members in JSON (serde_json's
	// Value: 1,762 of 16,135 bytes).
	URI string `json:"-"`
}

// Example is one code example of a symbol.
type Example struct {
	Name   string `json:"name,omitempty" jsonschema:"the example's name, e.g. ExampleGroup_Go"`
	Lang   string `json:"lang,omitempty" jsonschema:"code language"`
	Code   string `json:"code" jsonschema:"example source"`
	Output string `json:"output,omitempty" jsonschema:"expected output, when stated"`
}

// Describe answers describe_<ecosystem>_package for eco: metadata, README summary and the API
// outline of in.Package, or with in.Symbol that symbol and its members in full, paged within
// in.MaxTokens. Errors are as Search's.
func (s *Service) Describe(ctx context.Context, eco docidx.Ecosystem, in DescribeInput) (string, DescribeOutput, error) {
	var out DescribeOutput
	tool := IssuerDescribe(eco)
	name, version := SplitVersion(in.Package, in.Version)
	if name == "" {
		return "", out, missingArgument("package", "package is empty")
	}
	pkg, focus, err := s.resolvePackage(eco, name, version)
	if err != nil {
		return "", out, err
	}
	ref := pkg.Ref()
	if out, err = s.describeBase(pkg, focus); err != nil {
		return "", out, err
	}
	symbol := strings.TrimSpace(in.Symbol)
	hash := RequestHash(tool, string(eco), pkg.Name, pkg.Version, focus, symbol)
	c, err := s.DecodeCursor(in.Cursor, tool, hash)
	if err != nil {
		return "", out, err
	}

	var units unitList
	var outline *outlineUnits  // the units when no symbol is asked for
	var details []SymbolDetail // details[i] belongs to units[i]
	if symbol != "" {
		s.progress(ctx, "looking up "+symbol)
		var texts []string
		details, texts, err = s.symbolDetails(ref, focus, symbol)
		w := weighed{textUnits: texts, weights: make([]int, len(details))}
		for i := range details {
			w.weights[i] = jsonSize(details[i])
		}
		units = w
	} else {
		s.progress(ctx, "outlining the API of "+ref.String())
		if outline, err = s.outline(pkg, focus, &out); err == nil {
			outline.headerWeight = jsonSize(out) // the metadata, README summary and documents
		}
		units = outline
	}
	if err != nil {
		return "", out, err
	}
	p := pos{c.Unit, c.Byte}
	if !validPos(units, p) {
		return "", out, s.badCursor("out of range")
	}
	text, first, end, next, more := cutPage(units, p, s.Budget(in.MaxTokens))
	// Structured content lists the units that start on this page, so that following the cursors
	// yields each outline entry, symbol and the header exactly once.
	if p.off > 0 {
		first++
	}
	if symbol != "" {
		out.Symbols = details[first:end]
	} else {
		if first > 0 {
			out.Readme, out.Documents = "", nil // header data comes with the page it starts on
		}
		out.Outline = outline.entriesOf(first, end)
	}
	var t strings.Builder
	if p.unit > 0 || p.off > 0 {
		fmt.Fprintf(&t, "%s@%s (continued)\n\n", pkg.Name, pkg.Version)
	}
	t.WriteString(text)
	if more {
		out.NextCursor = Cursor{Tool: tool, Hash: hash, Unit: next.unit, Byte: next.off}.Encode()
		t.WriteString(s.opts.Words.continuation(out.NextCursor))
	}
	return t.String(), out, nil
}

// describeBase returns the metadata part of a description of pkg (focused on the Go package
// focus, when set): what every page of describe_*_package and the overview resource carry.
func (s *Service) describeBase(pkg *docidx.Package, focus string) (DescribeOutput, error) {
	ref := pkg.Ref()
	versions, err := s.reader().Versions(pkg.Ecosystem, pkg.Name)
	if err != nil {
		return DescribeOutput{}, internalError("read versions", err)
	}
	out := DescribeOutput{
		SchemaVersion: docidx.SchemaVersion,
		Ecosystem:     string(pkg.Ecosystem), Package: pkg.Name, ImportPath: focus, Version: pkg.Version,
		Versions: versions, PURL: purl.Format(ref), Description: pkg.Description, License: pkg.License,
		Homepage: pkg.Homepage, Repository: pkg.Repository, Deprecated: pkg.Deprecated,
		Commands: pkg.Commands, URI: ref.PageURI(docidx.PageOverview),
	}
	for _, r := range pkg.Requires {
		out.Requires = append(out.Requires, Requirement(r))
	}
	if out.Versions == nil {
		out.Versions = []string{}
	}
	if len(versions) > 0 {
		out.Latest = versions[len(versions)-1]
	}
	if def, err := s.reader().Resolve(docidx.Ref{Ecosystem: pkg.Ecosystem, Name: pkg.Name}); err == nil && def.Version != out.Latest {
		out.Default = def.Version
	}
	if !pkg.Published.IsZero() {
		out.Published = pkg.Published.UTC().Format(time.RFC3339)
	}
	return out, nil
}

// kindOrder ranks symbol kinds in an outline: types first, then functions, methods, constants,
// variables and the rest.
var kindOrder = map[docidx.SymbolKind]int{
	docidx.KindType: 1, docidx.KindInterface: 1, docidx.KindStruct: 1, docidx.KindClass: 1,
	docidx.KindEnum: 1, docidx.KindTrait: 1, docidx.KindProtocol: 1,
	docidx.KindFunc: 2, docidx.KindMacro: 2, docidx.KindMethod: 3, docidx.KindProperty: 4, docidx.KindField: 4,
	docidx.KindConst: 5, docidx.KindVar: 6,
}

// kindHeading is the outline sub-heading of each kind rank.
var kindHeading = map[int]string{
	0: "Other", 1: "Types", 2: "Functions", 3: "Methods", 4: "Properties and fields", 5: "Constants", 6: "Variables",
}

// outline returns the header unit (metadata, README summary, documents) followed by one unit per
// outline entry, and fills out's Readme and Documents. Entries are grouped by declaring package
// (focus only, when set) and kind, in declaration order within a group; each group's first unit
// carries the group headings, so any page reads on its own.
func (s *Service) outline(pkg *docidx.Package, focus string, out *DescribeOutput) (*outlineUnits, error) {
	ref := pkg.Ref()
	r := s.reader()
	syms, err := s.symbolsCached(r, ref)
	if err != nil {
		return nil, err
	}
	docs, err := s.documentsCached(r, ref)
	if err != nil {
		return nil, err
	}
	return s.outlineOf(pkg, focus, out, syms, docs)
}

// outlineOf is outline over symbols and documents already read.
//
// The entries are answer.GroupAPI's: a package group's top-level symbols by kind (types,
// functions, methods of types not indexed, …), those marked @internal last; under each type its
// methods (and other callable members), each qualified name once with its overloads folded into
// it, as godoc lists methods under their type; the type's other members (fields, properties,
// nested constants) counted, left to the type's own page. A method that a type listed before it
// in the group declares alike — same name, signature and doc (a documented one), as
// TypeScript's inherited copies are (express's Express repeats 12 of Application's documented methods) — is
// named on its type's line, not listed again.
func (s *Service) outlineOf(pkg *docidx.Package, focus string, out *DescribeOutput, syms []docidx.Symbol, docs []docidx.Document) (*outlineUnits, error) {
	ref := pkg.Ref()
	pkgOf := func(p string) string {
		if p == "" {
			return pkg.Name
		}
		return p
	}
	groups := outlineGroups(syms, pkgOf, focus)
	if focus != "" && len(groups) == 0 {
		return nil, s.unknownImportPath(pkg, focus, syms)
	}

	// Header.
	var h strings.Builder
	title := pkg.Name
	if focus != "" {
		title = focus + " (in module " + pkg.Name + ")"
	}
	fmt.Fprintf(&h, "# %s %s\n\n", title, pkg.Version)
	if pkg.Description != "" {
		fmt.Fprintf(&h, "%s\n\n", strings.TrimSpace(pkg.Description))
	}
	if pkg.Deprecated != "" {
		fmt.Fprintf(&h, "**Deprecated:** %s\n\n", index.CollapseSpace(pkg.Deprecated))
	}
	fmt.Fprintf(&h, "- purl: %s\n", out.PURL)
	if out.Default != "" {
		fmt.Fprintf(&h, "- indexed versions: %s (latest %s; read when no version is given: %s)\n",
			strings.Join(out.Versions, ", "), out.Latest, out.Default)
	} else {
		fmt.Fprintf(&h, "- indexed versions: %s (latest %s)\n", strings.Join(out.Versions, ", "), out.Latest)
	}
	for _, f := range []struct{ k, v string }{
		{"license", out.License}, {"homepage", out.Homepage}, {"repository", out.Repository}, {"published", out.Published},
		{"requires", docidx.RequirementsText(pkg.Requires)}, {"commands", strings.Join(pkg.Commands, ", ")},
	} {
		if f.v != "" {
			fmt.Fprintf(&h, "- %s: %s\n", f.k, f.v)
		}
	}
	fmt.Fprintf(&h, "- resource: %s\n\n", out.URI)
	for i := range docs {
		d := &docs[i]
		if d.Kind == docidx.DocReadme && out.Readme == "" {
			out.Readme = ReadmeSummary(d)
		}
		page := docidx.PageDocPrefix + d.Path
		if d.Kind == docidx.DocReadme {
			page = docidx.PageReadme
		}
		out.Documents = append(out.Documents, DocumentRef{Path: d.Path, Kind: string(d.Kind), Title: d.Title, URI: ref.PageURI(page)})
	}
	if out.Readme != "" {
		fmt.Fprintf(&h, "## README\n\n%s\n\n", out.Readme)
	}
	if len(out.Documents) > 0 {
		fmt.Fprintf(&h, "Documents (read with %s): ", s.opts.Words.ReadDocument)
		for i, d := range out.Documents {
			if i > 0 {
				h.WriteString(", ")
			}
			h.WriteString(d.Path)
		}
		h.WriteString("\n\n")
	}

	o := &outlineUnits{ref: ref}
	for _, g := range groups {
		p := g.pkg
		var synopsis string
		if g.doc != nil {
			synopsis = FirstSentence(g.doc.Doc)
		}
		top := g.top
		if len(top) == 0 {
			continue
		}
		alike := map[string]string{} // a method's name, signature and doc → the name of the type listing it
		lastRank := -1
		for i, e := range top {
			it := outlineItem{entry: e, pkg: p}
			if i == 0 {
				it.groupHead = "### " + p + "\n\n"
				if synopsis != "" {
					it.groupHead += synopsis + "\n\n"
				}
			}
			switch rank := kindOrder[e.Symbol.Kind]; {
			case e.Internal && lastRank != -2:
				it.kindHead = "Internal (marked @internal, not meant for users):\n"
				lastRank = -2
			case !e.Internal && rank != lastRank:
				it.kindHead = kindHeading[rank] + ":\n"
				lastRank = rank
			}
			it.members = g.members[memberKey(e.Symbol)]
			var methods []*APIEntry
			for j := range e.Members {
				m := &e.Members[j]
				if m.Symbol.Signature != "" && m.Symbol.Doc != "" { // an undocumented `__init__(self)` is no copy
					key := m.Symbol.Name + "\x00" + m.Symbol.Signature + "\x00" + m.Symbol.Doc
					if t, ok := alike[key]; ok && t != e.Symbol.Name {
						it.addAlike(t, m.Symbol.Name)
						continue
					}
					alike[key] = e.Symbol.Name
				}
				methods = append(methods, m)
			}
			o.items = append(o.items, it)
			for _, m := range methods {
				o.items = append(o.items, outlineItem{entry: m, pkg: p, parent: e.Symbol.Name})
			}
		}
		o.items[len(o.items)-1].last = true
	}
	if len(o.items) == 0 {
		h.WriteString("No API symbols are indexed for this version.\n")
	} else {
		fmt.Fprintf(&h, "## API (%s; %s)\n\n", plural(len(o.items), "symbol"), s.opts.Words.DescribeSymbol)
	}
	o.header = h.String()
	o.texts = make([]string, len(o.items))
	o.entries = make([]OutlineEntry, len(o.items))
	o.weights = make([]int, len(o.items))
	return o, nil
}

// callable reports whether a member of kind k is listed under its type in an outline (a method
// or an associated function) rather than counted with its fields.
func callable(k docidx.SymbolKind) bool { return k == docidx.KindMethod || k == docidx.KindFunc }

// outlineGroup is one declaring package's part of an outline.
type outlineGroup struct {
	pkg     string
	doc     *docidx.Symbol // the package's own doc, nil without one
	top     []*APIEntry    // its top-level entries in outline order, callable members under their type
	members map[string]int // memberKey of a type → its members counted rather than listed
	entries []APIEntry     // top's entries as outlineGroups gathers them
}

// outlineGroups arranges syms for an outline (see outlineOf), grouped by declaring package
// (pkgOf of its Package) in first-seen order, the focus only when set (none when no symbol is
// declared in it).
//
// A type's fields, properties and nested types are counted, and so are the members of a field or
// property (an object type's); a method or function whose Parent is a type listed at the top is
// listed under it; every other symbol is listed at the top: the members of a function or
// namespace (express's interfaces, declared in the namespace merged with its function e) are the
// package's API.
func outlineGroups(syms []docidx.Symbol, pkgOf func(string) string, focus string) []outlineGroup {
	containers := outlineTypes(syms)
	hidden := func(sym *docidx.Symbol) bool {
		return sym.Parent != "" && !callable(sym.Kind) && containers[sym.Package+"\x00"+sym.Parent]
	}
	topTypes := map[string]bool{}
	for i := range syms {
		if sym := &syms[i]; isType(sym.Kind) && !hidden(sym) {
			topTypes[memberKey(sym)] = true
		}
	}
	var byPkg firstSeen[outlineGroup]
	under := map[string][]APIEntry{} // memberKey of a top-level type → its callable members
	for i := range syms {
		sym := &syms[i]
		p := pkgOf(sym.Package)
		if focus != "" && p != focus {
			continue
		}
		g := byPkg.get(p, func() outlineGroup { return outlineGroup{pkg: p, members: map[string]int{}} })
		parent := sym.Package + "\x00" + sym.Parent
		switch e := (APIEntry{Symbol: sym, Internal: Internal(sym)}); {
		case sym.Kind == docidx.KindPackage:
			g.doc = sym
		case hidden(sym):
			g.members[parent]++
		case sym.Parent != "" && callable(sym.Kind) && topTypes[parent]:
			under[parent] = append(under[parent], e)
		default:
			g.entries = append(g.entries, e)
		}
	}
	groups := byPkg.groups
	for i := range groups {
		g := &groups[i]
		for j := range g.entries {
			g.entries[j].Members = under[memberKey(g.entries[j].Symbol)]
		}
		g.entries = arrange(g.entries)
		g.top = make([]*APIEntry, len(g.entries))
		for j := range g.entries {
			g.top[j] = &g.entries[j]
		}
		sortOutline(g.top)
	}
	return groups
}

// sortOutline orders a package group's top-level entries by kindOrder, those marked @internal
// after the others, keeping GroupAPI's declaration order within each.
func sortOutline(es []*APIEntry) {
	rank := func(e *APIEntry) int {
		if e.Internal {
			return kindOrder[e.Symbol.Kind] + len(kindHeading)
		}
		return kindOrder[e.Symbol.Kind]
	}
	slices.SortStableFunc(es, func(a, b *APIEntry) int { return rank(a) - rank(b) })
}

// outlineUnits is an API outline as a unitList: unit 0 the header, unit i+1 the entry of the
// i-th item in outline order. An entry is rendered when a page first asks for it: a large
// module's outline has thousands (zap's some 1,500), whose synopses, compact signatures and URIs
// took a millisecond to make for a page that shows a few hundred.
type outlineUnits struct {
	header  string
	ref     docidx.Ref
	items   []outlineItem
	texts   []string       // texts[i] is unit i+1 once rendered (never empty then)
	entries []OutlineEntry // entries[i] belongs to unit i+1, once texts[i] is rendered
	weights []int          // weights[i] is the JSON size of entries[i], once rendered
	// headerWeight is the JSON size of what the header's page says besides the outline (see
	// Weight); 0 for the outline of a read.
	headerWeight int
}

// outlineItem is one outline entry before it is rendered: its symbol with its overloads and
// members, declaring package, and the headings that start before it.
type outlineItem struct {
	entry               *APIEntry
	pkg                 string
	parent              string // the type a method is listed under; empty for a top-level entry
	groupHead, kindHead string // the package group's heading and synopsis, the kind's heading
	last                bool   // the last entry of its package group
	members             int    // the members counted rather than listed (fields, properties …)
	alike               []AlikeMethods
}

// addAlike records that the item's type declares method name as type t, listed before it, does.
func (it *outlineItem) addAlike(t, name string) {
	if n := len(it.alike); n > 0 && it.alike[n-1].Type == t {
		if a := &it.alike[n-1]; !slices.Contains(a.Methods, name) {
			a.Methods = append(a.Methods, name)
		}
		return
	}
	it.alike = append(it.alike, AlikeMethods{Type: t, Methods: []string{name}})
}

// Len implements unitList.
func (o *outlineUnits) Len() int { return 1 + len(o.items) }

// Weight implements weighedUnits: the header and an entry by the larger of its text and its JSON
// (the describe document without its outline; the OutlineEntry).
func (o *outlineUnits) Weight(i int) int {
	if i == 0 {
		return max(len(o.header), o.headerWeight)
	}
	o.render(i - 1)
	return max(len(o.texts[i-1]), o.weights[i-1])
}

// At implements unitList.
func (o *outlineUnits) At(i int) string {
	if i == 0 {
		return o.header
	}
	o.render(i - 1)
	return o.texts[i-1]
}

// entriesOf returns the outline entries of units [from, to); unit 0, the header, has none.
func (o *outlineUnits) entriesOf(from, to int) []OutlineEntry {
	from, to = max(from-1, 0), max(to-1, 0)
	for i := from; i < to; i++ {
		o.render(i)
	}
	return o.entries[from:to]
}

// maxAlikeNames bounds the method names an outline line gives for the methods it does not list
// again, in bytes.
const maxAlikeNames = 200

// render makes the entry and the unit of item i, once.
func (o *outlineUnits) render(i int) {
	if o.texts[i] != "" {
		return
	}
	it := &o.items[i]
	sym := it.entry.Symbol
	e := OutlineEntry{
		Package: it.pkg, Kind: string(sym.Kind), Name: sym.QualifiedName, Parent: it.parent,
		Signature: CompactSignature(sym.Signature), Synopsis: it.entry.Synopsis(), Deprecated: sym.Deprecated,
		Internal: it.entry.Internal, Members: it.members, Overloads: len(it.entry.Overloads), Alike: it.alike,
		URI: o.ref.PageURI(docidx.PageSymbolPrefix + sym.QualifiedName),
	}
	if e.Signature == "" {
		e.Signature = sym.QualifiedName
	}
	code := inlineCode(e.Signature)
	var b strings.Builder
	b.Grow(len(it.groupHead) + len(it.kindHead) + len(code) + len(e.Synopsis) + 32)
	b.WriteString(it.groupHead)
	b.WriteString(it.kindHead)
	if it.parent != "" {
		b.WriteString("  ")
	}
	b.WriteString("- ")
	b.WriteString(code)
	if e.Deprecated {
		b.WriteString(" (deprecated)")
	}
	if e.Internal && it.parent != "" {
		b.WriteString(" (@internal)")
	}
	if e.Synopsis != "" {
		b.WriteString(" — ")
		b.WriteString(e.Synopsis)
	}
	var notes []string
	if e.Overloads > 0 {
		notes = append(notes, plural(e.Overloads+1, "overload"))
	}
	if e.Members > 0 {
		notes = append(notes, plural(e.Members, "member"))
	}
	for _, a := range e.Alike {
		notes = append(notes, fmt.Sprintf("%s as %s's: %s", plural(len(a.Methods), "method"), a.Type,
			Clip(strings.Join(a.Methods, ", "), maxAlikeNames)))
	}
	if len(notes) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(notes, "; "))
		b.WriteString(")")
	}
	b.WriteByte('\n')
	if it.last {
		b.WriteByte('\n')
	}
	o.texts[i], o.entries[i], o.weights[i] = b.String(), e, jsonSize(e)
}

// ReadmeSummary is the plain-text summary of a README: its Summary, else the start of its first
// section with text.
func ReadmeSummary(d *docidx.Document) string {
	if sum := strings.TrimSpace(d.Summary); sum != "" {
		return Clip(index.CollapseSpace(sum), 1000)
	}
	for _, sec := range d.Sections {
		if t := strings.TrimSpace(sec.Plain); t != "" {
			return Clip(index.CollapseSpace(t), 500)
		}
	}
	return ""
}

// symbolDetails returns the symbols of ref matching name (those of focus first, when set), each
// rendered in full as one unit. No match is a not-found error with did-you-mean over symbol names.
func (s *Service) symbolDetails(ref docidx.Ref, focus, name string) ([]SymbolDetail, []string, error) {
	// From the symbol cache: describing one symbol after another of a package reads and decodes
	// its symbols once, not for every call (zap's are a few thousand).
	syms, err := s.symbolsCached(s.reader(), ref)
	if err != nil {
		return nil, nil, err
	}
	matches := index.MatchSymbols(syms, name)
	if focus != "" {
		var in []docidx.Symbol
		for _, m := range matches {
			if m.Package == focus {
				in = append(in, m)
			}
		}
		if len(in) > 0 {
			matches = in
		}
	}
	if len(matches) == 0 {
		var names []string
		for i := range syms {
			if syms[i].Kind != docidx.KindPackage {
				names = append(names, syms[i].Key())
			}
		}
		msg := fmt.Sprintf("symbol %s not found in %s@%s", docidx.Quote(name), ref.Name, ref.Version)
		if close := closest(name, names, 5); len(close) > 0 {
			msg += "; did you mean: " + strings.Join(close, ", ") + "?"
		} else {
			msg += "; " + s.opts.Words.Outline
		}
		return nil, nil, notFoundf("%s", msg)
	}
	details := make([]SymbolDetail, 0, len(matches))
	units := make([]string, 0, len(matches))
	aliases := reexports(matches)
	for i := range matches {
		m := &matches[i]
		as, kept := aliases[i]
		if !kept {
			continue // described under the first of its names
		}
		d, unit := renderSymbol(ref, m, as)
		details = append(details, d)
		units = append(units, unit)
		// Then its members, each a unit of its own, so a large type pages member by member.
		for _, mem := range membersOf(syms, m) {
			d, unit := renderMember(ref, mem)
			details = append(details, d)
			units = append(units, unit)
		}
	}
	return details, units, nil
}

// reexports groups the matches that are one declaration under several names, as a Python package
// re-exports a class of a submodule (requests.Session and requests.sessions.Session) and a Rust
// crate an item of a module: the same kind, signature, doc and place of declaration. It maps the
// index of the first of each group to the qualified names of the others; a match not in the map
// is one of those others. describe_python_package's "Session.request" matched both names of
// requests' method and printed its 3 KB doc twice.
func reexports(matches []docidx.Symbol) map[int][]string {
	type decl struct {
		kind                 docidx.SymbolKind
		file, signature, doc string
		line                 int
	}
	first := make(map[decl]int, len(matches))
	out := make(map[int][]string, len(matches))
	for i := range matches {
		m := &matches[i]
		if m.File == "" || m.Line <= 0 {
			out[i] = nil
			continue
		}
		k := decl{m.Kind, m.File, m.Signature, m.DocWithParams(), m.Line}
		if j, ok := first[k]; ok {
			out[j] = append(out[j], m.QualifiedName)
			continue
		}
		first[k] = i
		out[i] = nil
	}
	return out
}

// membersOf returns the members of sym among syms — the symbols whose Parent is sym's Key in
// the same declaring package (fields, methods, properties, nested constants, overloads) — in
// declaration order. A member of a member (a method of a nested class) is not included.
func membersOf(syms []docidx.Symbol, sym *docidx.Symbol) []*docidx.Symbol {
	var out []*docidx.Symbol
	for i := range syms {
		if m := &syms[i]; isMemberOf(m, sym) {
			out = append(out, m)
		}
	}
	return out
}

// memberKey is the key under which sym's members are found: its package and its key, as a
// member's Package and Parent give them.
func memberKey(sym *docidx.Symbol) string { return sym.Package + "\x00" + sym.Key() }

func isMemberOf(m, sym *docidx.Symbol) bool {
	return m.Parent == sym.Key() && m.Package == sym.Package && m != sym && m.QualifiedName != sym.QualifiedName
}

// isType reports whether symbols of kind k are types whose members an outline counts rather
// than lists: structs, classes, interfaces and the like (not a namespace or module, whose members
// are the package's API).
func isType(k docidx.SymbolKind) bool {
	switch k {
	case docidx.KindType, docidx.KindStruct, docidx.KindClass, docidx.KindInterface, docidx.KindEnum,
		docidx.KindTrait, docidx.KindProtocol:
		return true
	}
	return false
}

// outlineTypes returns the memberKey of every type (isType) and every field or property among
// syms: an outline leaves their members other than methods (fields, properties, nested
// constants, the members of a field's object type) to their own page, as godoc lists methods
// under their type.
func outlineTypes(syms []docidx.Symbol) map[string]bool {
	types := make(map[string]bool)
	for i := range syms {
		if k := syms[i].Kind; isType(k) || k == docidx.KindField || k == docidx.KindProperty {
			types[memberKey(&syms[i])] = true
		}
	}
	return types
}

// renderMember returns one member of a type in full, as structured content and as markdown: its
// signature and whole doc under a small heading, without the file and resource lines of a
// symbol of its own (its type's page has them, and its own URI is in the structured content).
func renderMember(ref docidx.Ref, m *docidx.Symbol) (SymbolDetail, string) {
	d := symbolDetail(ref, m)
	var b strings.Builder
	fmt.Fprintf(&b, "### %s (%s)", m.Key(), m.Kind)
	if m.Deprecated {
		b.WriteString(" — deprecated")
	}
	b.WriteString("\n\n")
	if m.Signature != "" {
		b.WriteString(fence(codeLang(ref.Ecosystem), m.Signature))
		b.WriteByte('\n')
	}
	if doc := strings.TrimSpace(m.DocWithParams()); doc != "" {
		b.WriteString(doc)
		b.WriteString("\n\n")
	}
	return d, b.String()
}

// symbolDetail is the structured content of symbol m of ref, without its examples.
func symbolDetail(ref docidx.Ref, m *docidx.Symbol) SymbolDetail {
	d := SymbolDetail{
		Package: m.Package, Kind: string(m.Kind), Name: m.Name, Parent: m.Parent, QualifiedName: m.QualifiedName,
		Signature: m.Signature, Doc: m.Doc, Params: m.Params, Values: m.Values, Errors: m.Errors, File: m.File, Line: m.Line, Deprecated: m.Deprecated,
		URI: ref.PageURI(docidx.PageSymbolPrefix + m.QualifiedName),
	}
	if d.Package == "" {
		d.Package = ref.Name
	}
	return d
}

// saysDeprecated reports whether doc states its symbol's deprecation in a paragraph of its own,
// as Go's "Deprecated: " paragraphs and the notes extraction adds from #[deprecated] and
// @deprecated do ("Deprecated since 0.4.23: use …"): the flag then says nothing more.
func saysDeprecated(doc string) bool {
	for para := range strings.SplitSeq(doc, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated") {
			return true
		}
	}
	return false
}

// renderSymbol returns one symbol of ref in full, as structured content and as markdown.
func renderSymbol(ref docidx.Ref, m *docidx.Symbol, aliases []string) (SymbolDetail, string) {
	lang := codeLang(ref.Ecosystem)
	d := symbolDetail(ref, m)
	d.Aliases = aliases
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (%s) — %s@%s\n\n", m.QualifiedName, m.Kind, ref.Name, ref.Version)
	if d.Package != ref.Name {
		fmt.Fprintf(&b, "Package %s\n\n", d.Package)
	}
	if m.Signature != "" {
		b.WriteString(fence(lang, m.Signature))
		b.WriteByte('\n')
	}
	doc := strings.TrimSpace(m.DocWithParams())
	if m.Deprecated && !saysDeprecated(doc) {
		b.WriteString("**Deprecated.**\n\n")
	}
	if doc != "" {
		b.WriteString(doc)
		b.WriteString("\n\n")
	}
	for _, ex := range m.Examples {
		l := ex.Lang
		if l == "" {
			l = lang
		}
		d.Examples = append(d.Examples, Example{Name: ex.Name, Lang: l, Code: ex.Code, Output: ex.Output})
		if ex.Name != "" {
			fmt.Fprintf(&b, "Example %s:\n\n", ex.Name)
		} else {
			b.WriteString("Example:\n\n")
		}
		b.WriteString(fence(l, ex.Code))
		if ex.Output != "" {
			b.WriteString("\nOutput:\n\n")
			b.WriteString(fence("", ex.Output))
		}
		b.WriteByte('\n')
	}
	if m.File != "" {
		loc := m.File
		if m.Line > 0 {
			loc = fmt.Sprintf("%s:%d", m.File, m.Line)
		}
		fmt.Fprintf(&b, "Declared at %s\n", loc)
	}
	if len(aliases) > 0 {
		fmt.Fprintf(&b, "Also named: %s\n", strings.Join(aliases, ", "))
	}
	fmt.Fprintf(&b, "Resource: %s\n\n", d.URI)
	return d, b.String()
}
