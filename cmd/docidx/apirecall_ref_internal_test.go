package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refSummary writes items one a line: path, kind, "doc" when documented, and tags.
func refSummary(items []refItem) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(strings.Join(it.Paths, ","))
		b.WriteString(" " + it.Kind)
		if it.Doc {
			b.WriteString(" doc")
		}
		for _, t := range it.Tags {
			b.WriteString(" #" + t)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestParseGoDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "apirecall", "godoc.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := refSummary(parseGoDoc(string(data)))
	want := `A const doc
B const
Max const doc
ErrX var doc
DefaultConfig var doc
New func doc
Undocumented func
Iface type doc
Iface.Do field doc #member
T type
T.Name field doc #member
T.X field #member
T.Y field #member
T.Get method doc
T.Set method
Cache type
Cache.Add method
`
	if got != want {
		t.Errorf("parseGoDoc:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseRustdoc(t *testing.T) {
	all, err := os.ReadFile(filepath.Join("testdata", "apirecall", "all.html"))
	if err != nil {
		t.Fatal(err)
	}
	entries := parseRustdocAll(all)
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Kind+" "+e.Path)
	}
	for _, want := range []string{"struct Hash", "enum hazmat::Mode", "func hash", "constant OUT_LEN"} {
		if !slices.Contains(paths, want) {
			t.Errorf("parseRustdocAll: no %q in %q", want, paths)
		}
	}
	page, err := os.ReadFile(filepath.Join("testdata", "apirecall", "struct.Hash.html"))
	if err != nil {
		t.Fatal(err)
	}
	it := parseRustdocItem(page, "blake3")
	if !it.Doc || it.Reexport || !it.Feature {
		t.Errorf("parseRustdocItem: doc %v, reexport %v, feature %v; want true, false, true", it.Doc, it.Reexport, it.Feature)
	}
	if it := parseRustdocItem(page, "other"); !it.Reexport {
		t.Error("parseRustdocItem: the source of another crate is no re-export")
	}
	var members []string
	for _, m := range it.Members {
		s := m.Name
		if m.Doc {
			s += " doc"
		}
		if m.TraitImpl {
			s += " trait"
		}
		members = append(members, s)
	}
	want := []string{"len doc", "as_bytes doc", "undocumented", "fmt doc trait"}
	if !slices.Equal(members, want) {
		t.Errorf("parseRustdocItem members = %q, want %q", members, want)
	}
}
