package main

import (
	"testing"

	"github.com/docidx/docidx"
)

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want docidx.Ref
	}{
		{"npm:zod@3.23.8", docidx.Ref{Ecosystem: docidx.NPM, Name: "zod", Version: "3.23.8"}},
		{"zod@^3", docidx.Ref{Name: "zod", Version: "^3"}},
		{"pypi:requests==2.32.3", docidx.Ref{Ecosystem: docidx.PyPI, Name: "requests", Version: "2.32.3"}},
		// The purls search results and describe show.
		{"pkg:npm/%40types/node@20.1.0", docidx.Ref{Ecosystem: docidx.NPM, Name: "@types/node", Version: "20.1.0"}},
		{"pkg:golang/golang.org/x/sync", docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}},
	} {
		got, err := parseRef(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseRef(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"nope:x", "npm:", "pkg:npm/x?a=1&a=2"} {
		if ref, err := parseRef(bad); err == nil {
			t.Errorf("parseRef(%q) = %+v, want an error", bad, ref)
		}
	}
}
