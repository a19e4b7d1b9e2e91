// Package clex holds the lexical pieces that the hand-written tokenizers of C-family languages
// (rustapi for Rust, swiftsrc for Swift, dts for TypeScript declarations, jsapi for JavaScript)
// share: runs of ASCII white space, line comments, block comments and quoted literals, each
// measured in bytes and line feeds, and the simple escapes of string literals. What a language
// adds (Unicode white space, doc comments, directives, a byte order mark, string interpolation)
// stays in its tokenizer. The functions take the source as a string or a byte slice, never
// panic on any offset inside it, and cost time linear in what they pass over. It imports
// nothing.
package clex

// Source is the text a tokenizer reads: a string or a byte slice.
type Source interface{ ~string | ~[]byte }

// IsSpace reports whether c is ASCII white space: a space, tab, line feed, carriage return,
// form feed or vertical tab.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Space returns the end of the run of ASCII white space (see IsSpace) that starts at src[i] and
// how many line feeds it holds; i and 0 when src[i] is not white space.
func Space[S Source](src S, i int) (end, lines int) {
	for i < len(src) && IsSpace(src[i]) {
		if src[i] == '\n' {
			lines++
		}
		i++
	}
	return i, lines
}

// TriviaKind is the kind of what a tokenizer passes over between tokens, as Trivia finds it.
type TriviaKind uint8

// The kinds of trivia.
const (
	NoTrivia     TriviaKind = iota // a token starts there, or the source ends
	Blank                          // a run of ASCII white space (Space)
	LineComment                    // "//" up to the line feed, which it leaves out (LineEnd)
	BlockComment                   // "/*" through its "*/", or to the end when unclosed (BlockEnd)
)

// Trivia returns the kind and the end of the white space or comment that starts at src[i], and
// how many line feeds it holds; NoTrivia, i and 0 when none starts there (i == len(src)
// included). nested is BlockEnd's. A tokenizer calls it until NoTrivia, reads doc comments out
// of src[i:end] by their kind, and handles what its language adds to white space itself.
func Trivia[S Source](src S, i int, nested bool) (kind TriviaKind, end, lines int) {
	switch {
	case i >= len(src):
		return NoTrivia, i, 0
	case IsSpace(src[i]):
		end, lines = Space(src, i)
		return Blank, end, lines
	case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
		return LineComment, LineEnd(src, i), 0
	case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
		end, lines = BlockEnd(src, i, nested)
		return BlockComment, end, lines
	}
	return NoTrivia, i, 0
}

// LineEnd returns the index of the first line feed at or after src[i], or len(src): where a line
// comment that starts at i ends.
func LineEnd[S Source](src S, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i
}

// BlockEnd returns the end of the block comment that opens with "/*" at src[i] (the index after
// its closing "*/", or len(src) when nothing closes it) and how many line feeds it holds. When
// nested, each "/*" inside opens a comment that needs its own "*/", as in Rust and Swift;
// otherwise the first "*/" after the opening one closes it, as in C, JavaScript and TypeScript.
func BlockEnd[S Source](src S, i int, nested bool) (end, lines int) {
	if !nested {
		for j := i + 2; j < len(src); j++ {
			switch {
			case src[j] == '*' && j+1 < len(src) && src[j+1] == '/':
				return j + 2, lines
			case src[j] == '\n':
				lines++
			}
		}
		return len(src), lines
	}
	depth := 0
	for i < len(src) {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			depth++
			i += 2
			continue
		case src[i] == '*' && i+1 < len(src) && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i, lines
			}
			continue
		case src[i] == '\n':
			lines++
		}
		i++
	}
	return i, lines
}

// QuoteEnd returns the end of the quoted literal that opens with the quote src[i] (the index
// after its closing quote, the same byte as the opening one) and how many line feeds it holds. A
// backslash escapes the byte after it, a line feed too. An unescaped line feed ends a literal
// that is not multiline unclosed, before the line feed; any literal ends unclosed at len(src),
// which end never passes, even after a backslash at the very end.
func QuoteEnd[S Source](src S, i int, multiline bool) (end, lines int) {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
			if i < len(src) && src[i] == '\n' {
				lines++
			}
		case q:
			return i + 1, lines
		case '\n':
			if !multiline {
				return i, lines
			}
			lines++
		}
	}
	return len(src), lines
}

// Escape returns the byte that the simple escape sequence made of a backslash and c stands for in
// a Rust or Swift string literal: \n, \t, \r, \0, \\, \' and \". ok is false for any other c;
// the other escapes (\u{…}, Rust's \x41 and line continuations, Swift's \( … ) interpolation)
// differ between the languages and stay with their readers.
func Escape(c byte) (b byte, ok bool) {
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case '0':
		return 0, true
	case '\\', '\'', '"':
		return c, true
	}
	return 0, false
}
