// Package installed holds what the registries' local caches (Checkouts, ModCache, NodeModules,
// SitePackages, cargo's Cache), which read packages installed on disk, do alike: check the
// directory they are given and list the package versions they found. It imports the root
// package docidx and the standard library only.
package installed

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/docidx/docidx"
)

// Dir returns the absolute path of dir after checking that it is a directory. what names the
// cache in the errors, such as "swift: checkouts": the error of filepath.Abs or os.Stat (which
// wraps fs.ErrNotExist for a missing dir), or one saying dir is not a directory.
func Dir(dir, what string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", what, dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s: %s is not a directory", what, abs)
	}
	return abs, nil
}

// Refs returns a reference in ecosystem eco to every entry of byName: sorted by name, and within
// a name in the order of its slice (the caller keeps each slice oldest first). version gives an
// entry's version. It returns nil for an empty byName.
func Refs[T any](eco docidx.Ecosystem, byName map[string][]T, version func(T) string) []docidx.Ref {
	names := slices.Sorted(maps.Keys(byName))
	var refs []docidx.Ref
	for _, name := range names {
		for _, e := range byName[name] {
			refs = append(refs, docidx.Ref{Ecosystem: eco, Name: name, Version: version(e)})
		}
	}
	return refs
}
