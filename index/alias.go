package index

//go:generate sh ../scripts/gostd.sh gostd.go

// alias.go finds the names a package version's code calls it by: the module names it is
// imported as ("yaml" for PyYAML, "jsoniter" for github.com/json-iterator/go) and the aliases its
// own documentation imports it by ("pd" for pandas, "iconv" for iconv-lite), so that a question
// writing them ("with bs4, …", "pd.merge(…)") names the package as one writing its name does.

import (
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// aliasPrefix, modulePrefix and commandPrefix mark the names of a package that its code gives it
// among its exact names (fPkgExact, the exact table of rank.idx): an import alias names its
// package as the owner of a call (aliasPackages), a module name as the package's name does
// (packagesNamed), a command it installs as the command a question calls it (namedPackages); a
// query is not the package's exact name for any. They sort before every other exact name
// (codeNamed).
const (
	aliasPrefix   = "\x02"
	modulePrefix  = "\x03"
	commandPrefix = "\x04"
)

// maxAliases bounds the import aliases kept of one package version, and maxPackageAliases the
// names of a Go module's packages below its root (a module of many packages, golang.org/x/tools,
// keeps its first ones in path order).
const (
	maxAliases        = 4
	maxPackageAliases = 64
)

// codeNames returns, lowercased, the names p's code calls it by besides those its ecosystem
// gives it (packageNames). modules are the names its code is imported as: a Python
// distribution's top-level modules ("yaml" of PyYAML, "bs4" of beautifulsoup4, as its symbols'
// qualified names start; at most two), a Go module's root package ("jsoniter" of
// github.com/json-iterator/go). aliases are the names its documents and doc comments (their code
// blocks and doctest lines) import it by: Python's "import pandas as pd", JavaScript's "const
// iconv = require('iconv-lite')", "import * as z from 'zod'" (names of one letter are left
// out), Go's `yaml "github.com/goccy/go-yaml"`; and, for a Go module, the names of its packages
// below the root (at most maxPackageAliases).
func codeNames(p *docidx.Package, docs []docidx.Document, syms []docidx.Symbol) (modules, aliases []string) {
	own := packageNames(p.Ecosystem, p.Name)
	var tops []string // Python: the top-level modules the symbols are in
	for i := range syms {
		s := &syms[i]
		switch {
		case p.Ecosystem == docidx.PyPI:
			m, _, _ := strings.Cut(s.QualifiedName, ".")
			if m != "" && !strings.HasPrefix(m, "_") && !slices.Contains(tops, m) {
				tops = append(tops, m)
			}
		case p.Ecosystem == docidx.Go && s.Kind == docidx.KindPackage && s.Package == p.Name && s.Name != "main":
			// A command's package main is imported by nothing.
			tops = append(tops, s.Name)
		}
	}
	// A Go module's other packages are imported by their package names, which code writes as
	// the owner of their calls: "protojson.Marshal" of google.golang.org/protobuf's
	// encoding/protojson, "testscript.Run" of github.com/rogpeppe/go-internal's testscript.
	var subs []string
	if p.Ecosystem == docidx.Go {
		for i := range syms {
			// A package named as one of the standard library's is not what a call written
			// with that name means ("errors.Is" is not bbolt/errors').
			if s := &syms[i]; s.Kind == docidx.KindPackage && s.Package != p.Name && s.Name != "main" && !goStdNames[s.Name] {
				subs = append(subs, s.Name)
			}
		}
	}
	add := func(list []string, name string, n int) []string {
		name = strings.ToLower(name)
		if len(name) >= 2 && len(list) < n && !slices.Contains(own, name) && !slices.Contains(modules, name) && !slices.Contains(list, name) {
			list = append(list, name)
		}
		return list
	}
	if len(tops) <= 2 {
		for _, m := range tops {
			modules = add(modules, m, 2)
		}
	}
	scan := func(code string) {
		if !strings.Contains(code, "import") && !strings.Contains(code, "require") {
			return
		}
		for line := range strings.SplitSeq(code, "\n") {
			if name, ok := importedAs(p, tops, strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), ">."))); ok {
				aliases = add(aliases, name, maxAliases)
			}
		}
	}
	for _, d := range docs {
		for _, s := range d.Sections {
			for _, c := range s.Code {
				scan(c.Code)
			}
		}
	}
	for i := range syms {
		scan(syms[i].Doc)
	}
	for _, name := range subs {
		aliases = add(aliases, name, maxAliases+maxPackageAliases)
	}
	return modules, aliases
}

// commandNames returns, lowercased, the commands p installs (docidx.Package.Commands) that are
// not names of its own: "normalizer" of charset-normalizer, "tsc" of typescript, "goimports" of
// golang.org/x/tools.
func commandNames(p *docidx.Package) []string {
	own := packageNames(p.Ecosystem, p.Name)
	var out []string
	for _, c := range p.Commands {
		if c = strings.ToLower(c); len(c) >= 2 && !slices.Contains(own, c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// importedAs returns the name a line of code imports package p by, when it imports it under a
// name of its own (see codeNames); modules are a Python distribution's top-level modules.
func importedAs(p *docidx.Package, modules []string, line string) (string, bool) {
	switch p.Ecosystem {
	case docidx.PyPI:
		// import pandas as pd; import matplotlib.pyplot as plt names matplotlib's plt.
		rest, ok := strings.CutPrefix(line, "import ")
		if !ok {
			return "", false
		}
		mod, name, ok := strings.Cut(rest, " as ")
		top, _, _ := strings.Cut(strings.TrimSpace(mod), ".")
		if !ok || !slices.Contains(modules, top) {
			return "", false
		}
		return identAt(strings.TrimSpace(name))
	case docidx.NPM:
		// The module a line names must be the package itself.
		var from, after string
		for _, q := range []string{"'", `"`} {
			if i := strings.Index(line, q+p.Name+q); i >= 0 {
				from, after = line[:i], strings.TrimSpace(line[i+len(p.Name)+2:])
				break
			}
		}
		if from == "" || strings.HasPrefix(after, ")(") {
			return "", false // "const argv = require('minimist')(…)" binds what the call returns
		}
		for _, kw := range []string{"const ", "let ", "var "} {
			if rest, ok := strings.CutPrefix(from, kw); ok {
				if name, ok := identAt(rest); ok && strings.Contains(rest, "require(") {
					return name, true
				}
				return "", false
			}
		}
		if rest, ok := strings.CutPrefix(from, "import "); ok && strings.HasSuffix(strings.TrimSpace(rest), "from") {
			rest = strings.TrimPrefix(rest, "* as ")
			return identAt(rest)
		}
	case docidx.Go:
		// jsoniter "github.com/json-iterator/go", in an import block or after "import".
		line = strings.TrimPrefix(line, "import ")
		name, path, ok := strings.Cut(line, ` "`)
		path = strings.TrimSuffix(strings.TrimSpace(path), `"`)
		if !ok || path != p.Name && !strings.HasPrefix(path, p.Name+"/") || strings.ContainsAny(name, " \t") {
			return "", false
		}
		return identAt(name)
	}
	return "", false
}

// identAt returns the identifier s starts with, when it is at least two characters, starts with
// a letter (not "__" or "$object", names of internals) and is not a keyword of the lines
// importedAs reads.
func identAt(s string) (string, bool) {
	i := 0
	for i < len(s) && (isNameByte(s[i]) || s[i] == '$') {
		i++
	}
	name := s[:i]
	if len(name) < 2 || strings.IndexByte("0123456789_$", name[0]) >= 0 || name == "from" || name == "as" {
		return "", false
	}
	return name, true
}
