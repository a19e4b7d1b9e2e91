package index

// version.go turns a version as people write it ("4", "^4", "4.x", "~4.2", "v4", ">=4 <5",
// "~=4.2") into the newest indexed version it selects: the one resolution that search, show,
// read, the MCP tools and the browser pages share.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// ResolveVersion returns the newest of versions (any order) that query selects, for a package of
// ecosystem eco. Versions compare by docidx.CompareVersions.
//
//   - "" and "latest" select the newest release, else the newest pre-release.
//   - A version in versions selects itself, with or without a leading "v" ("4.29.1" finds
//     "v4.29.1" of a Go module).
//   - Anything else is a range: comparator sets joined by "||", each a list of comparators joined
//     by spaces or commas, all of which must hold. A comparator is an operator and a version,
//     full ("4.2.1") or partial ("4", "4.2", "4.x", "4.*", "4.2.x"), a leading "v" ignored:
//     "=" or "==" or no operator: the partial version's versions ("4" is >=4.0.0 <5.0.0-0);
//     "<", "<=", ">", ">=", "!=" compare; "^" keeps the leftmost non-zero part ("^4.2" is
//     >=4.2.0 <5, "^0.3" is >=0.3.0 <0.4); "~" keeps the minor ("~4.2" is >=4.2.0 <4.3);
//     PEP 440's "~=" drops the last part ("~=4.2" is >=4.2 <5, "~=4.2.1" is >=4.2.1 <4.3);
//     "A - B" is the hyphen range >=A <=B; "*", "x" and "===" (exact) are understood too. This is
//     npm's range grammar (https://github.com/npm/node-semver#ranges), which Go's module queries
//     ("v4", "v4.2", ">=v1.2", https://go.dev/ref/mod#version-queries) and PEP 440's
//     specifiers (">=4,<5", "~=4.2", "==4.*", https://peps.python.org/pep-0440/#version-specifiers)
//     fall within. For Cargo a bare version is a caret requirement, as in Cargo.toml ("4.2" is
//     ^4.2, https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html).
//
// A pre-release (by docidx.IsPrerelease) is selected only by a range that names a pre-release of
// the same major.minor.patch, as npm does: "^4" never selects "5.0.0-rc.1" nor "4.1.0-beta".
//
// It returns an error wrapping docidx.ErrBadSpec for a query that is not a range, and one
// wrapping docidx.ErrNotFound, listing versions, when no version matches.
func ResolveVersion(eco docidx.Ecosystem, versions []string, query string) (string, error) {
	query = strings.TrimSpace(query)
	if len(versions) == 0 {
		return "", fmt.Errorf("%w: no version is indexed", docidx.ErrNotFound)
	}
	if query == "" || strings.EqualFold(query, "latest") {
		return latestVersion(eco, versions), nil
	}
	for _, v := range versions {
		if v == query || strings.TrimPrefix(v, "v") == strings.TrimPrefix(query, "v") {
			return v, nil
		}
	}
	sets, err := parseRange(eco, query)
	if err != nil {
		return "", err
	}
	match := func(v string) bool {
		for _, set := range sets {
			if set.matches(eco, v) {
				return true
			}
		}
		return false
	}
	if v := newest(eco, versions, match); v != "" {
		return v, nil
	}
	sorted := append([]string(nil), versions...)
	docidx.SortVersions(eco, sorted)
	return "", fmt.Errorf("%w: no indexed version matches %s; indexed: %s", docidx.ErrNotFound, docidx.Quote(query), strings.Join(sorted, ", "))
}

// newest is the newest of versions that ok accepts, "" when none does.
func newest(eco docidx.Ecosystem, versions []string, ok func(string) bool) string {
	best := ""
	for _, v := range versions {
		if ok(v) && (best == "" || docidx.CompareVersions(eco, v, best) > 0) {
			best = v
		}
	}
	return best
}

// comparator is one bound of a range: op is "<", "<=", ">", ">=", "=" or "!=".
type comparator struct {
	op, version string
}

// comparatorSet is comparators that must all hold; preRelease holds the pre-releases the range
// names, whose releases alone may match with a pre-release.
type comparatorSet struct {
	cmps       []comparator
	preRelease []string
}

// matches reports whether version v of ecosystem eco satisfies every comparator of s.
func (s comparatorSet) matches(eco docidx.Ecosystem, v string) bool {
	if docidx.IsPrerelease(eco, v) && !slices.ContainsFunc(s.preRelease, func(p string) bool { return sameRelease(eco, p, v) }) {
		return false
	}
	for _, c := range s.cmps {
		d := docidx.CompareVersions(eco, v, c.version)
		var hold bool
		switch c.op {
		case "<":
			hold = d < 0
		case "<=":
			hold = d <= 0
		case ">":
			hold = d > 0
		case ">=":
			hold = d >= 0
		case "=":
			hold = d == 0
		case "!=":
			hold = d != 0
		}
		if !hold {
			return false
		}
	}
	return true
}

// sameRelease reports whether a and b have the same release part (what comes before a
// pre-release or build suffix).
func sameRelease(eco docidx.Ecosystem, a, b string) bool {
	return docidx.CompareVersions(eco, releaseOf(a), releaseOf(b)) == 0
}

// releaseOf is the leading digits and dots of v, its "v" dropped: "4.2.0" of "v4.2.0-rc.1".
func releaseOf(v string) string {
	v = strings.TrimPrefix(v, "v")
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	return strings.TrimRight(v[:i], ".")
}

// parseRange parses query as ResolveVersion describes.
func parseRange(eco docidx.Ecosystem, query string) ([]comparatorSet, error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: version %s: %s; write an exact version (4.2.1), a partial one (4, 4.2, 4.x), or a range (^4, ~4.2, >=4 <5, ~=4.2)",
			docidx.ErrBadSpec, docidx.Quote(query), why)
	}
	var sets []comparatorSet
	for alt := range strings.SplitSeq(query, "||") {
		fields := strings.Fields(strings.ReplaceAll(alt, ",", " "))
		// Join an operator written apart from its version: ">= 4".
		for i := 0; i+1 < len(fields); i++ {
			if strings.Trim(fields[i], "<>=!~^") == "" && fields[i] != "-" {
				fields[i] += fields[i+1]
				fields = append(fields[:i+1], fields[i+2:]...)
			}
		}
		if len(fields) == 0 {
			return nil, bad("an empty alternative")
		}
		var set comparatorSet
		if len(fields) == 3 && fields[1] == "-" { // hyphen range
			lo, err := partial(fields[0])
			if err != nil {
				return nil, bad(err.Error())
			}
			hi, err := partial(fields[2])
			if err != nil {
				return nil, bad(err.Error())
			}
			set.add(comparator{">=", lo.floor()})
			switch {
			case hi.n == 3:
				set.add(comparator{"<=", hi.floor()})
			case hi.n > 0: // "1 - 2.3" is >=1.0.0 <2.4.0-0
				set.add(comparator{"<", hi.bump(hi.n - 1)})
			}
			set.named(lo, hi)
			sets = append(sets, set)
			continue
		}
		for _, f := range fields {
			if err := set.parse(eco, f); err != nil {
				return nil, bad(err.Error())
			}
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// add appends c to s.
func (s *comparatorSet) add(c comparator) { s.cmps = append(s.cmps, c) }

// named notes the pre-releases the written versions ps name, which let s select pre-releases of
// the same release.
func (s *comparatorSet) named(ps ...partialVersion) {
	for _, p := range ps {
		if p.pre != "" {
			s.preRelease = append(s.preRelease, p.floor())
		}
	}
}

// parse adds the comparators of one written comparator f ("^4.2", ">=v1", "4.x").
func (s *comparatorSet) parse(eco docidx.Ecosystem, f string) error {
	op := ""
	for _, o := range []string{"===", "~=", "==", ">=", "<=", "!=", "^", "~", ">", "<", "="} {
		if rest, ok := strings.CutPrefix(f, o); ok {
			op, f = o, rest
			break
		}
	}
	if op == "===" { // PEP 440 arbitrary equality: the version as written
		s.add(comparator{"=", f})
		return nil
	}
	p, err := partial(f)
	if err != nil {
		return err
	}
	s.named(p)
	if op == "" && eco == docidx.Cargo && p.n > 0 {
		op = "^"
	}
	switch op {
	case "", "=", "==":
		if p.n == 0 {
			return nil // "*": any version
		}
		// PEP 440's "==4.2" is 4.2 itself (zeros padded); only "==4.2.*" is a prefix.
		if p.n == 3 || eco == docidx.PyPI && op == "==" && !p.wild {
			s.add(comparator{"=", p.floor()})
			return nil
		}
		s.add(comparator{">=", p.floor()})
		s.add(comparator{"<", p.bump(p.n - 1)})
	case "!=":
		if p.n == 3 {
			s.add(comparator{"!=", p.floor()})
			return nil
		}
		return fmt.Errorf("!= wants a whole version, not %s", f)
	case ">=", "<":
		if p.n == 0 {
			return fmt.Errorf("%s wants a version", op)
		}
		s.add(comparator{op, p.floor()})
	case ">": // >4.2 is >=4.3
		if p.n == 0 {
			return fmt.Errorf("> wants a version")
		}
		if p.n == 3 {
			s.add(comparator{">", p.floor()})
		} else {
			s.add(comparator{">=", p.bump(p.n - 1)})
		}
	case "<=": // <=4.2 is <4.3
		if p.n == 0 {
			return fmt.Errorf("<= wants a version")
		}
		if p.n == 3 {
			s.add(comparator{"<=", p.floor()})
		} else {
			s.add(comparator{"<", p.bump(p.n - 1)})
		}
	case "^":
		if p.n == 0 {
			return nil
		}
		// The leftmost non-zero part may not change; all parts written as 0 may (^0.0 is <0.1).
		keep := 0
		for keep < p.n-1 && p.parts[keep] == 0 {
			keep++
		}
		s.add(comparator{">=", p.floor()})
		s.add(comparator{"<", p.bump(keep)})
	case "~":
		if p.n == 0 {
			return nil
		}
		s.add(comparator{">=", p.floor()})
		s.add(comparator{"<", p.bump(min(p.n-1, 1))})
	case "~=":
		if p.n < 2 {
			return fmt.Errorf("~= wants at least two parts (~=4.2)")
		}
		s.add(comparator{">=", p.floor()})
		s.add(comparator{"<", p.bump(p.n - 2)})
	}
	return nil
}

// partialVersion is a version of up to three numeric parts, n of them written ("4.x" has n 1),
// or a whole version with a pre-release or more parts ("4.2.1-rc.1", "2.0b1", "1.2.3.4"), which
// compares as written.
type partialVersion struct {
	parts [3]int
	n     int
	wild  bool   // a part was written "x", "X" or "*"
	pre   string // "-rc.1", "b1", ".post1": what follows the release
	whole string // the version as written, when it has a pre-release or more than three parts
}

// partial parses "4", "v4.2", "4.x", "4.*", "4.2.1", "4.2.1-rc.1", "2.0b1", "1.2.3.4", "*" and "x".
func partial(s string) (partialVersion, error) {
	var p partialVersion
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if s == "" {
		return p, fmt.Errorf("a comparator without a version")
	}
	notVersion := fmt.Errorf("%s is not a version", docidx.Quote(s))
	rel := s
	if i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != 'x' && r != 'X' && r != '*' }); i >= 0 {
		rel, p.pre = s[:i], s[i:]
	}
	if p.pre != "" && p.pre[0] == '+' { // build metadata does not select
		p.pre = ""
		s = rel
	}
	parts := strings.Split(strings.TrimSuffix(rel, "."), ".")
	for i, part := range parts {
		if part == "x" || part == "X" || part == "*" {
			p.wild = true
			if i+1 < len(parts) && parts[i+1] != "x" && parts[i+1] != "X" && parts[i+1] != "*" {
				return p, notVersion // "4.x.1"
			}
			continue
		}
		if p.wild || part == "" {
			return p, notVersion
		}
		n := 0
		for _, c := range part {
			if c < '0' || c > '9' {
				return p, notVersion
			}
			n = n*10 + int(c-'0')
			if n > 1<<30 {
				return p, notVersion
			}
		}
		if i < 3 {
			p.parts[i] = n
		}
		p.n = i + 1
	}
	if p.pre != "" || p.n > 3 {
		if p.wild || p.n == 0 {
			return p, notVersion
		}
		p.n, p.whole = 3, s
	}
	return p, nil
}

// floor is the lowest version p covers: "4.2.0" of "4.2", "4.2.1-rc.1" of itself.
func (p partialVersion) floor() string {
	if p.whole != "" {
		return p.whole
	}
	return fmt.Sprintf("%d.%d.%d", p.parts[0], p.parts[1], p.parts[2])
}

// bump is the version after every version that keeps parts [0, i] of p: "5.0.0" of "4.2"
// with i 0, "4.3.0" with i 1. Its "-0" pre-release sorts it below 5.0.0's own pre-releases, so
// "<5.0.0-0" keeps out "5.0.0-rc.1" even when a range admits pre-releases.
func (p partialVersion) bump(i int) string {
	q := p.parts
	q[i]++
	for j := i + 1; j < 3; j++ {
		q[j] = 0
	}
	return fmt.Sprintf("%d.%d.%d-0", q[0], q[1], q[2])
}

// FindPackages returns the indexed packages (Version empty) that a bare name, written without
// its ecosystem, names, in ecosystem eco or in all when eco is empty: the packages named
// exactly name (PyPI names compared as docidx.NormalizeName does), else the Go modules whose
// last path element, or whole path, is name, a major version suffix ("/v5", ".v3") and case
// ignored, so "goldmark" finds github.com/yuin/goldmark, "pgx" github.com/jackc/pgx/v5 and
// "github.com/klauspost/cpuid" github.com/klauspost/cpuid/v2 when that is the module indexed,
// or whose path ends with name's elements when name has several, as people write a module
// without its host ("jpillora/backoff", "go-jose/v4"), or whose last element is name with its
// gopkg.in major suffix ("yaml.v3"), and the crates that crates.io takes for
// the same name (crateFold: "serde-json" is serde_json).
// Else they are the packages that install a command of that name ("tsc": typescript). The
// result is in ecosystem then name order; more than one means name is ambiguous, none that it
// names nothing.
func (r *Reader) FindPackages(eco docidx.Ecosystem, name string) (refs []docidx.Ref, err error) {
	defer guard(&err, r.r.dir)()
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, nil
	}
	r.r.loadNames()
	var exact, last []docidx.Ref
	normal := map[docidx.Ecosystem]string{} // name as each ecosystem normalizes it, made once
	for _, ref := range r.r.names {
		if eco != "" && ref.Ecosystem != eco {
			continue
		}
		n, ok := normal[ref.Ecosystem]
		if !ok {
			n = docidx.NormalizeName(ref.Ecosystem, name)
			normal[ref.Ecosystem] = n
		}
		switch {
		case ref.Name == n:
			exact = append(exact, ref)
		case ref.Ecosystem == docidx.Go && (strings.EqualFold(modulePathBase(ref.Name), name) || strings.EqualFold(withoutMajor(ref.Name), name) ||
			strings.Contains(name, ".") && strings.EqualFold(path.Base(ref.Name), name) ||
			pathEndsWith(ref.Name, name) || pathEndsWith(withoutMajor(ref.Name), name)):
			last = append(last, ref)
		case ref.Ecosystem == docidx.Cargo && crateFold(ref.Name) == crateFold(name):
			last = append(last, ref)
		}
	}
	if len(exact) == 0 {
		exact = last
	}
	if len(exact) == 0 {
		exact = r.installing(eco, name)
	}
	docidx.SortRefs(exact)
	return exact, nil
}

// installing returns the packages (Version empty) of ecosystem eco, or of any when eco is
// empty, that install the command name (commandOf): "tsc" is typescript's, "normalizer"
// charset-normalizer's. A snapshot whose rank index cannot be read names none here; its
// search says why.
func (r *Reader) installing(eco docidx.Ecosystem, name string) []docidx.Ref {
	ri, err := r.r.ranked()
	if err != nil {
		return nil
	}
	var refs []docidx.Ref
	for _, p := range ri.commandOf(strings.ToLower(name)) {
		e, n, _ := strings.Cut(ri.pkgKey(p), "\x00")
		ref := docidx.Ref{Ecosystem: docidx.Ecosystem(e), Name: n}
		if (eco == "" || ref.Ecosystem == eco) && !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	return refs
}

// pathEndsWith reports whether the module path p ends with the elements of tail, a path of at
// least two elements, case ignored: "github.com/go-jose/go-jose/v4" ends with "go-jose/v4", not
// with "jose/v4".
func pathEndsWith(p, tail string) bool {
	tail = strings.Trim(tail, "/")
	if !strings.Contains(tail, "/") || len(p) <= len(tail) {
		return false
	}
	return p[len(p)-len(tail)-1] == '/' && strings.EqualFold(p[len(p)-len(tail):], tail)
}

// crateFold is a crate name as crates.io compares names: case ignored, "-" and "_" one
// character ("serde-json" is serde_json; crates.io lets no two crates differ only so).
func crateFold(name string) string { return strings.ToLower(strings.ReplaceAll(name, "-", "_")) }

// withoutMajor is a Go module path without its major version suffix (splitMajor):
// "github.com/jackc/pgx" of "github.com/jackc/pgx/v5".
func withoutMajor(path string) string {
	base, _ := splitMajor(path)
	return base
}

// modulePathBase is the last element of a Go module path without its major version suffix
// (splitMajor): "pgx" of "github.com/jackc/pgx/v5", "yaml" of "gopkg.in/yaml.v3".
func modulePathBase(path string) string {
	base := withoutMajor(path)
	return base[strings.LastIndexByte(base, '/')+1:]
}

// VersionWord reports whether w is written as a version a question gives a package: digits,
// with a "v" before them and up to two more dot-separated parts ("5", "v5", "4.2", "v1.2.3").
func VersionWord(w string) bool {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "v"), "V")
	parts := strings.Split(w, ".")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.TrimFunc(p, func(r rune) bool { return r >= '0' && r <= '9' }) != "" {
			return false
		}
	}
	return true
}
