package docpath

import "testing"

func TestFirstComponentFold(t *testing.T) {
	for p, want := range map[string]bool{
		"docs/a.md": true, "Docs/guide/b.md": true, "docs": true, "examples/x.js": true,
		"src/docs/a.md": false, "documentation/a.md": false, "": false,
	} {
		if got := FirstComponentFold(p, "docs", "examples"); got != want {
			t.Errorf("FirstComponentFold(%q) = %v, want %v", p, got, want)
		}
	}
}
