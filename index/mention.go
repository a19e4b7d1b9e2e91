package index

import (
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Limits of siblingMentions.
const (
	maxMentionSentence = 320 // bytes of one mentioning sentence
	maxMentions        = 4   // mentioning sentences per member
)

// maxSpanName bounds the characters of a code span codeSpans finds, and those of a link text
// after its first.
const maxSpanName = 80

// codeSpans calls fn for each inline code span or bracketed link text of a doc, left to right
// and not overlapping ("`args`", "[`Self::len`]", "[Client.Do]"): with the span's bounds and
// those of the name it holds. It finds what the regular expression
// "`([^`\n]{1,80})`|\[([A-Za-z_][\w.:]{0,80})\]" finds (a backtick, up to 80 characters
// but a backtick or newline, a backtick; or a bracket, an identifier's first character, up to 80
// of word characters, dots and colons, a bracket), scanning once: the expression took 1.1 of a
// crawl's 56 CPU-seconds (the Go, npm and Python caches of scripts/corpus.sh).
func codeSpans(doc string, fn func(lo, hi, nameLo, nameHi int)) {
	for i := 0; i < len(doc); i++ {
		switch doc[i] {
		case '`':
			j, n := i+1, 0
			for j < len(doc) && doc[j] != '`' && doc[j] != '\n' && n < maxSpanName {
				_, size := utf8.DecodeRuneInString(doc[j:])
				j += size
				n++
			}
			if n > 0 && j < len(doc) && doc[j] == '`' {
				fn(i, j+1, i+1, j)
				i = j
			}
		case '[':
			if i+1 >= len(doc) || !isIdentStart(doc[i+1]) {
				continue
			}
			j := i + 2
			for j < len(doc) && j-i-2 < maxSpanName && (isNameByte(doc[j]) || doc[j] == '.' || doc[j] == ':') {
				j++
			}
			if j < len(doc) && doc[j] == ']' {
				fn(i, j+1, i+1, j)
				i = j
			}
		}
	}
}

// isIdentStart reports whether c is an ASCII letter or an underscore; isNameByte, that or an
// ASCII digit (a regular expression's \w).
func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isNameByte(c byte) bool   { return isIdentStart(c) || '0' <= c && c <= '9' }

// siblingMentions returns, by index into syms, the words the docs of a member's siblings (the
// other members of its type or class, in its package) say of it: for each inline code span or
// link that names a sibling ("use `args` for the parsed values" in query_string's doc), the
// mentioning member's name as words and the sentence around the span. Like anchor text in web
// search (Craswell, Hawking and Robertson, "Effective site finding using link anchor
// information", SIGIR 2001), they connect a member to the words its neighbours use for it when
// its own doc uses others: werkzeug's Request.args says "URL parameters", its sibling
// query_string says "use args for the parsed values". A sibling's doc speaks of a member once
// (its first mention), and a member gets at most maxMentions sentences, in the order of syms.
func siblingMentions(syms []docidx.Symbol) map[int]string {
	type key struct{ pkg, parent, name string }
	members := map[key]int{}
	for i, s := range syms {
		if s.Parent != "" {
			members[key{s.Package, s.Parent, s.Name}] = i
		}
	}
	if len(members) < 2 {
		return nil
	}
	out := map[int]string{}
	count := map[int]int{}
	for i, s := range syms {
		if s.Parent == "" || s.Doc == "" {
			continue
		}
		said := map[int]bool{} // the members s's doc has spoken of: once each
		codeSpans(s.Doc, func(spanLo, spanHi, lo, hi int) {
			name := mentionedName(s.Doc[lo:hi], s.Parent)
			j, ok := members[key{s.Package, s.Parent, name}]
			if !ok || j == i || said[j] || count[j] >= maxMentions {
				return
			}
			said[j] = true
			count[j]++
			out[j] += identWords(s.Name) + "\n" + sentenceAround(s.Doc, spanLo, spanHi) + "\n"
		})
	}
	return out
}

// mentionedName returns the member name a code span names: "args", "self.args", "Request.args",
// "Self::len", "len()" and "len(x)" all name the member of parent they end with.
func mentionedName(span, parent string) string {
	span = strings.TrimSpace(span)
	if i := strings.IndexByte(span, '('); i >= 0 {
		span = span[:i]
	}
	for _, sep := range []string{"::", "."} {
		if i := strings.LastIndex(span, sep); i >= 0 {
			owner := span[:i]
			if owner != "self" && owner != "Self" && owner != "this" && !strings.HasSuffix(owner, parent) {
				return ""
			}
			span = span[i+len(sep):]
		}
	}
	return strings.TrimPrefix(span, "#")
}

// sentenceAround returns the sentence of text that holds text[lo:hi], at most
// maxMentionSentence bytes around it.
func sentenceAround(text string, lo, hi int) string {
	start := max(0, lo-maxMentionSentence/2)
	if i := strings.LastIndexAny(text[start:lo], ".!?\n"); i >= 0 {
		start += i + 1
	}
	end := min(len(text), hi+maxMentionSentence/2)
	if i := strings.IndexAny(text[hi:end], ".!?\n"); i >= 0 {
		end = hi + i + 1
	}
	return strings.TrimSpace(text[start:end])
}
