package installed

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/testutil"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	testutil.WriteFile(t, file, "")
	if got, err := Dir(dir, "x: cache"); err != nil || got != dir {
		t.Errorf("Dir(%q) = %q, %v; want it back", dir, got, err)
	}
	if _, err := Dir(filepath.Join(dir, "missing"), "x: cache"); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "x: cache: ") {
		t.Errorf("Dir(missing) = %v, want x: cache: … wrapping fs.ErrNotExist", err)
	}
	if _, err := Dir(file, "x: cache"); err == nil || err.Error() != "x: cache: "+file+" is not a directory" {
		t.Errorf("Dir(file) = %v", err)
	}
}

func TestRefs(t *testing.T) {
	got := Refs(docidx.NPM, map[string][]string{"b": {"1.0.0", "0.9.0"}, "a": {"2.0.0"}, "c": nil}, func(v string) string { return v })
	want := []docidx.Ref{{Ecosystem: docidx.NPM, Name: "a", Version: "2.0.0"}, {Ecosystem: docidx.NPM, Name: "b", Version: "1.0.0"}, {Ecosystem: docidx.NPM, Name: "b", Version: "0.9.0"}}
	if !slices.Equal(got, want) {
		t.Errorf("Refs = %v, want %v", got, want)
	}
	if got := Refs(docidx.NPM, map[string][]string{}, func(v string) string { return v }); got != nil {
		t.Errorf("Refs(empty) = %v, want nil", got)
	}
}
