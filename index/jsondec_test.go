package index

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// TestFastDecodersEveryField checks that the decoders read every field json.Marshal writes of
// the stored types: a field added to docidx.Symbol or docidx.Document without a case in
// jsondec.go fails here (the fast path would give up on every value that has it).
func TestFastDecodersEveryField(t *testing.T) {
	var doc docidx.Document
	fill(reflect.ValueOf(&doc).Elem())
	var sym docidx.Symbol
	fill(reflect.ValueOf(&sym).Elem())
	checkDecoders(t, []docidx.Document{doc}, []docidx.Symbol{sym}, true)
}

// fill sets every field of v, recursively, to a value json.Marshal writes (nothing omitted).
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x\"y\\z<é>\n")
	case reflect.Int:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	default:
		panic("fill: add a case for " + v.Kind().String())
	}
}

// TestFastDecodersRandom checks the decoders against json.Unmarshal on random documents and
// symbols: nil and empty slices, every escape json.Marshal writes, invalid UTF-8 (which it
// writes as U+FFFD), characters outside the Basic Multilingual Plane.
func TestFastDecodersRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"", "a", "Go", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x7f", "<", ">", "&", "é", "\u2028", "😀", "\xff", "\xe2\x82", "{", "}", "[", ",", ":"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	strs := func() []string {
		switch rng.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{str(), str()}
	}
	code := func() []docidx.CodeBlock {
		if rng.IntN(3) == 0 {
			return nil
		}
		return []docidx.CodeBlock{{Lang: str(), Name: str(), Code: str(), Output: str(), At: rng.IntN(3) - 1}}
	}
	for round := range 2000 {
		var docs []docidx.Document
		var syms []docidx.Symbol
		for range rng.IntN(4) {
			d := docidx.Document{Path: str(), Kind: docidx.DocKind(str()), Title: str(), Summary: str()}
			if rng.IntN(4) > 0 {
				d.Sections = []docidx.Section{}
				for range rng.IntN(3) {
					d.Sections = append(d.Sections, docidx.Section{Heading: strs(), Anchor: str(), Text: str(), Plain: str(), Code: code()})
				}
			}
			docs = append(docs, d)
		}
		if round%7 == 0 {
			docs = []docidx.Document{}
		}
		for range rng.IntN(4) {
			s := docidx.Symbol{Kind: docidx.SymbolKind(str()), Name: str(), Parent: str(), Package: str(),
				QualifiedName: str(), Signature: str(), Doc: str(), File: str(), Line: rng.IntN(2000) - 1,
				Deprecated: rng.IntN(2) == 0, Examples: code(), Values: strs(), Errors: strs()}
			if rng.IntN(2) == 0 {
				s.Params = []docidx.Param{{Name: str(), Type: str(), Default: str(), Doc: str()}}
			}
			syms = append(syms, s)
		}
		checkDecoders(t, docs, syms, true)
	}
}

// checkDecoders fails t unless the fast decoders read docs and syms, as json.Marshal writes
// them, to what json.Unmarshal reads (and, when must, read them at all).
func checkDecoders(t *testing.T, docs []docidx.Document, syms []docidx.Symbol, must bool) {
	t.Helper()
	for _, c := range []struct {
		v    any
		fast func([]byte) (any, bool)
		want func([]byte) (any, error)
	}{
		{docs, func(b []byte) (any, bool) { return fastDocuments(b) },
			func(b []byte) (any, error) { var v []docidx.Document; err := json.Unmarshal(b, &v); return v, err }},
		{syms, func(b []byte) (any, bool) { return fastSymbols(b) },
			func(b []byte) (any, error) { var v []docidx.Symbol; err := json.Unmarshal(b, &v); return v, err }},
	} {
		data, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		checkDecoder(t, data, c.fast, c.want, must)
	}
}

// checkDecoder fails t when fast reads data (or must and it does not) to other than want.
func checkDecoder(t *testing.T, data []byte, fast func([]byte) (any, bool), want func([]byte) (any, error), must bool) {
	t.Helper()
	got, ok := fast(data)
	if !ok {
		if must {
			t.Fatalf("the fast decoder gave up on %s", data)
		}
		return
	}
	w, err := want(data)
	if err != nil {
		t.Fatalf("the fast decoder read %s, which json.Unmarshal refuses: %v", data, err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Fatalf("%s: fast decoder\n%#v\njson.Unmarshal\n%#v", data, got, w)
	}
}

// TestFastDecodersGiveUp checks JSON the decoders must not read otherwise than json.Unmarshal:
// they read it the same, or give up.
func TestFastDecodersGiveUp(t *testing.T) {
	fast := func(b []byte) (any, bool) { return fastSymbols(b) }
	want := func(b []byte) (any, error) { var v []docidx.Symbol; err := json.Unmarshal(b, &v); return v, err }
	for _, data := range []string{
		`null`, `[]`, ` [ ] `, `[{}]`, `[null]`, `[{"name":null}]`, `[{"name":"a","name":"b"}]`,
		`[{"Name":"a"}]`, `[{"unknown":1}]`, `[{"line":01}]`, `[{"line":1.0}]`, `[{"line":1e3}]`,
		`[{"line":-0}]`, `[{"line":99999999999999999999}]`, `[{"deprecated":"true"}]`,
		`[{"name":"\ud83d\ude00"}]`, `[{"name":"\ud83d"}]`, `[{"name":"\ude00\ud83d"}]`,
		`[{"name":"\u00e9\n\/"}]`, `[{"name":"\x"}]`, "[{\"name\":\"a\tb\"}]", "[{\"name\":\"\xff\"}]",
		`[{"name":"a"}] x`, `[{"name":"a"},]`, `[{"name":"a",}]`, `[{"values":[]}]`, `[{"values":null}]`,
		`[{"examples":[{"at":2,"code":""}]}]`, `[{"params":[{"name":"x","default":"1"}]}]`, `[{"name":"a"`,
	} {
		checkDecoder(t, []byte(data), fast, want, false)
	}
}
