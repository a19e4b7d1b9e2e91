package answer

import (
	"fmt"
	"slices"
	"strings"
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
	if p := g.Symbols[0]; len(p.Members) != 1 || p.Members[0].Symbol.Name != "Attempts" || p.Synopsis() != "Policy says how." {
		t.Errorf("Policy: synopsis %q, members %+v", p.Synopsis(), p.Members)
	}
}

// TestGroupAPIArranged: zod's list started with _ZodString, marked @internal, and express's
// listed Application.listen once per overload (issue 29).
func TestGroupAPIArranged(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindInterface, Name: "_ZodString", Package: "zod", QualifiedName: "zod._ZodString", Doc: "@internal"},
		{Kind: docidx.KindInterface, Name: "ZodString", Package: "zod", QualifiedName: "zod.ZodString", Doc: "A string schema."},
		{Kind: docidx.KindMethod, Name: "listen", Parent: "ZodString", Package: "zod", QualifiedName: "zod.ZodString.listen", Signature: "listen(port: number): Server"},
		{Kind: docidx.KindMethod, Name: "_parse", Parent: "ZodString", Package: "zod", QualifiedName: "zod.ZodString._parse", Doc: "@internal\nParses."},
		{Kind: docidx.KindMethod, Name: "listen", Parent: "ZodString", Package: "zod", QualifiedName: "zod.ZodString.listen", Signature: "listen(path: string): Server", Doc: "Listen on a path."},
		{Kind: docidx.KindMethod, Name: "max", Parent: "ZodString", Package: "zod", QualifiedName: "zod.ZodString.max"},
		{Kind: docidx.KindFunc, Name: "string", Package: "zod", QualifiedName: "zod.string"},
	}
	g := GroupAPI(syms)[0]
	var got []string
	var walk func(string, []APIEntry)
	walk = func(indent string, es []APIEntry) {
		for _, e := range es {
			s := indent + e.Symbol.QualifiedName
			if e.Internal {
				s += " internal"
			}
			if len(e.Overloads) > 0 {
				s += fmt.Sprintf(" +%d overloads", len(e.Overloads))
			}
			if e.Synopsis() != "" {
				s += " — " + e.Synopsis()
			}
			got = append(got, s)
			walk(indent+"  ", e.Members)
		}
	}
	walk("", g.Symbols)
	want := []string{
		"zod.ZodString — A string schema.",
		"  zod.ZodString.listen +1 overloads — Listen on a path.",
		"  zod.ZodString.max",
		"  zod.ZodString._parse internal — Parses.",
		"zod.string",
		"zod._ZodString internal",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
