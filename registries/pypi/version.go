package pypi

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
)

// pep440 is a version parsed as PEP 440 describes (https://peps.python.org/pep-0440/), after its
// normalization rules: case-insensitive, an optional "v", "alpha"/"beta"/"c"/"pre"/"preview"
// spelled a/b/rc, separators optional, "1.0-1" an implicit post-release.
type pep440 struct {
	ok      bool
	epoch   int
	release []int
	preKind string // "a", "b", "rc" or ""
	preNum  int
	post    int // -1: none
	dev     int // -1: none
	local   string
}

func parsePEP440(s string) pep440 {
	v := pep440{post: -1, dev: -1}
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s, v.local = s[:i], s[i+1:]
		if v.local == "" {
			return v
		}
	}
	if i := strings.IndexByte(s, '!'); i >= 0 {
		e, err := strconv.Atoi(s[:i])
		if err != nil || e < 0 {
			return v
		}
		v.epoch, s = e, s[i+1:]
	}
	i := 0
	for {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 {
			return v
		}
		n, _ := strconv.Atoi(s[i:j])
		v.release = append(v.release, n)
		i = j
		if i < len(s) && s[i] == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	rest := s[i:]
	num := func() (int, bool) {
		rest = strings.TrimLeft(rest, ".-_")
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 0 {
			return 0, true
		}
		if j > 9 {
			return 0, false
		}
		n, _ := strconv.Atoi(rest[:j])
		rest = rest[j:]
		return n, true
	}
	// Pre-release.
	trimmed := strings.TrimLeft(rest, ".-_")
	for _, p := range []struct{ word, kind string }{
		{"alpha", "a"}, {"beta", "b"}, {"preview", "rc"}, {"pre", "rc"}, {"rc", "rc"}, {"a", "a"}, {"b", "b"}, {"c", "rc"},
	} {
		if strings.HasPrefix(trimmed, p.word) {
			rest = trimmed[len(p.word):]
			n, ok := num()
			if !ok {
				return v
			}
			v.preKind, v.preNum = p.kind, n
			break
		}
	}
	// Post-release.
	trimmed = strings.TrimLeft(rest, ".-_")
	switch {
	case strings.HasPrefix(trimmed, "post"), strings.HasPrefix(trimmed, "rev"), strings.HasPrefix(trimmed, "r") && !strings.HasPrefix(trimmed, "rc"):
		word := "r"
		for _, w := range []string{"post", "rev"} {
			if strings.HasPrefix(trimmed, w) {
				word = w
			}
		}
		rest = trimmed[len(word):]
		n, ok := num()
		if !ok {
			return v
		}
		v.post = n
	case strings.HasPrefix(rest, "-") && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9':
		n, ok := num()
		if !ok {
			return v
		}
		v.post = n
	}
	// Development release.
	trimmed = strings.TrimLeft(rest, ".-_")
	if strings.HasPrefix(trimmed, "dev") {
		rest = trimmed[3:]
		n, ok := num()
		if !ok {
			return v
		}
		v.dev = n
	}
	v.ok = rest == ""
	return v
}

// prerelease reports whether v is a pre-release or development release.
func (v pep440) prerelease() bool { return v.preKind != "" || v.dev >= 0 }

// releaseAt returns release segment i, 0 past the end.
func (v pep440) releaseAt(i int) int {
	if i < len(v.release) {
		return v.release[i]
	}
	return 0
}

func (v pep440) sameRelease(w pep440) bool {
	if v.epoch != w.epoch {
		return false
	}
	for i := range max(len(v.release), len(w.release)) {
		if v.releaseAt(i) != w.releaseAt(i) {
			return false
		}
	}
	return true
}

// public returns s without its local version label ("1.0+ubuntu1" -> "1.0").
func public(s string) string {
	if i := strings.IndexByte(s, '+'); i >= 0 {
		return s[:i]
	}
	return s
}

// clause is one comparison of a PEP 440 specifier set: ">=1.0", "~=2.2", "==1.*".
type clause struct {
	op  string // "~=", "==", "!=", "<=", ">=", "<", ">", "==="
	ver string
	v   pep440
}

// parseSpecifiers parses a PEP 440 specifier set (https://peps.python.org/pep-0440/#version-specifiers):
// comma-separated clauses. A bare version is "==version".
func parseSpecifiers(s string) ([]clause, error) {
	var out []clause
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty clause in %q", s)
		}
		op := ""
		for _, o := range []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"} {
			if strings.HasPrefix(part, o) {
				op = o
				break
			}
		}
		ver := strings.TrimSpace(part[len(op):])
		if op == "" {
			op = "=="
		}
		c := clause{op: op, ver: ver}
		if op == "===" {
			if ver == "" {
				return nil, fmt.Errorf("%q has no version", part)
			}
			out = append(out, c)
			continue
		}
		base := ver
		if strings.HasSuffix(ver, ".*") {
			if op != "==" && op != "!=" {
				return nil, fmt.Errorf("%q: a wildcard works with == and != only", part)
			}
			base = strings.TrimSuffix(ver, ".*")
		}
		c.v = parsePEP440(base)
		if !c.v.ok {
			return nil, fmt.Errorf("%q is not a PEP 440 version", ver)
		}
		if op == "~=" && len(c.v.release) < 2 {
			return nil, fmt.Errorf("%q: ~= needs at least two release segments", part)
		}
		out = append(out, c)
	}
	return out, nil
}

// cmp compares version strings with docidx.CompareVersions, ignoring local labels.
func cmp(a, b string) int { return docidx.CompareVersions(docidx.PyPI, public(a), public(b)) }

// match reports whether version s satisfies the clause (best effort on PEP 440's finer points:
// epochs, local labels and post-release exclusions follow the spec; ordering is
// docidx.CompareVersions').
func (c clause) match(s string, v pep440) bool {
	switch c.op {
	case "===":
		return strings.EqualFold(strings.TrimSpace(s), c.ver)
	case "==", "!=":
		var eq bool
		if strings.HasSuffix(c.ver, ".*") {
			eq = v.epoch == c.v.epoch
			for i, n := range c.v.release {
				eq = eq && v.releaseAt(i) == n
			}
		} else {
			eq = v.epoch == c.v.epoch && cmp(s, c.ver) == 0 && (c.v.local == "" || c.v.local == v.local)
		}
		return eq == (c.op == "==")
	case "~=":
		prefix := c.v.release[:len(c.v.release)-1]
		for i, n := range prefix {
			if v.releaseAt(i) != n {
				return false
			}
		}
		return v.epoch == c.v.epoch && cmp(s, c.ver) >= 0
	case "<=":
		return cmpEpoch(v, c.v, s, c.ver) <= 0
	case ">=":
		return cmpEpoch(v, c.v, s, c.ver) >= 0
	case "<":
		if cmpEpoch(v, c.v, s, c.ver) >= 0 {
			return false
		}
		// <V excludes pre-releases of V unless V is one.
		return c.v.prerelease() || !v.prerelease() || !v.sameRelease(c.v)
	case ">":
		if cmpEpoch(v, c.v, s, c.ver) <= 0 {
			return false
		}
		// >V excludes post-releases of V unless V is one.
		return c.v.post >= 0 || v.post < 0 || !v.sameRelease(c.v)
	}
	return false
}

func cmpEpoch(v, w pep440, s, t string) int {
	switch {
	case v.epoch < w.epoch:
		return -1
	case v.epoch > w.epoch:
		return 1
	}
	return cmp(s, t)
}

// candidate is a version a resolver can pick.
type candidate struct {
	version string
	yanked  bool // every file of it is yanked (PEP 592)
	files   bool // it has files to download (always true for an installed distribution)
}

// resolveVersion picks the version of name that query selects among cands (any order):
//
//   - "" and "latest": the highest release that is neither yanked nor a pre-release (preferring
//     versions with files), else the highest that is not yanked, else the highest;
//   - an exact version ("2.32.3", "==2.32.3", "===2.32.3"): that version, yanked or not, compared
//     as PEP 440 does ("1.0" equals "1.0.0");
//   - a specifier set (">=2,<3", "~=1.4", "!=1.3.*"): the highest version that satisfies every
//     clause and is not yanked; pre-releases only when a clause names one or nothing else matches.
//
// Errors wrap docidx.ErrNotFound (nothing matches) or docidx.ErrBadSpec (query does not parse).
func resolveVersion(name string, cands []candidate, query string) (string, error) {
	sorted := append([]candidate(nil), cands...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return docidx.CompareVersions(docidx.PyPI, sorted[i].version, sorted[j].version) < 0
	})
	highest := func(ok func(candidate, pep440) bool) string {
		for i := len(sorted) - 1; i >= 0; i-- {
			if ok(sorted[i], parsePEP440(sorted[i].version)) {
				return sorted[i].version
			}
		}
		return ""
	}
	query = strings.TrimSpace(query)
	if query == "" || strings.EqualFold(query, "latest") {
		for _, ok := range []func(candidate, pep440) bool{
			func(c candidate, v pep440) bool { return !c.yanked && c.files && !v.prerelease() },
			func(c candidate, v pep440) bool { return !c.yanked && !v.prerelease() },
			func(c candidate, v pep440) bool { return !c.yanked },
			func(candidate, pep440) bool { return true },
		} {
			if v := highest(ok); v != "" {
				return v, nil
			}
		}
		return "", fmt.Errorf("pypi: %s has no releases: %w", name, docidx.ErrNotFound)
	}
	clauses, err := parseSpecifiers(query)
	if err != nil {
		return "", fmt.Errorf("pypi: %w: %s: %v (want a version or a PEP 440 specifier such as ==2.32.3, >=2,<3 or ~=1.4)", docidx.ErrBadSpec, name, err)
	}
	if len(clauses) == 1 && (clauses[0].op == "===" || clauses[0].op == "==" && !strings.HasSuffix(clauses[0].ver, ".*")) {
		c := clauses[0]
		for _, x := range sorted {
			if x.version == c.ver {
				return x.version, nil
			}
		}
		if v := highest(func(x candidate, v pep440) bool { return v.ok && c.match(x.version, v) }); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("pypi: %s has no version %s (known: %s): %w", name, c.ver, versionSummary(sorted), docidx.ErrNotFound)
	}
	wantsPre := false
	for _, c := range clauses {
		wantsPre = wantsPre || c.v.prerelease()
	}
	matches := func(x candidate, v pep440) bool {
		if !v.ok || x.yanked {
			return false
		}
		for _, c := range clauses {
			if !c.match(x.version, v) {
				return false
			}
		}
		return true
	}
	if v := highest(func(x candidate, v pep440) bool { return matches(x, v) && (wantsPre || !v.prerelease()) }); v != "" {
		return v, nil
	}
	if v := highest(matches); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("pypi: no version of %s matches %q (known: %s): %w", name, query, versionSummary(sorted), docidx.ErrNotFound)
}

// versionSummary lists the newest few versions of a sorted list for messages.
func versionSummary(sorted []candidate) string {
	if len(sorted) == 0 {
		return "none"
	}
	var vs []string
	for i := len(sorted) - 1; i >= 0 && len(vs) < 5; i-- {
		vs = append(vs, sorted[i].version)
	}
	s := strings.Join(vs, ", ")
	if len(sorted) > 5 {
		s += ", …"
	}
	return s
}
