package answer

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/docidx/docidx"
)

// APIDiff is the difference between the APIs of two versions of a package, symbols matched by
// qualified name (package clauses left out): what the upgrade_package prompt embeds.
type APIDiff struct {
	From, To *docidx.Package
	Added    []*docidx.Symbol // in To only, by qualified name
	Removed  []*docidx.Symbol // in From only, by qualified name
	Changed  []SymbolChange   // in both, with another signature, kind or deprecation
}

// SymbolChange is one symbol whose signature, kind or deprecation differs between two
// versions.
type SymbolChange struct{ Old, New *docidx.Symbol }

// Diff compares the APIs of versions from and to of package name; to "" or "latest" means the
// latest indexed version. An unknown package or version is an error wrapping docidx.ErrNotFound
// whose message says what is indexed instead (as Describe's).
func (s *Service) Diff(eco docidx.Ecosystem, name, from, to string) (*APIDiff, error) {
	if to == "latest" {
		to = ""
	}
	a, _, err := s.resolvePackage(eco, name, from)
	if err != nil {
		return nil, err
	}
	b, _, err := s.resolvePackage(eco, a.Name, to)
	if err != nil {
		return nil, err
	}
	r := s.reader()
	sa, err := r.Symbols(a.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, internalError("read symbols", err)
	}
	sb, err := r.Symbols(b.Ref())
	if err != nil && !errors.Is(err, docidx.ErrNotFound) {
		return nil, internalError("read symbols", err)
	}
	d := diffAPI(sa, sb)
	d.From, d.To = a, b
	return d, nil
}

// diffAPI compares the symbols of two versions (package clauses excluded), each list in
// qualified-name order. From and To are left for the caller.
func diffAPI(from, to []docidx.Symbol) *APIDiff {
	index := func(syms []docidx.Symbol) map[string]*docidx.Symbol {
		m := make(map[string]*docidx.Symbol, len(syms))
		for i := range syms {
			if syms[i].Kind != docidx.KindPackage {
				m[syms[i].QualifiedName] = &syms[i]
			}
		}
		return m
	}
	a, b := index(from), index(to)
	d := new(APIDiff)
	for name, old := range a {
		switch nu, ok := b[name]; {
		case !ok:
			d.Removed = append(d.Removed, old)
		case strings.TrimSpace(old.Signature) != strings.TrimSpace(nu.Signature) || old.Deprecated != nu.Deprecated || old.Kind != nu.Kind:
			d.Changed = append(d.Changed, SymbolChange{old, nu})
		}
	}
	for name, nu := range b {
		if _, ok := a[name]; !ok {
			d.Added = append(d.Added, nu)
		}
	}
	byName := func(l []*docidx.Symbol) {
		sort.Slice(l, func(i, j int) bool { return l[i].QualifiedName < l[j].QualifiedName })
	}
	byName(d.Added)
	byName(d.Removed)
	sort.Slice(d.Changed, func(i, j int) bool { return d.Changed[i].New.QualifiedName < d.Changed[j].New.QualifiedName })
	return d
}

// Markdown renders the API difference as markdown: what the upgrade_package prompt embeds.
func (d *APIDiff) Markdown() string {
	from, to := d.From, d.To
	lang := codeLang(from.Ecosystem)
	var b strings.Builder
	fmt.Fprintf(&b, "## API changes in %s from %s to %s\n\n", from.Name, from.Version, to.Version)
	if len(d.Added)+len(d.Removed)+len(d.Changed) == 0 {
		b.WriteString("No API differences: the same symbols with the same signatures.\n")
		return b.String()
	}
	if len(d.Removed) > 0 {
		fmt.Fprintf(&b, "### Removed (%d)\n\n", len(d.Removed))
		for _, s := range d.Removed {
			fmt.Fprintf(&b, "- %s %s\n", s.Kind, inlineCode(CompactSignature(orName(s))))
		}
		b.WriteByte('\n')
	}
	if len(d.Changed) > 0 {
		fmt.Fprintf(&b, "### Changed (%d)\n\n", len(d.Changed))
		for _, c := range d.Changed {
			fmt.Fprintf(&b, "%s (%s)", c.New.QualifiedName, c.New.Kind)
			switch {
			case c.New.Deprecated && !c.Old.Deprecated:
				b.WriteString(" — now deprecated")
			case c.Old.Deprecated && !c.New.Deprecated:
				b.WriteString(" — no longer deprecated")
			}
			b.WriteString(":\n\n")
			if strings.TrimSpace(c.Old.Signature) != strings.TrimSpace(c.New.Signature) {
				b.WriteString(fence(lang, "// "+from.Version+"\n"+strings.TrimSpace(orName(c.Old))+"\n// "+to.Version+"\n"+strings.TrimSpace(orName(c.New))))
				b.WriteByte('\n')
			}
		}
	}
	if len(d.Added) > 0 {
		fmt.Fprintf(&b, "### Added (%d)\n\n", len(d.Added))
		for _, s := range d.Added {
			fmt.Fprintf(&b, "- %s %s", s.Kind, inlineCode(CompactSignature(orName(s))))
			if syn := FirstSentence(s.Doc); syn != "" {
				fmt.Fprintf(&b, " — %s", syn)
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// orName is a symbol's signature, or its qualified name when it has none.
func orName(s *docidx.Symbol) string {
	if strings.TrimSpace(s.Signature) == "" {
		return s.QualifiedName
	}
	return s.Signature
}
