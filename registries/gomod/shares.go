package gomod

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
)

// shares.go divides the symbol limit (Limits.MaxSymbols) of a module with more symbols than it
// allows among the module's packages. Cut in walk order, the limit kept the first packages
// whole and dropped the rest: go.opentelemetry.io/otel spent it on the generated constants of
// the oldest of its 268 semconv/v1.x packages and kept 43 of its 273 packages, none of the
// newest semconv versions; golang.org/x/sys spent it on unix and kept windows only in part
// (no windows.CreateFile, no windows/svc or windows/registry). Each package now gets a share weighted by how many packages of
// the module import it, plus one (weighted max-min fairness, as in bandwidth allocation):
// packages smaller than their share keep every symbol, the larger ones are cut to it, and the
// shares are the largest that fit (fairShares). otel's attribute package, which nearly every
// other package imports, keeps its whole API; each semconv version keeps a few dozen keys.
// Declarations are shared first, then what is left of the limit among the members of types,
// so that a large module keeps its top-level API before any member.

// fairShares returns, for packages of counts[i] symbols weighing weights[i] (at least 1), the
// shares s[i] such that the packages, each keeping min(counts[i], s[i]), keep about max
// together: s[i] is weights[i] times the largest level at which they keep at most max, rounded
// up so that a limit smaller than the number of packages still keeps symbols (shareSymbols's
// last cut holds the total to max); counts[i] itself when all of them fit.
func fairShares(counts, weights []int, max int) []int {
	shares := slices.Clone(counts)
	total := 0
	for _, c := range counts {
		total += c
	}
	if total <= max {
		return shares
	}
	// Fill the packages in the order of their count per weight: each one under the level takes
	// its count, and the level is what is left per weight once the rest are over it.
	order := make([]int, len(counts))
	weight := 0
	for i := range order {
		order[i] = i
		weight += weights[i]
	}
	slices.SortFunc(order, func(a, b int) int { return counts[a]*weights[b] - counts[b]*weights[a] })
	left := max
	level := 0.0
	for k, i := range order {
		if float64(counts[i]) > float64(left)*float64(weights[i])/float64(weight) {
			level = float64(left) / float64(weight)
			for _, j := range order[k:] {
				shares[j] = min(counts[j], int(math.Ceil(level*float64(weights[j]))))
			}
			break
		}
		left -= counts[i]
		weight -= weights[i]
	}
	return shares
}

// importers returns, for each of pkgs, one plus the number of the other packages that import it.
func importers(pkgs []*pkgInfo) []int {
	at := make(map[string]int, len(pkgs))
	for i, p := range pkgs {
		at[p.importPath] = i
	}
	w := make([]int, len(pkgs))
	for i, p := range pkgs {
		w[i]++
		seen := map[int]bool{}
		for _, f := range p.files {
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if j, ok := at[path]; err == nil && ok && j != i && !seen[j] {
					seen[j] = true
					w[j]++
				}
			}
		}
	}
	return w
}

// declarationRank orders a package's declarations for a share that cannot keep them all: the
// package itself, then functions and types, then methods, then constants and variables, which
// large generated packages hold by the thousand (x/sys/unix's, semconv's).
func declarationRank(k docidx.SymbolKind) int {
	switch k {
	case docidx.KindPackage:
		return 0
	case docidx.KindFunc, docidx.KindType:
		return 1
	case docidx.KindMethod:
		return 2
	}
	return 3
}

// shareSymbols returns the symbols syms of a module's packages, package i's being
// syms[ends[i-1]:ends[i]] (isMember[j] telling a member of a type from a declaration), cut to
// at most max: when there are more, each package keeps its share of max (fairShares, weighted
// by weights) of its declarations, by declarationRank and then in walk order, and then its
// share of what they leave of its members, in walk order, those of the types it keeps. dropped
// is how many symbols are left out.
func shareSymbols(syms []docidx.Symbol, isMember []bool, ends, weights []int, max int) (out []docidx.Symbol, dropped int) {
	if len(syms) <= max {
		return syms, 0
	}
	decls, members := make([]int, len(ends)), make([]int, len(ends))
	start := 0
	for i, end := range ends {
		for _, m := range isMember[start:end] {
			if m {
				members[i]++
			} else {
				decls[i]++
			}
		}
		start = end
	}
	declShares := fairShares(decls, weights, max)
	kept := 0
	for i, n := range decls {
		kept += min(n, declShares[i])
	}
	memberShares := fairShares(members, weights, max-min(kept, max))
	out = make([]docidx.Symbol, 0, max)
	var outMember []bool
	start = 0
	for i, end := range ends {
		pkg, member := syms[start:end], isMember[start:end]
		keep := make([]bool, len(pkg))
		order := make([]int, 0, decls[i])
		for j := range pkg {
			if !member[j] {
				order = append(order, j)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return declarationRank(pkg[a].Kind) - declarationRank(pkg[b].Kind)
		})
		types := map[string]bool{} // the types kept, whose members may stay
		for _, j := range order[:min(len(order), declShares[i])] {
			keep[j] = true
			if pkg[j].Kind == docidx.KindType {
				types[pkg[j].Name] = true
			}
		}
		room := memberShares[i]
		for j, s := range pkg {
			if member[j] && room > 0 && types[topType(s.Parent)] {
				keep[j] = true
				room--
			}
			if keep[j] {
				out = append(out, s)
				outMember = append(outMember, member[j])
			}
		}
		start = end
	}
	// The shares are rounded up: the last members go first, then the last declarations.
	if excess := len(out) - max; excess > 0 {
		drop := make([]bool, len(out))
		for i := len(out) - 1; i >= 0 && excess > 0; i-- {
			if outMember[i] {
				drop[i] = true
				excess--
			}
		}
		for i := len(out) - 1; i >= 0 && excess > 0; i-- {
			if !drop[i] {
				drop[i] = true
				excess--
			}
		}
		kept := out[:0]
		for i, s := range out {
			if !drop[i] {
				kept = append(kept, s)
			}
		}
		out = kept
	}
	return out, len(syms) - len(out)
}

// topType returns the named type of a member's Parent: "Options" of "Options.Sub".
func topType(parent string) string {
	t, _, _ := strings.Cut(parent, ".")
	return t
}
