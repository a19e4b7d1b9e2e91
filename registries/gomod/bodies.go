package gomod

// bodies.go blanks the bodies of a source file's function declarations before it is parsed.
// Nothing docidx extracts from a package's non-test files comes from a function's body (fn
// prints a declaration without it), and go/parser has no mode that skips bodies: they are most
// of a package's tokens, and most of what parsing a module cache cost.

import "bytes"

// blankBodies returns a copy of src, Go source, in which the body of every function
// declaration starting a line at the top level is blanked: each byte between its braces but a
// newline becomes a space. Lines and columns outside the bodies, comments and the declarations
// themselves are unchanged, so the file parses to the same declarations at the same positions,
// with empty bodies. A function literal (var f = func() {…}) is not a declaration and keeps
// its body. Source the scan does not understand (an unclosed brace, string or comment) keeps
// the body it is in; the parser then reports it as it would have.
func blankBodies(src []byte) []byte {
	out := []byte(nil)
	depth := 0        // of (, [ and { at the top level
	lineStart := true // only blanks and tabs since the last newline
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' || c == '"' || c == '`' || c == '\'':
			end := skipLiteral(src, i)
			if end < 0 {
				return orSource(out, src) // unclosed: the parser reports it
			}
			if end > i {
				// A comment keeps the line's start: "/* x */ func" is rare, and not blanking is safe.
				i = end
				continue
			}
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth = max(0, depth-1)
		case c == 'f' && depth == 0 && lineStart && isKeyword(src, i, "func"):
			open, close := funcBody(src, i+len("func"))
			if close < 0 {
				i = max(open, i+len("func"))
				lineStart = false
				continue
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
		lineStart = false
		i++
	}
	return orSource(out, src)
}

// orSource returns out, or src when out is nil (nothing was blanked).
func orSource(out, src []byte) []byte {
	if out == nil {
		return src
	}
	return out
}

// funcBody finds the body of the function declaration whose signature starts at src[i] (after
// the keyword func): it returns the offsets of the body's braces, or where the scan stopped and
// -1 when there is none (a declaration without a body, written in assembly) or the source is
// malformed. A brace in parentheses or brackets, or after the keyword struct or interface,
// belongs to a type literal of the signature.
func funcBody(src []byte, i int) (open, close int) {
	depth := 0
	prev := "" // the identifier just before, across blanks and comments
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 {
				return i, -1 // the line ends the declaration
			}
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' || c == '"' || c == '`' || c == '\'':
			end := skipLiteral(src, i)
			if end <= i {
				return i, -1
			}
			if src[i] != '/' {
				prev = ""
			} else if depth == 0 && (src[i+1] == '/' || bytes.IndexByte(src[i:end], '\n') >= 0) {
				return end, -1
			}
			i = end
			continue
		case isIdentByte(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			prev = string(src[i:j])
			i = j
			continue
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			if depth--; depth < 0 {
				return i, -1
			}
		case c == '{':
			end := matchBrace(src, i)
			if end < 0 {
				return i, -1
			}
			if depth == 0 && prev != "struct" && prev != "interface" {
				return i, end
			}
			i = end + 1
			prev = ""
			continue
		case c == '}':
			return i, -1
		}
		prev = ""
		i++
	}
	return i, -1
}

// matchBrace returns the offset of the brace closing the one at src[open], skipping strings,
// runes and comments, or -1 when it is not closed.
func matchBrace(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); {
		switch c := src[i]; c {
		case '/', '"', '`', '\'':
			end := skipLiteral(src, i)
			if end < 0 {
				return -1 // an unclosed comment, string or rune
			}
			if end > i {
				i = end
				continue
			}
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
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

// isKeyword reports whether the identifier at src[i] is kw.
func isKeyword(src []byte, i int, kw string) bool {
	end := i + len(kw)
	return end <= len(src) && string(src[i:end]) == kw && (end == len(src) || !isIdentByte(src[end])) &&
		(i == 0 || !isIdentByte(src[i-1]))
}

// isIdentByte reports whether c may be part of an identifier: an ASCII letter, digit or
// underscore, or any byte of a multi-byte UTF-8 sequence (a letter, where the source is valid).
func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
