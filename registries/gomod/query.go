package gomod

import (
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// Version queries, a subset of cmd/go's module queries (https://go.dev/ref/mod#version-queries):
//
//	"" or "latest"       the highest release, else the highest pre-release
//	v1.2.3, v1.2.3-pre   that exact version (a pseudo-version too)
//	v1, v1.2             semver prefix: the highest release with that prefix, else pre-release
//	<v1.2.3, <=v1.2.3    the highest version below (or at) it
//	>v1.2.3, >=v1.2.3    the lowest version above (or at) it
//
// Anything else (a branch name or a commit hash) is passed to the proxy's .info endpoint, which may
// resolve it. Retracted versions (retract directives in the go.mod of the latest version) are left
// out of every query except an exact version, as cmd/go does.

// isExactVersion reports whether q names one canonical version, such as "v1.2.3",
// "v1.2.3-rc.1", "v2.0.0+incompatible" or a pseudo-version.
func isExactVersion(q string) bool {
	return semver.IsValid(q) && module.CanonicalVersion(q) == q
}

// queryFilter returns a predicate for a prefix or comparison query, whether the nearest match is
// the lowest rather than the highest, and false when q is neither.
func queryFilter(q string) (match func(v string) bool, lowest bool, ok bool) {
	switch {
	case q == "" || q == "latest":
		return func(string) bool { return true }, false, true
	case strings.HasPrefix(q, "<=") && semver.IsValid(q[2:]):
		return func(v string) bool { return semver.Compare(v, q[2:]) <= 0 }, false, true
	case strings.HasPrefix(q, ">=") && semver.IsValid(q[2:]):
		return func(v string) bool { return semver.Compare(v, q[2:]) >= 0 }, true, true
	case strings.HasPrefix(q, "<") && semver.IsValid(q[1:]):
		return func(v string) bool { return semver.Compare(v, q[1:]) < 0 }, false, true
	case strings.HasPrefix(q, ">") && semver.IsValid(q[1:]):
		return func(v string) bool { return semver.Compare(v, q[1:]) > 0 }, true, true
	case semver.IsValid(q) && !strings.ContainsAny(q, "-+") && strings.Count(q, ".") < 2:
		return func(v string) bool { return v == q || strings.HasPrefix(v, q+".") }, false, true
	}
	return nil, false, false
}

// selectVersion picks the version that a "latest", prefix or comparison query q names among
// versions (any order; invalid ones ignored), leaving out those retracted reports when any remain.
// Releases win over pre-releases, and versions of the module's own major line over +incompatible
// ones. ok is false when q is not such a query or nothing matches.
func selectVersion(versions []string, q string, retracted func(string) bool) (string, bool) {
	match, lowest, ok := queryFilter(q)
	if !ok {
		return "", false
	}
	var cands []string
	for _, v := range versions {
		if semver.IsValid(v) && match(v) {
			cands = append(cands, v)
		}
	}
	if retracted != nil {
		var allowed []string
		for _, v := range cands {
			if !retracted(v) {
				allowed = append(allowed, v)
			}
		}
		if len(allowed) > 0 {
			cands = allowed
		}
	}
	// Preference tiers: compatible releases, +incompatible releases, then pre-releases.
	tiers := [3][]string{}
	for _, v := range cands {
		switch {
		case semver.Prerelease(v) != "":
			tiers[2] = append(tiers[2], v)
		case strings.HasSuffix(v, "+incompatible"):
			tiers[1] = append(tiers[1], v)
		default:
			tiers[0] = append(tiers[0], v)
		}
	}
	for _, tier := range tiers {
		if len(tier) == 0 {
			continue
		}
		best := tier[0]
		for _, v := range tier[1:] {
			c := semver.Compare(v, best)
			if lowest && c < 0 || !lowest && c > 0 {
				best = v
			}
		}
		return best, true
	}
	return "", false
}

// retractions returns a predicate reporting versions that the go.mod file data retracts, or nil
// when it retracts none or does not parse.
func retractions(data []byte) func(string) bool {
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil || len(f.Retract) == 0 {
		return nil
	}
	return func(v string) bool {
		for _, r := range f.Retract {
			if semver.Compare(r.Low, v) <= 0 && semver.Compare(v, r.High) <= 0 {
				return true
			}
		}
		return false
	}
}
