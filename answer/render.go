package answer

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Markdown renderings shared by the answers. Text content is for people and models; it mirrors the
// structured content, compactly.

// maxSynopsis bounds a first sentence in an outline, in bytes.
const maxSynopsis = 200

// Internal reports whether a symbol's doc marks it internal with a JSDoc or TSDoc @internal tag
// on a line of its own (https://tsdoc.org/pages/tags/internal/): declared, and so listed, but not
// meant for the package's users. Outlines list such symbols after the others, marked.
func Internal(s *docidx.Symbol) bool {
	if !strings.Contains(s.Doc, internalTag) {
		return false
	}
	for line := range strings.Lines(s.Doc) {
		if isInternalTag(strings.TrimSpace(line)) {
			return true
		}
	}
	return false
}

// internalTag is the doc tag Internal looks for.
const internalTag = "@internal"

// isInternalTag reports whether a trimmed line starts with the @internal tag, alone or before
// white space.
func isInternalTag(t string) bool {
	rest, ok := strings.CutPrefix(t, internalTag)
	if !ok || rest == "" {
		return ok
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsSpace(r)
}

// FirstSentence returns the first sentence of a doc comment as one line: up to the first period
// followed by a space or the end, or the first blank line, at most maxSynopsis bytes. A leading
// @internal tag is not a sentence: Internal tells it, and the sentence is the text after it.
//
// It runs once per symbol of an outline (thousands for a large package), so it makes one pass:
// white space is collapsed as it is met, and the pass stops at the sentence's end, or once more
// than maxSynopsis bytes are kept, since clip then cuts whatever follows.
func FirstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	for isInternalTag(doc) {
		doc = strings.TrimSpace(doc[len(internalTag):])
	}
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	b := make([]byte, 0, min(len(doc), maxSynopsis+utf8.UTFMax))
	space := false // white space met since the last byte kept
	for i := 0; i < len(doc) && len(b) <= maxSynopsis; {
		c := doc[i]
		size := 1
		isSpace := asciiSpace[c] != 0
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(doc[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = true
			i += size
			continue
		}
		if space {
			if n := len(b); n > 0 && (b[n-1] == '.' || b[n-1] == '!' || b[n-1] == '?') &&
				!isAbbrevEnd(string(b[bytes.LastIndexByte(b[:n-1], ' ')+1:n-1])) {
				break // the sentence ends before this white space
			}
			b = append(b, ' ')
			space = false
		}
		if size == 1 {
			b = append(b, c)
		} else {
			b = append(b, doc[i:i+size]...)
		}
		i += size
	}
	return Clip(string(b), maxSynopsis)
}

// asciiSpace marks the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [256]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}

// isAbbrevEnd reports whether s ends with a common abbreviation ("e.g", "i.e", "etc", "vs").
func isAbbrevEnd(s string) bool {
	w := s[strings.LastIndexByte(s, ' ')+1:]
	switch strings.ToLower(w) {
	case "e.g", "i.e", "etc", "vs", "cf":
		return true
	}
	return false
}

// Clip shortens s to at most n bytes on a word or character boundary, adding "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !isBoundary(s, cut) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

func isBoundary(s string, i int) bool { return i >= len(s) || s[i] < 0x80 || s[i] >= 0xC0 }

// CompactSignature returns a declaration on one line: its first line, with " …" when the
// declaration goes on (a struct's fields, an interface's methods).
func CompactSignature(sig string) string {
	sig = strings.TrimSpace(sig)
	line, rest, more := strings.Cut(sig, "\n")
	line = strings.TrimRight(line, " \t")
	if more && strings.TrimSpace(rest) != "" {
		line += " …"
		if strings.HasSuffix(strings.TrimSpace(rest), "}") && strings.HasSuffix(line, "{ …") {
			line += " }"
		}
	}
	return Clip(line, 300)
}

// headingPath joins a section's heading path the way search hits do.
func headingPath(h []string) string { return strings.Join(h, " › ") }

// renderSection returns a section as markdown: its heading, at the depth of its heading path,
// then its text. Sections rendered in order and concatenated give the whole document.
func renderSection(sec *docidx.Section) string {
	var b strings.Builder
	if n := len(sec.Heading); n > 0 {
		b.WriteString(strings.Repeat("#", min(n, 6)))
		b.WriteByte(' ')
		b.WriteString(sec.Heading[n-1])
		b.WriteString("\n\n")
	}
	text := strings.TrimSpace(sec.Text)
	if text != "" {
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// fence returns code in a fenced block long enough not to be closed by a fence inside code.
func fence(lang, code string) string {
	f := "```"
	for strings.Contains(code, f) {
		f += "`"
	}
	return f + lang + "\n" + strings.TrimRight(code, "\n") + "\n" + f + "\n"
}

// inlineCode returns s as a markdown code span.
func inlineCode(s string) string {
	f := "`"
	for strings.Contains(s, f) {
		f += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// codeLang is the fence language of an ecosystem's declarations.
func codeLang(eco docidx.Ecosystem) string {
	switch eco {
	case docidx.Go:
		return "go"
	case docidx.NPM:
		return "ts"
	case docidx.PyPI:
		return "python"
	case docidx.Cargo:
		return "rust"
	case docidx.Swift:
		return "swift"
	}
	return ""
}
