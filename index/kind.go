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
// ("sections", "funcs", "classes", "properties") and any letter case are accepted as well.
var Kinds = []string{
	string(docidx.HitSection), string(docidx.HitSymbol),
	"overview", string(docidx.DocReadme), string(docidx.DocGuide), string(docidx.DocExample),
	string(docidx.KindPackage), string(docidx.KindFunc), string(docidx.KindMethod), string(docidx.KindType),
	string(docidx.KindConst), string(docidx.KindVar), string(docidx.KindClass), string(docidx.KindInterface),
	string(docidx.KindStruct), string(docidx.KindEnum), string(docidx.KindTrait), string(docidx.KindMacro),
	string(docidx.KindProtocol), string(docidx.KindProperty), string(docidx.KindField),
}

// ErrUnknownKind is returned by Search for a Query.Kind that names no hit, document or symbol
// kind; its message lists the valid values.
var ErrUnknownKind = errors.New("index: unknown kind")

// normalizeKind returns the kind filter k as the index holds it ("" for none): lowercased, and
// singular for a plural spelling of a value of Kinds. An unknown kind is an error wrapping
// ErrUnknownKind that lists the valid values.
func normalizeKind(k string) (string, error) {
	k = strings.ToLower(strings.TrimSpace(k))
	if k == "" || slices.Contains(Kinds, k) {
		return k, nil
	}
	for _, suf := range []string{"ies", "es", "s"} {
		stem, ok := strings.CutSuffix(k, suf)
		if !ok {
			continue
		}
		if suf == "ies" {
			stem += "y" // properties
		}
		if slices.Contains(Kinds, stem) {
			return stem, nil
		}
	}
	return "", fmt.Errorf("%w %q: use one of %s (or their plurals)", ErrUnknownKind, k, strings.Join(Kinds, ", "))
}
