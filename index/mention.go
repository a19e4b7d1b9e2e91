package index

import (
	"github.com/docidx/docidx"

	"regexp"
	"strings"
)

// Limits of siblingMentions.
const (
	maxMentionSentence = 320 // bytes of one mentioning sentence
	maxMentions        = 4   // mentioning sentences per member
)

// codeSpan matches an inline code span or a bracketed link text of a doc ("`args`",
// "[`Self::len`]", "[Client.Do]").
var codeSpan = regexp.MustCompile("`([^`\n]{1,80})`|\\[([A-Za-z_][\\w.:]{0,80})\\]")

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
		for _, m := range codeSpan.FindAllStringSubmatchIndex(s.Doc, -1) {
			lo, hi := m[2], m[3]
			if lo < 0 {
				lo, hi = m[4], m[5]
			}
			name := mentionedName(s.Doc[lo:hi], s.Parent)
			j, ok := members[key{s.Package, s.Parent, name}]
			if !ok || j == i || said[j] || count[j] >= maxMentions {
				continue
			}
			said[j] = true
			count[j]++
			out[j] += identWords(s.Name) + "\n" + sentenceAround(s.Doc, m[0], m[1]) + "\n"
		}
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
