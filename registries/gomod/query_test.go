package gomod

import (
	"testing"

	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestSelectVersion(t *testing.T) {
	versions := []string{"v1.0.0", "v1.1.0", "v1.2.0-rc.1", "v1.10.0", "v2.0.0+incompatible", "v0.9.0", "junk"}
	tests := []struct {
		q, want string
		ok      bool
	}{
		{"", "v1.10.0", true},
		{"latest", "v1.10.0", true},
		{"v1", "v1.10.0", true},
		{"v1.1", "v1.1.0", true},
		{"v1.2", "v1.2.0-rc.1", true}, // no release: the pre-release
		{"v2", "v2.0.0+incompatible", true},
		{"v3", "", false},
		{"<v1.1.0", "v1.0.0", true},
		{"<=v1.1.0", "v1.1.0", true},
		{">v1.1.0", "v1.10.0", true}, // lowest release above; pre-releases only when no release
		{">=v1.0.0", "v1.0.0", true},
		{">v2.0.0", "", false},
		{"main", "", false},
		{"v1.1.0", "", false}, // exact versions are not queries
	}
	for _, tt := range tests {
		got, ok := selectVersion(versions, tt.q, nil)
		if got != tt.want || ok != tt.ok {
			t.Errorf("selectVersion(%q) = %q, %v; want %q, %v", tt.q, got, ok, tt.want, tt.ok)
		}
	}
	// Only +incompatible versions: those are chosen.
	if got, _ := selectVersion([]string{"v2.0.0+incompatible", "v3.1.0+incompatible"}, "", nil); got != "v3.1.0+incompatible" {
		t.Errorf("latest of incompatible = %q", got)
	}
	retracted := retractions([]byte("module m\n\nretract (\n\tv1.10.0 // bad\n\t[v1.1.0, v1.1.9]\n)\n"))
	if got, _ := selectVersion(versions, "", retracted); got != "v1.0.0" {
		t.Errorf("latest with retractions = %q, want v1.0.0", got)
	}
	// Everything retracted: fall back to the unfiltered choice rather than nothing.
	all := retractions([]byte("module m\nretract [v0.0.0, v9.9.9]\n"))
	if got, _ := selectVersion(versions, "", all); got != "v1.10.0" {
		t.Errorf("latest with all retracted = %q, want v1.10.0", got)
	}
}

func TestIsExactVersion(t *testing.T) {
	testutil.Mapping(t, "isExactVersion", isExactVersion, map[string]bool{
		"v1.2.3": true, "v1.2.3-rc.1": true, "v2.0.0+incompatible": true,
		"v0.0.0-20240102030405-abcdefabcdef": true,
		"v1.2":                               false, "v1": false, "1.2.3": false, "latest": false, "": false, "v1.2.3+meta": false,
	})
}
