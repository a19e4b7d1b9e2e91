package untar

import (
	"errors"
	"testing"

	"github.com/docidx/docidx"
)

func TestCheckName(t *testing.T) {
	for name, want := range map[string]string{
		"package/README.md":  "package/README.md",
		"./package/index.js": "package/index.js",
		"././x/y":            "x/y",
		`package\lib\a.js`:   "package/lib/a.js",
		"a..b/c":             "a..b/c",
		"/etc/passwd":        "",
		"C:/x":               "",
		"package/../../x":    "",
		`..\x`:               "",
		"package/a\x00b":     "",
	} {
		got, err := CheckName(name, "tarball")
		if want == "" {
			if !errors.Is(err, docidx.ErrUnsafePath) {
				t.Errorf("CheckName(%q) = %q, %v; want ErrUnsafePath", name, got, err)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("CheckName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}
