package index

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

// Limits of siblingMentions and proseMentions.
const (
	maxMentionSentence = 320 // bytes of one mentioning sentence
	maxMentions        = 4   // mentioning sentences per member
	maxDefinition      = 640 // bytes of one definition (see definitionAt)
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
// said holds the same sentences with the sibling that says each (its key, "Request.query_string"),
// to show (see withMention).
func siblingMentions(syms []docidx.Symbol) (words map[int]string, said map[int][]proseMention) {
	type key struct{ pkg, parent, name string }
	members := map[key]int{}
	for i, s := range syms {
		if s.Parent != "" {
			members[key{s.Package, s.Parent, s.Name}] = i
		}
	}
	if len(members) < 2 {
		return nil, nil
	}
	words, said = map[int]string{}, map[int][]proseMention{}
	for i, s := range syms {
		if s.Parent == "" || s.Doc == "" {
			continue
		}
		spoken := map[int]bool{} // the members s's doc has spoken of: once each
		doc := proseOf(s.Doc)
		codeSpans(doc, func(spanLo, spanHi, lo, hi int) {
			name := mentionedName(doc[lo:hi], s.Parent)
			j, ok := members[key{s.Package, s.Parent, name}]
			if !ok || j == i || spoken[j] || len(said[j]) >= maxMentions {
				return
			}
			spoken[j] = true
			sentence := proseSentence(doc, spanLo, spanHi)
			words[j] += identWords(s.Name) + "\n" + sentence + "\n"
			said[j] = append(said[j], proseMention{where: s.Key(), sentence: sentence})
		})
	}
	return words, said
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

// proseMention is a sentence that names a symbol, and where it is said: "README" or a docs
// page's title and the section's title ("README › Usage"), or the sibling member's key
// ("Request.query_string"). def says the sentence is the symbol's definition in the prose: the
// list item or table row that opens with its name (definitionAt), whole.
type proseMention struct {
	where, sentence string
	def             bool
}

// proseMentions returns, by index into syms, what a package version's own prose says of its
// symbols: for each inline code span or bracketed link of a README or docs page section that
// names one symbol of the version (symbolRefs.resolve), the sentence around it. The pages that
// speak of a symbol use the words its users do, as anchor text does for the page a link points
// at: parking_lot's README says "To allow sending `MutexGuard`s … to other threads, enable the
// `send_guard` option" of a type whose own doc speaks of RAII and unlocking. A list item or
// table row that opens with the name defines the symbol: it is its mention whole, up to
// maxDefinition bytes, and comes before the symbol's other mentions ("* `maxAge` Maximum age in
// ms. Items are not pro-actively pruned out as they age, …" of an options object's property
// without a doc of its own). A symbol gets at most maxMentions sentences, in the order of docs
// after its definitions, each once.
func proseMentions(docs []docidx.Document, syms []docidx.Symbol) map[int][]proseMention {
	if len(syms) == 0 || len(docs) == 0 {
		return nil
	}
	var out map[int][]proseMention
	refs := newSymbolRefs(syms)
	for _, d := range docs {
		if docidx.IsReleaseHistory(d.Path) {
			continue // its items say what changed, not what a symbol is
		}
		page := "README"
		if d.Kind != docidx.DocReadme {
			page = d.Title
		}
		for _, s := range d.Sections {
			text := proseOf(s.Text)
			where := page
			if t := s.Title(); t != "" && t != page {
				where += sectionSep + t
			}
			codeSpans(text, func(spanLo, spanHi, lo, hi int) {
				j, ok := refs.resolve(text[lo:hi])
				def := ok && definitionAt(text, spanLo)
				if !ok || len(out[j]) >= maxMentions && !def {
					return
				}
				m := proseMention{where, proseSentence(text, spanLo, spanHi), def}
				if def {
					m.sentence = definition(text, spanLo, spanHi)
				}
				for _, o := range out[j] {
					if o.sentence == m.sentence {
						return
					}
				}
				if out == nil {
					out = map[int][]proseMention{}
				}
				if !def {
					out[j] = append(out[j], m)
					return
				}
				defs := 0 // the definitions already first
				for defs < len(out[j]) && out[j][defs].def {
					defs++
				}
				if defs < maxMentions {
					out[j] = slices.Insert(out[j], defs, m)
					out[j] = out[j][:min(len(out[j]), maxMentions)]
				}
			})
		}
	}
	return out
}

// proseOf returns a section's markdown without its fenced code blocks, each paragraph on one
// line (a list item or table row starts a line of its own), so that a sentence a README wraps
// over lines is one sentence.
func proseOf(md string) string {
	var b strings.Builder
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			b.WriteByte('\n')
			continue
		}
		switch {
		case t == "" || linkDefinition(t):
			b.WriteByte('\n')
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") && !startsBlock(t):
			b.WriteByte(' ')
			b.WriteString(t)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

// linkDefinition reports whether a trimmed markdown line is a link reference definition
// ("[Compress]: https://…"), whose bracketed name is no mention.
func linkDefinition(t string) bool {
	if t[0] != '[' {
		return false
	}
	i := strings.Index(t, "]:")
	return i > 1 && !strings.ContainsAny(t[1:i], "[]")
}

// proseSentence returns the sentence of prose (proseOf) that holds prose[lo:hi], at most
// maxMentionSentence bytes around it: a sentence ends at a line's end or at ".", "!" or "?"
// before a space, not at the dot of a path or URL ("`reflect.DeepEqual`", "pkg.go.dev"). A
// sentence longer than that is cut between words, each cut marked "…" as a passage marks its
// cuts: a cargo feature's "Items that need it: `a`, `b`, …" lists hundreds of bytes of names,
// and a cut at the byte bound showed half a name ("`tracing_subscriber::filter::FromE") or
// half a character.
func proseSentence(prose string, lo, hi int) string {
	start, cutStart := max(0, lo-maxMentionSentence/2), lo > maxMentionSentence/2
	for i := lo - 1; i >= start; i-- {
		if prose[i] == '\n' || i+1 < lo && prose[i+1] == ' ' && strings.IndexByte(".!?", prose[i]) >= 0 {
			start, cutStart = i+1, false
			break
		}
	}
	end, cutEnd := min(len(prose), hi+maxMentionSentence/2), hi+maxMentionSentence/2 < len(prose)
	for i := hi; i < end; i++ {
		if prose[i] == '\n' {
			end, cutEnd = i, false
			break
		}
		if strings.IndexByte(".!?", prose[i]) >= 0 && (i+1 == len(prose) || prose[i+1] == ' ' || prose[i+1] == '\n') {
			end, cutEnd = i+1, false
			break
		}
	}
	if cutStart {
		// After the first space of the window, else at its first whole character.
		if i := strings.IndexByte(prose[start:lo], ' '); i >= 0 {
			start += i + 1
		}
		for start < lo && !utf8.RuneStart(prose[start]) {
			start++
		}
	}
	if cutEnd {
		if i := strings.LastIndexByte(prose[hi:end], ' '); i >= 0 {
			end = hi + i
		}
		for end > hi && !utf8.RuneStart(prose[end]) {
			end--
		}
	}
	s := strings.TrimSpace(prose[start:end])
	if cutStart {
		s = "… " + s
	}
	if cutEnd {
		s += " …"
	}
	return s
}

// definitionAt reports whether the code span at prose[lo] (proseOf) opens its line but for a
// list item's or table row's marker and emphasis: "* `maxAge` Maximum age in ms.", "1. **`strict`**:
// …", "| `timeout` | 30 | …": the item that defines what the span names.
func definitionAt(prose string, lo int) bool {
	head := strings.TrimSpace(prose[strings.LastIndexByte(prose[:lo], '\n')+1 : lo])
	digits := 0
	for digits < len(head) && '0' <= head[digits] && head[digits] <= '9' {
		digits++
	}
	switch {
	case head == "":
		return false // a paragraph that opens with a name is prose about it, not an item
	case digits > 0 && digits < len(head) && (head[digits] == '.' || head[digits] == ')'):
		head = head[digits+1:]
	case strings.IndexByte("-*+|", head[0]) >= 0:
		head = head[1:]
	default:
		return false
	}
	return strings.Trim(head, " *_") == ""
}

// definition returns the list item or table row of prose (proseOf) from the code span
// prose[lo:hi] to its line's end, the emphasis that closes around the span left out, cut after
// its last sentence that ends within maxDefinition bytes (else at its last space within them,
// or on a character boundary, with " …").
func definition(prose string, lo, hi int) string {
	line := prose[hi:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(prose[lo:hi] + strings.TrimLeft(line, "*_"))
	if len(line) <= maxDefinition {
		return line
	}
	for i := maxDefinition - 1; i > 0; i-- {
		if strings.IndexByte(".!?", line[i]) >= 0 && line[i+1] == ' ' {
			return line[:i+1]
		}
	}
	if i := strings.LastIndexByte(line[:maxDefinition], ' '); i > 0 {
		return line[:i] + " …" // between words, as proseSentence cuts
	}
	for i := maxDefinition; i > 0; i-- {
		if utf8.RuneStart(line[i]) {
			return line[:i] + " …"
		}
	}
	return ""
}

// startsBlock reports whether a trimmed markdown line starts a block of its own: a list item, a
// table row, a heading or a quote.
func startsBlock(t string) bool {
	switch t[0] {
	case '-', '*', '+', '|', '#', '>':
		return true
	}
	i := 0
	for i < len(t) && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	return i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')')
}

// symbolRefs finds the symbol of a package version a code span names.
type symbolRefs struct {
	syms                  []docidx.Symbol
	byQual, byKey, byName map[string][]int
}

// newSymbolRefs indexes syms by qualified name, key (Parent.Name) and name, each with "::"
// written as ".".
func newSymbolRefs(syms []docidx.Symbol) *symbolRefs {
	r := &symbolRefs{syms: syms, byQual: map[string][]int{}, byKey: map[string][]int{}, byName: map[string][]int{}}
	for i := range syms {
		s := &syms[i]
		if s.Kind == docidx.KindPackage {
			continue // a package is what all of its prose speaks of
		}
		r.byQual[dotted(s.QualifiedName)] = append(r.byQual[dotted(s.QualifiedName)], i)
		r.byKey[dotted(s.Key())] = append(r.byKey[dotted(s.Key())], i)
		r.byName[s.Name] = append(r.byName[s.Name], i)
	}
	return r
}

// dotted writes Rust's and Swift's path separator "::" as ".".
func dotted(s string) string { return strings.ReplaceAll(s, "::", ".") }

// resolve returns the symbol a code span names: the one whose qualified name, else key, else
// name it spells once the span's call, generic arguments and receiver are taken off
// ("`Builder::max_headers(100)`", "`.passthrough()`", "`Vec<T>`", "`self.args`"). A name that
// several symbols bear (overloads of one qualified name aside) names none: `new`, `get`.
func (r *symbolRefs) resolve(span string) (int, bool) {
	span = strings.TrimSpace(span)
	if i := strings.IndexAny(span, "(<[ "); i >= 0 {
		span = span[:i]
	}
	span = strings.TrimSuffix(dotted(strings.TrimLeft(span, ".&*#@")), "!")
	for _, p := range []string{"self.", "this.", "Self."} {
		span = strings.TrimPrefix(span, p)
	}
	if span == "" {
		return 0, false
	}
	for _, m := range []map[string][]int{r.byQual, r.byKey, r.byName} {
		if ids := m[span]; len(ids) > 0 {
			return r.one(ids)
		}
	}
	return 0, false
}

// one returns the first of ids when they are all one qualified name (overloads).
func (r *symbolRefs) one(ids []int) (int, bool) {
	q := r.syms[ids[0]].QualifiedName
	for _, i := range ids[1:] {
		if r.syms[i].QualifiedName != q {
			return 0, false
		}
	}
	return ids[0], true
}

// mentionMark starts the part of a symbol's stored text that holds what its package's prose
// says of it (storeMentions), after its doc; mentionSep ends a mention's place, definitionSep a
// definition's (proseMention.def). A snapshot written before definitions has none; a reader
// before them passes over their lines.
const (
	mentionMark   = "\n\x1e"
	mentionSep    = "\x1f"
	definitionSep = "\x1d"
)

// storeMentions returns the stored form of ms, to follow a symbol's stored doc (without
// marks, see withoutMarks): mentionMark, then a line per mention, its place, mentionSep (or
// definitionSep) and its sentence, each on one line and without marks.
func storeMentions(ms []proseMention) string {
	if len(ms) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(mentionMark)
	for _, m := range ms {
		b.WriteByte('\n')
		b.WriteString(strings.ReplaceAll(withoutMarks(m.where), "\n", " "))
		if m.def {
			b.WriteString(definitionSep)
		} else {
			b.WriteString(mentionSep)
		}
		b.WriteString(strings.ReplaceAll(withoutMarks(m.sentence), "\n", " "))
	}
	return b.String()
}

// withoutMarks returns s without the control characters storeMentions marks its parts with,
// which no documentation writes but a file may hold: a stored doc holding one would otherwise
// be cut there (splitMentions).
func withoutMarks(s string) string {
	if !strings.ContainsAny(s, mentionMark[1:]+mentionSep+definitionSep) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == rune(mentionMark[1]) || r == rune(mentionSep[0]) || r == rune(definitionSep[0]) {
			return -1
		}
		return r
	}, s)
}

// splitMentions splits a hit's stored text into its own text and the lines storeMentions
// wrote, "" for none (a section, a symbol no prose names, a snapshot written before them).
func splitMentions(stored string) (text, said string) {
	text, said, _ = strings.Cut(stored, mentionMark)
	return text, said
}

// mentioningNames returns the keys of the sibling members whose docs said (splitMentions) holds
// mentions of, as words ("Request.query_string" as "Request.query string"), for the symbol
// titled title (its qualified name): the places that begin with its parent's name and a dot,
// as siblingMentions writes them (Symbol.Key), not the places of its package's prose
// ("README › Usage", "CHANGELOG").
func mentioningNames(said, title string) string {
	rest := strings.TrimRight(title[:strings.LastIndexAny(title, ".:")+1], ".:")
	parent := rest[strings.LastIndexAny(rest, ".:/")+1:]
	if said == "" || parent == "" {
		return ""
	}
	var b strings.Builder
	for line := range strings.SplitSeq(said, "\n") {
		if where, _, ok := strings.Cut(line, mentionSep); ok && strings.HasPrefix(where, parent+".") {
			b.WriteString(strings.ReplaceAll(where, "_", " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// withMention returns a symbol hit's passage p (showing the question's words shown) followed
// by the sentence of said (splitMentions) that shows the question's words p does not, the
// most weighty of them, with its place: "(README › Features) Lock guards can be sent …". A
// symbol ranked by what its package's prose says of it (the mention field) then shows it,
// however short its own doc. A symbol without a passage of its own (no doc) shows its first
// definition first, whatever words it holds: the prose's item for it is its doc. p is returned
// as it is when no sentence adds a word and it has no definition to show.
func withMention(p string, shown uint64, said string, pq *passageQuery) (string, uint64) {
	said = strings.TrimPrefix(said, "\n")
	if p == "" {
		for line := range strings.SplitSeq(said, "\n") {
			if where, sentence, ok := strings.Cut(line, definitionSep); ok {
				p, shown = "("+where+") "+sentence, pq.shownWords(sentence)
				break
			}
		}
	}
	best, bestWords, bestScore := "", uint64(0), 0.0
	for line := range strings.SplitSeq(said, "\n") {
		where, sentence, ok := strings.Cut(line, mentionSep)
		if !ok {
			where, sentence, ok = strings.Cut(line, definitionSep)
		}
		if !ok || strings.HasSuffix(p, sentence) {
			continue
		}
		words := pq.shownWords(sentence)
		if !pq.addsWords(words, shown) {
			continue
		}
		if sc := pq.score(words &^ shown); sc > bestScore {
			best, bestWords, bestScore = "("+where+") "+sentence, words, sc
		}
	}
	if best == "" {
		return p, shown
	}
	if p != "" {
		p += "\n"
	}
	return p + best, shown | bestWords
}
