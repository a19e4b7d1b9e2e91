package testutil

import "github.com/docidx/docidx"

// RefNames returns each of refs as "<name>@<version>", in refs' order: the form the tests of
// List compare with the package versions they want listed.
func RefNames(refs []docidx.Ref) []string {
	names := make([]string, 0, len(refs))
	for _, r := range refs {
		names = append(names, r.Name+"@"+r.Version)
	}
	return names
}
