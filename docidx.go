// Package docidx holds the records that every part of docidx shares — packages, documents, sections,
// symbols and search hits — and the Registry interface that each ecosystem implements.
//
// The root package imports the standard library only. Concrete registries live under registries/,
// the crawl pipeline under crawl/, the snapshot under index/ and the MCP server under serve/;
// see docs/ARCHITECTURE.md §1 for the import rules, which deps_test.go enforces.
package docidx

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Version is the docidx release, stamped into every snapshot manifest.
// Release builds override it with -ldflags "-X github.com/docidx/docidx.Version=v1.2.3"
// (.goreleaser.yaml does).
var Version = "v0.1.0-dev"

// Commit is the full git commit hash the binary was built from, or empty for a build that did not
// set it. Release builds set it with -ldflags "-X github.com/docidx/docidx.Commit=<hash>", so that
// `docidx version` names the exact source of a binary carried away from its release page.
var Commit = ""

// SchemaVersion is the version of the shapes of docidx's JSON documents: the output of every
// --json command and the structured content of every MCP tool, each of which carries it as its
// "schemaVersion" field. One number for all of them: a consumer checks one number, and a bump of
// it for one document costs the others nothing. It is raised when a document changes in a way
// that breaks a consumer (a field renamed, removed, or given another type or meaning); a field
// added is not a break and keeps it. docs/json-changelog.md records each version, and the
// schemas/ directory holds the JSON Schema of each document at this version.
const SchemaVersion = 2

// Ecosystem names a package ecosystem by its Package URL type
// (https://github.com/package-url/purl-spec/blob/main/PURL-TYPES.rst).
type Ecosystem string

// The ecosystems docidx knows. Their values are purl types.
const (
	Go    Ecosystem = "golang"
	NPM   Ecosystem = "npm"
	PyPI  Ecosystem = "pypi"
	Cargo Ecosystem = "cargo"
	Swift Ecosystem = "swift"
)

// Ecosystems lists every ecosystem in a stable order.
var Ecosystems = []Ecosystem{Go, NPM, PyPI, Cargo, Swift}

var ecosystemAliases = map[string]Ecosystem{
	"golang": Go, "go": Go,
	"npm": NPM, "node": NPM, "js": NPM,
	"pypi": PyPI, "python": PyPI, "py": PyPI,
	"cargo": Cargo, "crates": Cargo, "rust": Cargo, "crate": Cargo,
	"swift": Swift, "swiftpm": Swift,
}

// ParseEcosystem maps a purl type or an accepted alias ("go", "python", "rust", "crates", …),
// case-insensitively, to its Ecosystem. It returns an error wrapping ErrBadSpec for anything else.
func ParseEcosystem(s string) (Ecosystem, error) {
	if e, ok := ecosystemAliases[strings.ToLower(strings.TrimSpace(s))]; ok {
		return e, nil
	}
	return "", fmt.Errorf("%w: unknown ecosystem %s (want one of golang, npm, pypi, cargo, swift)", ErrBadSpec, Quote(s))
}

// Ref names one package version, or with an empty Version a package.
type Ref struct {
	Ecosystem Ecosystem `json:"ecosystem"`
	Name      string    `json:"package"`
	Version   string    `json:"version,omitempty"`
}

// String returns "ecosystem:name@version" (or "ecosystem:name" without a version).
func (r Ref) String() string {
	if r.Version == "" {
		return string(r.Ecosystem) + ":" + r.Name
	}
	return string(r.Ecosystem) + ":" + r.Name + "@" + r.Version
}

// Package is the metadata of one package version.
type Package struct {
	Ecosystem   Ecosystem `json:"ecosystem"`
	Name        string    `json:"package"`
	Version     string    `json:"version"`
	Versions    []string  `json:"versions,omitempty"` // every version the source knows, oldest first
	Description string    `json:"description,omitempty"`
	License     string    `json:"license,omitempty"` // SPDX expression when the source gives one
	Homepage    string    `json:"homepage,omitempty"`
	Repository  string    `json:"repository,omitempty"`
	Keywords    []string  `json:"keywords,omitempty"`
	Deprecated  string    `json:"deprecated,omitempty"` // deprecation message, empty when not deprecated
	Published   time.Time `json:"published,omitzero"`   // release time of this version
	Source      string    `json:"source,omitempty"`     // registry URL or local path it was read from
	CrawledAt   time.Time `json:"crawledAt,omitzero"`
	// Root marks the copy a project resolves by the package's name when the source holds
	// several versions: a node_modules tree's top-level copy (node_modules/cookie), not a copy
	// nested for one dependency (node_modules/express/node_modules/cookie). A snapshot searches
	// a package's root version by default, its latest one when none is marked.
	Root bool `json:"root,omitempty"`
	// Requires are the runtimes and toolchains the version declares it needs, sorted by name
	// (see Requirement); nil when its manifest declares none.
	Requires []Requirement `json:"requires,omitempty"`
	// Commands are the names of the commands the version installs, sorted: npm's bin
	// (https://docs.npmjs.com/cli/configuring-npm/package-json#bin), a distribution's
	// console_scripts and gui_scripts entry points
	// (https://packaging.python.org/en/latest/specifications/entry-points/), a crate's binary
	// targets (https://doc.rust-lang.org/cargo/reference/cargo-targets.html#binaries), a Go
	// module's main packages by the last element of their import path, as go install names
	// them, a Swift package's executable products and targets. Developers call a tool by its
	// command ("tsc", "normalizer"); nil when the version installs none.
	Commands []string `json:"commands,omitempty"`
}

// Requirement is a runtime or toolchain a package version declares it needs, with the range of
// its versions that it supports, in the ecosystem's own syntax: npm's engines ("node",
// ">=18"), a distribution's Requires-Python ("python", ">=3.8"), a crate's rust-version
// ("rust", ">=1.63": Cargo's minimum supported Rust version), a Go module's go directive ("go",
// ">=1.22": the minimum Go version since Go 1.21), a Swift package's tools version ("swift",
// ">=5.9").
type Requirement struct {
	Name  string `json:"name"`
	Range string `json:"range"`
}

// RequirementsText returns rs as a reader reads them: "node >=18, npm >=8", or "" for none.
func RequirementsText(rs []Requirement) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.Name + " " + r.Range
	}
	return strings.Join(parts, ", ")
}

// MaxCommands bounds Package.Commands: a module of many tools (golang.org/x/tools) keeps the
// first in sorted order.
const MaxCommands = 64

// CommandNames returns names as Package.Commands holds them: trimmed, without those that cannot
// name a command (empty, longer than 64 bytes, or holding a path separator, a space or a control
// character), sorted, each once, at most MaxCommands; nil when none is left.
func CommandNames(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || len(n) > 64 || strings.ContainsFunc(n, func(r rune) bool {
			return r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r)
		}) {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxCommands {
		out = out[:MaxCommands]
	}
	return out
}

// Ref returns the package version's reference.
func (p *Package) Ref() Ref { return Ref{Ecosystem: p.Ecosystem, Name: p.Name, Version: p.Version} }

// DocKind says where a Document came from.
type DocKind string

// Document kinds.
const (
	DocReadme  DocKind = "readme"  // the package's README, filtered to what helps a user
	DocGuide   DocKind = "doc"     // a file under docs/ (or doc/), or a crate's crate-level documentation
	DocExample DocKind = "example" // a file under examples/ (or example/)
)

// releaseHistories are the base names, lower-cased and without their markdown extension, of the
// release history a package keeps at its root (Keep a Changelog's CHANGELOG.md, and the older
// CHANGES.md, HISTORY.md, NEWS.md, RELEASES.md).
var releaseHistories = []string{"changelog", "changes", "history", "news", "releases", "release-notes", "release_notes"}

// IsReleaseHistory reports whether p, a document's path inside its package, is the markdown release
// history at the package's root (releaseHistories, any letter case, .md or .markdown). The
// registries index only its entries for the version crawled (readme.ParseRelease), as a DocGuide,
// and the index does not take its items for prose that describes the package's symbols: they say
// what changed.
func IsReleaseHistory(p string) bool {
	if strings.Contains(p, "/") {
		return false
	}
	base, ext, _ := strings.Cut(strings.ToLower(p), ".")
	if ext != "md" && ext != "markdown" {
		return false
	}
	for _, r := range releaseHistories {
		if base == r {
			return true
		}
	}
	return false
}

// Document is one page of prose, split into sections by heading.
type Document struct {
	Path     string    `json:"path"` // slash-separated path inside the package, e.g. "README.md", "docs/guide.md"
	Kind     DocKind   `json:"kind"`
	Title    string    `json:"title,omitempty"`   // first heading, or the file name
	Summary  string    `json:"summary,omitempty"` // plain text, at most a few sentences
	Sections []Section `json:"sections"`
}

// Section is the text under one heading: it runs to the next heading of the same or a higher level.
// The text before the first heading is a section with an empty Heading path.
type Section struct {
	Heading []string    `json:"heading,omitempty"` // heading path from the top, e.g. ["Usage", "Flags"]
	Anchor  string      `json:"anchor,omitempty"`  // GitHub-style slug of the last heading
	Text    string      `json:"text"`              // markdown, code blocks included, for display
	Plain   string      `json:"plain,omitempty"`   // the same as plain text without code, for indexing
	Code    []CodeBlock `json:"code,omitempty"`
}

// Title returns the last element of the heading path, or "" for the lead section.
func (s *Section) Title() string {
	if len(s.Heading) == 0 {
		return ""
	}
	return s.Heading[len(s.Heading)-1]
}

// CodeBlock is one fenced or indented code block, or one example program.
type CodeBlock struct {
	Lang   string `json:"lang,omitempty"`
	Name   string `json:"name,omitempty"` // an example's name, e.g. Go's "ExampleGroup_Go"
	Code   string `json:"code"`
	Output string `json:"output,omitempty"` // expected output, when the source states it
	// At places the block among its section's Plain lines: 1 + the number of lines before it,
	// or 0 when its place is unknown (after them all). README sections set it, so that a
	// passage shows "… do the following:" with the example it introduces.
	At int `json:"at,omitempty"`
}

// SymbolKind is the kind of an API item.
type SymbolKind string

// Symbol kinds. Ecosystems use the subset that fits them.
const (
	KindPackage   SymbolKind = "package" // a Go package or other module-level namespace, its doc comment as Doc
	KindFunc      SymbolKind = "func"
	KindMethod    SymbolKind = "method"
	KindType      SymbolKind = "type"
	KindConst     SymbolKind = "const"
	KindVar       SymbolKind = "var"
	KindClass     SymbolKind = "class"
	KindInterface SymbolKind = "interface"
	KindStruct    SymbolKind = "struct"
	KindEnum      SymbolKind = "enum"
	KindTrait     SymbolKind = "trait"
	KindMacro     SymbolKind = "macro"
	KindProtocol  SymbolKind = "protocol"
	KindProperty  SymbolKind = "property"
	// KindField is a data member of a type: a Go struct field, a TypeScript interface or class
	// property, a Python class attribute, dataclass/attrs/pydantic field or TypedDict key, a Rust
	// struct field, a Swift stored property. Its Parent names the type.
	KindField SymbolKind = "field"
)

// Symbol is one API item of a package version.
type Symbol struct {
	Kind SymbolKind `json:"kind"`
	// Name is the item's own name, e.g. "Go".
	Name string `json:"name"`
	// Parent is the enclosing type or class for methods and fields, e.g. "Group"; empty otherwise.
	Parent string `json:"parent,omitempty"`
	// Package is the import path or module that declares it, e.g. "golang.org/x/sync/errgroup",
	// "express/lib/router" or "flask.app".
	Package string `json:"package,omitempty"`
	// QualifiedName is unique within the package version, e.g. "errgroup.Group.Go".
	QualifiedName string      `json:"qualifiedName"`
	Signature     string      `json:"signature"` // the declaration as written, without body
	Doc           string      `json:"doc,omitempty"`
	File          string      `json:"file,omitempty"` // slash path inside the package
	Line          int         `json:"line,omitempty"` // 1-based
	Deprecated    bool        `json:"deprecated,omitempty"`
	Examples      []CodeBlock `json:"examples,omitempty"`
	// Params documents the parameters one by one, when the source documents them apart: a
	// docstring's Args/Parameters section (Google, NumPy) or its ":param x:" fields (reST), or
	// JSDoc's @param tags. Doc still holds the whole doc comment as written; Params is its
	// parameter part parsed, in declaration order.
	Params []Param `json:"params,omitempty"`
	// Values are declarations of the package-level constants and variables that give the
	// symbol's default or that its doc names, exported or not, each one name with its value as
	// the source declares it: "const DefaultMaxElapsedTime = 15 * time.Minute" for the field
	// MaxElapsedTime, "var DefBuckets = []float64{.005, …}" for a doc that says "DefBuckets".
	// Go's extractor fills it (see registries/gomod's linkValues), and so does Python's, with
	// the constants a field's value or a docstring names (registries/pypi's constantValues),
	// besides spelling out a parameter default that names one ("DEFAULT_POOLSIZE = 10"), and
	// JavaScript's, with the top-level constants a function's parameter defaults name
	// (registries/npm's jsapi linkedValues: "const MAX_TASK_DELAY = 100" for
	// `{ maxDelay = MAX_TASK_DELAY } = {}`).
	Values []string `json:"values,omitempty"`
	// Errors are the errors a function's code makes with a literal message that its doc does
	// not already say it makes, each call as the source writes it: `errors.New("not found")`,
	// `throw new TypeError('…')`, `raise ValueError("…")` (a class has its constructor's). What
	// a function refuses is often only in its code, where a grep of the package finds it. The
	// Go, JavaScript, Python and Rust extractors fill it (Rust's with its panics: `panic!("…")`,
	// `expect("…")`), at most a few per function; a symbol with
	// only Errors is still undocumented (Undocumented).
	Errors []string `json:"errors,omitempty"`
}

// DocWithParams returns Doc followed by the parameters of Params that Doc does not already
// document, one markdown list item each: "- `name` (type, default `x`): doc", under
// "Parameters:" when they are all of Params and "More on the parameters:" when Doc documents
// the others, then Values, one list item each, and then Errors, as code spans in one
// paragraph: "Errors in its code: `…`, `…`.". A docstring keeps its Args section in Doc, so its parameters are not
// repeated unless their default says what the doc does not ("DEFAULT_POOLSIZE = 10"); JSDoc's
// @param tags are parsed out of Doc, so they are listed. It is what search indexes and shows of
// a symbol's documentation.
func (s *Symbol) DocWithParams() string {
	doc := s.docWithParams()
	if len(s.Values) == 0 && len(s.Errors) == 0 {
		return doc
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(doc, "\n"))
	if len(s.Values) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Values:\n")
		for _, v := range s.Values {
			b.WriteString("- `" + v + "`\n")
		}
	}
	if len(s.Errors) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Errors in its code: ")
		for i, e := range s.Errors {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(CodeSpan(e))
		}
		b.WriteString(".\n")
	}
	return b.String()
}

// Undocumented reports whether the symbol has no documentation of its own: no doc comment, no
// parameter and no value, whatever Errors its code names. Search ranks such a symbol below
// documented ones.
func (s *Symbol) Undocumented() bool {
	return strings.TrimSpace(s.Doc) == "" && len(s.Params) == 0 && len(s.Values) == 0
}

// docWithParams returns Doc followed by the parameters of Params it does not document.
func (s *Symbol) docWithParams() string {
	var todo []Param
	var flat string
	var words map[string]bool
	for _, p := range s.Params {
		if flat == "" {
			flat = alnum(s.Doc)
			words = nameWords(s.Doc)
		}
		// The description compared as letters and digits only: the doc's markup (reST's ``x``,
		// markdown's `x`) and line breaks differ from the parameter's plain text. The name as a
		// word of the doc: "in place" does not document inplace.
		pd := alnum(p.Doc)
		if len(pd) > 32 {
			pd = pd[:32]
		}
		documented := namedIn(p.Name, words) && strings.Contains(flat, pd)
		if documented && !newDefault(p.Default, flat) {
			continue
		}
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return s.Doc
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(s.Doc, "\n"))
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	// A list of some of the parameters says so: the others are documented above.
	if len(todo) == len(s.Params) {
		b.WriteString("Parameters:\n")
	} else {
		b.WriteString("More on the parameters:\n")
	}
	for _, p := range todo {
		b.WriteString("- `")
		b.WriteString(p.Name)
		b.WriteByte('`')
		switch {
		case p.Type != "" && p.Default != "":
			b.WriteString(" (" + p.Type + ", default `" + p.Default + "`)")
		case p.Type != "":
			b.WriteString(" (" + p.Type + ")")
		case p.Default != "":
			b.WriteString(" (default `" + p.Default + "`)")
		}
		if d := strings.Join(strings.Fields(p.Doc), " "); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// newDefault reports whether a parameter's default tells something that the doc (flattened by
// alnum) does not: a value other than the empty ones (None, null, undefined, true, false, empty
// literals) that the doc does not mention.
func newDefault(def, flat string) bool {
	switch strings.TrimSpace(def) {
	case "", "None", "null", "undefined", "True", "False", "true", "false", `""`, "''", "()", "[]", "{}":
		return false
	}
	d := alnum(def)
	return d != "" && !strings.Contains(flat, d)
}

// nameWords returns the words of s as identifiers are written, lowercased: runs of letters,
// digits and "_".
func nameWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		out[strings.ToLower(w)] = true
	}
	return out
}

// namedIn reports whether parameter name ("total", "*args", "options.expiresIn") is written in
// a doc whose words (nameWords) are words: each part of a dotted name, without the stars of a
// variadic one.
func namedIn(name string, words map[string]bool) bool {
	for p := range strings.SplitSeq(strings.TrimLeft(name, "*"), ".") {
		if !words[strings.ToLower(p)] {
			return false
		}
	}
	return true
}

// alnum returns the letters and digits of s, lowercased: text compared regardless of markup,
// spacing and case.
func alnum(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Param is the documentation of one parameter of a function, method or constructor.
type Param struct {
	Name    string `json:"name"`              // as declared, e.g. "total" or "options.expiresIn"
	Type    string `json:"type,omitempty"`    // as the documentation or annotation gives it, e.g. "int | None"
	Default string `json:"default,omitempty"` // the default value as written, e.g. "10" or "'utf-8'"
	// Doc is the parameter's own description, plain text. A Python parameter whose default is
	// None and whose function's body gives it a value when it is not given ends with that
	// value: "When not given: self.default_retry_delay (3 * 60)."
	Doc string `json:"doc,omitempty"`
}

// Key returns the name a user looks a symbol up by: "Parent.Name", or Name.
func (s *Symbol) Key() string {
	if s.Parent == "" {
		return s.Name
	}
	return s.Parent + "." + s.Name
}

// PackageDocs is everything docidx keeps of one package version.
type PackageDocs struct {
	Package   Package    `json:"package"`
	Documents []Document `json:"documents,omitempty"`
	Symbols   []Symbol   `json:"symbols,omitempty"`
}

// HitKind says what a search hit points at.
type HitKind string

// Hit kinds.
const (
	HitSection HitKind = "section"
	HitSymbol  HitKind = "symbol"
)

// Hit is one search result: a section of a document or a symbol, in one package version.
type Hit struct {
	Ecosystem Ecosystem `json:"ecosystem"`
	Package   string    `json:"package"`
	Version   string    `json:"version"`
	PURL      string    `json:"purl"`
	Title     string    `json:"title"`   // document title or symbol qualified name
	Section   string    `json:"section"` // heading path joined with " › ", or the symbol's kind and signature
	Kind      HitKind   `json:"kind"`
	// Snippet is the passage of the hit that answers the query: the sentences, list items, table
	// rows or code of the section or symbol where the query's words concentrate (not its first
	// characters), at most a few hundred bytes; for a symbol its signature comes first.
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
	URI     string  `json:"uri"` // resource URI to read the whole page
	// Also holds the hits this one stands for: the qualified names of the same member on other
	// types, or other overloads, with the same passage (a method inherited by ten classes is one
	// hit), the URIs of the same symbol with the same passage in another major version of a Go
	// module (github.com/cenkalti/backoff beside its /v4), and the qualified names (symbols) or
	// URIs (pages) of the hits of the same package version whose passage repeats this one's (a
	// README option copied into a typings file's doc comment). Empty for most hits.
	Also []string `json:"also,omitempty"`
}

// Registry is one source of package documentation for one ecosystem: a remote registry or a local
// cache. Implementations live in registries/<ecosystem> and are safe for concurrent use.
type Registry interface {
	// Ecosystem returns the ecosystem the registry serves.
	Ecosystem() Ecosystem
	// Resolve returns the exact version that query names. An empty query or "latest" names the
	// latest release; otherwise query uses the ecosystem's own syntax (an npm semver range or
	// dist-tag, a Go version or module query, a PEP 440 pin …). It returns an error wrapping
	// ErrNotFound when the package or a matching version does not exist; a remote registry
	// also returns ErrRetryable, ErrOffline or ctx's error as Fetch does.
	Resolve(ctx context.Context, name, query string) (string, error)
	// Fetch retrieves one exact package version and extracts its metadata, documents and symbols.
	// It returns an error wrapping ErrNotFound, ErrIntegrity (where the registry gives a digest),
	// ErrTooLarge, ErrUnsafePath or ErrOffline when those apply, ErrRetryable when 429 or 5xx
	// replies or cut-off bodies outlast the retries, and ctx's error when ctx ends.
	// registries/registrytest.Conformance and CacheConformance check every registry and cache
	// against this contract.
	Fetch(ctx context.Context, name, version string) (*PackageDocs, error)
}

// Cache is a Registry over a local cache (a module cache, node_modules, site-packages …), which can
// also enumerate the package versions it holds.
type Cache interface {
	Registry
	// List returns every package version in the cache, sorted by name then version.
	List(ctx context.Context) ([]Ref, error)
}

// SortRefs sorts refs by ecosystem, name, then version as plain strings.
func SortRefs(refs []Ref) {
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if a.Ecosystem != b.Ecosystem {
			return a.Ecosystem < b.Ecosystem
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Version < b.Version
	})
}

// NormalizeName returns the form of a package name that its ecosystem compares by: for PyPI the
// PEP 503 normalized name (lower case, runs of "-", "_" and "." as one "-": "PyYAML" ->
// "pyyaml", "Flask_Cors" -> "flask-cors"); for every other ecosystem the name as given, since Go
// module paths, npm names, crates and Swift identities are compared as written.
func NormalizeName(eco Ecosystem, name string) string {
	if eco != PyPI {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '-' || c == '_' || c == '.':
			sep = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteByte(c)
	}
	return b.String()
}
