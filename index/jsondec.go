package index

// jsondec.go decodes the stored documents and symbols of a package version without
// reflection. Every segment build decodes every version's values again (they are staged, and
// kept in docs.dat, as the JSON putJSON writes), and encoding/json's decoder was a twentieth of
// a crawl's CPU. The decoders here take the JSON json.Marshal writes of []docidx.Document and
// []docidx.Symbol and give what json.Unmarshal gives; anything else they do not read the same
// way (an unknown or repeated key, a null where a value is, an escape they do not decode, a
// number that is not an integer) makes them give up, and decodeValue falls back to
// json.Unmarshal, so what a value decodes to never depends on which decoder read it.

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// jsonReader reads JSON values from b, starting at i. Its methods report false where the input
// is not what they read, and the decode gives up.
type jsonReader struct {
	b []byte
	i int
}

// fastDocuments returns data decoded as json.Unmarshal decodes it into a []docidx.Document,
// and whether it could read it (see jsondec.go).
func fastDocuments(data []byte) ([]docidx.Document, bool) {
	r := jsonReader{b: data}
	var docs []docidx.Document
	ok := objects(&r, &docs, func(d *docidx.Document, key []byte) bool {
		switch string(key) {
		case "path":
			return r.str(&d.Path)
		case "kind":
			return r.str((*string)(&d.Kind))
		case "title":
			return r.str(&d.Title)
		case "summary":
			return r.str(&d.Summary)
		case "sections":
			return objects(&r, &d.Sections, r.section)
		}
		return false
	})
	return docs, ok && r.end()
}

// fastSymbols returns data decoded as json.Unmarshal decodes it into a []docidx.Symbol, and
// whether it could read it (see jsondec.go).
func fastSymbols(data []byte) ([]docidx.Symbol, bool) {
	r := jsonReader{b: data}
	var syms []docidx.Symbol
	ok := objects(&r, &syms, func(s *docidx.Symbol, key []byte) bool {
		switch string(key) {
		case "kind":
			return r.str((*string)(&s.Kind))
		case "name":
			return r.str(&s.Name)
		case "parent":
			return r.str(&s.Parent)
		case "package":
			return r.str(&s.Package)
		case "qualifiedName":
			return r.str(&s.QualifiedName)
		case "signature":
			return r.str(&s.Signature)
		case "doc":
			return r.str(&s.Doc)
		case "file":
			return r.str(&s.File)
		case "line":
			return r.integer(&s.Line)
		case "deprecated":
			return r.boolean(&s.Deprecated)
		case "examples":
			return objects(&r, &s.Examples, r.codeBlock)
		case "params":
			return objects(&r, &s.Params, r.param)
		case "values":
			return r.strings(&s.Values)
		case "errors":
			return r.strings(&s.Errors)
		}
		return false
	})
	return syms, ok && r.end()
}

// objects reads null (leaving *out nil) or an array of objects into *out, reading each key's
// value into the element with field.
func objects[T any](r *jsonReader, out *[]T, field func(elem *T, key []byte) bool) bool {
	return r.array(func() bool {
		// Read in place: an element of its own would escape to the heap through field.
		var zero T
		*out = append(*out, zero)
		elem := &(*out)[len(*out)-1]
		return r.object(func(key []byte) bool { return field(elem, key) })
	}, func() { *out = []T{} })
}

// section, codeBlock and param read the value of key into an element of their type.
func (r *jsonReader) section(s *docidx.Section, key []byte) bool {
	switch string(key) {
	case "heading":
		return r.strings(&s.Heading)
	case "anchor":
		return r.str(&s.Anchor)
	case "text":
		return r.str(&s.Text)
	case "plain":
		return r.str(&s.Plain)
	case "code":
		return objects(r, &s.Code, r.codeBlock)
	}
	return false
}

func (r *jsonReader) codeBlock(c *docidx.CodeBlock, key []byte) bool {
	switch string(key) {
	case "lang":
		return r.str(&c.Lang)
	case "name":
		return r.str(&c.Name)
	case "code":
		return r.str(&c.Code)
	case "output":
		return r.str(&c.Output)
	case "at":
		return r.integer(&c.At)
	}
	return false
}

func (r *jsonReader) param(p *docidx.Param, key []byte) bool {
	switch string(key) {
	case "name":
		return r.str(&p.Name)
	case "type":
		return r.str(&p.Type)
	case "default":
		return r.str(&p.Default)
	case "doc":
		return r.str(&p.Doc)
	}
	return false
}

// strings reads null (leaving *out nil) or an array of strings into *out.
func (r *jsonReader) strings(out *[]string) bool {
	return r.array(func() bool {
		var s string
		if !r.str(&s) {
			return false
		}
		*out = append(*out, s)
		return true
	}, func() { *out = []string{} })
}

// space skips JSON white space.
func (r *jsonReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// end reports whether nothing but white space is left.
func (r *jsonReader) end() bool {
	r.space()
	return r.i == len(r.b)
}

// literal reads word (null, true or false) if it comes next.
func (r *jsonReader) literal(word string) bool {
	r.space()
	if len(r.b)-r.i >= len(word) && string(r.b[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// array reads null (leaving the slice nil) or an array, calling elem for each element and
// empty for "[]" (json.Unmarshal makes an empty slice of it, not a nil one).
func (r *jsonReader) array(elem func() bool, empty func()) bool {
	if r.literal("null") {
		return true
	}
	if r.i >= len(r.b) || r.b[r.i] != '[' {
		return false
	}
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == ']' {
		r.i++
		empty()
		return true
	}
	for {
		if !elem() {
			return false
		}
		r.space()
		if r.i >= len(r.b) {
			return false
		}
		switch r.b[r.i] {
		case ',':
			r.i++
		case ']':
			r.i++
			return true
		default:
			return false
		}
	}
}

// object reads an object, calling field with each key to read its value; a key twice, or one
// with an escape (json.Marshal writes none in the stored types' keys), gives up.
func (r *jsonReader) object(field func(key []byte) bool) bool {
	r.space()
	if r.i >= len(r.b) || r.b[r.i] != '{' {
		return false
	}
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == '}' {
		r.i++
		return true
	}
	var seenBuf [16][]byte
	seen := seenBuf[:0]
	for {
		key, ok := r.key()
		if !ok {
			return false
		}
		for _, k := range seen {
			if string(k) == string(key) {
				return false
			}
		}
		seen = append(seen, key)
		r.space()
		if r.i >= len(r.b) || r.b[r.i] != ':' {
			return false
		}
		r.i++
		if !field(key) {
			return false
		}
		r.space()
		if r.i >= len(r.b) {
			return false
		}
		switch r.b[r.i] {
		case ',':
			r.i++
			r.space()
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// plainRun reads the opening quote of a string and the run of its bytes that need no decoding
// (no quote, backslash or control character), and returns where that run starts and ends in r.b.
func (r *jsonReader) plainRun() (start, end int, ok bool) {
	r.space()
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return 0, 0, false
	}
	start = r.i + 1
	end = start
	for end < len(r.b) && r.b[end] != '"' && r.b[end] != '\\' && r.b[end] >= 0x20 {
		end++
	}
	return start, end, true
}

// key reads a string without escapes and returns its bytes, a view of r.b.
func (r *jsonReader) key() ([]byte, bool) {
	start, end, ok := r.plainRun()
	if !ok || end >= len(r.b) || r.b[end] != '"' {
		return nil, false
	}
	r.i = end + 1
	return r.b[start:end], true
}

// str reads a string: valid UTF-8 with the escapes JSON defines (a \u escape of a lone
// surrogate, which json.Unmarshal turns into U+FFFD, gives up).
func (r *jsonReader) str(out *string) bool {
	start, i, ok := r.plainRun()
	if !ok {
		return false
	}
	if i < len(r.b) && r.b[i] == '"' {
		s := r.b[start:i]
		if !utf8.Valid(s) {
			return false
		}
		*out = string(s)
		r.i = i + 1
		return true
	}
	buf := append([]byte(nil), r.b[start:i]...)
	for i < len(r.b) {
		c := r.b[i]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return false
			}
			*out = string(buf)
			r.i = i + 1
			return true
		case c < 0x20:
			return false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(r.b) {
			return false
		}
		switch e := r.b[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			ru, ok := hex4(r.b[i+2:])
			if !ok {
				return false
			}
			i += 6
			if utf16.IsSurrogate(ru) {
				lo, ok := rune(0), false
				if i+1 < len(r.b) && r.b[i] == '\\' && r.b[i+1] == 'u' {
					lo, ok = hex4(r.b[i+2:])
				}
				if ru = utf16.DecodeRune(ru, lo); !ok || ru == utf8.RuneError {
					return false
				}
				i += 6
			}
			buf = utf8.AppendRune(buf, ru)
			continue
		default:
			return false
		}
		i += 2
	}
	return false
}

// hex4 returns the rune of the four hex digits b starts with.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n), err == nil
}

// integer reads a number that is an integer, as json.Unmarshal reads one into an int.
func (r *jsonReader) integer(out *int) bool {
	r.space()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.b) && '0' <= r.b[r.i] && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i-digits > 1 && r.b[digits] == '0' {
		return false // a leading zero is not JSON
	}
	n, err := strconv.Atoi(string(r.b[start:r.i]))
	if err != nil || r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		return false
	}
	*out = n
	return true
}

// boolean reads true or false.
func (r *jsonReader) boolean(out *bool) bool {
	switch {
	case r.literal("true"):
		*out = true
	case r.literal("false"):
		*out = false
	default:
		return false
	}
	return true
}
