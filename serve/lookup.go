package serve

// lookup.go resolves what a tool call names — a package, a Go import path inside a module, a
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
// of name (at a slash) wins, and focus is then name. Unknown packages are tool errors.
func (s *Server) resolvePackage(eco docidx.Ecosystem, name, version string) (pkg *docidx.Package, focus string, err error) {
	r := s.reader()
	if eco == docidx.Go {
		name = strings.TrimSuffix(name, "/")
		for p := name; p != ""; {
			vs, err := r.Versions(eco, p)
			if err != nil && !errors.Is(err, docidx.ErrNotFound) {
				return nil, "", s.internalError("read versions", err)
			}
			if len(vs) > 0 {
				if p != name {
					focus = name
				}
				name = p
				break
			}
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	pkg, err = r.Package(docidx.Ref{Ecosystem: eco, Name: name, Version: version})
	if err != nil {
		return nil, "", s.readerError("read package", err, func() error { return s.unknownPackage(eco, name, version) })
	}
	return pkg, focus, nil
}

// unknownImportPath is the tool error for a Go import path inside an indexed module that names
// no package of it.
func (s *Server) unknownImportPath(pkg *docidx.Package, path string, syms []docidx.Symbol) error {
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
	return toolErrorf("%s", msg)
}

// closest is index.Closest: one did-you-mean for packages, symbols, import paths and anchors.
func closest(want string, names []string, n int) []string { return index.Closest(want, names, n) }
