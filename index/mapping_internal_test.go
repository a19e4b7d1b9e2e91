package index

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/docidx/docidx"
)

// TestStoredMapping checks that storedMapping writes the mapping newMapping made, as search.bleve
// stores it and readers open it, and maps a hit's stored fields to the fields the mapping's own
// MapDocument makes of them: the same names, values and options.
func TestStoredMapping(t *testing.T) {
	im, sm := testMappings(t)
	want, _ := util.MarshalJSON(im)
	if got, err := util.MarshalJSON(sm); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the stored mapping's JSON differs from the mapping's (%v):\n%s\n%s", err, got, want)
	}
	p := &docidx.Package{Ecosystem: docidx.Go, Name: "example.com/m", Version: "v1.0.0", Description: "maps"}
	syms := []docidx.Symbol{{Kind: docidx.KindFunc, Name: "Map", QualifiedName: "m.Map", Signature: "func Map()", Doc: "Map maps."}}
	docs := []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "m", Sections: []docidx.Section{{Heading: []string{"m", "Usage"}, Text: "Use it."}, {Heading: []string{"m", "Empty"}}}}}
	n := 0
	for d := range searchDocs(p, docs, syms) {
		n++
		fromMap := document.NewDocument(d.id)
		stored := map[string]any{}
		for _, name := range storedOnly {
			if v, ok := d.fields[name]; ok {
				stored[name] = v
			}
		}
		if err := im.MapDocument(fromMap, stored); err != nil {
			t.Fatal(err)
		}
		direct := document.NewDocument(d.id)
		if err := sm.MapDocument(direct, storedValuesOf(d.fields)); err != nil {
			t.Fatal(err)
		}
		if got, want := fieldList(direct), fieldList(fromMap); !slices.Equal(got, want) {
			t.Errorf("%s: fields\n%q\nwant\n%q", d.id, got, want)
		}
	}
	if n < 3 {
		t.Fatalf("%d search documents, want an overview, sections and a symbol", n)
	}
}

// testMappings returns the index mapping (newMapping) and its storedMapping.
func testMappings(t *testing.T) (mapping.IndexMapping, storedMapping) {
	t.Helper()
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := newStoredMapping(im)
	if err != nil {
		t.Fatal(err)
	}
	return im, sm
}

// fieldList returns doc's fields as "name options value", sorted.
func fieldList(doc *document.Document) []string {
	var out []string
	doc.VisitFields(func(f index.Field) {
		out = append(out, fmt.Sprintf("%s %v %q", f.Name(), f.Options(), f.Value()))
	})
	slices.Sort(out)
	return out
}

// TestSplitIdentOneWord checks splitIdent's shortcut for one word against identParts on
// random identifiers of letters of both cases, digits and separators.
func TestSplitIdentOneWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const chars = "aAbBzZ09_.-é"
	shortcuts := 0
	for range 50000 {
		var b []byte
		for range rng.IntN(7) {
			b = append(b, chars[rng.IntN(len(chars))])
		}
		got, want := splitIdent(b), identParts(b)
		if !slices.Equal(got, want) {
			t.Fatalf("splitIdent(%q) = %v, identParts %v", b, got, want)
		}
		if oneWord(b) {
			shortcuts++
		}
	}
	if shortcuts < 1000 {
		t.Fatalf("the shortcut was taken %d times: the identifiers do not test it", shortcuts)
	}
}

// TestOverviewRequires: the overview of a package version shows what it requires, after its
// description, without searching it (see searchDocs).
func TestOverviewRequires(t *testing.T) {
	p := &docidx.Package{Ecosystem: docidx.NPM, Name: "fastweb", Version: "5.0.0", Description: "Fast web framework",
		Requires: []docidx.Requirement{{Name: "node", Range: ">=18"}}}
	for d := range searchDocs(p, nil, nil) {
		if want := "Fast web framework. Requires node >=18."; d.fields[fSText] != want {
			t.Errorf("overview text %q, want %q", d.fields[fSText], want)
		}
		for _, f := range []string{fAll, fSignature} {
			if text, _ := d.fields[f].(string); strings.Contains(text, "Requires") {
				t.Errorf("overview field %s %q holds the requirement: it would change the overview's score", f, text)
			}
		}
		break
	}
}

// TestOverviewCommands: the overview of a package version shows the commands it installs, and
// its mention field holds their names, by which search finds them.
func TestOverviewCommands(t *testing.T) {
	for _, c := range []struct {
		commands   []string
		text, ment string
	}{
		{[]string{"tsc"}, "A typed JavaScript. Installs the command tsc.", "commands tsc"},
		{[]string{"tsc", "tsserver"}, "A typed JavaScript. Installs the commands tsc, tsserver.", "commands tsc tsserver"},
	} {
		p := &docidx.Package{Ecosystem: docidx.NPM, Name: "typescript", Version: "5.0.0", Description: "A typed JavaScript", Commands: c.commands}
		for d := range searchDocs(p, nil, nil) {
			if d.fields[fSText] != c.text || d.fields[fMention] != c.ment {
				t.Errorf("overview text %q, mention %q; want %q, %q", d.fields[fSText], d.fields[fMention], c.text, c.ment)
			}
			break
		}
	}
}

// TestWithoutBlockComments: a declaration's block comments are left out of its signature field,
// its line comments and everything else kept.
func TestWithoutBlockComments(t *testing.T) {
	for sig, want := range map[string]string{
		"pub struct Limited<B> { /* private fields */ }":     "pub struct Limited<B> {  }",
		"pub struct S { pub a: u8, /* private fields */ }":   "pub struct S { pub a: u8,  }",
		"fn f(/* a */ x: u8, /* b */ y: u8)":                 "fn f( x: u8,  y: u8)",
		"type T struct {\n\tN int // the count of fields\n}": "type T struct {\n\tN int // the count of fields\n}",
		"func f() /* unclosed":                               "func f() ",
		"plain":                                              "plain",
	} {
		if got := withoutBlockComments(sig); got != want {
			t.Errorf("withoutBlockComments(%q) = %q, want %q", sig, got, want)
		}
	}
	// A Rust struct with private fields does not hold the word "fields" in its signature field.
	r := openRankFixture(t, fixturePackage(docidx.Cargo, "kit", "1.0.0",
		docidx.Symbol{Kind: docidx.KindStruct, Name: "Holder", QualifiedName: "kit::Holder", Signature: "pub struct Holder { /* private fields */ }", Doc: "A value holder."},
		docidx.Symbol{Kind: docidx.KindFunc, Name: "share", QualifiedName: "kit::share", Signature: "pub fn share()", Doc: "Shares one value between two fields of a struct."}))
	if got := rankedIDs(r, "do two fields share?"); len(got) == 0 || !strings.HasSuffix(got[0], "kit::share") || slices.ContainsFunc(got, func(id string) bool { return strings.HasSuffix(id, "kit::Holder") }) {
		t.Errorf("ranked %q: want kit::share first and no kit::Holder", got)
	}
}
