// Package purl converts between docidx's package references (docidx.Ref) and Package URLs
// (https://github.com/package-url/purl-spec, ECMA-427) through the purl project's own Go library,
// github.com/package-url/packageurl-go, which owns the percent-encoding, the qualifiers and
// subpath, and each type's rules.
//
// docidx departs from the library in two places, both where a purl must name the package docidx
// crawls:
//
//   - golang: the library lowercases a golang purl's namespace and name, as the type's text says,
//     but Go module paths are case-sensitive (github.com/BurntSushi/toml is not
//     github.com/burntsushi/toml, and a module proxy refuses the latter); the purl spec's
//     maintainers track this as a defect (package-url/purl-spec#308). Parse keeps the case.
//   - swift: the library requires a namespace (the repository's host and owner), but docidx also
//     names Swift packages by a registry identity (mona.LinkedList) or a checkout's identity
//     (linkedlist), whose purls Format writes without one. Parse accepts them.
//
// It imports the library, the root package docidx and the standard library only; the root
// package, which holds Ref, stays dependency-free.
package purl

import (
	"errors"
	"fmt"
	"strings"

	packageurl "github.com/package-url/packageurl-go"

	"github.com/docidx/docidx"
)

// swiftURLScheme is the scheme of the repository URLs docidx names Swift packages by; a Swift
// purl's namespace is the URL without it (pkg:swift/github.com/apple/swift-nio).
const swiftURLScheme = "https://"

// Format returns the Package URL of r in the purl spec's canonical form, e.g.
// "pkg:npm/%40types/node@20.1.0", "pkg:golang/github.com/spf13/cobra@v1.8.0" or
// "pkg:golang/example.com/m@v2.0.0%2Bincompatible": the name's last "/" separates namespace from
// name, each segment and the version are percent-encoded (an npm scope's "@" as %40, "+" as
// %2B), and r.Version "" leaves the version out. A Swift package named by an https repository
// URL becomes the host-and-owner namespace the swift type defines
// ("https://github.com/apple/swift-nio" -> "pkg:swift/github.com/apple/swift-nio"); Parse
// reverses every Format.
func Format(r docidx.Ref) string {
	name := r.Name
	if r.Ecosystem == docidx.Swift {
		name = strings.TrimPrefix(name, swiftURLScheme)
	}
	ns := ""
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		ns, name = name[:i], name[i+1:]
	}
	return packageurl.NewPackageURL(string(r.Ecosystem), ns, name, r.Version, nil, "").ToString()
}

// Parse reads a Package URL, pkg:type/namespace/name@version?qualifiers#subpath, into the Ref it
// names: the package's name is namespace/name percent-decoded (pkg:npm/%40types/node and
// pkg:npm/@types/node are both "@types/node"), Version is the exact version or "" when the purl
// has none. type may be a purl type or any alias docidx.ParseEcosystem accepts (pkg:go/…,
// pkg:rust/…). Qualifiers (?type=module, ?repository_url=…) and the subpath (#lib/index.d.ts)
// are checked by the purl spec's rules and otherwise ignored: docidx crawls a whole package
// version from its configured registry. A pypi name is lowercased with "_" as "-" (the pypi
// type's rule; PEP 503's is the caller's); a swift namespace whose first segment is a host name
// (holds a "." and no "@") becomes an https repository URL ("pkg:swift/github.com/apple/swift-nio" ->
// "https://github.com/apple/swift-nio"), the way a Package.resolved pin names it.
//
// It returns an error for a string without the pkg: scheme, a type docidx does not crawl, an
// empty name or version ("pkg:npm/x@"), bad percent-encoding, and qualifiers or subpaths the
// spec forbids (a key starting with a digit, a key given twice, ".." in the subpath).
func Parse(s string) (docidx.Ref, error) {
	if len(s) < 4 || !strings.EqualFold(s[:4], "pkg:") {
		return docidx.Ref{}, errors.New("not a purl (want pkg:TYPE/NAME[@VERSION])")
	}
	// The type decides which of the library's type rules apply, so it is read first.
	typ, rest, ok := strings.Cut(strings.TrimLeft(s[4:], "/"), "/")
	if !ok || rest == "" {
		return docidx.Ref{}, errors.New("purl without a name")
	}
	eco, err := docidx.ParseEcosystem(typ)
	if err != nil {
		return docidx.Ref{}, fmt.Errorf("unknown purl type %q", typ)
	}
	if path, _, _ := strings.Cut(strings.SplitN(rest, "#", 2)[0], "?"); strings.HasSuffix(path, "@") {
		return docidx.Ref{}, errors.New("empty purl version after @")
	}
	rules := string(eco)
	if eco == docidx.Go || eco == docidx.Swift {
		rules = packageurl.TypeGeneric // see the package doc: no lowercasing, no required namespace
	}
	p, err := packageurl.FromString("pkg:" + rules + "/" + rest)
	if err != nil {
		return docidx.Ref{}, fmt.Errorf("bad purl: %w", err)
	}
	ref := docidx.Ref{Ecosystem: eco, Name: p.Name, Version: p.Version}
	if p.Namespace != "" {
		ref.Name = p.Namespace + "/" + p.Name
		// A host has a "." and no "@" (git@github.com:apple is an ssh location, kept as written).
		if first, _, _ := strings.Cut(p.Namespace, "/"); eco == docidx.Swift && strings.Contains(first, ".") && !strings.Contains(first, "@") {
			ref.Name = swiftURLScheme + ref.Name
		}
	}
	return ref, nil
}
