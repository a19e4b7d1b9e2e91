// Package swiftsrc reads Swift source without a Swift toolchain: a hand-written tokenizer, a
// tolerant declaration scanner that finds the declarations of a file with their access level,
// doc comment, attributes and signature, the rules that turn them into the public API of a module
// (docidx.Symbols), and a reader for the package name in a Package.swift manifest.
//
// The tokenizer knows what can hide braces from a naive scan: line comments, nested block
// comments, doc comments (/// lines and /** … */ blocks), string literals (single-line,
// multi-line """ … """, raw #"…"# with any number of #, and \( … ) interpolation that may itself
// hold strings), regex literals written #/…/#, backtick-quoted identifiers and conditional
// compilation directives (#if, #elseif, #else and #endif lines are dropped, so the declarations of
// every branch are seen). The scanner follows the declaration grammar of The Swift Programming
// Language's "Declarations" chapter
// (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/declarations)
// far enough to find each declaration's extent: attributes, modifiers, the declaration keyword,
// the header up to the body's "{" or the end of the statement, and type bodies, which it scans
// for members. Function and accessor bodies are skipped by brace matching and never looked into.
// It never panics on any input, never recurses deeper than maxNesting, and its work is linear in
// the input.
//
// It imports docidx, registries/internal/clex and limit, and the standard library.
package swiftsrc

import (
	"strings"

	"github.com/docidx/docidx/registries/internal/clex"
	"github.com/docidx/docidx/registries/internal/limit"
)

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // identifiers and keywords; `quoted` ones keep their backticks; #keywords keep "#"
	tAttr           // an attribute name with its "@", e.g. "@available"
	tString         // a string or regex literal, delimiters included
	tNumber         // a number literal
	tPunct          // "->", "...", "..<" or a single other character
)

// token is one lexical token.
type token struct {
	kind tokKind
	text string // source text
	line int    // 1-based line of the first byte
	nl   bool   // a line break separates it from the previous token
	gap  bool   // whitespace or a comment separates it from the previous token
	doc  string // the doc comment right before it, markers stripped, or ""
}

func (t token) is(punct string) bool { return t.kind == tPunct && t.text == punct }

// maxNesting bounds string interpolation nesting in the tokenizer and type nesting in the
// scanner, so hostile input cannot exhaust the stack.
const maxNesting = 64

// maxDoc is the most bytes kept of one doc comment (limit.Doc); a longer one is cut at a line
// break.
const maxDoc = limit.Doc

// lexer turns source text into tokens.
type lexer struct {
	src       string
	i         int
	line      int
	lineStart bool // only whitespace since the last line break (or the start)

	docLines []string // the doc comment being collected
	docEnd   int      // line of the last doc comment line
}

// tokenize returns the tokens of src. The last token is always tEOF.
func tokenize(src string) []token {
	lx := &lexer{src: src, line: 1, lineStart: true}
	toks := make([]token, 0, len(src)/5+1)
	nl, gap := false, false
	for {
		// Whitespace, comments and directives.
	trivia:
		for {
			kind, end, lines := clex.Trivia(src, lx.i, true)
			switch text := src[lx.i:end]; kind {
			case clex.NoTrivia:
				switch {
				case strings.HasPrefix(src[lx.i:], "\uFEFF"): // a byte order mark
					end = lx.i + 3
				case lx.i < len(src) && src[lx.i] == '#' && lx.lineStart && isDirective(src[lx.i+1:]):
					end = clex.LineEnd(src, lx.i)
				default:
					break trivia
				}
			case clex.Blank:
				lx.lineStart = lx.lineStart || lines > 0
			case clex.LineComment:
				if strings.HasPrefix(text, "///") && !strings.HasPrefix(text, "////") {
					lx.addDocLine(text[3:])
				}
			case clex.BlockComment:
				if len(text) >= 5 && text[2] == '*' && text[3] != '/' && strings.HasSuffix(text, "*/") {
					lx.docLines = blockDocLines(text[3 : len(text)-2])
					lx.docEnd = lx.line + lines
				}
			}
			lx.i, lx.line = end, lx.line+lines
			nl, gap = nl || lines > 0, true
		}
		if lx.i >= len(src) {
			toks = append(toks, token{kind: tEOF, line: lx.line, nl: true, gap: true})
			return toks
		}
		start, line := lx.i, lx.line
		lx.lineStart = false
		kind := lx.next(0)
		if lx.i <= start { // never stall
			lx.i = start + 1
		}
		t := token{kind: kind, text: src[start:lx.i], line: line, nl: nl, gap: gap}
		if len(lx.docLines) > 0 {
			t.doc = cleanDoc(lx.docLines)
			lx.docLines = nil
		}
		toks = append(toks, t)
		nl, gap = false, false
	}
}

// addDocLine adds one /// line; a doc line after a gap of blank lines or code starts a new
// comment, so only the block right before a declaration is its doc.
func (lx *lexer) addDocLine(text string) {
	if len(lx.docLines) > 0 && lx.line > lx.docEnd+1 {
		lx.docLines = nil
	}
	lx.docLines = append(lx.docLines, strings.TrimSuffix(text, "\r"))
	lx.docEnd = lx.line
}

// blockComment skips a block comment; Swift block comments nest.
func (lx *lexer) blockComment() {
	end, lines := clex.BlockEnd(lx.src, lx.i, true)
	lx.i, lx.line = end, lx.line+lines
}

// isDirective reports whether rest (the text after a "#" at the start of a line) is a
// conditional compilation directive.
func isDirective(rest string) bool {
	for _, d := range []string{"if", "elseif", "else", "endif"} {
		if strings.HasPrefix(rest, d) && (len(rest) == len(d) || !isIdentPart(rest[len(d)])) {
			return true
		}
	}
	return false
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// next scans one token starting at lx.i and returns its kind. depth is the string interpolation
// nesting.
func (lx *lexer) next(depth int) tokKind {
	src := lx.src
	c := src[lx.i]
	switch {
	case isIdentStart(c) || c == '$' && lx.i+1 < len(src) && isIdentPart(src[lx.i+1]):
		lx.i++
		for lx.i < len(src) && isIdentPart(src[lx.i]) {
			lx.i++
		}
		return tIdent
	case c == '`':
		end := strings.IndexAny(src[lx.i+1:], "`\n")
		if end >= 0 && src[lx.i+1+end] == '`' {
			lx.i += end + 2
			return tIdent
		}
		lx.i++
		return tPunct
	case isDigit(c):
		lx.i++
		for lx.i < len(src) && (isIdentPart(src[lx.i]) || src[lx.i] == '.' && lx.i+1 < len(src) && isDigit(src[lx.i+1])) {
			lx.i++
		}
		return tNumber
	case c == '"':
		lx.str(0, depth)
		return tString
	case c == '#':
		n := 0
		for lx.i+n < len(src) && src[lx.i+n] == '#' {
			n++
		}
		if lx.i+n < len(src) {
			switch src[lx.i+n] {
			case '"':
				lx.i += n
				lx.str(n, depth)
				return tString
			case '/':
				lx.regex(n)
				return tString
			}
		}
		if n == 1 {
			return lx.sigil(tIdent)
		}
		lx.i++
		return tPunct
	case c == '@':
		return lx.sigil(tAttr)
	case strings.HasPrefix(src[lx.i:], "->"):
		lx.i += 2
	case strings.HasPrefix(src[lx.i:], "..."), strings.HasPrefix(src[lx.i:], "..<"):
		lx.i += 3
	default:
		lx.i++
	}
	return tPunct
}

// sigil lexes the one-character sigil at lx.i ("#" or "@"): with the identifier that follows it
// directly, as one token of kind; alone, as punctuation.
func (lx *lexer) sigil(kind tokKind) tokKind {
	src := lx.src
	lx.i++
	if lx.i < len(src) && isIdentStart(src[lx.i]) {
		for lx.i < len(src) && isIdentPart(src[lx.i]) {
			lx.i++
		}
		return kind
	}
	return tPunct
}

// str skips a string literal whose opening quote (or """) is at lx.i, after hashes "#" of a raw
// string. Escapes and \( … ) interpolations (\#( … ) in raw strings) are followed; a single-line
// string that is not terminated ends at the line break.
func (lx *lexer) str(hashes, depth int) {
	src := lx.src
	multi := strings.HasPrefix(src[lx.i:], `"""`)
	var closing string
	if multi {
		lx.i += 3
		closing = `"""` + strings.Repeat("#", hashes)
	} else {
		lx.i++
		closing = `"` + strings.Repeat("#", hashes)
	}
	escape := `\` + strings.Repeat("#", hashes)
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == '\\' && strings.HasPrefix(src[lx.i:], escape):
			lx.i += len(escape)
			if lx.i >= len(src) {
				return
			}
			switch src[lx.i] {
			case '(':
				lx.interpolation(depth + 1)
			case '\n':
				lx.line++
				lx.i++
			default:
				lx.i++
			}
		case strings.HasPrefix(src[lx.i:], closing):
			lx.i += len(closing)
			return
		case c == '\n':
			if !multi {
				return
			}
			lx.line++
			lx.i++
		default:
			lx.i++
		}
	}
}

// interpolation skips an interpolation's parenthesized expression starting at its "(", which
// may hold strings, comments and further parentheses.
func (lx *lexer) interpolation(depth int) {
	src := lx.src
	if depth > maxNesting {
		lx.i = len(src)
		return
	}
	parens := 0
	for lx.i < len(src) {
		c := src[lx.i]
		switch {
		case c == '(':
			parens++
			lx.i++
		case c == ')':
			parens--
			lx.i++
			if parens <= 0 {
				return
			}
		case c == '\n':
			lx.line++
			lx.i++
		case c == '"':
			lx.str(0, depth)
		case c == '#' && lx.i+1 < len(src) && (src[lx.i+1] == '"' || src[lx.i+1] == '#'):
			n := 0
			for lx.i+n < len(src) && src[lx.i+n] == '#' {
				n++
			}
			if lx.i+n < len(src) && src[lx.i+n] == '"' {
				lx.i += n
				lx.str(n, depth)
			} else {
				lx.i += n
			}
		case c == '/' && lx.i+1 < len(src) && src[lx.i+1] == '/':
			lx.i = clex.LineEnd(src, lx.i)
		case c == '/' && lx.i+1 < len(src) && src[lx.i+1] == '*':
			lx.blockComment()
		default:
			lx.i++
		}
	}
}

// regex skips an extended regex literal #/…/# (with hashes "#") starting at lx.i.
func (lx *lexer) regex(hashes int) {
	closing := "/" + strings.Repeat("#", hashes)
	lx.i += hashes + 1
	end := strings.Index(lx.src[lx.i:], closing)
	if end < 0 {
		lx.i = len(lx.src)
		return
	}
	lx.line += strings.Count(lx.src[lx.i:lx.i+end], "\n")
	lx.i += end + len(closing)
}

// blockDocLines splits the inside of a /** … */ comment into lines, without the leading " * "
// decoration that many authors put on each line.
func blockDocLines(body string) []string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	starred := true
	for i, l := range lines {
		if i == 0 || strings.TrimSpace(l) == "" {
			continue
		}
		if !strings.HasPrefix(strings.TrimLeft(l, " \t"), "*") {
			starred = false
			break
		}
	}
	for i, l := range lines {
		if starred && i > 0 {
			t := strings.TrimLeft(l, " \t")
			if strings.HasPrefix(t, "*") {
				l = t[1:]
			}
		}
		lines[i] = l
	}
	return lines
}

// cleanDoc joins doc comment lines: the common indentation is removed, blank lines at either end
// are dropped, and the text is cut to maxDoc bytes at a line break.
func cleanDoc(lines []string) string {
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	s := strings.Join(out, "\n")
	if len(s) > maxDoc {
		cut := strings.LastIndexByte(s[:maxDoc], '\n')
		if cut <= 0 {
			cut = maxDoc
		}
		s = strings.ToValidUTF8(s[:cut], "")
	}
	return s
}
