package answer

import "github.com/docidx/docidx"

// APIGroup is the API one declaring package (a Go import path, a Python module, an npm package)
// of a package version holds, as a page that lists it in full shows it: the package's doc
// symbol, then its top-level symbols in declaration order, each with its members.
type APIGroup struct {
	Package string
	Doc     *docidx.Symbol // the package's own doc (docidx.KindPackage), nil without one
	Symbols []APIEntry
}

// APIEntry is one symbol of an APIGroup, with the first sentence of its doc and its members (the
// symbols whose Parent is its Key in the same declaring package), in declaration order.
type APIEntry struct {
	Symbol   *docidx.Symbol
	Synopsis string
	Members  []APIEntry
}

// GroupAPI returns syms, the symbols of one package version, grouped by declaring package in
// first-seen order, members under their type. A member whose type is not among syms stands as a
// symbol of its own. The entries point into syms.
//
// It lists every member, where Describe's outline (for an assistant's budget) counts a type's
// fields and lists only its methods: the web's API page lists them all.
func GroupAPI(syms []docidx.Symbol) []APIGroup {
	var groups []APIGroup
	byPkg := map[string]int{}
	group := func(p string) *APIGroup {
		i, ok := byPkg[p]
		if !ok {
			i = len(groups)
			byPkg[p] = i
			groups = append(groups, APIGroup{Package: p})
		}
		return &groups[i]
	}
	entry := func(s *docidx.Symbol) APIEntry { return APIEntry{Symbol: s, Synopsis: FirstSentence(s.Doc)} }
	types := map[string]int{} // memberKey → index in its group's Symbols
	for i := range syms {
		s := &syms[i]
		switch {
		case s.Kind == docidx.KindPackage:
			group(s.Package).Doc = s
		case s.Parent == "":
			g := group(s.Package)
			types[memberKey(s)] = len(g.Symbols)
			g.Symbols = append(g.Symbols, entry(s))
		}
	}
	for i := range syms {
		s := &syms[i]
		if s.Kind == docidx.KindPackage || s.Parent == "" {
			continue
		}
		g := group(s.Package)
		if j, ok := types[s.Package+"\x00"+s.Parent]; ok {
			g.Symbols[j].Members = append(g.Symbols[j].Members, entry(s))
			continue
		}
		g.Symbols = append(g.Symbols, entry(s))
	}
	return groups
}
