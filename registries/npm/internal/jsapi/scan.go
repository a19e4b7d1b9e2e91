package jsapi

import (
	"bytes"
	"slices"
	"strings"

	"github.com/docidx/docidx/registries/internal/clex"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tString
	tTemplate
	tNumber
	tRegex
	tPunct
)

// token is one lexical token of a JavaScript file.
type token struct {
	kind  tokKind
	text  string // source text; strings and templates keep their quotes
	start int    // byte offset of the first byte
	end   int    // byte offset after the last byte
	line  int    // 1-based line of the first byte
	depth int    // brackets ({, (, [) open before this token
	nl    bool   // a line break separates it from the previous token
	gap   bool   // whitespace or a comment separates it from the previous token
	doc   string // the last /** … */ comment between the previous token and this one, raw, or ""
}

// maxNesting bounds template literal and bracket nesting tracked by the scanner, so hostile
// input cannot exhaust memory or the stack.
const maxNesting = 256

// regexAfter lists the keywords after which a "/" starts a regular expression literal.
var regexAfter = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
}

// tokenize returns the tokens of src; the last token is always tEOF. Bytes it cannot read as a
// token become one-byte punctuation, and an unterminated string, comment or template ends at the
// end of its line or of the input. The tokens' text shares one copy of src. When src holds more
// than limit tokens (tEOF included), tokenize stops there and returns nil, false.
func tokenize(src []byte, limit int) ([]token, bool) {
	toks := make([]token, 0, min(len(src)/5+1, limit))
	text := string(src)
	i, line, depth := 0, 1, 0
	var doc string
	nl, gap := false, false
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		i = 3
	}
	if bytes.HasPrefix(src[i:], []byte("#!")) {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	for {
		// Whitespace and comments.
	trivia:
		for {
			kind, end, lines := clex.Trivia(src, i, false)
			switch kind {
			case clex.NoTrivia:
				switch {
				case i >= len(src):
					break trivia
				case src[i] == 0xE2 && (bytes.HasPrefix(src[i:], []byte("\u2028")) || bytes.HasPrefix(src[i:], []byte("\u2029"))):
					end, nl = i+3, true // a line or paragraph separator: a line break, not a line feed
				case src[i] == 0xC2 && i+1 < len(src) && src[i+1] == 0xA0: // no-break space
					end = i + 2
				default:
					break trivia
				}
			case clex.BlockComment:
				if comment := text[i:end]; strings.HasPrefix(comment, "/**") && len(comment) > 4 {
					doc = comment
				}
			}
			i, line = end, line+lines
			nl, gap = nl || lines > 0, true
		}
		if len(toks) == limit {
			return nil, false
		}
		if len(toks) == cap(toks) { // double, but never past limit
			toks = slices.Grow(toks, min(len(toks), limit-len(toks)))
		}
		if i >= len(src) {
			toks = append(toks, token{kind: tEOF, start: len(src), end: len(src), line: line, depth: depth, nl: nl, gap: gap})
			return toks, true
		}
		t := token{start: i, line: line, depth: depth, nl: nl, gap: gap, doc: doc}
		doc, nl, gap = "", false, false
		c := src[i]
		switch {
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			t.kind = tIdent
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !bytes.HasPrefix(src[i:], []byte("0x"))) {
				j++
			}
			t.kind = tNumber
			i = j
		case c == '"' || c == '\'':
			j, lines := clex.QuoteEnd(src, i, false)
			line += lines
			t.kind = tString
			i = j
		case c == '`':
			j, lines := skipTemplate(src, i)
			line += lines
			t.kind = tTemplate
			i = j
		case c == '/' && regexAllowed(toks):
			if j, ok := scanRegex(src, i); ok {
				t.kind = tRegex
				i = j
				break
			}
			t.kind = tPunct
			i++
		default:
			t.kind = tPunct
			i += punctLen(src[i:])
			switch c {
			case '{', '(', '[':
				depth++
			case '}', ')', ']':
				if depth > 0 {
					depth--
				}
				t.depth = depth
			}
		}
		t.end = i
		t.text = text[t.start:i]
		toks = append(toks, t)
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '#' || c >= 0x80
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// regexAllowed reports whether a "/" after toks starts a regular expression literal: at the
// start, after punctuation other than a closing ")" or "]", and after keywords such as return.
// After "}" it is taken as a regex: a block usually ends there, and a misread is bounded by the
// end of the line, since a regex literal cannot span lines.
func regexAllowed(toks []token) bool {
	if len(toks) == 0 {
		return true
	}
	p := toks[len(toks)-1]
	switch p.kind {
	case tIdent:
		return regexAfter[p.text]
	case tPunct:
		return p.text != ")" && p.text != "]" && p.text != "++" && p.text != "--"
	}
	return false
}

// scanRegex reads a regular expression literal at src[i] ("/"); ok is false when the line ends
// before its closing "/", in which case the "/" is punctuation.
func scanRegex(src []byte, i int) (int, bool) {
	j := i + 1
	inClass := false
	for j < len(src) {
		switch src[j] {
		case '\n', '\r':
			return i, false
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(src) && isIdentPart(src[j]) {
					j++
				}
				return j, true
			}
		}
		j++
	}
	return i, false
}

// skipTemplate reads a template literal starting at src[i] ("`"), nested ${…} expressions,
// strings, comments and templates included, and returns the offset after it and the line breaks
// it spans. Nesting deeper than maxNesting, or an unterminated template, ends at the end of src.
func skipTemplate(src []byte, i int) (int, int) {
	lines := 0
	// stack holds, per open level, -1 for template text or the brace depth inside ${ }.
	stack := []int{-1}
	j := i + 1
	for j < len(src) && len(stack) > 0 {
		c := src[j]
		if c == '\n' {
			lines++
		}
		top := stack[len(stack)-1]
		if top < 0 { // template text
			switch {
			case c == '\\':
				if j+1 < len(src) && src[j+1] == '\n' {
					lines++
				}
				j += 2
				continue
			case c == '`':
				stack = stack[:len(stack)-1]
			case c == '$' && j+1 < len(src) && src[j+1] == '{':
				if len(stack) >= maxNesting {
					return len(src), lines + bytes.Count(src[j:], []byte("\n"))
				}
				stack = append(stack, 0)
				j++
			}
			j++
			continue
		}
		// Inside ${ … }.
		switch {
		case c == '{':
			stack[len(stack)-1]++
		case c == '}':
			if top == 0 {
				stack = stack[:len(stack)-1]
			} else {
				stack[len(stack)-1]--
			}
		case c == '`':
			if len(stack) >= maxNesting {
				return len(src), lines + bytes.Count(src[j:], []byte("\n"))
			}
			stack = append(stack, -1)
		case c == '"' || c == '\'':
			k := j + 1
			for k < len(src) && src[k] != c && src[k] != '\n' {
				if src[k] == '\\' {
					k++
				}
				k++
			}
			j = min(k, len(src))
		case c == '/' && j+1 < len(src) && src[j+1] == '/':
			j = clex.LineEnd(src, j)
			continue
		case c == '/' && j+1 < len(src) && src[j+1] == '*':
			end, n := clex.BlockEnd(src, j, false)
			j, lines = end, lines+n
			continue
		}
		j++
	}
	return min(j, len(src)), lines
}

// punctLen returns the length of the punctuator at the start of b. Only the distinctions the
// readers need are made: "=" apart from "==", "===", "=>" and compound assignments, "...", "?.".
func punctLen(b []byte) int {
	if len(b) >= 3 && (string(b[:3]) == "..." || string(b[:3]) == "===" || string(b[:3]) == "!==") {
		return 3
	}
	if len(b) >= 2 {
		switch string(b[:2]) {
		case "=>", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||",
			"??", "?.", "++", "--", "**", "<<", ">>":
			return 2
		}
	}
	return 1
}

// brackets returns, for each token index holding an opening bracket, the index of its closing
// bracket, or len(toks)-1 (tEOF) when it is never closed; other entries are -1.
func brackets(toks []token) []int {
	match := make([]int, len(toks))
	var stack []int
	for i := range toks {
		match[i] = -1
		if toks[i].kind != tPunct {
			continue
		}
		switch toks[i].text {
		case "{", "(", "[":
			stack = append(stack, i)
		case "}", ")", "]":
			if n := len(stack); n > 0 {
				match[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	for _, o := range stack {
		match[o] = len(toks) - 1
	}
	return match
}
