package docidx

import (
	"slices"
	"testing"
)

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		eco  Ecosystem
		a, b string
		want int
	}{
		{Go, "v1.8.0", "v1.10.0", -1},
		{Go, "v1.8.0", "v1.8.0", 0},
		{Go, "v2.0.0+incompatible", "v1.9.9", 1},
		{Go, "v1.0.0-rc.1", "v1.0.0", -1},
		{Go, "v1.0.0-rc.2", "v1.0.0-rc.10", -1},
		{Go, "v0.0.0-20240101000000-abcdef123456", "v0.1.0", -1},
		{NPM, "4.21.2", "4.3.0", 1},
		{NPM, "1.0.0-alpha", "1.0.0-alpha.1", -1},
		{NPM, "1.0.0-alpha.1", "1.0.0-beta", -1},
		{NPM, "1.0.0-beta.11", "1.0.0-rc.1", -1},
		{PyPI, "2.32.3", "2.32", 1},
		{PyPI, "2.0b1", "2.0", -1},
		{PyPI, "2.0a1", "2.0b1", -1},
		{PyPI, "2.0.dev1", "2.0a1", -1},
		{PyPI, "2.0.post1", "2.0", 1},
		{PyPI, "2.0.post1", "2.0.1", -1},
		{Cargo, "1.0.200", "1.0.99", 1},
		{NPM, "latest", "1.0.0", -1},
	}
	for _, tt := range tests {
		if got := CompareVersions(tt.eco, tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%s, %q, %q) = %d, want %d", tt.eco, tt.a, tt.b, got, tt.want)
		}
		if got := CompareVersions(tt.eco, tt.b, tt.a); got != -tt.want {
			t.Errorf("CompareVersions(%s, %q, %q) = %d, want %d", tt.eco, tt.b, tt.a, got, -tt.want)
		}
	}
}

func TestSortVersions(t *testing.T) {
	v := []string{"1.10.0", "1.2.0", "1.2.0-rc.1", "0.9.0", "1.2.1"}
	SortVersions(NPM, v)
	want := []string{"0.9.0", "1.2.0-rc.1", "1.2.0", "1.2.1", "1.10.0"}
	if !slices.Equal(v, want) {
		t.Errorf("SortVersions = %v, want %v", v, want)
	}
}

func TestPageURIRoundTrip(t *testing.T) {
	tests := []struct {
		ref  Ref
		page string
	}{
		{Ref{NPM, "@types/node", "20.1.0"}, PageReadme},
		{Ref{Go, "golang.org/x/sync", "v0.10.0"}, "symbol/errgroup.Group.Go"},
		{Ref{Go, "github.com/Masterminds/semver/v3", "v3.2.0+incompatible"}, "doc/docs/a b.md"},
		{Ref{NPM, "zod", "latest"}, PageOverview},
	}
	for _, tt := range tests {
		uri := tt.ref.PageURI(tt.page)
		ref, page, err := ParsePageURI(uri)
		if err != nil {
			t.Fatalf("ParsePageURI(%q): %v", uri, err)
		}
		if ref != tt.ref || page != tt.page {
			t.Errorf("ParsePageURI(%q) = %v, %q; want %v, %q", uri, ref, page, tt.ref, tt.page)
		}
	}
	for _, bad := range []string{"", "docidx://", "docidx://npm", "http://npm/zod@1/readme", "docidx://nope/x@1/readme", "docidx://npm/zod@1/bogus"} {
		if _, _, err := ParsePageURI(bad); err == nil {
			t.Errorf("ParsePageURI(%q) = nil error, want one", bad)
		}
	}
}

func TestParsePageURIWithoutVersion(t *testing.T) {
	tests := []struct {
		uri  string
		ref  Ref
		page string
	}{
		{"docidx://npm/zod/readme", Ref{NPM, "zod", "latest"}, PageReadme},
		{"docidx://npm/zod", Ref{NPM, "zod", "latest"}, PageOverview},
		{"docidx://npm/zod/", Ref{NPM, "zod", "latest"}, PageOverview},
		{"docidx://npm/@types/node/api", Ref{NPM, "@types/node", "latest"}, PageAPI},
		{"docidx://golang/golang.org/x/sync/symbol/errgroup.Group.Go", Ref{Go, "golang.org/x/sync", "latest"}, "symbol/errgroup.Group.Go"},
		{"docidx://golang/github.com/yuin/goldmark/doc/docs/a%20b.md", Ref{Go, "github.com/yuin/goldmark", "latest"}, "doc/docs/a b.md"},
		{"docidx://golang/github.com/yuin/goldmark", Ref{Go, "github.com/yuin/goldmark", "latest"}, PageOverview},
		{"docidx://pypi/pydantic-settings/overview", Ref{PyPI, "pydantic-settings", "latest"}, PageOverview},
		{"docidx://npm/zod@^4/readme", Ref{NPM, "zod", "^4"}, PageReadme},
	}
	for _, tt := range tests {
		ref, page, err := ParsePageURI(tt.uri)
		if err != nil || ref != tt.ref || page != tt.page {
			t.Errorf("ParsePageURI(%q) = %v, %q, %v; want %v, %q", tt.uri, ref, page, err, tt.ref, tt.page)
		}
	}
}

func FuzzParsePageURI(f *testing.F) {
	f.Add("docidx://npm/@types/node@20.1.0/readme")
	f.Add("docidx://golang/golang.org/x/sync@v0.10.0/symbol/errgroup.Group.Go")
	f.Add("docidx://npm/@types/node/symbol/x")
	f.Fuzz(func(t *testing.T, uri string) {
		ref, page, err := ParsePageURI(uri)
		if err != nil {
			return
		}
		again := ref.PageURI(page)
		ref2, page2, err := ParsePageURI(again)
		if err != nil || ref2 != ref || page2 != page {
			t.Fatalf("round trip of %q: %q -> %v %q %v", uri, again, ref2, page2, err)
		}
	})
}
