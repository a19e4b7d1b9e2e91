// Package indexpath holds the registry index format's rule for where a crate's index file lives
// (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files), which the cargo
// client and its fake registry, cargotest, both follow. It imports only the standard library.
package indexpath

import "strings"

// Path returns the path of a crate's file inside an index: the lowercased name under "1/", "2/",
// "3/<first char>/", or "<chars 1-2>/<chars 3-4>/"; "" for an empty name. It counts bytes, as
// crate names are ASCII.
func Path(name string) string {
	n := strings.ToLower(name)
	if n == "" {
		return ""
	}
	return Prefix(n) + "/" + n
}

// Prefix returns the {prefix} of a download template: Path's directory, in the name's original
// case ("1", "2", "3/<first char>" or "<chars 1-2>/<chars 3-4>"); "" for an empty name.
func Prefix(name string) string {
	switch len(name) {
	case 0:
		return ""
	case 1:
		return "1"
	case 2:
		return "2"
	case 3:
		return "3/" + name[:1]
	}
	return name[:2] + "/" + name[2:4]
}
