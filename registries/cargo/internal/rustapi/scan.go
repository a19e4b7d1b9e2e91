// Package rustapi extracts the public API of a Rust crate from its source files as docidx.Symbols,
// without rustc, rustdoc or cargo.
//
// It is a hand-written tokenizer and a tolerant item scanner, not a Rust parser. The tokenizer knows
// the lexical structure of the Rust Reference (https://doc.rust-lang.org/reference/tokens.html and
// …/comments.html): line and nested block comments, outer (///, /** */) and inner (//!, /*! */) doc
// comments, string, byte string and C string literals, raw strings with any number of #, char and
// byte literals as opposed to lifetimes, raw identifiers and numbers. The scanner reads items
// (https://doc.rust-lang.org/reference/items.html) by their keywords and bracket structure: bodies
// are skipped by matching braces, generics by angle brackets, and a declaration ends at its body's
// "{" or its ";". Anything it does not recognise is skipped to the end of its statement.
//
// The module tree is followed from the crate root as rustc does (mod x; in x.rs or x/mod.rs, #[path]
// attributes, inline modules); `pub use` re-exports of items and modules declared inside the crate
// are resolved, so an item declared in a private module and re-exported shows under its public path.
// Extract never panics on any input and its work is bounded by the input size and the limits in
// Options.
//
// It imports docidx, registries/internal/clex, extracted and limit, and the standard library.
package rustapi

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx/registries/internal/clex"
)

type tokKind uint8

const (
	tEOF      tokKind = iota
	tIdent            // identifiers and keywords; raw identifiers keep their "r#"
	tLifetime         // 'a, 'static
	tLiteral          // string, char, byte and number literals, as written
	tPunct            // one punctuation character, or "::", "->", "=>", "..", "...", "..="
	tOuterDoc         // /// or /** */: text holds the comment without its delimiters
	tInnerDoc         // //! or /*! */
)

// token is one lexical token of a Rust source file.
type token struct {
	kind tokKind
	text string // source text; for doc comments, the content without delimiters
	line int    // 1-based line of the first byte
	gap  bool   // whitespace or a comment separates it from the previous token
	nl   bool   // a line break separates it from the previous token
}

// lexer turns source text into tokens.
type lexer struct {
	src  string
	i    int
	line int
}

// tokenize returns the tokens of src. The last token is always tEOF. It never fails: malformed
// input (an unterminated string or comment, a stray quote) yields tokens that end where the
// input does.
func tokenize(src string) []token {
	lx := &lexer{src: src, line: 1}
	toks := make([]token, 0, len(src)/5+1)
	if strings.HasPrefix(src, "\uFEFF") {
		lx.i = 3
	}
	// A shebang line (#!/usr/bin/env …) is not an inner attribute (#![…]).
	if rest := src[lx.i:]; strings.HasPrefix(rest, "#!") && !strings.HasPrefix(strings.TrimLeft(rest[2:], " \t"), "[") {
		for lx.i < len(src) && src[lx.i] != '\n' {
			lx.i++
		}
	}
	gap, nl := false, false
	for {
		// Whitespace and comments.
	trivia:
		for {
			kind, end, lines := clex.Trivia(src, lx.i, true)
			switch text := src[lx.i:end]; kind {
			case clex.NoTrivia:
				if lx.i >= len(src) || src[lx.i] < utf8.RuneSelf {
					break trivia
				}
				r, size := utf8.DecodeRuneInString(src[lx.i:])
				if !unicode.Is(unicode.Pattern_White_Space, r) {
					break trivia
				}
				end = lx.i + size
			case clex.LineComment:
				switch {
				case strings.HasPrefix(text, "///") && !strings.HasPrefix(text, "////"):
					toks = append(toks, token{kind: tOuterDoc, text: strings.TrimSuffix(text[3:], "\r"), line: lx.line, gap: gap, nl: nl})
				case strings.HasPrefix(text, "//!"):
					toks = append(toks, token{kind: tInnerDoc, text: strings.TrimSuffix(text[3:], "\r"), line: lx.line, gap: gap, nl: nl})
				}
			case clex.BlockComment:
				body := text[2:]
				if strings.HasSuffix(text, "*/") && len(text) >= 4 {
					body = text[2 : len(text)-2]
				}
				switch {
				case strings.HasPrefix(text, "/**") && !strings.HasPrefix(text, "/***") && text != "/**/":
					toks = append(toks, token{kind: tOuterDoc, text: body[1:], line: lx.line, gap: gap, nl: nl})
				case strings.HasPrefix(text, "/*!"):
					toks = append(toks, token{kind: tInnerDoc, text: body[1:], line: lx.line, gap: gap, nl: nl})
				}
			}
			lx.i, lx.line = end, lx.line+lines
			gap, nl = true, nl || lines > 0
		}
		if lx.i >= len(src) {
			toks = append(toks, token{kind: tEOF, line: lx.line, gap: true, nl: true})
			return toks
		}
		start, line := lx.i, lx.line
		kind := lx.next()
		if lx.i > len(src) { // an escape at the very end steps past it
			lx.i = len(src)
		}
		if lx.i <= start { // never stall
			lx.i = start + 1
			for lx.i < len(src) && !utf8.RuneStart(src[lx.i]) {
				lx.i++
			}
		}
		toks = append(toks, token{kind: kind, text: src[start:lx.i], line: line, gap: gap, nl: nl})
		gap, nl = false, false
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= utf8.RuneSelf
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// next scans one token starting at lx.i (not whitespace, not a comment) and returns its kind.
func (lx *lexer) next() tokKind {
	src := lx.src
	c := src[lx.i]
	switch {
	case isIdentStart(c):
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(src[lx.i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
				lx.i += size
				return tPunct
			}
		}
		start := lx.i
		lx.identRest()
		word := src[start:lx.i]
		// Literal prefixes: r"…", r#"…"#, b"…", b'…', br#"…"#, c"…", cr#"…"#; raw identifiers r#x.
		if lx.i < len(src) {
			switch next := src[lx.i]; {
			case (word == "r" || word == "br" || word == "cr") && (next == '"' || next == '#' && lx.rawStringAhead()):
				lx.rawString()
				return tLiteral
			case word == "r" && next == '#' && lx.i+1 < len(src) && isIdentStart(src[lx.i+1]):
				lx.i++
				lx.identRest()
				return tIdent
			case (word == "b" || word == "c") && next == '"':
				lx.quoted('"')
				return tLiteral
			case word == "b" && next == '\'':
				lx.quoted('\'')
				return tLiteral
			}
		}
		return tIdent
	case c >= '0' && c <= '9':
		lx.number()
		return tLiteral
	case c == '"':
		lx.quoted('"')
		return tLiteral
	case c == '\'':
		return lx.quote()
	case c == ':' && strings.HasPrefix(src[lx.i:], "::"):
		lx.i += 2
	case c == '-' && strings.HasPrefix(src[lx.i:], "->"), c == '=' && strings.HasPrefix(src[lx.i:], "=>"):
		lx.i += 2
	case c == '.' && (strings.HasPrefix(src[lx.i:], "...") || strings.HasPrefix(src[lx.i:], "..=")):
		lx.i += 3
	case c == '.' && strings.HasPrefix(src[lx.i:], ".."):
		lx.i += 2
	default:
		lx.i++
	}
	return tPunct
}

// identRest consumes identifier characters (ASCII, and any letter or digit beyond ASCII).
func (lx *lexer) identRest() {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c < utf8.RuneSelf {
			if !isIdentPart(c) {
				return
			}
			lx.i++
			continue
		}
		r, size := utf8.DecodeRuneInString(lx.src[lx.i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Mc, r) {
			return
		}
		lx.i += size
	}
}

// rawStringAhead reports whether lx.i starts "#…#\"" (the hashes of a raw string).
func (lx *lexer) rawStringAhead() bool {
	j := lx.i
	for j < len(lx.src) && lx.src[j] == '#' {
		j++
	}
	return j < len(lx.src) && lx.src[j] == '"'
}

// rawString consumes the rest of a raw string literal: #*"…"#* with matching hash counts.
func (lx *lexer) rawString() {
	hashes := 0
	for lx.i < len(lx.src) && lx.src[lx.i] == '#' {
		hashes++
		lx.i++
	}
	lx.i++ // opening quote
	closing := "\"" + strings.Repeat("#", hashes)
	end := strings.Index(lx.src[lx.i:], closing)
	if end < 0 {
		lx.line += strings.Count(lx.src[lx.i:], "\n")
		lx.i = len(lx.src)
		return
	}
	lx.line += strings.Count(lx.src[lx.i:lx.i+end], "\n")
	lx.i += end + len(closing)
}

// quoted consumes a string or char literal starting at the quote q at lx.i, escapes included.
// String literals may span lines; an unterminated one ends the input.
func (lx *lexer) quoted(q byte) {
	end, lines := clex.QuoteEnd(lx.src, lx.i, q == '"') // a char literal never spans lines
	lx.i, lx.line = end, lx.line+lines
}

// quote scans what follows a single quote: a char literal ('a', '\n', '\u{1F600}', '\”) or a
// lifetime or label ('a, 'static).
func (lx *lexer) quote() tokKind {
	src := lx.src
	j := lx.i + 1
	if j >= len(src) {
		lx.i = j
		return tPunct
	}
	if src[j] == '\\' {
		lx.quoted('\'')
		return tLiteral
	}
	_, size := utf8.DecodeRuneInString(src[j:])
	if j+size < len(src) && src[j+size] == '\'' {
		lx.i = j + size + 1
		return tLiteral
	}
	if isIdentStart(src[j]) {
		lx.i = j
		if strings.HasPrefix(src[j:], "r#") {
			lx.i += 2
		}
		lx.identRest()
		return tLifetime
	}
	lx.i = j
	return tPunct
}

// number consumes an integer or float literal with its suffix: 0x1F, 1_000u32, 1.5e-3f64. A "."
// followed by another "." or an identifier is not part of the number (1..2, x.0.method()).
func (lx *lexer) number() {
	src := lx.src
	start := lx.i
	hex := strings.HasPrefix(src[start:], "0x") || strings.HasPrefix(src[start:], "0X")
	digits := func() {
		for lx.i < len(src) {
			c := src[lx.i]
			if isIdentPart(c) && c < utf8.RuneSelf {
				lx.i++
				if !hex && (c == 'e' || c == 'E') && lx.i+1 < len(src) && (src[lx.i] == '+' || src[lx.i] == '-') && src[lx.i+1] >= '0' && src[lx.i+1] <= '9' {
					lx.i++
				}
				continue
			}
			return
		}
	}
	digits()
	if !hex && lx.i+1 < len(src) && src[lx.i] == '.' && src[lx.i+1] >= '0' && src[lx.i+1] <= '9' {
		lx.i++
		digits()
	} else if !hex && lx.i < len(src) && src[lx.i] == '.' && (lx.i+1 == len(src) || src[lx.i+1] != '.' && !isIdentStart(src[lx.i+1])) {
		lx.i++ // "1." is a float
	}
}
