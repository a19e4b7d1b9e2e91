// Package docpath holds the path tests the registries share to sort a package's files into
// documents: which top-level directory a file is in, and which root files are the README and
// the license.
package docpath

import (
	"io/fs"
	"path"
	"strings"
)

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

// RootFiles returns the names of the README and of the license file among root, the entries of
// a package's root directory (as fs.ReadDir gives them, sorted by name), or "" for either when
// there is none; only regular files count. Names compare case-insensitively. The README is
// README with a markdown extension (.md, .markdown) before one of plain text ("", .txt, .rst,
// .adoc, .org). The license file is LICENSE or LICENCE with any extension, before COPYING or
// UNLICENSE, before a name that starts with LICENSE or LICENCE (LICENSE-MIT, LICENSE_APACHE).
// Among names of one rank the first in root wins.
func RootFiles(root []fs.DirEntry) (readme, license string) {
	readmeBest, licenseBest := noRank, noRank
	for _, de := range root {
		if !de.Type().IsRegular() {
			continue
		}
		name := de.Name()
		if r := readmeRank(name); r < readmeBest {
			readme, readmeBest = name, r
		}
		if r := licenseRank(name); r < licenseBest {
			license, licenseBest = name, r
		}
	}
	return readme, license
}

// noRank is the rank of a name that is not a candidate.
const noRank = 99

func readmeRank(name string) int {
	ext := path.Ext(name)
	if !strings.EqualFold(strings.TrimSuffix(name, ext), "README") {
		return noRank
	}
	switch strings.ToLower(ext) {
	case ".md", ".markdown":
		return 0
	case "", ".txt", ".rst", ".adoc", ".org":
		return 1
	}
	return noRank
}

func licenseRank(name string) int {
	base := strings.ToUpper(strings.TrimSuffix(name, path.Ext(name)))
	switch base {
	case "LICENSE", "LICENCE":
		return 0
	case "COPYING", "UNLICENSE":
		return 1
	}
	if strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "LICENCE") {
		return 2
	}
	return noRank
}
