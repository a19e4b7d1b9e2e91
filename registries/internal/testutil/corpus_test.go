package testutil

import (
	"path/filepath"
	"testing"
)

func TestCorpusDir(t *testing.T) {
	root := t.TempDir()
	WriteFile(t, filepath.Join(root, "npmproject", "node_modules", "a", "package.json"), "{}")
	for _, tc := range []struct {
		env  string
		elem []string
		want string // "" when the test is to be skipped
	}{
		{root, []string{"npmproject", "node_modules"}, filepath.Join(root, "npmproject", "node_modules")},
		{"", []string{"npmproject", "node_modules"}, ""},
		{root, []string{"swiftproject"}, ""},
		{root, []string{"npmproject", "node_modules", "a", "package.json"}, ""},
	} {
		t.Setenv("DOCIDX_CORPUS", tc.env)
		var got string
		var skipped bool
		t.Run("", func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			got = CorpusDir(t, tc.elem...)
		})
		if got != tc.want || skipped != (tc.want == "") {
			t.Errorf("DOCIDX_CORPUS=%q CorpusDir(%q) = %q, skipped %v; want %q", tc.env, tc.elem, got, skipped, tc.want)
		}
	}
}
