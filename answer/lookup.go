package answer

// lookup.go resolves what a request names — a package, a Go import path inside a module, a
// symbol — and says "did you mean" when it names nothing indexed.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// resolvePackage finds the package version a describe or get_*_doc call names. For Go, name may
// be an import path inside an indexed module: the longest indexed module path that is a prefix
// of name (at a slash) wins, and focus is then name. A name that is no indexed package's may be a
// bare one ("goldmark"), which names the one package FindPackage finds; an ambiguous bare name
// and an unknown package are not-found errors. version may be a range (see index.ResolveVersion).
func (s *Service) resolvePackage(eco docidx.Ecosystem, name, version string) (pkg *docidx.Package, focus string, err error) {
	r := s.reader()
	if eco == docidx.Go {
		name = strings.TrimSuffix(name, "/")
		mod, err := s.goModuleOf(name)
		if err != nil {
			return nil, "", err
		}
		if mod != "" {
			if mod != name {
				focus = name
			}
			name = mod
		}
	}
	if _, err := r.Versions(eco, name); errors.Is(err, docidx.ErrNotFound) {
		// A bare name ("goldmark" for github.com/yuin/goldmark) names the one package it finds.
		refs, err := r.FindPackages(eco, name)
		if err != nil {
			return nil, "", internalError("find package", err)
		}
		switch {
		case len(refs) == 1:
			name = refs[0].Name
		case len(refs) > 1:
			return nil, "", ambiguousName(name, refs)
		}
	}
	pkg, err = r.Package(docidx.Ref{Ecosystem: eco, Name: name, Version: version})
	if err != nil {
		return nil, "", readerError("read package", err, func() error { return s.unknownPackage(eco, name, version) })
	}
	return pkg, focus, nil
}

// goModuleOf returns the indexed Go module that holds the import path name: the longest indexed
// module path that is name or a prefix of it at a slash ("golang.org/x/text" of
// "golang.org/x/text/cases"), or "" when none is. The error is an *InternalError.
func (s *Service) goModuleOf(name string) (string, error) {
	r := s.reader()
	for p := strings.TrimSuffix(name, "/"); p != ""; {
		vs, err := r.Versions(docidx.Go, p)
		if err != nil && !errors.Is(err, docidx.ErrNotFound) {
			return "", internalError("read versions", err)
		}
		if len(vs) > 0 {
			return p, nil
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return "", nil
}

// importPathModule is goModuleOf for a name that no indexed package has, given in ecosystem eco
// ("" for any): the module of a Go import path, or "" when eco is another ecosystem's or name is
// no path.
func (s *Service) importPathModule(eco docidx.Ecosystem, name string) (string, error) {
	if eco != "" && eco != docidx.Go || !strings.Contains(name, "/") {
		return "", nil
	}
	return s.goModuleOf(name)
}

// FindPackage returns the one indexed package (Version empty) that name names in ecosystem eco,
// or in any ecosystem when eco is empty: the package of that name, else the Go module whose last
// path element it is (see index.Reader.FindPackages). It returns a not-found error that lists the
// candidates when name is ambiguous, and the did-you-mean of an unknown package when it names
// nothing.
func (s *Service) FindPackage(eco docidx.Ecosystem, name string) (docidx.Ref, error) {
	return s.FindPackageOf(eco, name, "")
}

// FindPackageOf is FindPackage for a request that names a symbol of the package too ("docidx
// show bytes bytes::Bytes"): of the packages an ambiguous name names (cargo's bytes, npm's
// bytes), the one whose default version has symbols that symbol matches (index.MatchSymbols),
// when exactly one has. Otherwise, and for an empty symbol, it returns what FindPackage does,
// the error that lists the candidates included. A name that no package has but that is a Go
// import path inside an indexed module ("golang.org/x/text/cases") returns that path as a Go
// Ref's Name, for Describe to show the package of the module it names.
func (s *Service) FindPackageOf(eco docidx.Ecosystem, name, symbol string) (docidx.Ref, error) {
	r := s.reader()
	refs, err := r.FindPackages(eco, name)
	if err != nil {
		return docidx.Ref{}, internalError("find package", err)
	}
	switch len(refs) {
	case 0:
		if mod, err := s.importPathModule(eco, name); err != nil {
			return docidx.Ref{}, err
		} else if mod != "" {
			return docidx.Ref{Ecosystem: docidx.Go, Name: name}, nil
		}
		return docidx.Ref{}, s.unknownPackage(eco, name, "")
	case 1:
		return refs[0], nil
	}
	if symbol != "" {
		var having []docidx.Ref
		for _, c := range refs {
			v, err := r.Resolve(c)
			if err != nil {
				continue
			}
			if syms, err := s.symbolsCached(r, v); err == nil && len(index.MatchSymbols(syms, symbol)) > 0 {
				having = append(having, c)
			}
		}
		if len(having) == 1 {
			return having[0], nil
		}
	}
	return docidx.Ref{}, ambiguousName(name, refs)
}

// ambiguousName is the not-found error for a bare name that names more than one package, refs.
func ambiguousName(name string, refs []docidx.Ref) error {
	names := make([]string, len(refs))
	for i, ref := range refs {
		names[i] = crawlPrefix(ref.Ecosystem) + ":" + ref.Name
	}
	return notFoundf("%s names %d packages: %s; give the whole name with its ecosystem, e.g. %s",
		docidx.Quote(name), len(refs), strings.Join(names, ", "), names[0])
}

// unknownImportPath is the not-found error for a Go import path inside an indexed module that names
// no package of it.
func (s *Service) unknownImportPath(pkg *docidx.Package, path string, syms []docidx.Symbol) error {
	seen := make(map[string]bool)
	var pkgs []string
	for i := range syms {
		p := syms[i].Package
		if p != "" && !seen[p] {
			seen[p] = true
			pkgs = append(pkgs, p)
		}
	}
	msg := fmt.Sprintf("module %s@%s has no package %s", pkg.Name, pkg.Version, path)
	if close := closest(path, pkgs, 5); len(close) > 0 {
		msg += "; did you mean: " + strings.Join(close, ", ") + "?"
	}
	return notFoundf("%s", msg)
}

// closest is index.Closest: one did-you-mean for packages, symbols, import paths and anchors.
func closest(want string, names []string, n int) []string { return index.Closest(want, names, n) }

// unknownPackage is the not-found error for a package the snapshot does not hold: it suggests the
// closest indexed names first, best first, and then how to crawl the package as it was named.
func (s *Service) unknownPackage(eco docidx.Ecosystem, name, version string) error {
	name, version = docidx.Clip(name), docidx.Clip(version) // as the client sent them
	what := name
	if version != "" {
		what = name + "@" + version
	}
	var b strings.Builder
	if eco == "" {
		fmt.Fprintf(&b, "package %s is not indexed", what)
	} else {
		fmt.Fprintf(&b, "package %s (%s) is not indexed", what, eco)
	}
	if version != "" {
		if vs, err := s.reader().Versions(eco, name); err == nil && len(vs) > 0 {
			b.Reset()
			fmt.Fprintf(&b, "no indexed version of %s (%s) matches %s", name, eco, version)
			fmt.Fprintf(&b, "; indexed versions: %s", strings.Join(vs, ", "))
			fmt.Fprintf(&b, ". To add it, run: docidx crawl %s:%s@%s", crawlPrefix(eco), name, version)
			return &failure{msg: b.String(), kind: docidx.ErrNotFound}
		}
	}
	var names []string
	for _, ref := range s.reader().Suggest(eco, name, 5) {
		names = append(names, ref.Name)
	}
	spec := crawlPrefix(eco) + ":" + name
	if version != "" {
		spec += "@" + version
	}
	if len(names) > 0 {
		// A close indexed name is most likely what was meant: it comes first, and crawling the
		// name as typed is offered only as the other reading.
		fmt.Fprintf(&b, "; did you mean: %s? ", strings.Join(names, ", "))
		if len(names) == 1 {
			b.WriteString("It is indexed.")
		} else {
			b.WriteString("They are indexed.")
		}
		fmt.Fprintf(&b, " If %s is the package you want, add it with: docidx crawl %s", name, spec)
	} else {
		fmt.Fprintf(&b, ". To add it, run: docidx crawl %s", spec)
	}
	return &failure{msg: b.String(), kind: docidx.ErrNotFound}
}

// crawlPrefix is the spec prefix docidx crawl accepts for eco ("go:", "npm:", …).
func crawlPrefix(eco docidx.Ecosystem) string {
	switch eco {
	case docidx.Go:
		return "go"
	case "":
		return "ECOSYSTEM"
	}
	return string(eco)
}
