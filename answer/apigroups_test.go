package answer

import (
	"testing"

	"github.com/docidx/docidx"
)

func TestGroupAPI(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "retry", Package: "m/retry", QualifiedName: "retry", Doc: "Package retry retries. More."},
		{Kind: docidx.KindStruct, Name: "Policy", Package: "m/retry", QualifiedName: "retry.Policy", Doc: "Policy says how. And why."},
		{Kind: docidx.KindField, Name: "Attempts", Parent: "Policy", Package: "m/retry", QualifiedName: "retry.Policy.Attempts"},
		{Kind: docidx.KindFunc, Name: "Do", Package: "m/retry", QualifiedName: "retry.Do"},
		{Kind: docidx.KindMethod, Name: "Wait", Parent: "Gone", Package: "m/retry", QualifiedName: "retry.Gone.Wait"},
		{Kind: docidx.KindFunc, Name: "New", Package: "m", QualifiedName: "m.New"},
	}
	groups := GroupAPI(syms)
	if len(groups) != 2 || groups[0].Package != "m/retry" || groups[1].Package != "m" {
		t.Fatalf("groups %+v", groups)
	}
	g := groups[0]
	if g.Doc != &syms[0] {
		t.Errorf("doc %v", g.Doc)
	}
	var names []string
	for _, e := range g.Symbols {
		names = append(names, e.Symbol.QualifiedName)
	}
	if got := len(names); got != 3 || names[0] != "retry.Policy" || names[1] != "retry.Do" || names[2] != "retry.Gone.Wait" {
		t.Errorf("symbols %q, want Policy, Do, then the member of a type not indexed", names)
	}
	if p := g.Symbols[0]; len(p.Members) != 1 || p.Members[0].Symbol.Name != "Attempts" || p.Synopsis != "Policy says how." {
		t.Errorf("Policy: synopsis %q, members %+v", p.Synopsis, p.Members)
	}
}
