package index_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func TestResolveVersion(t *testing.T) {
	goVersions := []string{"v3.9.0", "v4.0.0", "v4.2.0", "v4.2.7", "v4.29.1", "v5.0.0-rc.1", "v0.0.0-20240101000000-abcdefabcdef"}
	npmVersions := []string{"3.22.4", "4.0.0-beta.1", "4.1.0", "4.2.3", "4.3.0", "5.0.0-rc.1", "0.3.1", "0.3.9", "0.4.0"}
	pyVersions := []string{"3.9", "4.0", "4.2", "4.2.1", "4.3.post1", "5.0b1", "1.2.3.4"}
	crateVersions := []string{"0.2.3", "0.2.9", "0.3.0", "4.1.0", "4.2.5", "5.0.0"}
	tests := []struct {
		eco      docidx.Ecosystem
		versions []string
		query    string
		want     string // "" when no version matches
	}{
		{docidx.Go, goVersions, "", "v4.29.1"},
		{docidx.Go, goVersions, "latest", "v4.29.1"},
		{docidx.Go, goVersions, "v4.29.1", "v4.29.1"},
		{docidx.Go, goVersions, "4.29.1", "v4.29.1"},
		{docidx.Go, goVersions, "v4", "v4.29.1"},
		{docidx.Go, goVersions, "4", "v4.29.1"},
		{docidx.Go, goVersions, "v4.2", "v4.2.7"},
		{docidx.Go, goVersions, "^4", "v4.29.1"},
		{docidx.Go, goVersions, "~4.2", "v4.2.7"},
		{docidx.Go, goVersions, ">=4 <5", "v4.29.1"},
		{docidx.Go, goVersions, "<v4", "v3.9.0"},
		{docidx.Go, goVersions, "v5", ""}, // only a pre-release
		{docidx.Go, goVersions, "v5.0.0-rc.1", "v5.0.0-rc.1"},
		{docidx.Go, goVersions, ">=v5.0.0-rc.0", "v5.0.0-rc.1"},
		{docidx.Go, goVersions, "v0.0.0-20240101000000-abcdefabcdef", "v0.0.0-20240101000000-abcdefabcdef"},
		{docidx.Go, goVersions, "v6", ""},

		{docidx.NPM, npmVersions, "", "4.3.0"},
		{docidx.NPM, npmVersions, "4", "4.3.0"},
		{docidx.NPM, npmVersions, "^4", "4.3.0"},
		{docidx.NPM, npmVersions, "4.x", "4.3.0"},
		{docidx.NPM, npmVersions, "4.*", "4.3.0"},
		{docidx.NPM, npmVersions, "4.2.x", "4.2.3"},
		{docidx.NPM, npmVersions, "~4.2", "4.2.3"},
		{docidx.NPM, npmVersions, "~4.2.0", "4.2.3"},
		{docidx.NPM, npmVersions, "^4.2.0", "4.3.0"},
		{docidx.NPM, npmVersions, ">=4 <5", "4.3.0"},
		{docidx.NPM, npmVersions, ">= 4, < 4.3", "4.2.3"},
		{docidx.NPM, npmVersions, ">4.2", "4.3.0"},
		{docidx.NPM, npmVersions, "<=4.2", "4.2.3"},
		{docidx.NPM, npmVersions, "3 || 6", "3.22.4"},
		{docidx.NPM, npmVersions, "4.1 - 4.2", "4.2.3"},
		{docidx.NPM, npmVersions, "^0.3.1", "0.3.9"},
		{docidx.NPM, npmVersions, "^0.3", "0.3.9"},
		{docidx.NPM, npmVersions, "*", "4.3.0"},
		{docidx.NPM, npmVersions, "x", "4.3.0"},
		{docidx.NPM, npmVersions, "!=4.3.0 >=4", "4.2.3"},
		{docidx.NPM, npmVersions, "4.0.0-beta.1", "4.0.0-beta.1"},
		{docidx.NPM, npmVersions, ">=4.0.0-beta.0 <4.1", "4.0.0-beta.1"},
		{docidx.NPM, npmVersions, "^5", ""},
		{docidx.NPM, npmVersions, "^9", ""},

		{docidx.PyPI, pyVersions, "", "4.3.post1"},
		{docidx.PyPI, pyVersions, "4", "4.3.post1"},
		{docidx.PyPI, pyVersions, "~=4.2", "4.3.post1"},
		{docidx.PyPI, pyVersions, "~=4.2.0", "4.2.1"},
		{docidx.PyPI, pyVersions, ">=4,<4.3", "4.2.1"},
		{docidx.PyPI, pyVersions, "==4.*", "4.3.post1"},
		{docidx.PyPI, pyVersions, "==4.2", "4.2"},
		{docidx.PyPI, pyVersions, "===4.2", "4.2"},
		{docidx.PyPI, pyVersions, "!=4.3.post1,>=4", "4.2.1"},
		{docidx.PyPI, pyVersions, "5", ""},
		{docidx.PyPI, pyVersions, ">=5.0b1", "5.0b1"},
		{docidx.PyPI, pyVersions, "1.2.3.4", "1.2.3.4"},
		{docidx.PyPI, pyVersions, ">=1.2.3.4,<2", "1.2.3.4"},

		{docidx.Cargo, crateVersions, "4", "4.2.5"},
		{docidx.Cargo, crateVersions, "4.1", "4.2.5"}, // a bare version is a caret requirement
		{docidx.Cargo, crateVersions, "=4.1", "4.1.0"},
		{docidx.Cargo, crateVersions, "0.2.3", "0.2.3"}, // an indexed version selects itself
		{docidx.Cargo, crateVersions, "0.2", "0.2.9"},
		{docidx.Cargo, crateVersions, "~4", "4.2.5"},

		{docidx.Swift, []string{"1.0.0", "1.4.2", "2.0.0"}, "1.x", "1.4.2"},
	}
	for _, tt := range tests {
		got, err := index.ResolveVersion(tt.eco, tt.versions, tt.query)
		if tt.want == "" {
			if !errors.Is(err, docidx.ErrNotFound) {
				t.Errorf("ResolveVersion(%s, %q) = %q, %v; want an error wrapping ErrNotFound", tt.eco, tt.query, got, err)
			} else if !strings.Contains(err.Error(), tt.versions[1]) {
				t.Errorf("ResolveVersion(%s, %q) error %q does not name the indexed versions", tt.eco, tt.query, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ResolveVersion(%s, %q) = %q, %v; want %q", tt.eco, tt.query, got, err, tt.want)
		}
	}
}

func TestResolveVersionBadRange(t *testing.T) {
	for _, q := range []string{"^", ">=", "4.2.x.y", "abc", "4 ||", "~=4", "!=4"} {
		_, err := index.ResolveVersion(docidx.NPM, []string{"4.0.0"}, q)
		if !errors.Is(err, docidx.ErrBadSpec) {
			t.Errorf("ResolveVersion(%q): %v; want an error wrapping ErrBadSpec", q, err)
		}
	}
}
