package index

// asciitok.go tokenizes ASCII text for the rank index as bleve's unicode tokenizer does, without
// its Unicode word-break state machine: most documentation is ASCII, and that machine was a
// tenth of a crawl's CPU. Text with any other byte goes to bleve's tokenizer.

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// asciiTokenizer is bleve's unicode tokenizer (github.com/blevesearch/segment, UAX #29 word
// boundaries) for ASCII input, giving the same tokens: the same terms, byte offsets, positions
// and types. Its rules, as UAX #29 has them for ASCII:
//
//   - a word is a run of letters, digits and "_" (WB5, WB8–WB10, WB13a/b);
//   - ":", ".", "'" join two letters (WB6, WB7: "don't", "e.g", "a:b"), and ",", ";", ".", "'"
//     two digits (WB11, WB12: "1,000", "3.14");
//   - a word without a letter that holds a digit is a number; every other byte is a boundary
//     that makes no token.
//
// Its tokens come from arena: they last until the arena is reset. The fuzz test
// FuzzASCIITokenizer holds it to bleve's on any input.
type asciiTokenizer struct {
	unicode *unicode.UnicodeTokenizer // for input that is not ASCII
	arena   *tokenArena
}

// Tokenize returns the tokens of input (see asciiTokenizer).
func (t asciiTokenizer) Tokenize(input []byte) analysis.TokenStream {
	for _, c := range input {
		if c >= 0x80 {
			return t.unicode.Tokenize(input)
		}
	}
	rv := t.arena.stream(0)
	pos := 1
	for i := 0; i < len(input); {
		if !wordByte(input[i]) {
			i++
			continue
		}
		start, letter, digit := i, false, false
		for ; i < len(input) && inWord(input, i); i++ {
			letter = letter || isLetterByte(input[i])
			digit = digit || isDigit(input[i])
		}
		tok := t.arena.token()
		tok.Term, tok.Start, tok.End, tok.Position = input[start:i], start, i, pos
		tok.Type = analysis.AlphaNumeric
		if digit && !letter {
			tok.Type = analysis.Numeric
		}
		rv = append(rv, tok)
		pos++
	}
	return t.arena.keep(0, rv)
}

// inWord reports whether input[i] continues the word before it (i > 0): a letter, digit or "_",
// or a byte that joins the letters or digits on its two sides.
func inWord(input []byte, i int) bool {
	c := input[i]
	if wordByte(c) {
		return true
	}
	if i+1 >= len(input) {
		return false
	}
	prev, next := input[i-1], input[i+1]
	return joinsLetters(c) && isLetterByte(prev) && isLetterByte(next) ||
		joinsDigits(c) && isDigit(prev) && isDigit(next)
}

// wordByte reports whether c is an ASCII letter, digit or "_": a byte a word holds.
func wordByte(c byte) bool { return isLetterByte(c) || isDigit(c) || c == '_' }

// isLetterByte reports whether c is an ASCII letter.
func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// joinsLetters reports whether c joins two letters into one word (MidLetter, MidNumLet and
// Single_Quote of UAX #29 in ASCII).
func joinsLetters(c byte) bool { return c == ':' || c == '.' || c == '\'' }

// joinsDigits reports whether c joins two digits into one number (MidNum, MidNumLet and
// Single_Quote of UAX #29 in ASCII).
func joinsDigits(c byte) bool { return c == ',' || c == ';' || c == '.' || c == '\'' }

// withTokenArena returns a, or when a is an analysis.DefaultAnalyzer with bleve's unicode
// tokenizer, a copy of it that tokenizes with asciiTokenizer and whose identSplitter, if it has
// one, splits into tokens of arena: every token it makes lasts until the arena is reset.
func withTokenArena(a analysis.Analyzer, arena *tokenArena) analysis.Analyzer {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok {
		return a
	}
	u, ok := d.Tokenizer.(*unicode.UnicodeTokenizer)
	if !ok {
		return a
	}
	cp := *d
	cp.Tokenizer = asciiTokenizer{unicode: u, arena: arena}
	cp.TokenFilters = append([]analysis.TokenFilter(nil), d.TokenFilters...)
	for i, f := range cp.TokenFilters {
		if _, ok := f.(identSplitter); ok {
			cp.TokenFilters[i] = identSplitter{arena: arena}
		}
	}
	return &cp
}

// tokenArenaChunk is how many tokens a tokenArena allocates at once.
const tokenArenaChunk = 1024

// tokenArena holds the tokens of one analysis at a time, for the analyzers of one rankAcc,
// which analyses every field of every document of a segment and has counted a text's terms
// before it analyses the next: reused rather than made anew for each text, they were a tenth
// of the bytes a crawl allocates. It holds as many tokens as the longest text had. It is not
// safe for concurrent use.
type tokenArena struct {
	chunks      [][]analysis.Token
	chunk, next int // the chunk in use and its next free token
	// streams are the token lists' storage, by user: the tokenizer's (0) and identSplitter's
	// (1), which reads the tokenizer's list as it makes its own.
	streams [2]analysis.TokenStream
}

// reset makes every token of the arena free again: those handed out before must not be used.
func (a *tokenArena) reset() { a.chunk, a.next = 0, 0 }

// token returns a zeroed token that lasts until the next reset; from a nil arena, a new one.
func (a *tokenArena) token() *analysis.Token {
	if a == nil {
		return &analysis.Token{}
	}
	if a.chunk < len(a.chunks) && a.next == len(a.chunks[a.chunk]) {
		a.chunk, a.next = a.chunk+1, 0
	}
	if a.chunk == len(a.chunks) {
		a.chunks = append(a.chunks, make([]analysis.Token, tokenArenaChunk))
	}
	t := &a.chunks[a.chunk][a.next]
	a.next++
	*t = analysis.Token{}
	return t
}

// stream returns user's token list storage, empty (nil from a nil arena); keep gives it back,
// grown.
func (a *tokenArena) stream(user int) analysis.TokenStream {
	if a == nil {
		return nil
	}
	return a.streams[user][:0]
}

// keep keeps ts's storage as user's for the next stream call, unless a is nil, and returns ts.
func (a *tokenArena) keep(user int, ts analysis.TokenStream) analysis.TokenStream {
	if a != nil {
		a.streams[user] = ts
	}
	return ts
}
