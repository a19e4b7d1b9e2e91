package gomod

// bodies.go blanks the bodies of a source file's function declarations before it is parsed.
// Nothing docidx extracts from a package's non-test files comes from a function's body but the
// errors it makes with a literal message (bodyError), which the blanking scan notes as it
// passes (fn prints a declaration without its body), and go/parser has no mode that skips
// bodies: they are most of a package's tokens, and most of what parsing a module cache cost.

import (
	"bytes"
	"slices"

	"github.com/docidx/docidx/registries/internal/extracted"
)

// blankBodies returns blankBodiesErrors' source alone.
func blankBodies(src []byte) []byte {
	out, _ := blankBodiesErrors(src)
	return out
}

// blankBodiesErrors returns a copy of src, Go source, in which the body of every function
// declaration starting a line at the top level is blanked: each byte between its braces but a
// newline becomes a space. Lines and columns outside the bodies, comments and the declarations
// themselves are unchanged, so the file parses to the same declarations at the same positions,
// with empty bodies. A function literal (var f = func() {…}) is not a declaration and keeps
// its body. Source the scan does not understand (an unclosed brace, string or comment) keeps
// the body it is in; the parser then reports it as it would have. errs holds, by the offset of
// the keyword func of a declaration whose body is blanked, the errors the body makes with a
// literal message (bodyError), which the blanked source no longer holds.
func blankBodiesErrors(src []byte) (blanked []byte, errs map[int][]string) {
	out := []byte(nil)
	depth := 0        // of (, [ and { at the top level
	lineStart := true // nothing but blanks and comments since the last newline
	for i := 0; ; {
		lx, start, end := nextLexeme(src, i)
		switch lx {
		case lexEnd:
			if out == nil {
				return src, errs
			}
			return out, errs
		case lexNewline:
			lineStart = true
			i = end
			continue
		case lexComment:
			// "/* x */ func" keeps the line's start; it is rare, and not blanking is safe.
			i = end
			continue
		case lexIdent:
			if depth == 0 && lineStart && string(src[start:end]) == "func" {
				open, close, made := funcBody(src, end)
				if close < 0 {
					i = max(open, end)
					lineStart = false
					continue
				}
				if len(made) > 0 {
					if errs == nil {
						errs = map[int][]string{}
					}
					errs[start] = made
				}
				if out == nil {
					out = append([]byte(nil), src...)
				}
				for j := open + 1; j < close; j++ {
					if out[j] != '\n' {
						out[j] = ' '
					}
				}
				i = close + 1
				lineStart = false
				continue
			}
		case lexPunct:
			switch src[start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(0, depth-1)
			}
		}
		lineStart = false
		i = end
	}
}

// funcBody finds the body of the function declaration whose signature starts at src[i] (after
// the keyword func): it returns the offsets of the body's braces and the errors it makes
// (bodyErrors), or where the scan stopped and -1 when there is none (a declaration without a
// body, written in assembly) or the source is malformed. A brace in parentheses or brackets,
// or after the keyword struct or interface, belongs to a type literal of the signature.
func funcBody(src []byte, i int) (open, close int, errs []string) {
	depth := 0
	prev := "" // the identifier just before, across newlines and comments
	for {
		lx, start, end := nextLexeme(src, i)
		switch lx {
		case lexEnd:
			return start, -1, nil
		case lexNewline:
			if depth == 0 {
				return start, -1, nil // the line ends the declaration
			}
			i = end
			continue
		case lexComment:
			if depth == 0 && (src[start+1] == '/' || bytes.IndexByte(src[start:end], '\n') >= 0) {
				return end, -1, nil // so does a comment that ends the line or spans lines
			}
			i = end
			continue
		case lexIdent:
			prev = string(src[start:end])
			i = end
			continue
		case lexPunct:
			switch src[start] {
			case '(', '[':
				depth++
			case ')', ']':
				if depth--; depth < 0 {
					return start, -1, nil
				}
			case '{':
				body := depth == 0 && prev != "struct" && prev != "interface"
				var made *[]string
				if body {
					made = &errs
				}
				close := matchBrace(src, start, made)
				if close < 0 {
					return start, -1, nil
				}
				if body {
					return start, close, errs
				}
				i, prev = close+1, ""
				continue
			case '}':
				return start, -1, nil
			}
		}
		prev = ""
		i = end
	}
}

// lexeme is the kind of what nextLexeme finds.
type lexeme int

const (
	lexEnd     lexeme = iota // the end of the source, or a comment, string or rune left open
	lexNewline               // a newline outside comments and literals
	lexComment               // a line comment (without its newline) or a general comment
	lexLiteral               // a string or rune literal
	lexIdent                 // an identifier or keyword
	lexPunct                 // any other byte: an operator, a bracket, a digit
)

// nextLexeme skips the blanks (spaces, tabs, carriage returns) at src[i:] and returns what
// comes next and its offsets in src.
func nextLexeme(src []byte, i int) (lx lexeme, start, end int) {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if i == len(src) {
		return lexEnd, i, i
	}
	switch c := src[i]; {
	case c == '\n':
		return lexNewline, i, i + 1
	case c == '"' || c == '`' || c == '\'' || c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
		end := skipLiteral(src, i)
		switch {
		case end < 0:
			return lexEnd, i, len(src)
		case c == '/':
			return lexComment, i, end
		}
		return lexLiteral, i, end
	case isIdentByte(c):
		end := i + 1
		for end < len(src) && isIdentByte(src[end]) {
			end++
		}
		return lexIdent, i, end
	}
	return lexPunct, i, i + 1
}

// matchBrace returns the offset of the brace closing the one at src[open], skipping strings,
// runes and comments, or -1 when it is not closed. With errs, it appends to it the errors the
// code between the braces makes (bodyErrors).
func matchBrace(src []byte, open int, errs *[]string) int {
	depth := 0
	var back [4]int // the starts of the last lexemes but newlines and comments, newest first
	for i := open; ; {
		lx, start, end := nextLexeme(src, i)
		if errs != nil {
			if lx == lexLiteral && len(*errs) < extracted.MaxErrors {
				if e := bodyError(src, back, start, end); e != "" && !slices.Contains(*errs, e) {
					*errs = append(*errs, e)
				}
			}
			if lx != lexNewline && lx != lexComment {
				copy(back[1:], back[:3])
				back[0] = start
			}
		}
		switch {
		case lx == lexEnd:
			return -1
		case lx == lexPunct && src[start] == '{':
			depth++
		case lx == lexPunct && src[start] == '}':
			if depth--; depth == 0 {
				return start
			}
		}
		i = end
	}
}

// bodyError returns the call that makes an error of the string literal src[start:end] when the
// literal is its first argument, as a function body writes it: errors.New("not found"),
// fmt.Errorf("reading %s: %w", …) (its other arguments elided) or panic("unreachable"); else
// "". back holds the starts of the four lexemes before the literal, newest first. A literal
// longer than extracted.MaxErrorLiteral or over several lines is left out. pgservicefile's GetService
// says "returns the named service" and nothing of the errors.New("not found") its body
// returns for a name the file lacks.
func bodyError(src []byte, back [4]int, start, end int) string {
	lit := src[start:end]
	if len(lit) > extracted.MaxErrorLiteral || lit[0] != '"' && lit[0] != '`' || bytes.IndexByte(lit, '\n') >= 0 || back[0] >= start || src[back[0]] != '(' {
		return ""
	}
	ident := func(k int) string {
		j := back[k]
		e := j
		for e < len(src) && isIdentByte(src[e]) {
			e++
		}
		return string(src[j:e])
	}
	var call string
	switch {
	case ident(1) == "panic":
		call = "panic"
	case src[back[2]] == '.' && ident(1) == "New" && ident(3) == "errors":
		call = "errors.New"
	case src[back[2]] == '.' && ident(1) == "Errorf" && ident(3) == "fmt":
		call = "fmt.Errorf"
	default:
		return ""
	}
	rest := ")"
	if next, ns, _ := nextLexeme(src, end); next == lexPunct && src[ns] == ',' {
		rest = ", …)"
	}
	return call + "(" + string(lit) + rest
}

// skipLiteral returns the offset just after the comment, string or rune literal starting at
// src[i], or i when none starts there (a lone slash) and -1 when it is not closed. A line
// comment ends before its newline.
func skipLiteral(src []byte, i int) int {
	switch src[i] {
	case '/':
		if i+1 >= len(src) {
			return i
		}
		switch src[i+1] {
		case '/':
			for j := i + 2; j < len(src); j++ {
				if src[j] == '\n' {
					return j
				}
			}
			return len(src)
		case '*':
			for j := i + 2; j+1 < len(src); j++ {
				if src[j] == '*' && src[j+1] == '/' {
					return j + 2
				}
			}
			return -1
		}
		return i
	case '`':
		for j := i + 1; j < len(src); j++ {
			if src[j] == '`' {
				return j + 1
			}
		}
		return -1
	case '"', '\'':
		q := src[i]
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case q:
				return j + 1
			case '\n':
				return -1
			}
		}
		return -1
	}
	return i
}

// isIdentByte reports whether c may be part of an identifier: an ASCII letter, digit or
// underscore, or any byte of a multi-byte UTF-8 sequence (a letter, where the source is valid).
func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
