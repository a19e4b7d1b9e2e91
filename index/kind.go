package index

// kind.go reads the kind filter of a query.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// Kinds are the values Query.Kind accepts, in the order an error lists them: the two hit kinds,
// the document kinds of sections, and the symbol kinds (docidx.SymbolKind). Plural spellings
// ("sections", "funcs", "classes", "properties"), long names ("function", "constant", "module";
// see NormalizeKind) and any letter case are accepted as well.
var Kinds = []string{
	string(docidx.HitSection), string(docidx.HitSymbol),
	"overview", string(docidx.DocReadme), string(docidx.DocGuide), string(docidx.DocExample),
	string(docidx.KindPackage), string(docidx.KindFunc), string(docidx.KindMethod), string(docidx.KindType),
	string(docidx.KindConst), string(docidx.KindVar), string(docidx.KindClass), string(docidx.KindInterface),
	string(docidx.KindStruct), string(docidx.KindEnum), string(docidx.KindTrait), string(docidx.KindMacro),
	string(docidx.KindProtocol), string(docidx.KindProperty), string(docidx.KindField),
}

// kindAliases are the names people and languages give kinds ("function", "constant", "module",
// Python's "attribute"), each with the value of Kinds it means, in the order an error lists them.
// Their plurals are accepted too.
var kindAliases = [][2]string{
	{"function", string(docidx.KindFunc)}, {"fn", string(docidx.KindFunc)},
	{"constant", string(docidx.KindConst)}, {"variable", string(docidx.KindVar)},
	{"module", string(docidx.KindPackage)}, {"pkg", string(docidx.KindPackage)},
	{"structure", string(docidx.KindStruct)}, {"enumeration", string(docidx.KindEnum)},
	{"attribute", string(docidx.KindField)}, {"attr", string(docidx.KindField)},
	{"prop", string(docidx.KindProperty)}, {"guide", string(docidx.DocGuide)},
}

// ErrUnknownKind is returned by Search and NormalizeKind for a kind that names no hit, document
// or symbol kind; its message lists the valid values.
var ErrUnknownKind = errors.New("index: unknown kind")

// NormalizeKind returns the kind filter k as the index holds it, a value of Kinds ("" for
// none): any letter case, a plural ("functions", "properties") and a long name ("function" is
// "func", "constant" const, "variable" var, "module" package, "attribute" field; kindAliases
// lists them) are accepted. It is the one reading of a kind: Search calls it, so the
// CLI's --kind, the search tool's kind argument and the browser's filter read kinds alike. An
// unknown kind is an error wrapping ErrUnknownKind that lists the accepted values.
func NormalizeKind(k string) (string, error) {
	k = strings.ToLower(strings.TrimSpace(k))
	if k == "" {
		return "", nil
	}
	if kind, ok := knownKind(k); ok {
		return kind, nil
	}
	for _, suf := range []string{"ies", "es", "s"} {
		stem, ok := strings.CutSuffix(k, suf)
		if !ok {
			continue
		}
		if suf == "ies" {
			stem += "y" // properties
		}
		if kind, ok := knownKind(stem); ok {
			return kind, nil
		}
	}
	aliases := make([]string, len(kindAliases))
	for i, a := range kindAliases {
		aliases[i] = a[0]
	}
	return "", fmt.Errorf("%w %q: use one of %s (or their plurals, or %s)", ErrUnknownKind, k,
		strings.Join(Kinds, ", "), strings.Join(aliases, ", "))
}

// knownKind returns the value of Kinds that k, lowercase and singular, names.
func knownKind(k string) (string, bool) {
	if slices.Contains(Kinds, k) {
		return k, true
	}
	for _, a := range kindAliases {
		if a[0] == k {
			return a[1], true
		}
	}
	return "", false
}
