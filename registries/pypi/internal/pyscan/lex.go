package pyscan

// The lexer turns Python source into logical lines of tokens, the way Python's own tokenizer
// (https://docs.python.org/3/reference/lexical_analysis.html) delimits them: a logical line ends
// at a line break outside brackets and not after a backslash; comments and blank lines are
// skipped; strings (single, double and triple quoted, with r/b/u/f/t prefixes, f-string
// replacement fields nested as PEP 701 allows) are single tokens that may span lines. It never
// fails: malformed input (an unterminated string, unbalanced brackets) ends a token or a line
// early, and every step consumes at least one byte.

type tokKind uint8

const (
	tName tokKind = iota + 1
	tNumber
	tString
	tOp
)

// token is one token of a logical line: a span of the source.
type token struct {
	kind       tokKind
	start, end int
	line       int  // 1-based line of its first byte
	space      bool // white space, a comment or a line break separates it from the token before
	nl         bool // a line break (inside brackets) separates it from the token before
}

// maxFStringDepth bounds the nesting of f-string replacement fields followed; deeper fields are
// skipped as plain text up to their closing brace.
const maxFStringDepth = 16

// maxLineTokens bounds the tokens kept for one logical line; the rest of a longer line (a huge
// data literal) is scanned but not kept.
const maxLineTokens = 1 << 14

type lexer struct {
	src   []byte
	pos   int
	line  int
	depth int // bracket depth of the current logical line
	toks  []token
	// unterminated is set when a single-quoted string (or an f-string field in one) runs into a
	// line break, which ends the string.
	unterminated bool
}

func newLexer(src []byte) *lexer {
	return &lexer{src: src, line: 1}
}

// next reads the next logical line into lx.toks. indent is the column of its first token, with
// tabs advancing to the next multiple of 8 as Python counts them; ok is false at the end of input.
func (lx *lexer) next() (indent int, ok bool) {
	lx.toks = lx.toks[:0]
	lx.depth = 0
	src := lx.src
	for {
		if lx.pos >= len(src) {
			return 0, false
		}
		col, p := 0, lx.pos
	indentLoop:
		for p < len(src) {
			switch src[p] {
			case ' ':
				col++
			case '\t':
				col = col/8*8 + 8
			case '\f':
				col = 0
			default:
				break indentLoop
			}
			p++
		}
		lx.pos = p
		if p >= len(src) {
			return 0, false
		}
		switch src[p] {
		case '#':
			lx.skipComment()
			if lx.pos < len(src) {
				lx.newline()
			}
			continue
		case '\n', '\r':
			lx.newline()
			continue
		}
		indent = col
		break
	}
	lx.scanLine()
	if len(lx.toks) == 0 {
		// A line of only a backslash continuation and nothing else: read on.
		return lx.next()
	}
	return indent, true
}

// skipComment moves to the line break ending a comment (not past it).
func (lx *lexer) skipComment() {
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
		lx.pos++
	}
}

// newline consumes one line break ("\n", "\r\n" or "\r") at lx.pos.
func (lx *lexer) newline() { lx.pos = lx.lineEnd(lx.pos) }

// lineEnd counts the line break ("\n", "\r\n" or "\r") at offset p of the source and returns the
// offset after it.
func (lx *lexer) lineEnd(p int) int {
	if lx.src[p] == '\r' && p+1 < len(lx.src) && lx.src[p+1] == '\n' {
		p++
	}
	lx.line++
	return p + 1
}

// scanLine reads tokens up to the end of the logical line.
func (lx *lexer) scanLine() {
	src := lx.src
	space, nl := false, false
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.pos++
			space = true
		case c == '#':
			lx.skipComment()
			space = true
		case c == '\\' && lx.pos+1 < len(src) && (src[lx.pos+1] == '\n' || src[lx.pos+1] == '\r'):
			lx.pos++
			lx.newline()
			space = true
		case c == '\n' || c == '\r':
			lx.newline()
			if lx.depth > 0 {
				space, nl = true, true
				continue
			}
			return
		default:
			lx.scanToken(space, nl)
			space, nl = false, false
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || '0' <= c && c <= '9'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// stringPrefix reports whether s is a string prefix (r, u, b, f, t and their allowed
// combinations, any case) and whether it makes a raw string and a formatted (f or t) string.
func stringPrefix(s []byte) (ok, raw, format bool) {
	if len(s) == 0 || len(s) > 2 {
		return false, false, false
	}
	var r, u, b, f, t int
	for _, c := range s {
		switch c | 0x20 {
		case 'r':
			r++
		case 'u':
			u++
		case 'b':
			b++
		case 'f':
			f++
		case 't':
			t++
		default:
			return false, false, false
		}
	}
	if r > 1 || u > 1 || b > 1 || f > 1 || t > 1 || u == 1 && len(s) > 1 || b+f+t > 1 {
		return false, false, false
	}
	return true, r == 1, f+t == 1
}

func (lx *lexer) emit(kind tokKind, start, line int, space, nl bool) {
	if len(lx.toks) < maxLineTokens {
		lx.toks = append(lx.toks, token{kind: kind, start: start, end: lx.pos, line: line, space: space, nl: nl})
	}
}

// scanToken reads one token at lx.pos, which is not white space, a comment or a line break.
func (lx *lexer) scanToken(space, nl bool) {
	src := lx.src
	start, line := lx.pos, lx.line
	c := src[lx.pos]
	switch {
	case isIdentStart(c):
		p := lx.pos + 1
		for p < len(src) && isIdentChar(src[p]) {
			p++
		}
		if p < len(src) && (src[p] == '\'' || src[p] == '"') {
			if ok, raw, format := stringPrefix(src[lx.pos:p]); ok {
				lx.pos = lx.skipString(p, raw, format, 0)
				lx.emit(tString, start, line, space, nl)
				return
			}
		}
		lx.pos = p
		lx.emit(tName, start, line, space, nl)
	case isDigit(c) || c == '.' && lx.pos+1 < len(src) && isDigit(src[lx.pos+1]):
		hex := c == '0' && lx.pos+1 < len(src) && src[lx.pos+1]|0x20 == 'x'
		p := lx.pos + 1
		for p < len(src) {
			d := src[p]
			if isIdentChar(d) && d < 0x80 || d == '.' {
				p++
				continue
			}
			if (d == '+' || d == '-') && !hex && src[p-1]|0x20 == 'e' {
				p++
				continue
			}
			break
		}
		lx.pos = p
		lx.emit(tNumber, start, line, space, nl)
	case c == '\'' || c == '"':
		lx.pos = lx.skipString(lx.pos, false, false, 0)
		lx.emit(tString, start, line, space, nl)
	default:
		lx.pos += opLen(src[lx.pos:])
		switch c {
		case '(', '[', '{':
			lx.depth++
		case ')', ']', '}':
			if lx.depth > 0 {
				lx.depth--
			}
		}
		lx.emit(tOp, start, line, space, nl)
	}
}

// opLen returns the length of the operator or delimiter at the start of s (at least 1).
func opLen(s []byte) int {
	if len(s) >= 3 {
		switch string(s[:3]) {
		case "**=", "//=", ">>=", "<<=", "...":
			return 3
		}
	}
	if len(s) >= 2 {
		switch string(s[:2]) {
		case "->", "**", "//", "==", "!=", "<=", ">=", "<<", ">>", ":=",
			"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=":
			return 2
		}
	}
	return 1
}

// skipString scans the string literal whose opening quote is at p and returns the offset after
// it. In a formatted string, replacement fields are scanned as expressions so that quotes and
// braces inside them do not end the string early.
func (lx *lexer) skipString(p int, raw, format bool, depth int) int {
	_ = raw // a backslash keeps the next character in the string even in raw strings
	lx.unterminated = false
	src := lx.src
	q := src[p]
	triple := p+2 < len(src) && src[p+1] == q && src[p+2] == q
	if triple {
		p += 3
	} else {
		p++
	}
	for p < len(src) {
		c := src[p]
		switch {
		case c == '\\':
			p++
			if p < len(src) {
				if e := src[p]; e == '\n' || e == '\r' {
					p = lx.lineEnd(p)
				} else {
					p++
				}
			}
		case c == q:
			if !triple {
				return p + 1
			}
			if p+2 < len(src) && src[p+1] == q && src[p+2] == q {
				return p + 3
			}
			p++
		case c == '\n' || c == '\r':
			if !triple {
				lx.unterminated = true
				return p
			}
			p = lx.lineEnd(p)
		case format && c == '{':
			if p+1 < len(src) && src[p+1] == '{' {
				p += 2
				continue
			}
			lx.unterminated = false
			p = lx.skipField(p+1, triple, depth+1)
			if lx.unterminated {
				return p
			}
		default:
			p++
		}
	}
	return p
}

// skipField scans an f-string replacement field whose opening brace is just before p and returns
// the offset after its closing brace. Inside a field, strings (of any quote) are nested literals,
// brackets nest, and a colon at the field's top level starts the format spec, which is literal
// text that may hold nested fields.
func (lx *lexer) skipField(p int, triple bool, depth int) int {
	src := lx.src
	if depth > maxFStringDepth {
		for p < len(src) && src[p] != '}' {
			if (src[p] == '\n' || src[p] == '\r') && !triple {
				lx.unterminated = true
				return p
			}
			p++
		}
		return min(p+1, len(src))
	}
	brackets := 0
	for p < len(src) {
		c := src[p]
		switch {
		case c == '\n' || c == '\r':
			if !triple {
				lx.unterminated = true
				return p
			}
			p = lx.lineEnd(p)
		case c == '(' || c == '[' || c == '{':
			brackets++
			p++
		case c == ')' || c == ']':
			if brackets > 0 {
				brackets--
			}
			p++
		case c == '}':
			if brackets == 0 {
				return p + 1
			}
			brackets--
			p++
		case c == '\\':
			p += 2
		case c == '\'' || c == '"':
			p = lx.skipString(p, false, false, depth)
			if lx.unterminated {
				return p
			}
		case isIdentStart(c):
			s := p
			for p < len(src) && isIdentChar(src[p]) {
				p++
			}
			if p < len(src) && (src[p] == '\'' || src[p] == '"') {
				if ok, raw, format := stringPrefix(src[s:p]); ok {
					p = lx.skipString(p, raw, format, depth)
					if lx.unterminated {
						return p
					}
				}
			}
		case c == ':' && brackets == 0 && !(p+1 < len(src) && src[p+1] == '='):
			// The format spec: literal text up to the closing brace, with nested fields.
			p++
			for p < len(src) {
				d := src[p]
				switch {
				case d == '}':
					return p + 1
				case d == '{':
					p = lx.skipField(p+1, triple, depth+1)
					if lx.unterminated {
						return p
					}
				case d == '\n' || d == '\r':
					if !triple {
						lx.unterminated = true
						return p
					}
					p = lx.lineEnd(p)
				default:
					p++
				}
			}
			return p
		default:
			p++
		}
	}
	return min(p, len(src))
}
