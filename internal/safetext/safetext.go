// Package safetext makes text from packages safe to show: it owns the one set of rules for which
// characters of package content may reach a terminal, a web page or an AI client as they are,
// and how the others are shown instead.
//
// Package content (READMEs, doc comments, symbol names, descriptions, versions) comes from
// registries docidx does not control. Written as it is, it can drive a terminal — ESC starts
// sequences that clear the screen, set the window title (OSC 0), write the clipboard (OSC 52),
// make links (OSC 8) or ask the terminal to answer (DSR); BEL, backspace and a lone carriage
// return rewrite what is shown; U+009B is CSI in a C1-aware terminal — and it can make text read
// other than it is: bidi overrides, embeddings and isolates reorder it (CVE-2021-42574,
// "Trojan Source"), zero-width characters and Unicode tag characters hide it.
//
// There are two classes:
//
//   - controls: C0 (U+0000–U+001F) but tab and newline, DEL (U+007F), C1 (U+0080–U+009F), and
//     bytes that are not UTF-8 (a lone 0x9B byte is CSI to an 8-bit terminal);
//   - invisibles: the bidi marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069), zero-width and invisible characters (U+200B–U+200D,
//     U+2060–U+2064, U+FEFF), the line and paragraph separators (U+2028, U+2029), and the tag
//     characters (U+E0000–U+E007F).
//
// A carriage return just before a newline is a CRLF line end, harmless, and is dropped.
//
// Text for people (Text, and JSON for the --json output people page through) has neither class;
// text for an AI client (Controls) has no controls and no tag characters, but keeps the other
// invisibles, which are printable Unicode to a program. Tag characters are the exception because
// they are deprecated, render as nothing, and spell out ASCII: text hidden in them reads as plain
// instructions to a language model that no person reviewing the page can see ("ASCII
// smuggling"), and no real documentation needs them. A character that is taken out is shown as its Go escape (the escapes of
// strconv.Quote, https://go.dev/ref/spec#Rune_literals): \x1b, \r, \u009b, \u202e, \U000e0041;
// a byte that is not UTF-8 as \xNN. Everything else is left as it is, so the text stays readable.
//
// safetext imports the standard library only, so every edge — the CLI, serve and web — can use it.
package safetext

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// control reports whether r is a C0 control other than tab and newline, DEL, or a C1 control.
func control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// invisible reports whether r is a bidi mark, embedding, override or isolate, a zero-width or
// invisible character, a line or paragraph separator, or a tag character.
func invisible(r rune) bool {
	switch {
	case r < 0x61c:
		return false
	case r == 0x61c, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e, r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x2069, r == 0xfeff, tag(r):
		return true
	}
	return false
}

// forPeople reports whether r may be shown to a person as it is.
func forPeople(r rune) bool { return !control(r) && !invisible(r) }

// forClients reports whether r may be sent to an AI client as it is.
func forClients(r rune) bool { return !control(r) && !tag(r) }

// tag reports whether r is a Unicode tag character (U+E0000–U+E007F).
func tag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

// IndexUnsafe returns the index in s of the first control or invisible character (see the
// package comment) or byte that is not UTF-8, or -1 when s may be shown to people as it is. A
// CR of a CRLF line end counts.
func IndexUnsafe(s string) int { return firstBad(s, forPeople) }

// IndexControl returns the index in s of the first control or tag character (see the package
// comment) or byte
// that is not UTF-8, or -1 when s may be sent to an AI client as it is. A CR of a CRLF line
// end counts.
func IndexControl(s string) int { return firstBad(s, forClients) }

// Text returns s with every control and invisible character (see the package comment) written
// as its escape, and CRLF line ends as LF: text a person can read on a terminal or a page,
// which no character of it can drive or reorder. Text returns s itself when nothing is to be
// escaped.
func Text(s string) string { return clean(s, IndexUnsafe(s), forPeople) }

// Controls returns s with every control and tag character (see the package comment) written as
// its escape, and CRLF line ends as LF; bidi and zero-width characters are kept. It is the rule
// for text sent to an AI client over MCP: no C0 or C1 control but tab and newline, and no text
// hidden in tag characters. Controls returns s
// itself when nothing is to be escaped.
func Controls(s string) string { return clean(s, IndexControl(s), forClients) }

// clean writes each rune of s from i on that ok refuses, and each byte that is not UTF-8, as
// its escape; s[:i] is left as it is.
func clean(s string, i int, ok func(rune) bool) string {
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xf])
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// a CRLF line end: the newline alone
		case ok(r):
			b.WriteString(s[i : i+n])
		default:
			b.WriteString(escape(r))
		}
		i += n
	}
	return b.String()
}

// firstBad is the index of the first rune of s that ok refuses or that is not UTF-8, or -1.
func firstBad[T string | []byte](s T, ok func(rune) bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\t' || c == '\n' {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && n == 1 || !ok(r) {
			return i
		}
		i += n
	}
	return -1
}

const hex = "0123456789abcdef"

// escape returns r, a control or invisible character, as its Go escape without the quotes:
// strconv.QuoteRune writes every such rune escaped, as none is printable (strconv.IsPrint).
func escape(r rune) string {
	q := strconv.QuoteRune(r)
	return q[1 : len(q)-1]
}

// appendHex appends the n lowest hexadecimal digits of r.
func appendHex(b []byte, r rune, n int) []byte {
	for s := 4 * (n - 1); s >= 0; s -= 4 {
		b = append(b, hex[r>>s&0xf])
	}
	return b
}

// JSON returns encoded JSON (as encoding/json writes it: valid UTF-8) with every control and
// invisible character written as a \uXXXX escape (a UTF-16 surrogate pair above U+FFFF), so the
// JSON decodes to the same value and yet shows nothing on a terminal that could drive or
// reorder it. encoding/json already escapes C0 controls and U+2028, U+2029 but writes DEL, C1
// and the other invisibles as they are. JSON returns data itself when nothing is to be escaped.
//
// Outside its strings JSON is ASCII, so each such character found is inside a string, where
// an escape stands for it.
func JSON(data []byte) []byte {
	i := firstBad(data, forPeople)
	if i < 0 {
		return data
	}
	out := make([]byte, 0, len(data)+32)
	out = append(out, data[:i]...)
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1, forPeople(r):
			// not from encoding/json (its output is UTF-8) or harmless: as it is
			out = append(out, data[i:i+n]...)
		case r >= 0x10000:
			hi, lo := 0xd800+(r-0x10000)>>10, 0xdc00+(r-0x10000)&0x3ff
			out = appendHex(append(out, `\u`...), hi, 4)
			out = appendHex(append(out, `\u`...), lo, 4)
		default:
			out = appendHex(append(out, `\u`...), r, 4)
		}
		i += n
	}
	return out
}

// JSONControls returns encoded JSON whose strings, once decoded, pass Controls: each string
// holding a control (escaped, as encoding/json writes C0 controls, or as it is, as it writes DEL
// and C1) is decoded, cleaned by Controls and encoded again, without HTML escaping. The result
// is the JSON an AI client may be sent. JSONControls returns data itself when no string holds a
// control, and an error when data is not valid JSON.
func JSONControls(data []byte) ([]byte, error) {
	if !mayHoldControl(data) {
		return data, nil
	}
	if !json.Valid(data) {
		return nil, errNotJSON
	}
	var out []byte
	last := 0 // data[:last] is in out
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		end := stringEnd(data, i)
		if tok := data[i:end]; mayHoldControl(tok) {
			var s string
			if err := json.Unmarshal(tok, &s); err != nil {
				return nil, err
			}
			if c := Controls(s); c != s {
				out = append(out, data[last:i]...)
				out = appendString(out, c)
				last = end
			}
		}
		i = end - 1
	}
	if out == nil {
		return data, nil
	}
	return append(out, data[last:]...), nil
}

// errNotJSON is returned by JSONControls for data that is not valid JSON.
var errNotJSON = errors.New("safetext: not valid JSON")

// mayHoldControl reports whether JSON data may hold a string with a control or tag character: an
// escape other than \t, \n, \", \\, \/ and \u of a character from U+0020 on, a raw DEL or C1
// character, or a tag character raw (F3 A0 8x) or as its surrogate pair (\udb40). It may be
// wrong only towards true (an escaped backslash followed by "u00" or "udb40").
func mayHoldControl(data []byte) bool {
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(data) && data[i+1] >= 0x80 && data[i+1] <= 0x9f:
			return true
		case c == 0xf3 && i+2 < len(data) && data[i+1] == 0xa0 && data[i+2] <= 0x81:
			return true
		case c == '\\' && i+1 < len(data):
			i++
			switch data[i] {
			case 'b', 'f', 'r':
				return true
			case 'u':
				if bytes.HasPrefix(data[i+1:], []byte("00")) && i+3 < len(data) && (data[i+3] <= '1' || data[i+3] == '7' || data[i+3] == '8' || data[i+3] == '9') {
					return true
				}
				if len(data) >= i+5 && strings.EqualFold(string(data[i+1:i+5]), "db40") {
					return true
				}
			}
		}
	}
	return false
}

// stringEnd is the index just past the JSON string that starts at data[i] (a quote) in valid JSON.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// appendString appends s as a JSON string, with <, > and & as they are.
func appendString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
