// Package docpath holds the path tests the registries share to sort a package's files into
// documents: which top-level directory a file is in.
package docpath

import "strings"

// FirstComponentFold reports whether p, a slash-separated path relative to a package's root, has
// a first element equal to one of dirs, ignoring case ("Docs/guide.md" is in "docs").
func FirstComponentFold(p string, dirs ...string) bool {
	first, _, _ := strings.Cut(p, "/")
	for _, d := range dirs {
		if strings.EqualFold(first, d) {
			return true
		}
	}
	return false
}
