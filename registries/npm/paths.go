package npm

import "strings"

// firstComponentFold reports whether p's first path component equals one of dirs, ignoring case.
func firstComponentFold(p string, dirs ...string) bool {
	first, _, _ := strings.Cut(p, "/")
	for _, d := range dirs {
		if strings.EqualFold(first, d) {
			return true
		}
	}
	return false
}
