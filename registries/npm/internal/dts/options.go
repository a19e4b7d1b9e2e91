package dts

import (
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// options.go documents a function by the options object it takes. content-disposition declares
// `create(filename?: string, options?: CreateOptions)` and documents what create does with a
// name that is not ASCII on CreateOptions.fallback, a member of a type only create takes: an
// editor's hover on create shows neither. Such a function gets the documented members of its
// options type as parameters ("options.fallback"), as JSDoc's `@param options.fallback` would
// document them. A type that several functions take (axios's AxiosRequestConfig) stays a page of
// its own: copied into each of them, its members would crowd out every other answer.

// maxOptionParams bounds the parameters one function takes from its options types.
const maxOptionParams = 32

// optionParams adds to the functions and methods of syms the documented fields of the interface
// or type declared in syms that is the type of one of their parameters, when no other function
// or method of syms takes that type: each as a Param named "<parameter>.<field>" with the
// field's type, its @default tag as Default and its doc without tags as Doc, after the
// function's own Params and unless they name it already, at most maxOptionParams in all. The
// type may be written optional, Partial<T> or Readonly<T>, or in a union with undefined or
// null. Only the fields the type declares count: Extract calls optionParams before it adds
// inherited members, which a base type shared by many functions documents.
func optionParams(syms []docidx.Symbol) {
	types := map[string]bool{} // the qualified names of the interfaces and types
	for _, s := range syms {
		if s.Kind == docidx.KindInterface || s.Kind == docidx.KindType {
			types[s.QualifiedName] = true
		}
	}
	if len(types) == 0 {
		return
	}
	users := map[string]int{} // type -> functions and methods taking it
	for _, s := range syms {
		if takesOptions(s.Kind) {
			for _, p := range signatureParamList(s.Signature) {
				if t := optionsType(p.typ); types[t] {
					users[t]++
				}
			}
		}
	}
	fields := map[string][]int{} // a type taken once -> the indexes of its documented fields
	for i, s := range syms {
		if s.Kind == docidx.KindField && users[s.Parent] == 1 && s.Doc != "" {
			fields[s.Parent] = append(fields[s.Parent], i)
		}
	}
	if len(fields) == 0 {
		return
	}
	for i := range syms {
		s := &syms[i]
		if !takesOptions(s.Kind) {
			continue
		}
		s.Params = slices.Clip(s.Params) // an overload may share its Params
	params:
		for _, p := range signatureParamList(s.Signature) {
			for _, j := range fields[optionsType(p.typ)] {
				if len(s.Params) >= maxOptionParams {
					break params
				}
				f := syms[j]
				name := p.name + "." + f.Name
				if hasParam(s.Params, name) {
					continue
				}
				doc, def := withoutTags(f.Doc)
				if doc == "" && def == "" {
					continue
				}
				_, typ, _ := strings.Cut(f.Signature, ":")
				s.Params = append(s.Params, docidx.Param{Name: name, Type: strings.TrimSpace(typ), Default: def, Doc: doc})
			}
		}
	}
}

func takesOptions(k docidx.SymbolKind) bool { return k == docidx.KindFunc || k == docidx.KindMethod }

// optionsType returns the name of the type typ names, as written in a parameter, when it is one
// name: "CreateOptions" of "CreateOptions | undefined" or "Partial<CreateOptions>"; "" for
// any other type.
func optionsType(typ string) string {
	var names []string
	for _, alt := range strings.Split(typ, "|") {
		if alt = strings.TrimSpace(alt); alt != "undefined" && alt != "null" {
			names = append(names, alt)
		}
	}
	if len(names) != 1 {
		return ""
	}
	t := names[0]
	for _, wrap := range []string{"Partial<", "Readonly<"} {
		if inner, ok := strings.CutPrefix(t, wrap); ok && strings.HasSuffix(inner, ">") {
			t = strings.TrimSpace(inner[:len(inner)-1])
		}
	}
	for i, r := range t {
		if !(r == '_' || r == '$' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return ""
		}
	}
	return t
}

func hasParam(ps []docidx.Param, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// withoutTags returns a JSDoc doc without its tag lines (the lines from the first that starts
// with "@") and the value of its @default tag.
func withoutTags(doc string) (text, def string) {
	lines := strings.Split(doc, "\n")
	end := len(lines)
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "@") {
			continue
		}
		end = min(end, i)
		if v, ok := strings.CutPrefix(t, "@default"); ok && (v == "" || v[0] == ' ') {
			def = strings.TrimSpace(v)
		}
	}
	return strings.Join(strings.Fields(strings.Join(lines[:end], " ")), " "), def
}
