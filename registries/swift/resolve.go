package swift

import (
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
)

// selectVersion picks the version of versions (any order) that query names:
//
//   - "" or "latest": the highest release by semantic versioning, else the highest pre-release;
//   - an exact version ("1.2.3", "v1.2.3", "=1.2.3"), which must be one of versions;
//   - a Swift range as Package.swift writes requirements, "1.2.0..<2.0.0" (half-open) or
//     "1.2.0...1.4.0" (closed);
//   - any other semver range in Masterminds/semver syntax ("^1.2", "~1.2.3", ">=1.0 <2", "1.x",
//     or a partial version such as "1.2", meaning 1.2.x), which matches pre-releases only when
//     it names one itself.
//
// It returns the highest match, or an error wrapping docidx.ErrNotFound (nothing matches) or
// docidx.ErrBadSpec (query is not a version or range).
func selectVersion(versions []string, query string) (string, error) {
	q := strings.TrimSpace(query)
	sorted := append([]string(nil), versions...)
	docidx.SortVersions(docidx.Swift, sorted)
	if q == "" || q == "latest" {
		for i := len(sorted) - 1; i >= 0; i-- {
			if _, err := semver.StrictNewVersion(strings.TrimPrefix(sorted[i], "v")); err == nil && !docidx.IsPrerelease(docidx.Swift, sorted[i]) {
				return sorted[i], nil
			}
		}
		if len(sorted) > 0 {
			return sorted[len(sorted)-1], nil
		}
		return "", fmt.Errorf("no versions: %w", docidx.ErrNotFound)
	}
	for _, v := range sorted {
		if v == q {
			return v, nil
		}
	}
	bare := strings.TrimPrefix(strings.TrimPrefix(q, "="), "v")
	if exact, err := semver.StrictNewVersion(bare); err == nil {
		for _, v := range sorted {
			if sv, err := semver.NewVersion(v); err == nil && sv.Equal(exact) && sv.Metadata() == exact.Metadata() {
				return v, nil
			}
		}
		return "", fmt.Errorf("no version %s (have %s): %w", q, summarize(sorted), docidx.ErrNotFound)
	}
	c, err := semver.NewConstraint(swiftRange(q))
	if err != nil {
		return "", fmt.Errorf("%w: %q is not a version or version range (want 1.2.3, 1.2.0..<2.0.0, ^1.2 …)", docidx.ErrBadSpec, q)
	}
	for i := len(sorted) - 1; i >= 0; i-- {
		if sv, err := semver.NewVersion(sorted[i]); err == nil && c.Check(sv) {
			return sorted[i], nil
		}
	}
	return "", fmt.Errorf("no version matches %q (have %s): %w", q, summarize(sorted), docidx.ErrNotFound)
}

// swiftRange rewrites Swift's range operators as semver constraints: "a..<b" as ">=a, <b" and
// "a...b" as ">=a, <=b"; anything else is returned as is.
func swiftRange(q string) string {
	if lo, hi, ok := strings.Cut(q, "..<"); ok {
		return ">=" + strings.TrimSpace(lo) + ", <" + strings.TrimSpace(hi)
	}
	if lo, hi, ok := strings.Cut(q, "..."); ok {
		return ">=" + strings.TrimSpace(lo) + ", <=" + strings.TrimSpace(hi)
	}
	return q
}

// summarize lists a few versions for messages: the newest five of sorted.
func summarize(sorted []string) string {
	switch n := len(sorted); {
	case n == 0:
		return "none"
	case n > 5:
		return "…, " + strings.Join(sorted[n-5:], ", ")
	}
	return strings.Join(sorted, ", ")
}
