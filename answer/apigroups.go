package answer

import (
	"slices"

	"github.com/docidx/docidx"
)

// APIGroup is the API one declaring package (a Go import path, a Python module, an npm package)
// of a package version holds, as a page that lists it in full shows it: the package's doc
// symbol, then its top-level symbols in declaration order, each with its members.
type APIGroup struct {
	Package string
	Doc     *docidx.Symbol // the package's own doc (docidx.KindPackage), nil without one
	Symbols []APIEntry
}

// APIEntry is one symbol of an APIGroup, with the first sentence of its doc and its members (the
// symbols whose Parent is its Key in the same declaring package), in declaration order, those
// marked @internal (see Internal) after the others.
type APIEntry struct {
	Symbol *docidx.Symbol
	// Overloads are the later declarations of Symbol's qualified name (TypeScript's overloads,
	// each a symbol of its own with its signature), in declaration order: the entry lists the
	// name once, with every signature.
	Overloads []*docidx.Symbol
	// Internal is true when the symbol's doc marks it @internal.
	Internal bool
	Members  []APIEntry
}

// GroupAPI returns syms, the symbols of one package version, grouped by declaring package in
// first-seen order, members under their type. A member whose type is not among syms stands as a
// symbol of its own. The entries point into syms.
//
// It lists every member, where Describe's outline (for an assistant's budget) counts a type's
// fields and lists only its methods: the web's API page lists them all. Each qualified name is
// one entry, its overloads with it; the symbols marked @internal come after the others, at each
// level, so that a list starts with the API the package means its users to call.
func GroupAPI(syms []docidx.Symbol) []APIGroup {
	var byPkg firstSeen[APIGroup]
	group := func(p string) *APIGroup { return byPkg.get(p, func() APIGroup { return APIGroup{Package: p} }) }
	entry := func(s *docidx.Symbol) APIEntry {
		return APIEntry{Symbol: s, Internal: Internal(s)}
	}
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
	groups := byPkg.groups
	for i := range groups {
		groups[i].Symbols = arrange(groups[i].Symbols)
	}
	return groups
}

// firstSeen holds groups by key in the order their keys were first met: the declaring packages
// of a package version's symbols, for GroupAPI and Describe's outline.
type firstSeen[G any] struct {
	groups []G
	index  map[string]int
}

// get returns the group of key, made by make when key is new. The pointer is valid until the
// next get.
func (f *firstSeen[G]) get(key string, make func() G) *G {
	i, ok := f.index[key]
	if !ok {
		if f.index == nil {
			f.index = map[string]int{}
		}
		i = len(f.groups)
		f.index[key] = i
		f.groups = append(f.groups, make())
	}
	return &f.groups[i]
}

// Synopsis returns the first sentence of the entry's doc, or of the first overload's that has
// one (FirstSentence). It is computed when asked for: an outline page renders a few hundred of
// a large module's thousands of entries.
func (e *APIEntry) Synopsis() string {
	if s := FirstSentence(e.Symbol.Doc); s != "" {
		return s
	}
	for _, o := range e.Overloads {
		if s := FirstSentence(o.Doc); s != "" {
			return s
		}
	}
	return ""
}

// arrange folds the overloads of es into the entry of their first declaration, puts the
// internal entries after the others, keeping declaration order within each, and does the same
// to the members of each.
func arrange(es []APIEntry) []APIEntry {
	first := make(map[string]int, len(es)) // qualified name → index in out
	out := es[:0]
	internal := 0
	for _, e := range es {
		if i, ok := first[e.Symbol.QualifiedName]; ok {
			o := &out[i]
			o.Overloads = append(o.Overloads, e.Symbol)
			o.Members = append(o.Members, e.Members...)
			continue
		}
		first[e.Symbol.QualifiedName] = len(out)
		if e.Internal {
			internal++
		}
		out = append(out, e)
	}
	for i := range out {
		if len(out[i].Members) > 0 {
			out[i].Members = arrange(out[i].Members)
		}
	}
	if internal > 0 && internal < len(out) {
		slices.SortStableFunc(out, func(a, b APIEntry) int { return falseFirst(a.Internal, b.Internal) })
	}
	return out
}

// falseFirst compares two flags for a stable sort that moves the entries a flag marks after the
// others: false before true, equal flags equal.
func falseFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}
