package index

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docidx/docidx"
)

func TestMentionedName(t *testing.T) {
	for span, want := range map[string]string{
		"args": "args", "self.args": "args", "Request.args": "args", "wsgikit.Request.args": "args",
		"Self::len": "len", "len()": "len", "len(x)": "len", "Other.args": "", "#args": "args",
	} {
		if got := mentionedName(span, "Request"); got != want {
			t.Errorf("mentionedName(%q) = %q, want %q", span, got, want)
		}
	}
}

func TestSiblingMentionsLimits(t *testing.T) {
	syms := []docidx.Symbol{{Name: "target", Parent: "T", Package: "p"}}
	for i := 0; i < maxMentions+3; i++ {
		syms = append(syms, docidx.Symbol{Name: "m" + string(rune('a'+i)), Parent: "T", Package: "p", Doc: "Prefer `target`, which is faster. Then `target` again."})
	}
	// A member of another type, or of another package, with the same name is not mentioned.
	syms = append(syms, docidx.Symbol{Name: "other", Parent: "U", Package: "p", Doc: "Like `target`."},
		docidx.Symbol{Name: "self", Parent: "T", Package: "p", Doc: "Not `self`-mentions: `self`."})
	got, _ := siblingMentions(syms)
	if n := len(got); n != 1 {
		t.Fatalf("%d members mentioned, want 1: %v", n, got)
	}
	if c := countLines(got[0]); c != 2*maxMentions {
		t.Errorf("target has %d lines of mentions, want %d (name and sentence, %d times):\n%s", c, 2*maxMentions, maxMentions, got[0])
	}
}

func countLines(s string) int {
	n := 0
	for _, c := range s {
		if c == '\n' {
			n++
		}
	}
	return n
}

// TestSiblingMentionsOncePerSibling: a doc that names a member many times does not crowd out the
// other siblings that name it (werkzeug's values names args three times before query_string).
func TestSiblingMentionsOncePerSibling(t *testing.T) {
	syms := []docidx.Symbol{
		{Name: "args", Parent: "Request", Package: "p"},
		{Name: "values", Parent: "Request", Package: "p", Doc: "Combines `args` and `form`. For GET, only `args`. Really, `args`; and `args` again, `args`."},
		{Name: "query_string", Parent: "Request", Package: "p", Doc: "The raw value, use `args` for the parsed values."},
	}
	got, said := siblingMentions(syms)
	if !strings.Contains(got[0], "raw value") {
		t.Errorf("args's mentions lack query_string's sentence:\n%s", got[0])
	}
	// What is shown of them names the sibling that says it.
	if want := (proseMention{"Request.query_string", "The raw value, use `args` for the parsed values.", false}); !slices.Contains(said[0], want) {
		t.Errorf("args's shown mentions %+v lack %+v", said[0], want)
	}
}

// TestSiblingMentionSentence: a sibling's sentence is whole, as a README's is (proseSentence):
// not cut at the dot of a path or of "e.g.", joined over the lines a doc comment wraps it on,
// and not taken from a code block.
func TestSiblingMentionSentence(t *testing.T) {
	syms := []docidx.Symbol{
		{Name: "remove", Parent: "Map", Package: "p"},
		{Name: "shift_remove", Parent: "Map", Package: "p", Doc: "Like `remove`, but compares with reflect.DeepEqual and keeps\nthe order of the other entries.\n\n```\nm.remove(k) // not prose\n```"},
	}
	_, said := siblingMentions(syms)
	want := proseMention{"Map.shift_remove", "Like `remove`, but compares with reflect.DeepEqual and keeps the order of the other entries.", false}
	if !slices.Equal(said[0], []proseMention{want}) {
		t.Errorf("remove's mentions = %+v, want %+v", said[0], []proseMention{want})
	}
}

// TestCodeSpans checks codeSpans against the regular expression it stands for, on docs made at
// random of the characters that matter to it (backticks, brackets, newlines, name characters,
// a multi-byte letter and an invalid byte), long runs included.
func TestCodeSpans(t *testing.T) {
	re := regexp.MustCompile("`([^`\n]{1,80})`|\\[([A-Za-z_][\\w.:]{0,80})\\]")
	find := func(doc string) (got [][]int) {
		codeSpans(doc, func(lo, hi, nameLo, nameHi int) { got = append(got, []int{lo, hi, nameLo, nameHi}) })
		return got
	}
	want := func(doc string) (out [][]int) {
		for _, m := range re.FindAllStringSubmatchIndex(doc, -1) {
			lo, hi := m[2], m[3]
			if lo < 0 {
				lo, hi = m[4], m[5]
			}
			out = append(out, []int{m[0], m[1], lo, hi})
		}
		return out
	}
	pieces := []string{"`", "[", "]", "\n", " ", "a", "Z", "_", "1", ".", ":", "é", "\xff", "(", strings.Repeat("x", 79), strings.Repeat("y", 80), strings.Repeat("ü", 40)}
	rng := rand.New(rand.NewPCG(1, 2))
	docs := []string{"", "`args`", "[`Self::len`]", "[Client.Do]", "``", "[1]", "[a" + strings.Repeat("b", 80) + "]", "`" + strings.Repeat("é", 81) + "`"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		docs = append(docs, b.String())
	}
	found := 0
	for _, doc := range docs {
		got, w := find(doc), want(doc)
		if !slices.EqualFunc(got, w, slices.Equal) {
			t.Fatalf("codeSpans(%q) = %v, want %v", doc, got, w)
		}
		found += len(got)
	}
	if found < 1000 {
		t.Fatalf("only %d spans found in all: the docs do not test much", found)
	}
}

// TestProseMentions: a README sentence naming a symbol in a code span or link is that symbol's
// mention, joined over the lines markdown wraps it on and not cut at the dot of a path; code
// blocks, link definitions, names several symbols bear and the package itself are not.
func TestProseMentions(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindPackage, Name: "lock", QualifiedName: "lock", Doc: "Package lock."},
		{Kind: docidx.KindType, Name: "MutexGuard", QualifiedName: "lock::MutexGuard"},
		{Kind: docidx.KindType, Name: "Mutex", QualifiedName: "lock::Mutex"},
		{Kind: docidx.KindMethod, Name: "new", Parent: "Mutex", QualifiedName: "lock::Mutex::new"},
		{Kind: docidx.KindMethod, Name: "new", Parent: "RwLock", QualifiedName: "lock::RwLock::new"},
		{Kind: docidx.KindMethod, Name: "unlock_fair", Parent: "MutexGuard", QualifiedName: "lock::MutexGuard::unlock_fair"},
	}
	text := "The `lock` crate.\n\nTo allow sending `MutexGuard`s to other threads, enable the\n`send_guard` option. Fair unlocking: call\n" +
		"`MutexGuard::unlock_fair()` as `std.sync.Mutex` cannot. Create one with `new`.\n\n" +
		"```rust\nlet g = `MutexGuard`;\n```\n\n[Mutex]: https://docs.example/lock/struct.Mutex.html\n\n- a list item naming [`Mutex`]\n"
	docs := []docidx.Document{{Kind: docidx.DocReadme, Title: "lock", Sections: []docidx.Section{
		{Heading: []string{"lock", "Usage"}, Text: text},
	}}}
	got := proseMentions(docs, syms)
	want := map[int][]proseMention{
		1: {{"README › Usage", "To allow sending `MutexGuard`s to other threads, enable the `send_guard` option.", false}},
		2: {{"README › Usage", "- a list item naming [`Mutex`]", false}},
		5: {{"README › Usage", "Fair unlocking: call `MutexGuard::unlock_fair()` as `std.sync.Mutex` cannot.", false}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("proseMentions =\n%+v\nwant\n%+v", got, want)
	}

	// At most maxMentions sentences a symbol, each once.
	var many strings.Builder
	for i := range maxMentions + 2 {
		fmt.Fprintf(&many, "Sentence %d names `Mutex`. Sentence %d names `Mutex`.\n", i, i)
	}
	docs[0].Sections = append(docs[0].Sections, docidx.Section{Text: many.String()})
	if n := len(proseMentions(docs, syms)[2]); n != maxMentions {
		t.Errorf("Mutex has %d mentions, want %d", n, maxMentions)
	}

	// A release history's items say what changed, not what a symbol is: none is a mention.
	changes := []docidx.Document{{Path: "CHANGELOG.md", Kind: docidx.DocGuide, Title: "Changelog", Sections: []docidx.Section{
		{Heading: []string{"Changelog", "0.5.0"}, Text: "- `MutexGuard` is now `Send` with the `send_guard` option.\n"},
	}}}
	if got := proseMentions(changes, syms); len(got) != 0 {
		t.Errorf("a change log's items are mentions: %+v", got)
	}
}

// TestProseDefinitions: a list item or table row that opens with a symbol's name is its
// definition, whole (cut at a sentence end past maxDefinition) and before its other mentions,
// even past maxMentions; a paragraph that opens with the name is a mention like any.
func TestProseDefinitions(t *testing.T) {
	syms := []docidx.Symbol{
		{Kind: docidx.KindProperty, Name: "maxAge", Parent: "LRUCache", QualifiedName: "lru.LRUCache.maxAge"},
		{Kind: docidx.KindProperty, Name: "stale", Parent: "LRUCache", QualifiedName: "lru.LRUCache.stale"},
		{Kind: docidx.KindProperty, Name: "max", Parent: "LRUCache", QualifiedName: "lru.LRUCache.max"},
		{Kind: docidx.KindProperty, Name: "dispose", Parent: "LRUCache", QualifiedName: "lru.LRUCache.dispose"},
	}
	long := strings.Repeat("Words go on here. ", 40)
	text := "Set `maxAge` to expire items. `maxAge` again. Use `maxAge` well. And `maxAge` once more.\n\n" +
		"* `maxAge` Maximum age in ms.  Items are not pro-actively pruned out\n  as they age.\n" +
		"1. **`stale`**: return stale items.\n\n| `max` | 100 | The most items. |\n\n" +
		"`dispose` is called on removal.\n\n- `dispose` " + long + "\n"
	docs := []docidx.Document{{Kind: docidx.DocReadme, Title: "lru", Sections: []docidx.Section{
		{Heading: []string{"lru", "Options"}, Text: text},
	}}}
	got := proseMentions(docs, syms)
	at := "README › Options"
	if want := (proseMention{at, "`maxAge` Maximum age in ms.  Items are not pro-actively pruned out as they age.", true}); len(got[0]) != maxMentions || got[0][0] != want {
		t.Errorf("maxAge's mentions = %+v, want %d with the definition %+v first", got[0], maxMentions, want)
	}
	if want := []proseMention{{at, "`stale`: return stale items.", true}}; !reflect.DeepEqual(got[1], want) {
		t.Errorf("stale's mentions = %+v, want %+v", got[1], want)
	}
	if want := []proseMention{{at, "`max` | 100 | The most items. |", true}}; !reflect.DeepEqual(got[2], want) {
		t.Errorf("max's mentions = %+v, want %+v", got[2], want)
	}
	d := got[3]
	if len(d) != 2 || !d[0].def || d[1].def || d[1].sentence != "`dispose` is called on removal." ||
		len(d[0].sentence) > maxDefinition || !strings.HasSuffix(d[0].sentence, "here.") {
		t.Errorf("dispose's mentions = %+v, want its item cut at a sentence end first, then the paragraph", d)
	}
}

// TestWithMention: a symbol's passage shows the sentence of its mentions that adds the
// question's words, with its place, and nothing when its own passage shows them already.
func TestWithMention(t *testing.T) {
	pq := newPassageQuery("send a guard to other threads", func(string) float64 { return 1 })
	stored := "An RAII guard which unlocks the mutex when dropped." + storeMentions([]proseMention{
		{"README › Usage", "Guards are cheap.", false},
		{"README › Usage", "To allow sending `MutexGuard`s to other threads, enable the `send_guard` option.", false},
	})
	own, said := splitMentions(stored)
	if own != "An RAII guard which unlocks the mutex when dropped." {
		t.Fatalf("own text %q", own)
	}
	p, shown := withMention(own, pq.shownWords(own), said, pq)
	if want := own + "\n(README › Usage) To allow sending `MutexGuard`s to other threads, enable the `send_guard` option."; p != want {
		t.Errorf("passage\n%q\nwant\n%q", p, want)
	}
	if again, _ := withMention(p, shown, said, pq); again != p {
		t.Errorf("a passage showing the mention's words got another line:\n%s", again)
	}
	// A symbol without a passage of its own shows its definition, whatever words it holds, and
	// then the mention that adds the question's words.
	_, said = splitMentions(storeMentions([]proseMention{
		{"README › Usage", "To allow sending `MutexGuard`s to other threads, enable the `send_guard` option.", false},
		{"README › Options", "`MutexGuard` A lock held.", true},
	}))
	if p, _ := withMention("", 0, said, pq); p != "(README › Options) `MutexGuard` A lock held.\n(README › Usage) To allow sending `MutexGuard`s to other threads, enable the `send_guard` option." {
		t.Errorf("an undocumented symbol's passage:\n%s", p)
	}
	if p, _ := withMention(own, pq.shownWords(own), said, pq); strings.Contains(p, "A lock held") {
		t.Errorf("a documented symbol showed a definition that adds no word:\n%s", p)
	}
	if text, said := splitMentions("A doc without mentions."); text != "A doc without mentions." || said != "" {
		t.Errorf("splitMentions of a doc without them = %q, %q", text, said)
	}
	// A doc or sentence that holds the marks loses them, not its text.
	marked := withoutMarks("A doc\n\x1e with\x1f marks.") + storeMentions([]proseMention{{"README\x1f", "Odd\n\x1e sentence.", false}})
	if text, said := splitMentions(marked); text != "A doc\n with marks." || said != "\nREADME\x1fOdd  sentence." {
		t.Errorf("splitMentions(%q) = %q, %q", marked, text, said)
	}
}

// TestMentioningNames checks that mentioningNames gives the keys of the sibling members that
// mention a symbol (those of its parent), as words, and not the places of its package's prose,
// a place without a space among them, or its definitions.
func TestMentioningNames(t *testing.T) {
	said := storeMentions([]proseMention{
		{where: "Request.query_string", sentence: "The raw value, use `args` for the parsed values."},
		{where: "README › Usage", sentence: "Read `args` for parameters."},
		{where: "CHANGELOG", sentence: "`args` keeps invalid bytes."},
		{where: "README › Options", sentence: "`args` Parsed parameters.", def: true},
	})
	_, said = splitMentions("The parsed URL parameters." + said)
	for title, want := range map[string]string{
		"werkzeug.Request.args":   "Request.query string\n",
		"werkzeug::Request::args": "Request.query string\n",
		"werkzeug.Response.args":  "",
		"args":                    "",
	} {
		if got := mentioningNames(said, title); got != want {
			t.Errorf("mentioningNames(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestProseSentenceLong: a sentence longer than maxMentionSentence is cut between words, with
// "…" where it was cut, and never inside a name or a character; a sentence that fits is whole.
func TestProseSentenceLong(t *testing.T) {
	var names []string
	for i := range 60 {
		names = append(names, fmt.Sprintf("`crate::filter::Ünïcode%02d`", i))
	}
	prose := "Intro. Items that need it: " + strings.Join(names, ", ") + ". After."
	words := map[string]bool{}
	for _, w := range strings.Fields(prose) {
		words[w] = true
	}
	for _, target := range []int{0, 30, 59} {
		span := names[target]
		lo := strings.Index(prose, span)
		got := proseSentence(prose, lo, lo+len(span))
		if !utf8.ValidString(got) || !strings.Contains(got, span) {
			t.Fatalf("name %d: proseSentence = %q: not valid UTF-8, or without its span %s", target, got, span)
		}
		if len(got) > maxMentionSentence+len(span)+len("… ")+len(" …") {
			t.Errorf("name %d: %d bytes, more than the bound", target, len(got))
		}
		fields := strings.Fields(got)
		if fields[0] == "…" {
			fields = fields[1:]
		} else if target > 0 {
			t.Errorf("name %d: %q does not mark its cut start", target, got)
		}
		if fields[len(fields)-1] == "…" {
			fields = fields[:len(fields)-1]
		} else if target < 59 {
			t.Errorf("name %d: %q does not mark its cut end", target, got)
		}
		for _, w := range fields {
			if !words[w] {
				t.Errorf("name %d: %q holds %q, a cut word", target, got, w)
			}
		}
	}
	short := "Intro. Set `level` to debug for more. After."
	lo := strings.Index(short, "`level`")
	if got, want := proseSentence(short, lo, lo+len("`level`")), "Set `level` to debug for more."; got != want {
		t.Errorf("proseSentence = %q, want %q", got, want)
	}
}

// TestDefinitionLongItem: a list item longer than maxDefinition with no sentence end within it
// is cut between words, marked "…".
func TestDefinitionLongItem(t *testing.T) {
	prose := "- `features` " + strings.Repeat("enables `crate::module::Ünïcode` and ", 30) + "more"
	lo := strings.Index(prose, "`features`")
	got := definition(prose, lo, lo+len("`features`"))
	if !strings.HasSuffix(got, " …") || !utf8.ValidString(got) || len(got) > maxDefinition+len(" …") {
		t.Fatalf("definition = %q: want at most %d bytes, valid UTF-8, ending in \" …\"", got, maxDefinition)
	}
	last := strings.Fields(strings.TrimSuffix(got, " …"))
	if w := last[len(last)-1]; w != "and" && w != "`crate::module::Ünïcode`" && w != "enables" {
		t.Errorf("definition = %q: cut inside a word (%q)", got, w)
	}
}
