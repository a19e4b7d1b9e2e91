package testutil

import (
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

func TestRefNames(t *testing.T) {
	refs := []docidx.Ref{{Ecosystem: docidx.NPM, Name: "@s/p", Version: "1.0.0"}, {Ecosystem: docidx.NPM, Name: "a", Version: "2.0.0-rc.1"}}
	if got, want := RefNames(refs), []string{"@s/p@1.0.0", "a@2.0.0-rc.1"}; !slices.Equal(got, want) {
		t.Errorf("RefNames = %q, want %q", got, want)
	}
	if got := RefNames(nil); len(got) != 0 {
		t.Errorf("RefNames(nil) = %q", got)
	}
}
