package web

import (
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

// TestAlsoLinks: the hits a result stands for link to their pages, a symbol by its qualified
// name and a page by its URI, shown without the package version the hit already names.
func TestAlsoLinks(t *testing.T) {
	ref := docidx.Ref{Ecosystem: docidx.NPM, Name: "send", Version: "1.2.1"}
	got := alsoLinks(ref, []string{"send.SendOptions.dotfiles", "docidx://npm/send@1.2.1/readme#dotfiles"})
	want := []link{{Href: "/npm/send@1.2.1/symbol/send.SendOptions.dotfiles", Text: "send.SendOptions.dotfiles"},
		{Href: "/npm/send@1.2.1/readme#dotfiles", Text: "readme#dotfiles"}}
	if !slices.Equal(got, want) {
		t.Errorf("alsoLinks = %+v, want %+v", got, want)
	}
}
