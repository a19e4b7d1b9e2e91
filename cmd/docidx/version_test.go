package main

import (
	"runtime/debug"
	"testing"
)

// TestBuildCommit checks where docidx version takes its commit from: the release's ldflags, else
// what go build recorded of the git checkout, else a pseudo-version's revision, else "unknown".
func TestBuildCommit(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	for _, c := range []struct {
		name   string
		commit string
		info   *debug.BuildInfo
		want   string
	}{
		{"ldflags", "fedcba", vcs("true"), "fedcba"},
		{"go build, clean tree", "", vcs("false"), rev},
		{"go build, changed tree", "", vcs("true"), rev + "-dirty"},
		{"go install of a pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129120000-0123456789ab"}}, "0123456789ab"},
		{"go install of a release", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "unknown"},
		{"go run", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "unknown"},
		{"no build info", "", nil, "unknown"},
	} {
		if got := buildCommit(c.commit, c.info); got != c.want {
			t.Errorf("%s: buildCommit = %q, want %q", c.name, got, c.want)
		}
	}
}
