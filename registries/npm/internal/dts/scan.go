// Package dts extracts the exported API of an npm package from its TypeScript declaration files
// (.d.ts, .d.mts, .d.cts) as docidx.Symbols.
//
// It is a hand-written tokenizer and a tolerant declaration scanner, not a TypeScript parser: it
// knows comments, strings, template literals (nested ${…} included), and the bracket structure of
// declarations, and reads the declaration forms of the TypeScript handbook's "Declaration Files"
// chapter (https://www.typescriptlang.org/docs/handbook/declaration-files/introduction.html):
// functions and overloads, classes, interfaces, type aliases, enums, variables, namespaces,
// ambient modules (declare module "fs" {…}), declare global, export lists, export * (as ns) from,
// export default, export =, imports and /// <reference path> directives. Anything else is skipped
// to the end of its statement. It never panics on any input and its work is bounded by the input
// size and the limits in Options.
//
// It imports docidx, registries/internal/clex, extracted, limit and memfs, and the standard
// library.
package dts

import (
	"bytes"
	"slices"

	"github.com/docidx/docidx/registries/internal/clex"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tString
	tTemplate
	tNumber
	tPunct
)

// token is one lexical token of a declaration file.
type token struct {
	kind tokKind
	text string // source text; strings keep their quotes
	line int    // 1-based line of the first byte
	nl   bool   // a line break separates it from the previous token
	gap  bool   // whitespace or a comment separates it from the previous token
	doc  string // the /** … */ comment right before it, raw, or ""
}

// maxNesting bounds template literal nesting so hostile input cannot exhaust the stack.
const maxNesting = 64

// lexer turns source bytes into tokens.
type lexer struct {
	src  []byte
	i    int
	line int
	refs []string // /// <reference path="…" /> targets, in order
}

// tokenize returns the tokens of src and the reference-path directives it holds. The last token
// is always tEOF. The tokens' text shares one copy of src. When src holds more than limit tokens
// (tEOF included), tokenize stops there and returns ok false.
func tokenize(src []byte, limit int) (toks []token, refs []string, ok bool) {
	lx := &lexer{src: src, line: 1}
	toks = make([]token, 0, min(len(src)/6+1, limit))
	text := string(src)
	var doc string
	nl, gap := false, false
	for {
		// Whitespace and comments.
		for {
			kind, end, lines := clex.Trivia(src, lx.i, false)
			if kind == clex.NoTrivia {
				if lx.i < len(src) && src[lx.i] == 0xEF && bytes.HasPrefix(src[lx.i:], []byte("\uFEFF")) {
					lx.i += 3
					continue
				}
				break
			}
			switch comment := src[lx.i:end]; kind {
			case clex.LineComment:
				if bytes.HasPrefix(comment, []byte("///")) {
					if ref, ok := referencePath(comment); ok {
						lx.refs = append(lx.refs, ref)
					}
				}
			case clex.BlockComment:
				if len(comment) >= 5 && comment[2] == '*' && comment[3] != '/' {
					doc = text[lx.i:end]
				}
			}
			lx.i, lx.line = end, lx.line+lines
			nl, gap = nl || lines > 0, true
		}
		if len(toks) == limit {
			return nil, nil, false
		}
		if len(toks) == cap(toks) { // double, but never past limit
			toks = slices.Grow(toks, min(len(toks), limit-len(toks)))
		}
		if lx.i >= len(src) {
			toks = append(toks, token{kind: tEOF, line: lx.line, nl: true, gap: true})
			return toks, lx.refs, true
		}
		start, line := lx.i, lx.line
		kind := lx.next()
		if lx.i <= start { // never stall
			lx.i = start + 1
		}
		toks = append(toks, token{kind: kind, text: text[start:lx.i], line: line, nl: nl, gap: gap, doc: doc})
		doc = ""
		nl, gap = false, false
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// next scans one token starting at lx.i and returns its kind.
func (lx *lexer) next() tokKind {
	src := lx.src
	c := src[lx.i]
	switch {
	case isIdentStart(c) || c == '#' && lx.i+1 < len(src) && isIdentStart(src[lx.i+1]):
		lx.i++
		for lx.i < len(src) && isIdentPart(src[lx.i]) {
			lx.i++
		}
		return tIdent
	case c >= '0' && c <= '9' || c == '.' && lx.i+1 < len(src) && src[lx.i+1] >= '0' && src[lx.i+1] <= '9':
		lx.i++
		for lx.i < len(src) && (isIdentPart(src[lx.i]) || src[lx.i] == '.') {
			lx.i++
		}
		return tNumber
	case c == '"' || c == '\'':
		lx.skipString()
		return tString
	case c == '`':
		lx.skipTemplate(0)
		return tTemplate
	case c == '=' && lx.i+1 < len(src) && src[lx.i+1] == '>':
		lx.i += 2
	case c == '.' && bytes.HasPrefix(src[lx.i:], []byte("...")):
		lx.i += 3
	default:
		lx.i++
	}
	return tPunct
}

// skipString skips a quoted string; an unterminated one ends at the line break.
func (lx *lexer) skipString() {
	end, lines := clex.QuoteEnd(lx.src, lx.i, false)
	lx.i, lx.line = end, lx.line+lines
}

// skipTemplate skips a template literal with its ${…} substitutions, which may hold strings,
// comments, braces and further templates.
func (lx *lexer) skipTemplate(depth int) {
	lx.i++ // opening backtick
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\\':
			lx.i = min(lx.i+2, len(lx.src)) // a backslash at the very end escapes nothing
			if lx.src[lx.i-1] == '\n' {
				lx.line++
			}
			continue
		case c == '`':
			lx.i++
			return
		case c == '\n':
			lx.line++
		case c == '$' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '{':
			lx.i += 2
			lx.skipSubstitution(depth + 1)
			continue
		}
		lx.i++
	}
}

// skipSubstitution skips to the "}" that closes a template's "${".
func (lx *lexer) skipSubstitution(depth int) {
	braces := 0
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\n':
			lx.line++
		case c == '{':
			braces++
		case c == '}':
			if braces == 0 {
				lx.i++
				return
			}
			braces--
		case c == '"' || c == '\'':
			lx.skipString()
			continue
		case c == '`':
			if depth >= maxNesting {
				lx.i = len(lx.src)
				return
			}
			lx.skipTemplate(depth)
			continue
		case c == '/' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '/':
			lx.i = clex.LineEnd(lx.src, lx.i)
			continue
		case c == '/' && lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '*':
			end := bytes.Index(lx.src[lx.i+2:], []byte("*/"))
			if end < 0 {
				lx.i = len(lx.src)
				return
			}
			lx.line += bytes.Count(lx.src[lx.i:lx.i+2+end], []byte("\n"))
			lx.i += 2 + end + 2
			continue
		}
		lx.i++
	}
}

// referencePath reads `/// <reference path="x" />`; types= and lib= references name packages,
// not files, and are ignored.
func referencePath(line []byte) (string, bool) {
	s := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("///")))
	if !bytes.HasPrefix(s, []byte("<reference")) {
		return "", false
	}
	i := bytes.Index(s, []byte("path"))
	if i < 0 {
		return "", false
	}
	s = bytes.TrimSpace(s[i+len("path"):])
	if len(s) == 0 || s[0] != '=' {
		return "", false
	}
	s = bytes.TrimSpace(s[1:])
	if len(s) < 2 || s[0] != '"' && s[0] != '\'' {
		return "", false
	}
	end := bytes.IndexByte(s[1:], s[0])
	if end <= 0 {
		return "", false
	}
	return string(s[1 : 1+end]), true
}
