package docidx

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// URIScheme is the scheme of every docidx resource URI.
const URIScheme = "docidx"

// SnapshotURI names the resource that describes the snapshot itself: what is indexed and when.
const SnapshotURI = "docidx://snapshot"

// Pages of a package version, as the last part of its resource URI. Document pages are
// "doc/" + the document's path (e.g. "doc/docs/guide.md") and symbol pages are
// "symbol/" + the symbol's qualified name (e.g. "symbol/errgroup.Group.Go").
const (
	PageOverview     = "overview"
	PageReadme       = "readme"
	PageAPI          = "api"
	PageDocPrefix    = "doc/"
	PageSymbolPrefix = "symbol/"
)

// PageURI returns the resource URI of one page of a package version:
//
//	docidx://{ecosystem}/{package}@{version}/{page}
//
// for example "docidx://golang/golang.org/x/sync@v0.10.0/symbol/errgroup.Group.Go" or
// "docidx://npm/@types/node@20.1.0/readme". Characters outside the URI path set are
// percent-encoded; slashes in the package name and page are kept. ParsePageURI inverts it.
func PageURI(eco Ecosystem, name, version, page string) string {
	return URIScheme + "://" + string(eco) + "/" + escapePath(name) + "@" + url.PathEscape(version) + "/" + escapePath(page)
}

// PageURI returns the resource URI of page for the package version r names.
func (r Ref) PageURI(page string) string { return PageURI(r.Ecosystem, r.Name, r.Version, page) }

func escapePath(p string) string {
	clean := true
	for seg := range strings.SplitSeq(p, "/") {
		if url.PathEscape(seg) != seg { // PathEscape returns a clean segment as it is
			clean = false
			break
		}
	}
	if clean { // the common case, for every hit and outline entry: nothing to allocate
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// ParsePageURI splits a page URI made by PageURI into its package version and page. The version
// may be "latest", a partial version or a range ("4", "^4"), which readers resolve, or left out
// with its "@": "docidx://npm/zod/readme" is "docidx://npm/zod@latest/readme". Without "@", the
// page is the last segment when it is "readme", "api" or "overview", or starts at the first
// "doc/" or "symbol/" segment after the package's first; else the whole path is the package and
// the page is the overview. A package whose path ends in such a segment (a Go module
// "example.com/x/api") needs its "@latest" written. It returns an error wrapping ErrBadURI when
// uri is not of that shape.
func ParsePageURI(uri string) (ref Ref, page string, err error) {
	bad := func(why string) (Ref, string, error) {
		return Ref{}, "", fmt.Errorf("%w: %s: %s (want docidx://ECOSYSTEM/PACKAGE[@VERSION]/PAGE)", ErrBadURI, Quote(uri), why)
	}
	rest, ok := strings.CutPrefix(uri, URIScheme+"://")
	if !ok {
		return bad("not a docidx URI")
	}
	ecoStr, rest, ok := strings.Cut(rest, "/")
	if !ok {
		return bad("no package")
	}
	eco, err := ParseEcosystem(ecoStr)
	if err != nil || string(eco) != ecoStr {
		return bad("unknown ecosystem")
	}
	// The version starts at the first "@" that does not open a path segment (npm scopes do).
	at := -1
	for i := 1; i < len(rest); i++ {
		if rest[i] == '@' && rest[i-1] != '/' {
			at = i
			break
		}
	}
	var nameStr, verStr, pageStr string
	if at < 0 {
		nameStr, pageStr = splitUnversioned(rest)
		verStr = "latest"
	} else {
		nameStr = rest[:at]
		verStr, pageStr, _ = strings.Cut(rest[at+1:], "/")
	}
	name, err := url.PathUnescape(nameStr)
	if err != nil || name == "" || at < 0 && slices.Contains(strings.Split(nameStr, "/"), "") {
		return bad("bad package name")
	}
	version, err := url.PathUnescape(verStr)
	if err != nil || version == "" {
		return bad("bad version")
	}
	page, err = url.PathUnescape(pageStr)
	if err != nil {
		return bad("bad page")
	}
	if page == "" {
		page = PageOverview
	}
	switch {
	case page == PageOverview, page == PageReadme, page == PageAPI:
	case strings.HasPrefix(page, PageDocPrefix) && len(page) > len(PageDocPrefix):
	case strings.HasPrefix(page, PageSymbolPrefix) && len(page) > len(PageSymbolPrefix):
	default:
		return bad("unknown page " + page)
	}
	return Ref{Ecosystem: eco, Name: name, Version: version}, page, nil
}

// splitUnversioned splits "PACKAGE/PAGE" of a URI without a version, as ParsePageURI says.
func splitUnversioned(rest string) (name, page string) {
	rest = strings.TrimSuffix(rest, "/")
	segs := strings.Split(rest, "/")
	for i := 1; i < len(segs)-1; i++ {
		if segs[i]+"/" == PageDocPrefix || segs[i]+"/" == PageSymbolPrefix {
			return strings.Join(segs[:i], "/"), strings.Join(segs[i:], "/")
		}
	}
	if n := len(segs); n > 1 {
		switch segs[n-1] {
		case PageReadme, PageAPI, PageOverview:
			return strings.Join(segs[:n-1], "/"), segs[n-1]
		}
	}
	return rest, ""
}
