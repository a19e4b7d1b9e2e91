package docidx

import (
	"sort"
	"strings"
)

// CompareVersions orders two version strings of ecosystem eco: -1 if a < b, 0 if equal, +1 if a > b.
//
// It follows semantic versioning 2.0.0 (https://semver.org/#spec-item-11) for every ecosystem: a
// leading "v" is ignored (Go), numeric dot-separated release segments compare numerically and a
// missing segment counts as 0, a pre-release ("-rc.1", and for PyPI the PEP 440 forms "a1", "b2",
// "rc1", ".dev3") sorts before its release, and build metadata ("+incompatible", "+build") is
// ignored except as a last tie-break. Strings that are not versions at all sort before versions and
// then lexically, so the order is total and stable.
func CompareVersions(eco Ecosystem, a, b string) int {
	if a == b {
		return 0
	}
	return compareParsed(a, b, parseVersion(eco, a), parseVersion(eco, b))
}

// compareParsed is CompareVersions of a and b, parsed as va and vb.
func compareParsed(a, b string, va, vb parsedVersion) int {
	if a == b {
		return 0
	}
	if va.ok != vb.ok {
		if va.ok {
			return 1
		}
		return -1
	}
	if !va.ok {
		return strings.Compare(a, b)
	}
	n := max(len(va.release), len(vb.release))
	for i := range n {
		x, y := at(va.release, i), at(vb.release, i)
		if x != y {
			return cmpInt(x, y)
		}
	}
	// A release without pre-release sorts after any of its pre-releases.
	switch {
	case va.pre == "" && vb.pre != "":
		return 1
	case va.pre != "" && vb.pre == "":
		return -1
	}
	if c := comparePre(va.pre, vb.pre); c != 0 {
		return c
	}
	return strings.Compare(va.build, vb.build)
}

// SortVersions sorts versions of ecosystem eco from oldest to newest with CompareVersions.
func SortVersions(eco Ecosystem, versions []string) {
	type item struct {
		s string
		v parsedVersion
	}
	items := make([]item, len(versions))
	for i, s := range versions {
		items[i] = item{s, parseVersion(eco, s)} // once each, not once per comparison
	}
	sort.SliceStable(items, func(i, j int) bool { return compareParsed(items[i].s, items[j].s, items[i].v, items[j].v) < 0 })
	for i, it := range items {
		versions[i] = it.s
	}
}

// IsPrerelease reports whether version has a pre-release part ("1.0.0-rc.1", "2.0b1", "1.0.dev3").
func IsPrerelease(eco Ecosystem, version string) bool {
	v := parseVersion(eco, version)
	return v.ok && v.pre != ""
}

type parsedVersion struct {
	ok      bool
	release []int
	pre     string
	build   string
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func cmpInt(x, y int) int {
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

func parseVersion(eco Ecosystem, s string) parsedVersion {
	var v parsedVersion
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s, v.build = s[:i], s[i+1:]
	}
	// PyPI epochs ("1!2.0") are rare; drop the epoch rather than misparse it.
	if i := strings.IndexByte(s, '!'); i >= 0 {
		s = s[i+1:]
	}
	// Release: digits and dots up to the first other character.
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	rel := strings.TrimRight(s[:i], ".")
	if rel == "" {
		return v
	}
	v.release = make([]int, 0, strings.Count(rel, ".")+1)
	for part := range strings.SplitSeq(rel, ".") {
		if part == "" {
			v.release = nil
			return v
		}
		n := 0
		for _, c := range part {
			n = n*10 + int(c-'0')
			if n > 1<<40 {
				break
			}
		}
		v.release = append(v.release, n)
	}
	rest := s[len(rel):]
	rest = strings.TrimLeft(rest, ".-_")
	if eco == PyPI {
		// PEP 440 post-releases (".post1") sort after the release: treat them as an extra segment.
		if p, ok := strings.CutPrefix(rest, "post"); ok {
			n := 0
			for _, c := range p {
				if c < '0' || c > '9' {
					break
				}
				n = n*10 + int(c-'0')
			}
			v.release = append(v.release, 0, n+1)
			rest = ""
		}
	}
	v.pre = rest
	v.ok = true
	return v
}

// comparePre compares pre-release strings by semver rules: dot-separated identifiers, numeric ones
// numerically and below alphanumeric ones; PEP 440's "dev" sorts before "a" < "b" < "rc".
func comparePre(a, b string) int {
	pa, pb := splitPre(a), splitPre(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, y := pa[i], pb[i]
		xn, xok := numeric(x)
		yn, yok := numeric(y)
		switch {
		case xok && yok:
			if c := cmpInt(xn, yn); c != 0 {
				return c
			}
		case xok:
			return -1
		case yok:
			return 1
		default:
			if c := strings.Compare(preRank(x), preRank(y)); c != 0 {
				return c
			}
		}
	}
	return cmpInt(len(pa), len(pb))
}

// splitPre splits "rc.1" into ["rc","1"] and PEP 440's "rc1" into ["rc","1"].
func splitPre(s string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		j := len(part)
		for j > 0 && part[j-1] >= '0' && part[j-1] <= '9' {
			j--
		}
		if j > 0 && j < len(part) {
			out = append(out, part[:j], part[j:])
		} else {
			out = append(out, part)
		}
	}
	return out
}

func numeric(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func preRank(s string) string {
	switch strings.ToLower(s) {
	case "dev":
		return "0"
	case "a", "alpha":
		return "1" + s
	case "b", "beta":
		return "2" + s
	case "c", "rc", "pre", "preview":
		return "3" + s
	}
	return "4" + s
}
