package serve

import (
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
)

// lookup.go resolves what a tool call names — a package, a Go import path inside a module, a
// symbol — and says "did you mean" when it names nothing indexed.
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

// closest returns up to n of names closest to want, best first: exact matches ignoring case,
// then prefix and substring matches, then names within a small edit distance.
func closest(want string, names []string, n int) []string {
	lw := strings.ToLower(want)
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	seen := make(map[string]bool)
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		ln := strings.ToLower(name)
		last := ln[strings.LastIndexAny(ln, "./")+1:]
		score := -1
		switch {
		case ln == lw || last == lw:
			score = 0
		case strings.HasPrefix(ln, lw) || strings.HasPrefix(last, lw):
			score = 1
		case strings.Contains(ln, lw):
			score = 2
		default:
			d := min(editDistance(lw, ln), editDistance(lw, last))
			if d <= max(2, len(lw)/3) {
				score = 3 + d
			}
		}
		if score >= 0 {
			cands = append(cands, cand{name, score})
		}
	}
	// Stable insertion sort by score.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && cands[j].score < cands[j-1].score; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var out []string
	for i := 0; i < len(cands) && i < n; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b in bytes, capped for long inputs.
func editDistance(a, b string) int {
	const maxLen = 64
	if len(a) > maxLen || len(b) > maxLen {
		if a == b {
			return 0
		}
		return maxLen
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
