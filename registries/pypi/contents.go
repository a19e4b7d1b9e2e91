package pypi

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
	"github.com/docidx/docidx/registries/pypi/internal/rst"
)

// Ecosystem is the purl type this package serves.
const Ecosystem = docidx.PyPI

// readFunc reads one file of a distribution by slash path, failing with an error wrapping
// docidx.ErrTooLarge over limit bytes.
type readFunc func(p string, limit int64) ([]byte, error)

// isIdentifier reports whether s is a Python identifier (letters, digits and "_", not starting
// with a digit; non-ASCII letters allowed).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return true
}

// scriptModules are top-level modules of a source tree that are build or test scripts, not API.
var scriptModules = map[string]bool{
	"setup": true, "conftest": true, "noxfile": true, "fabfile": true, "tasks": true, "runtests": true,
	"bootstrap": true, "ez_setup": true, "versioneer": true, "manage": true, "hatch_build": true,
}

// importName returns the dotted module name of a Python file by its slash path relative to the
// import root ("flask/app.py" -> "flask.app", "yaml/__init__.py" -> "yaml", "six.py" -> "six",
// "requests-stubs/api.pyi" -> "requests.api", "trio/_core/_run.py" -> "trio._core._run",
// "lxml/etree.pyx" -> "lxml.etree"). public is false for a private module or package (a name
// starting with "_", __main__ included). ok is false for files that are not modules at all: not
// .py, .pyi or .pyx (a Cython include file, .pxi, is part of the module including it), a path element
// that is not an identifier, tests or test directories, conftest.py, and build scripts at the
// top (setup.py, noxfile.py …).
func importName(p string) (name string, public, ok bool) {
	var stem string
	switch {
	case strings.HasSuffix(p, ".pyi"):
		stem = strings.TrimSuffix(p, ".pyi")
	case strings.HasSuffix(p, ".py"):
		stem = strings.TrimSuffix(p, ".py")
	case strings.HasSuffix(p, ".pyx"):
		stem = strings.TrimSuffix(p, ".pyx")
	default:
		return "", false, false
	}
	parts := strings.Split(stem, "/")
	if s, ok := strings.CutSuffix(parts[0], "-stubs"); ok && len(parts) > 1 {
		parts[0] = s // a stub-only distribution (PEP 561)
	}
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return "", false, false
	}
	public = true
	// A "test" package is a test suite when its modules are tests (test_*.py, *_test.py); else
	// it is an API for writing tests, as django.test is.
	last := parts[len(parts)-1]
	testModule := strings.HasPrefix(last, "test_") || strings.HasSuffix(last, "_test")
	for _, part := range parts {
		if !isIdentifier(part) || part == "tests" || part == "test" && testModule || part == "conftest" {
			return "", false, false
		}
		if strings.HasPrefix(part, "_") {
			public = false
		}
	}
	if public && len(parts) == 1 && scriptModules[parts[0]] {
		return "", false, false
	}
	return strings.Join(parts, "."), public, true
}

// vendorDirs are the directory names under which a distribution carries code of other
// projects: pip's and setuptools' _vendor, botocore's vendored, jedi's third_party (bundled
// typeshed and django-stubs), mypy's typeshed, and the other spellings in use.
var vendorDirs = map[string]bool{
	"_vendor": true, "vendor": true, "vendored": true, "_vendored": true, "third_party": true,
	"_third_party": true, "thirdparty": true, "externals": true, "_externals": true,
	"_vendorized": true, "vendorized": true, "typeshed": true,
}

// vendoredDir returns the directory of p (a slash path relative to the import root) that holds
// code vendored from another project, or "" when p is the distribution's own: the path up to a
// directory named in vendorDirs, or up to a "*-stubs" directory below the top (stubs of another
// distribution bundled inside this one; a top-level "*-stubs" directory is a stub-only
// distribution's own package, PEP 561).
func vendoredDir(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts[:len(parts)-1] {
		if vendorDirs[part] || i > 0 && strings.HasSuffix(part, "-stubs") {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return ""
}

// apiFile is one module chosen for API extraction.
type apiFile struct {
	module  string
	path    string // slash path read, relative to the distribution root
	file    string // Symbol.File: path inside the package
	private bool   // a private module, read only for the definitions public modules re-export
	// docs is the source of the same module that documents path ("" when there is none): the
	// .py beside a .pyi stub, else the Cython .pyx beside a .pyi or .py. Stubs seldom carry
	// docstrings, nor do the Python fallbacks of compiled modules, so the symbols without a doc
	// take the source's (see withDocs).
	docs string
}

// isPackage reports whether the module is a package's __init__.py, __init__.pyi or
// __init__.pyx.
func (f apiFile) isPackage() bool {
	base := path.Base(f.path)
	return base == "__init__.py" || base == "__init__.pyi" || base == "__init__.pyx"
}

// sourceRank orders the files of one module: the .pyi stub is its declared API, then the .py
// source, then the Cython .pyx source (which a .py of the same name shadows at import).
func sourceRank(p string) int {
	switch {
	case strings.HasSuffix(p, ".pyi"):
		return 0
	case strings.HasSuffix(p, ".py"):
		return 1
	}
	return 2
}

// scanOptions returns the pyscan options to scan the file at slash path p (read with read) as
// module mod: a .pyx as Cython, its include statements read with read at most lim.MaxFile
// bytes each.
func scanOptions(mod, p string, read readFunc, lim Limits, maxSymbols int) pyscan.Options {
	opts := pyscan.Options{Module: mod, File: p, MaxSymbols: maxSymbols}
	if strings.HasSuffix(p, ".pyx") {
		opts.Cython = true
		opts.Include = func(inc string) ([]byte, error) { return read(inc, lim.MaxFile) }
	}
	return opts
}

// chooseModules picks the modules to scan from paths relative to the import root: one file per
// module, the .pyi stub when there is one, else the .py, else the Cython .pyx (sourceRank), the
// next of those as its docs; public modules sorted by module name, then private ones (sorted
// too). prefix is prepended to each path to read it (an sdist's "src/"). Code
// vendored from other projects (see vendoredDir) is not the distribution's API: its files are
// left out, and vendored lists the directories they were in, sorted.
func chooseModules(paths []string, prefix string) (files []apiFile, vendored []string) {
	byModule := map[string]apiFile{}
	skipped := map[string]bool{}
	for _, p := range paths {
		if d := vendoredDir(p); d != "" {
			if !skipped[d] {
				skipped[d] = true
				vendored = append(vendored, prefix+d)
			}
			continue
		}
		mod, public, ok := importName(p)
		if !ok {
			continue
		}
		prev, seen := byModule[mod]
		if seen && sourceRank(prev.path) <= sourceRank(p) {
			if r := sourceRank(p); r > sourceRank(prev.path) && (prev.docs == "" || r <= sourceRank(prev.docs)) {
				prev.docs = prefix + p
				byModule[mod] = prev
			}
			continue
		}
		f := apiFile{module: mod, path: prefix + p, file: prefix + p, private: !public}
		if seen {
			// The new file replaces the source it documents, which documents it unless an
			// earlier one of a nearer rank does.
			f.docs = prev.path
			if prev.docs != "" && sourceRank(prev.docs) < sourceRank(prev.path) {
				f.docs = prev.docs
			}
		}
		byModule[mod] = f
	}
	out := slices.Collect(maps.Values(byModule))
	sort.Slice(out, func(i, j int) bool {
		if out[i].private != out[j].private {
			return !out[i].private
		}
		return out[i].module < out[j].module
	})
	sort.Strings(vendored)
	return out, vendored
}

// withDocs gives the symbols of a .pyi stub that have no doc (or only the note of an alias to an
// undocumented stub definition, pyscan.AliasOnly) the docstrings of the same names in the .py
// source beside it (f.docs), with their parameters' documentation, the errors the source's code
// raises (docidx.Symbol.Errors), and the stub
// defaults ("= ...") of their signatures the source's values ([pyscan.FillDefaults]): the stub
// is the declared API, the source is where its author documented and implemented it (attrs
// ships both). A name the source imports from a private module of the distribution is looked
// up there, as reexports does (attr/__init__.py imports attrib from attr._make). A source that
// cannot be read or scanned leaves the stub's symbols as they are. It changes the symbols of
// each of lists in place (a stub's own and those its classes inherit), reading and scanning the
// source once for all of them.
func withDocs(f apiFile, rx *reexporter, lists ...[]docidx.Symbol) {
	src, err := rx.readSource(f.docs)
	if err != nil {
		return
	}
	if !utf8.Valid(src) {
		src = []byte(strings.ToValidUTF8(string(src), "\uFFFD"))
	}
	docs := map[string]*docidx.Symbol{}
	out := pyscan.Scan(src, scanOptions(f.module, f.docs, rx.read, rx.lim, rx.lim.MaxSymbols))
	found := append(out.Symbols[:len(out.Symbols):len(out.Symbols)], out.Inherited...)
	if !out.Truncated {
		found = append(found[:len(found):len(found)], rx.reexports(apiFile{module: f.module, path: f.docs, file: f.docs}, out)...)
	}
	if !out.Truncated {
		found = append(found[:len(found):len(found)], rx.aliasedDefinitions(apiFile{module: f.module, path: f.docs, file: f.docs}, out, lists)...)
	}
	for i := range found {
		if _, seen := docs[found[i].QualifiedName]; !seen {
			docs[found[i].QualifiedName] = &found[i]
		}
	}
	for _, syms := range lists {
		for i := range syms {
			s := &syms[i]
			d, ok := docs[s.QualifiedName]
			if !ok {
				continue
			}
			s.Signature = pyscan.FillDefaults(s.Signature, d.Signature)
			if len(s.Errors) == 0 {
				s.Errors = d.Errors // a stub's bodies are "...": what the code raises is the source's
			}
			switch {
			case s.Doc == "":
				s.Doc = d.Doc
				if len(s.Params) == 0 {
					s.Params = d.Params
				}
			case pyscan.AliasOnly(s.Doc) && d.Doc != "" && !pyscan.AliasOnly(d.Doc):
				// The stub binds the name to another undocumented one (numpy's "round =
				// around"); the source documents it as it is.
				s.Doc, s.Params = d.Doc, d.Params
			}
		}
	}
}

// aliasedDefinitions returns, named as f's, the definitions that source f (scanned as out)
// imports from a private module of the distribution under a private alias, for the top-level
// names a stub beside it declares (lists): loguru/__init__.pyi declares class Logger, which
// loguru/__init__.py binds as "from ._logger import Logger as _Logger", so the stub's
// undocumented Logger and its methods take loguru._logger.Logger's docstrings (its add is 30
// KB of documentation). Names the source defines or binds as they are, reexports finds.
func (rx *reexporter) aliasedDefinitions(f apiFile, out pyscan.Result, lists [][]docidx.Symbol) []docidx.Symbol {
	declared := map[string]bool{}
	for _, syms := range lists {
		for _, s := range syms {
			if s.Parent == "" && s.Package == f.module {
				declared[s.Name] = true
			}
		}
	}
	var syms []docidx.Symbol
	for _, im := range out.Imports {
		if im.Name == "*" || im.As == im.Name || !strings.HasPrefix(im.As, "_") || !declared[im.Name] {
			continue
		}
		target, ok := relativeModule(f, im)
		if !ok {
			continue
		}
		if _, ok := rx.private[target]; !ok {
			continue
		}
		delete(declared, im.Name) // the first import of a name is the one the stub means
		syms = append(syms, renamed(f.module, im.Name, rx.lookup(target, im.Name, 0, map[string]bool{}))...)
	}
	return syms
}

// apiResult is what extractAPI found.
type apiResult struct {
	symbols   []docidx.Symbol
	modules   int
	truncated bool
	problems  []string
}

// maxReexportDepth bounds the private modules a re-export is followed through
// ("trio" -> "trio._core" -> "trio._core._run" is 2).
const maxReexportDepth = 8

// extractAPI scans the chosen public modules: at most lim.MaxFiles files of at most lim.MaxFile
// bytes each, at most lim.MaxSymbols symbols, qualified names unique across modules. Names a
// public module re-exports from a private module of the distribution are documented as the
// public module's (see reexports). The members classes inherit from bases in their file
// (pyscan.Result.Inherited), in private modules or, with site (a distribution read from a
// site-packages directory; nil otherwise), in other installed distributions (inheritedAcross)
// come after every module's own symbols, so that copies never crowd a definition out of the
// budget. Module-level
// aliases of imported functions and methods ("find_packages = PackageFinder.find") are
// documented as their targets (resolveAliases). Symbols still without a doc take those the
// distribution gives with add_newdoc (attachNewDocs), which numpy writes for its extension
// modules. Docstrings are converted from reStructuredText inline markup to markdown.
func extractAPI(files []apiFile, read readFunc, lim Limits, site *siteModules) apiResult {
	var res apiResult
	var public []apiFile
	private := map[string]apiFile{}
	for _, f := range files {
		if f.private {
			private[f.module] = f
		} else {
			public = append(public, f)
		}
	}
	rx := &reexporter{private: private, public: map[string]apiFile{}, scans: map[string]*privateScan{}, read: read, lim: lim, site: site, sourced: map[string]bool{}}
	for _, f := range public {
		rx.public[f.module] = f
	}
	seen := map[string]bool{}
	var aliases []moduleAlias
	var inherited []docidx.Symbol // members classes inherit, kept after every module's own
	for i, f := range public {
		if i >= lim.MaxFiles {
			res.truncated = true
			res.problems = append(res.problems, fmt.Sprintf("more than %d modules; %d skipped", lim.MaxFiles, len(public)-i))
			break
		}
		src, err := read(f.path, lim.MaxFile)
		if err != nil {
			res.problems = append(res.problems, err.Error())
			continue
		}
		if !utf8.Valid(src) {
			src = []byte(strings.ToValidUTF8(string(src), "\uFFFD"))
		}
		res.modules++
		rx.noteNewDocs(f.path, src)
		out := pyscan.Scan(src, scanOptions(f.module, f.file, read, lim, lim.MaxSymbols-len(res.symbols)+1))
		res.problems = append(res.problems, out.Problems...)
		syms, inh := out.Symbols, out.Inherited
		if f.docs != "" {
			withDocs(f, rx, syms, inh)
		}
		inherited = append(inherited, inh...)
		if len(private) > 0 || site != nil {
			inherited = append(inherited, rx.inheritedAcross(f, out)...)
		}
		if !out.Truncated {
			if re := rx.reexports(f, out); len(re) > 0 {
				if len(syms) == 0 {
					syms = append(syms, moduleSymbol(f))
				}
				syms = append(syms[:len(syms):len(syms)], re...)
			}
		}
		for _, s := range syms {
			if seen[s.QualifiedName] {
				continue
			}
			if len(res.symbols) >= lim.MaxSymbols {
				res.truncated = true
				break
			}
			seen[s.QualifiedName] = true
			res.symbols = append(res.symbols, plainSymbol(s))
		}
		for _, a := range out.Aliases {
			if target, ok := aliasTarget(f, out.Imports, a.Target); ok {
				aliases = append(aliases, moduleAlias{Alias: a, target: target})
			}
		}
		if res.truncated || out.Truncated && len(res.symbols) >= lim.MaxSymbols {
			res.truncated = true
			res.problems = append(res.problems, fmt.Sprintf("API truncated at %d symbols", lim.MaxSymbols))
			break
		}
	}
	for _, s := range inherited {
		if len(res.symbols) >= lim.MaxSymbols {
			if !res.truncated {
				res.problems = append(res.problems, fmt.Sprintf("API truncated at %d symbols: inherited members left out", lim.MaxSymbols))
			}
			res.truncated = true
			break
		}
		if !seen[s.QualifiedName] {
			seen[s.QualifiedName] = true
			res.symbols = append(res.symbols, plainSymbol(s))
		}
	}
	rx.resolveAliases(res.symbols, aliases)
	moduleOf := make(map[string]string, len(files))
	for _, f := range files {
		moduleOf[f.file] = f.module
	}
	attachNewDocs(res.symbols, rx.allNewDocs(files), moduleOf)
	// Resolving constants may read modules no re-export read (constantValues); what goes wrong
	// reading them is a problem of the crawl as any other.
	rx.constantValues(res.symbols, moduleOf)
	res.problems = append(res.problems, rx.problems...)
	return res
}

// inheritedAcross returns the members the public classes of public module f (scanned as out)
// inherit from classes that private modules of the distribution define, as pyscan lists those
// inherited from bases in the same file: a class whose base is imported ("from ._base import
// Base") gets the base's public methods, properties and class attributes it does not define or
// already inherit, with the base's signature and doc ending "Inherited from <base>.", File and
// Line the base's. The bases of the imported class in its own file count too (the private scan
// lists them as inherited).
//
// With rx.site (a distribution read from a site-packages directory), a base imported from a
// module that is not the distribution's ("from werkzeug.wrappers import Request as
// RequestBase", or "routing.Router" after "from starlette import routing") is looked up among
// the other distributions installed there (siteModules.members): the class gets the members
// the base defines, inherits in its file, and inherits from its own bases in other modules,
// nearest first, each Doc ending "Inherited from <qualified name>." of the class that defines
// it ("Inherited from werkzeug.sansio.request.Request."), File and Line its definition (a path
// relative to the directory, like the distribution's own). A public base of another
// distribution is copied although it documents its methods itself: that distribution is
// another package, and a reader of this one looks for them here (Flask's docs list what
// flask.Request inherits from Werkzeug).
//
// Bounds are pyscan's: MaxInherited attributes and MaxInheritedMethods methods per class,
// counting those inherited within the file.
func (rx *reexporter) inheritedAcross(f apiFile, out pyscan.Result) []docidx.Symbol {
	var syms []docidx.Symbol
	for _, cls := range out.Symbols {
		if cls.Kind != docidx.KindClass || cls.Parent != "" {
			continue
		}
		var bases []moduleName
		for _, b := range classBases(cls.Signature) {
			mod, name, ok := importedName(f, out.Imports, b)
			if !ok {
				continue
			}
			_, private := rx.private[mod]
			switch {
			case private && !strings.Contains(b, "."), !private && rx.site != nil:
				bases = append(bases, moduleName{mod, name, b})
			}
		}
		if len(bases) == 0 {
			continue
		}
		has := map[string]bool{}
		attrs, methods := 0, 0
		for _, m := range out.Symbols {
			if m.Parent == cls.Name {
				has[m.Name] = true
			}
		}
		for _, m := range out.Inherited {
			if m.Parent == cls.Name {
				has[m.Name] = true
				attrs, methods = countMember(m, attrs, methods)
			}
		}
		for _, b := range bases {
			var found []docidx.Symbol
			if _, private := rx.private[b.module]; private {
				found = rx.lookup(b.module, b.name, 0, map[string]bool{})
				if len(found) == 0 || found[0].Kind != docidx.KindClass {
					continue
				}
				found = found[1:]
			} else {
				found = rx.site.members(b.module, b.name)
			}
			for _, m := range found {
				if has[m.Name] || strings.HasPrefix(m.Name, "_") {
					continue
				}
				has[m.Name] = true // a nearer base's member hides a farther one's
				a, n := countMember(m, attrs, methods)
				if a > pyscan.MaxInherited || n > pyscan.MaxInheritedMethods {
					continue
				}
				attrs, methods = a, n
				m.Parent, m.Package = cls.Name, f.module
				m.QualifiedName = f.module + "." + cls.Name + "." + m.Name
				if inheritedNote(m.Doc) == "" {
					if m.Doc != "" {
						m.Doc += "\n\n"
					}
					m.Doc += "Inherited from " + b.as + "."
				}
				syms = append(syms, m)
			}
		}
	}
	return syms
}

// moduleName is a name module defines, imported as as.
type moduleName struct {
	module, name, as string
}

// inheritedNote returns the last paragraph of doc when it is pyscan's "Inherited from <base>."
// note, else "".
func inheritedNote(doc string) string {
	last := doc[strings.LastIndex(doc, "\n\n")+1:]
	last = strings.TrimPrefix(last, "\n")
	if strings.HasPrefix(last, "Inherited from ") && !strings.Contains(last, "\n") {
		return last
	}
	return ""
}

// countMember adds member m to the attributes or the methods a class inherits.
func countMember(m docidx.Symbol, attrs, methods int) (int, int) {
	switch m.Kind {
	case docidx.KindMethod, docidx.KindProperty, docidx.KindFunc:
		return attrs, methods + 1
	}
	return attrs + 1, methods
}

// inlineOutsideFences converts the reStructuredText inline markup of doc (rst.Inline) except
// inside the markdown fenced code blocks of a docstring written in markdown (mkdocstrings'
// "```pycon" examples): reST takes a fence's backquotes for an inline literal and mangles it.
func inlineOutsideFences(doc string) string {
	if !strings.Contains(doc, "```") {
		md, _ := rst.Inline(doc)
		return md
	}
	var b, prose strings.Builder
	flush := func() {
		if prose.Len() > 0 {
			md, _ := rst.Inline(prose.String())
			b.WriteString(md)
			prose.Reset()
		}
	}
	in := false
	for line := range strings.SplitAfterSeq(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			flush()
			in = !in
			b.WriteString(line)
			continue
		}
		if in {
			b.WriteString(line)
		} else {
			prose.WriteString(line)
		}
	}
	flush()
	return b.String()
}

// withoutSphinxMarkup removes from a docstring the reStructuredText block markup that only tells
// Sphinx what to do: autodoc and index directives with their option lines (".. autoclass:: X",
// ":members:"), the line of a code or doctest directive (".. code-block:: python",
// ".. doctest::"; the indented block after it stays a code block), a literal block's "::"
// marker, and a section title's underline ("Tagged JSON" over "~~~~~~", a blank line in its
// place). An admonition (".. note::") keeps its words as "Note:", a version directive
// (".. versionadded:: 2.0") as Sphinx words it ("Added in version 2.0."), an object directive
// (".. attribute:: method") its signature as code.
func withoutSphinxMarkup(doc string) string {
	lines := strings.Split(doc, "\n")
	out := lines[:0]
	options := false // the lines after a dropped directive are its options
	dedent := 0      // inside an admonition's body: the indentation to remove from its lines
	fenced := false  // inside a markdown fenced block, left as it is
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fenced = !fenced
		}
		if fenced || strings.HasPrefix(t, "```") {
			out = append(out, l)
			continue
		}
		if options && strings.HasPrefix(t, ":") {
			continue
		}
		options = false
		if dedent > 0 {
			// The body of a Markdown admonition, indented under its marker.
			if ind := len(l) - len(strings.TrimLeft(l, " ")); t == "" || ind >= dedent {
				out = append(out, l[min(dedent, ind):])
				continue
			}
			dedent = 0
		}
		if label, ok := mkdocsAdmonition(t); ok {
			// mkdocs-material's admonition ('!!! note "Title"', '??? tip'): its title, or its
			// kind, as a label, and its body, indented four spaces under the marker, as the
			// lines that follow it (mkdocstrings' docstrings, pydantic's).
			out = append(out, strings.TrimSuffix(l, t)+label)
			dedent = len(l) - len(strings.TrimLeft(l, " ")) + 4
			continue
		}
		if name, arg, ok := sphinxDirective(t); ok {
			switch {
			case name == "note" || name == "warning" || name == "tip" || name == "important" || name == "caution" || name == "attention" || name == "danger" || name == "hint" || name == "seealso":
				label := strings.ToUpper(name[:1]) + name[1:] + ":"
				if name == "seealso" {
					label = "See also:"
				}
				out = append(out, strings.TrimSuffix(l, t)+strings.TrimSpace(label+" "+arg))
			case pyObjects[strings.TrimPrefix(name, "py:")] && arg != "":
				// An object a docstring documents in place (h11's Request: ".. attribute::
				// method" over its description), as Sphinx shows it: its signature as code.
				out = append(out, strings.TrimSuffix(l, t)+"`"+arg+"`")
			case versionLabels[name] != "":
				// Sphinx's wording: ".. versionchanged:: 2.0 Takes a path." reads "Changed in
				// version 2.0: Takes a path."; the explanation under it follows that line.
				version, more, _ := strings.Cut(arg, " ")
				end := "."
				if more = strings.TrimSpace(more); more != "" {
					end = ": " + more
				} else if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
					end = ":"
				}
				out = append(out, strings.TrimSuffix(l, t)+versionLabels[name]+" "+version+end)
			case strings.HasPrefix(name, "auto") || name == "currentmodule" || name == "module" || name == "toctree" || name == "index" || name == "highlight" || name == "code-block" || name == "code" || name == "sourcecode" || name == "doctest" || name == "testcode" || name == "testoutput":
				options = true
			default:
				out = append(out, l)
			}
			continue
		}
		if strings.HasSuffix(t, "::") && !strings.HasPrefix(t, "..") {
			// A literal block's marker (docutils' "Literal Blocks"): "::" alone shows nothing,
			// "text ::" shows "text", and "text::" shows "text:".
			switch {
			case t == "::":
				continue
			case strings.HasSuffix(t, " ::"):
				l = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(l, " \t"), "::"), " \t")
			default:
				l = strings.TrimSuffix(strings.TrimRight(l, " \t"), ":")
			}
		}
		if i > 0 && adornment(t) && len(t) >= 3 && strings.TrimSpace(lines[i-1]) != "" && !adornment(strings.TrimSpace(lines[i-1])) {
			// A section title's underline. A blank line takes its place, so that the title
			// stays a line of its own ("Parameters", "Notes") rather than the first words of
			// the paragraph under it.
			if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				out = append(out, "")
			}
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// pyObjects are the Python domain's object directives (".. attribute:: name", ".. method::
// f(x)"), with or without their "py:" prefix.
var pyObjects = map[string]bool{
	"attribute": true, "method": true, "function": true, "class": true, "data": true,
	"exception": true, "property": true, "classmethod": true, "staticmethod": true,
	"decorator": true, "decoratormethod": true,
}

// versionLabels are the words Sphinx renders its version directives with (sphinx.domains.changeset).
var versionLabels = map[string]string{
	"versionadded":   "Added in version",
	"versionchanged": "Changed in version",
	"deprecated":     "Deprecated since version",
	"versionremoved": "Removed in version",
}

// mkdocsAdmonition parses a trimmed line that opens an mkdocs-material admonition ("!!! note",
// '!!! abstract "Usage Documentation"', "???+ tip", https://squidfunk.github.io/mkdocs-material/
// reference/admonitions/) and returns its label: its title, or its kind capitalized, and ":".
// An empty title ('!!! note ""') gives the kind.
func mkdocsAdmonition(t string) (string, bool) {
	rest, ok := strings.CutPrefix(t, "!!! ")
	if !ok {
		if rest, ok = strings.CutPrefix(t, "??? "); !ok {
			rest, ok = strings.CutPrefix(t, "???+ ")
		}
	}
	if !ok {
		return "", false
	}
	kind, title, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if kind == "" || strings.IndexFunc(kind, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
		return "", false
	}
	title = strings.Trim(strings.TrimSpace(title), `"`)
	if title == "" {
		title = strings.ToUpper(kind[:1]) + kind[1:]
	}
	return title + ":", true
}

// sphinxDirective parses a trimmed line ".. name:: argument".
func sphinxDirective(t string) (name, arg string, ok bool) {
	rest, found := strings.CutPrefix(t, ".. ")
	if !found {
		return "", "", false
	}
	name, arg, found = strings.Cut(rest, "::")
	if !found || name == "" || strings.ContainsAny(name, " \t") {
		return "", "", false
	}
	return strings.ToLower(name), strings.TrimSpace(arg), true
}

// adornment reports whether t is a reStructuredText section adornment: one punctuation
// character repeated (not a backquote: a line of them is a markdown fence).
func adornment(t string) bool {
	if t == "" || !strings.ContainsRune("=-~^\"'#*+_.:", rune(t[0])) {
		return false
	}
	return strings.Count(t, t[:1]) == len(t)
}

// plainSymbol returns s with the reStructuredText tables (rst.Tables) and inline markup of its
// Doc converted to markdown and the inline markup of its Params removed ([plainParams]).
func plainSymbol(s docidx.Symbol) docidx.Symbol {
	if strings.Contains(s.Doc, "..") || strings.Contains(s.Doc, "\n") {
		s.Doc = withoutSphinxMarkup(s.Doc)
	}
	s.Doc = rst.Tables(s.Doc)
	if s.Doc != "" && strings.ContainsAny(s.Doc, "`*|_:\\") {
		s.Doc = inlineOutsideFences(s.Doc)
	}
	if len(s.Params) > 0 {
		s.Params = plainParams(s.Params)
	}
	return s
}

// moduleAlias is an alias a public module assigns to a name it imports
// ("find_packages = PackageFinder.find"), with the absolute dotted name of its target
// ("setuptools.discovery.PackageFinder.find").
type moduleAlias struct {
	pyscan.Alias
	target string
}

// aliasTarget returns the absolute dotted name that target, assigned in module f, names when its
// first part is bound by one of f's from-imports: "PackageFinder.find" in setuptools/__init__.py,
// which has "from setuptools.discovery import PackageFinder", is
// "setuptools.discovery.PackageFinder.find". ok is false for any other target.
func aliasTarget(f apiFile, imports []pyscan.Import, target string) (string, bool) {
	first, rest, _ := strings.Cut(target, ".")
	for _, im := range imports {
		if im.Name == "*" || im.As != first {
			continue
		}
		mod, ok := relativeModule(f, im)
		if !ok {
			return "", false
		}
		abs := mod + "." + im.Name
		if rest != "" {
			abs += "." + rest
		}
		return abs, true
	}
	return "", false
}

// resolveAliases documents each alias among syms as the function, method or property its
// target names ([pyscan.Aliased]): a symbol of syms (a public module's, or one it re-exports),
// else a function of a private module of the distribution or a method of a class there,
// inherited ones included. An alias whose target is found nowhere, or is not a function,
// method or property, stays the variable it was.
func (rx *reexporter) resolveAliases(syms []docidx.Symbol, aliases []moduleAlias) {
	if len(aliases) == 0 {
		return
	}
	index := make(map[string]int, len(syms))
	for i, s := range syms {
		if _, dup := index[s.QualifiedName]; !dup {
			index[s.QualifiedName] = i
		}
	}
	for _, a := range aliases {
		i, ok := index[a.QualifiedName]
		if !ok {
			continue
		}
		var def docidx.Symbol
		if j, ok := index[a.target]; ok {
			def = syms[j]
		} else if def, ok = rx.privateDefinition(a.target); !ok {
			continue
		} else {
			def = plainSymbol(def)
		}
		switch def.Kind {
		case docidx.KindFunc, docidx.KindMethod, docidx.KindProperty:
			syms[i] = pyscan.Aliased(syms[i], def, a.Alias.Target)
		}
	}
}

// privateDefinition returns the symbol that dotted name names in a private module of the
// distribution: "pkg._impl.func" is func of pkg._impl, "pkg._impl.Thing.method" the method of
// Thing there (found through the private modules' own imports as reexports finds them).
func (rx *reexporter) privateDefinition(name string) (docidx.Symbol, bool) {
	parts := strings.Split(name, ".")
	for k := len(parts) - 1; k >= len(parts)-2 && k >= 1; k-- {
		mod := strings.Join(parts[:k], ".")
		if _, ok := rx.private[mod]; !ok {
			continue
		}
		found := rx.lookup(mod, parts[k], 0, map[string]bool{})
		if len(found) == 0 {
			continue
		}
		if k == len(parts)-1 {
			return found[0], true
		}
		for _, m := range found[1:] {
			if m.Name == parts[k+1] {
				return m, true
			}
		}
	}
	return docidx.Symbol{}, false
}

// plainParams returns params with the reStructuredText inline markup of each Doc and Type
// removed (":class:`~a.Foo`" is "Foo"; Param.Doc is plain text), on a copy: a re-exported
// symbol shares its Params with the private scan.
func plainParams(params []docidx.Param) []docidx.Param {
	out := make([]docidx.Param, len(params))
	for i, p := range params {
		if strings.ContainsAny(p.Doc, "`*|_:\\") {
			_, p.Doc = rst.Inline(p.Doc)
		}
		if strings.Contains(p.Type, "`") {
			_, p.Type = rst.Inline(p.Type)
		}
		out[i] = p
	}
	return out
}

// privateScan is a private module read for its definitions and imports.
type privateScan struct {
	file apiFile
	res  pyscan.Result
}

// reexporter finds the definitions behind names public modules import from private modules of
// the same distribution, reading each private module at most once and at most lim.MaxFiles of
// them.
type reexporter struct {
	private  map[string]apiFile
	public   map[string]apiFile      // the public modules, read by lookup when a name's trail passes one
	scans    map[string]*privateScan // by module; nil when unreadable
	read     readFunc
	lim      Limits
	problems []string
	// site finds the bases defined by other distributions of a site-packages directory; nil
	// for a distribution read from a registry.
	site *siteModules
	// newDocs are the docstrings the sources read so far give with add_newdoc, and sourced
	// the paths of those sources (see noteNewDocs).
	newDocs []pyscan.NewDoc
	sourced map[string]bool
}

// reexports returns the symbols public module f (scanned as out) re-exports from private
// modules, named as f's: for each public name bound by "from <private module> import name [as
// alias]" (relative or absolute), the function or class that the private module defines or
// itself imports from another private module, with a class's methods. Public means listed in
// f's __all__ when it has one, else not starting with "_". A star import from a private module
// brings the names of f's __all__ when f has one, else the names the private module's own
// __all__ lists or (without one) its public-looking definitions and from-imports. File and Line
// point at the private definition. With rx.site (a distribution read from a site-packages
// directory), a name f's __all__ lists that f imports from another installed distribution is
// re-exported too, from that distribution's definition (siteModules.definition), and so is,
// in a module without __all__, a name f imports as "from m import name as name" (the typing
// spec's explicit re-export) that another installed distribution defines, directly or through
// the distribution's own modules (resolve).
func (rx *reexporter) reexports(f apiFile, out pyscan.Result) []docidx.Symbol {
	var inAll map[string]bool
	if out.HasAll {
		inAll = make(map[string]bool, len(out.All))
		for _, n := range out.All {
			inAll[n] = true
		}
	}
	isPublic := func(n string) bool {
		if inAll != nil {
			return inAll[n]
		}
		return !strings.HasPrefix(n, "_")
	}
	defined := map[string]bool{}
	for _, s := range out.Symbols {
		if s.Parent == "" {
			defined[s.Name] = true
		}
	}
	var syms []docidx.Symbol
	done := map[string]bool{}
	emit := func(as string, found []docidx.Symbol) {
		if len(found) == 0 {
			return
		}
		done[as] = true
		syms = append(syms, renamed(f.module, as, found)...)
	}
	var stars []string
	for _, im := range out.Imports {
		target, ok := relativeModule(f, im)
		if !ok {
			continue
		}
		if _, ok := rx.private[target]; !ok {
			// A name __all__ declares, from a public module of the distribution (psycopg
			// declares Copy, which psycopg.copy re-exports) or another installed one.
			_, own := rx.public[target]
			switch {
			case target == f.module:
			case inAll == nil:
				// Without __all__, a name written "from m import name as name" (the typing
				// spec's explicit re-export) that another installed distribution defines:
				// fastapi.requests' Request is starlette.requests.Request, and fastapi's
				// __init__ re-exports it from there as fastapi.Request.
				if im.Explicit && rx.site != nil && !defined[im.As] && !done[im.As] && isPublic(im.As) {
					if found, external := rx.resolve(target, im.Name, 0, map[string]bool{}, true); external {
						emit(im.As, found)
					}
				}
			case own && im.Name == "*":
				stars = append(stars, target)
			case im.Name == "*" || !inAll[im.As] || defined[im.As] || done[im.As]:
			case own:
				emit(im.As, rx.lookup(target, im.Name, 0, map[string]bool{}))
			case rx.site != nil:
				found, _ := rx.site.definition(target, im.Name, 0, map[string]bool{})
				emit(im.As, found)
			}
			continue
		}
		if im.Name == "*" {
			stars = append(stars, target)
			continue
		}
		if defined[im.As] || done[im.As] || !isPublic(im.As) {
			continue
		}
		found, _ := rx.resolve(target, im.Name, 0, map[string]bool{}, true)
		if len(found) > 0 && found[0].Kind == docidx.KindVar && inAll == nil && !im.Explicit {
			// A variable (a logger, a compat shim) imported without __all__ or an explicit
			// re-export is the module's state, as it is where it is assigned.
			continue
		}
		emit(im.As, found)
	}
	for _, target := range stars {
		var names []string
		if inAll != nil {
			names = out.All
		} else {
			names = rx.starNames(target)
		}
		for _, n := range names {
			if defined[n] || done[n] || !isPublic(n) || !rx.starExports(target, n) {
				continue
			}
			emit(n, rx.lookup(target, n, 0, map[string]bool{}))
		}
	}
	return syms
}

// moduleSymbol is the KindPackage symbol of a module without a docstring or definitions of its
// own, as pyscan.Scan makes it for one with them.
func moduleSymbol(f apiFile) docidx.Symbol {
	return docidx.Symbol{
		Kind:          docidx.KindPackage,
		Name:          f.module[strings.LastIndexByte(f.module, '.')+1:],
		Package:       f.module,
		QualifiedName: f.module,
		Signature:     "module " + f.module,
		File:          f.file,
		Line:          1,
	}
}

// renamed returns the symbols of a definition found in a private module as module's name as:
// the function or class itself (found[0]) and a class's methods and properties.
func renamed(module, as string, found []docidx.Symbol) []docidx.Symbol {
	out := make([]docidx.Symbol, 0, len(found))
	for i, s := range found {
		s.Package = module
		if i == 0 {
			s.Name = as
			s.Parent = ""
			s.QualifiedName = module + "." + as
		} else {
			s.Parent = as
			s.QualifiedName = module + "." + as + "." + s.Name
		}
		out = append(out, s)
	}
	return out
}

// relativeModule returns the absolute module an import of module f names: "from ._core import
// x" in trio/__init__.py is "trio._core", in trio/_abc.py too. ok is false when the dots climb
// above the top package.
func relativeModule(f apiFile, im pyscan.Import) (string, bool) {
	if im.Level == 0 {
		return im.Module, im.Module != ""
	}
	parts := strings.Split(f.module, ".")
	if !f.isPackage() {
		parts = parts[:len(parts)-1]
	}
	if im.Level-1 >= len(parts) {
		return "", false
	}
	parts = parts[:len(parts)-(im.Level-1)]
	if im.Module != "" {
		parts = append(parts, im.Module)
	}
	return strings.Join(parts, "."), true
}

// scan returns module mod of the distribution read and scanned with every definition kept, or
// nil when it is not a module of the distribution, cannot be read, or over the budget. Private
// modules are read for the names public ones re-export; a public module is read here when such
// a name's trail passes through it (numpy._core.defchararray star-imports numpy.strings, which
// star-imports the private numpy._core.strings that defines the functions).
func (rx *reexporter) scan(mod string) *privateScan {
	if sc, ok := rx.scans[mod]; ok {
		return sc
	}
	f, ok := rx.private[mod]
	if !ok {
		f, ok = rx.public[mod]
	}
	if !ok {
		return nil
	}
	if len(rx.scans) >= rx.lim.MaxFiles {
		return nil
	}
	rx.scans[mod] = nil
	src, err := rx.readSource(f.path)
	if err != nil {
		rx.problems = append(rx.problems, err.Error())
		return nil
	}
	if !utf8.Valid(src) {
		src = []byte(strings.ToValidUTF8(string(src), "\uFFFD"))
	}
	opts := scanOptions(mod, f.file, rx.read, rx.lim, rx.lim.MaxSymbols)
	opts.AllDefinitions = true
	sc := &privateScan{file: f, res: pyscan.Scan(src, opts)}
	rx.problems = append(rx.problems, sc.res.Problems...)
	if f.docs != "" {
		// A private stub (numpy/_core/shape_base.pyi) documents nothing; its source does.
		withDocs(f, rx, sc.res.Symbols, sc.res.Inherited)
	}
	rx.scans[mod] = sc
	return sc
}

// lookup returns the definition of name in private module mod, following from-imports and star
// imports through other private modules up to maxReexportDepth deep: the function or class
// first, then a class's methods and properties. visited holds the "module:name" pairs on the
// way, so import cycles end. It returns nil when no definition is found.
func (rx *reexporter) lookup(mod, name string, depth int, visited map[string]bool) []docidx.Symbol {
	found, _ := rx.resolve(mod, name, depth, visited, false)
	return found
}

// resolve is lookup that, with site, also follows a trail into a module that is not the
// distribution's, among the other installed distributions (rx.site's definition): external
// reports that the definition found is there (fastapi imports Request from fastapi.requests,
// which imports it from starlette.requests), not one the distribution defines itself (click's
// Command is click.core's).
func (rx *reexporter) resolve(mod, name string, depth int, visited map[string]bool, site bool) (found []docidx.Symbol, external bool) {
	key := mod + ":" + name
	if depth > maxReexportDepth || visited[key] {
		return nil, false
	}
	visited[key] = true
	sc := rx.scan(mod)
	if sc == nil {
		_, private := rx.private[mod]
		if _, public := rx.public[mod]; site && rx.site != nil && !private && !public {
			found, _ := rx.site.definition(mod, name, 0, map[string]bool{})
			return found, found != nil
		}
		return nil, false
	}
	var variable *docidx.Symbol
	for i, s := range sc.res.Symbols {
		if s.Parent == "" && s.Kind != docidx.KindPackage && s.Name == name {
			if s.Kind == docidx.KindVar {
				// "Copy = _copy.Copy" is a variable to the scanner and an import of _copy's
				// class (below); a variable stands for itself only when no import binds it.
				variable = &sc.res.Symbols[i]
				continue
			}
			found = append(found, s)
			break
		}
	}
	if len(found) > 0 {
		for _, s := range sc.res.Symbols {
			if s.Parent == name {
				found = append(found, s)
			}
		}
		for _, s := range sc.res.Inherited {
			if s.Parent == name {
				found = append(found, s)
			}
		}
		return found, false
	}
	for _, im := range sc.res.Imports {
		if im.Name == "*" || im.As != name {
			continue
		}
		if target, ok := relativeModule(sc.file, im); ok {
			if found, external := rx.resolve(target, im.Name, depth+1, visited, site); found != nil {
				return found, external
			}
		}
	}
	for _, im := range sc.res.Imports {
		if im.Name != "*" {
			continue
		}
		if target, ok := relativeModule(sc.file, im); ok && rx.starExports(target, name) {
			if found, external := rx.resolve(target, name, depth+1, visited, site); found != nil {
				return found, external
			}
		}
	}
	if variable != nil {
		return []docidx.Symbol{*variable}, false
	}
	return nil, false
}

// starExports reports whether "from mod import *" binds name: listed in mod's __all__ when it
// has one, else not starting with "_".
func (rx *reexporter) starExports(mod, name string) bool {
	sc := rx.scan(mod)
	if sc == nil {
		return false
	}
	if sc.res.HasAll {
		for _, n := range sc.res.All {
			if n == name {
				return true
			}
		}
		return false
	}
	return !strings.HasPrefix(name, "_")
}

// starNames returns the names "from mod import *" binds that a lookup may resolve: mod's
// __all__ when it has one, else its definitions and from-imported names not starting with "_".
func (rx *reexporter) starNames(mod string) []string {
	sc := rx.scan(mod)
	if sc == nil {
		return nil
	}
	if sc.res.HasAll {
		return sc.res.All
	}
	var names []string
	for _, s := range sc.res.Symbols {
		// A lower-case variable is the module's state (a logger, a cache), which a star import
		// binds but which only a named import or an __all__ makes an interface.
		if s.Parent == "" && s.Kind != docidx.KindPackage && s.Kind != docidx.KindVar && !strings.HasPrefix(s.Name, "_") {
			names = append(names, s.Name)
		}
	}
	for _, im := range sc.res.Imports {
		if im.Name != "*" && !strings.HasPrefix(im.As, "_") {
			names = append(names, im.As)
		}
	}
	return names
}

// descriptionDocument turns the long description into the README document by its content type:
// markdown through readme.Parse, reStructuredText (also when no type is given, as PyPI assumes)
// through the rst splitter, plain text as one section. ok is false for an empty description.
func descriptionDocument(m *Metadata) (docidx.Document, bool) {
	desc := strings.TrimSpace(m.Description)
	if desc == "" {
		return docidx.Document{}, false
	}
	var d docidx.Document
	switch ct := m.ContentType(); ct {
	case "text/markdown":
		d = readme.ParseReadme("README.md", []byte(m.Description), m.Version)
	case "text/x-rst", "text/rst", "text/restructuredtext":
		d = rst.ParseReadme("README.rst", []byte(m.Description), m.Version)
	default:
		d = readme.Plain("README.txt", docidx.DocReadme, m.Description)
	}
	d.Title = readme.PackageTitle(d, m.Name)
	return d, true
}

// documentFile parses a file under docs/ or examples/ by its extension: markdown, reStructuredText
// (a guide's .txt too: the Sphinx projects that render .txt files write them in
// reStructuredText, see sphinxSuffixes), or (for examples) a Python source shown as a code block.
// ok is false for other files.
func documentFile(p string, kind docidx.DocKind, src []byte) (docidx.Document, bool) {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdown", ".mkd":
		return readme.Parse(p, kind, src), true
	case ".rst", ".rest":
		return rst.Parse(p, kind, src), true
	case ".txt":
		if kind != docidx.DocGuide {
			return docidx.Document{}, false
		}
		return rst.Parse(p, kind, src), true
	case ".py":
		if kind != docidx.DocExample {
			return docidx.Document{}, false
		}
		fence := "```"
		for strings.Contains(string(src), fence) {
			fence += "`"
		}
		md := "# " + p + "\n\n" + fence + "python\n" + strings.TrimRight(string(src), "\n") + "\n" + fence + "\n"
		return readme.Parse(p, kind, []byte(md)), true
	}
	return docidx.Document{}, false
}

// packageFromMetadata fills a Package from core metadata; name is the normalized name.
func packageFromMetadata(m *Metadata, name, version string) docidx.Package {
	p := docidx.Package{
		Ecosystem:   Ecosystem,
		Name:        name,
		Version:     version,
		Description: strings.TrimSpace(m.Summary),
		License:     m.LicenseName(),
		Homepage:    m.Homepage(),
		Repository:  m.Repository(),
		Keywords:    m.Keywords,
	}
	// Requires-Python, a PEP 440 specifier set (https://packaging.python.org/en/latest/specifications/core-metadata/#requires-python).
	if spec := strings.Join(strings.Fields(m.RequiresPython), " "); spec != "" {
		p.Requires = []docidx.Requirement{{Name: "python", Range: spec}}
	}
	for _, c := range m.Classifiers {
		if strings.HasPrefix(c, "Development Status :: 7") {
			p.Deprecated = "the project is marked inactive (" + c + ")"
		}
	}
	return p
}
