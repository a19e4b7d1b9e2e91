package index

// passage.go chooses the passage of a hit: the run of sentences, list items, table rows or code
// lines of its stored text where the question's words concentrate, cut to a byte budget.
//
// The stored text (s_text, and each hit record of rank.idx) is written by storeSection and
// storeDoc (docs.go) as units, one per line: a paragraph, list item or table row on one line with
// its white space collapsed, or a code block fenced by "```" lines with its own lines kept. Texts
// of older snapshots (a whole text on one line, or a doc comment's raw lines) read the same way:
// each line is a unit.

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Passage sizes, in bytes. A search answer spends its bytes on its first hits: hit 1, the
// likeliest answer, gets the largest passage; hits 1 to topPassageHits show a short section or
// symbol whole; the hits below are pointers, one sentence each, unless their passage holds
// words of the question that no passage above them shows (see passages.choose). Measured on
// the dev half of testdata/heldout (181 questions over the corpus) against the 400-byte
// passages of the first three hits and 160-byte ones below before: the fact anywhere in the
// answer for 57.5% of the questions (48.1% before), in hit 1 for 36.5% (30.4%), in its first
// 2 KB for 49.2% (44.8%), at 5.4 KB of text per answer (4.2 KB).
const (
	// DefaultPassageBytes is hit 1's passage budget when Query.PassageBytes is 0: the
	// sentences, list items and code around the question's words in a long section or symbol,
	// with what continues them. 800 showed the fact in hit 1 for 36.5% of the dev questions,
	// 600 (with 400 for hits 2 and 3) for 34.8%.
	DefaultPassageBytes = 800
	// MaxPassageBytes is the largest Query.PassageBytes honoured; larger values are lowered to it.
	MaxPassageBytes = 4096
	// minPassageBytes is the smallest budget of any hit: one sentence.
	minPassageBytes = 120
	// topPassageHits is how many hits, counted from the first of the results (not of the page),
	// get a passage of their own; hits 2 to topPassageHits get nextPassageShare of hit 1's
	// budget (a text up to wholeHitShare's size still shows whole). With symbols showing what
	// their package's prose says of them, on the dev half of testdata/heldout (fact anywhere /
	// in hit 1 / in the first 2 KB, mean answer): 0.2 .812 / .526 / .688, 5,143 B (and
	// testdata/answers one fewer anywhere); 0.3 to 0.4 .816 / .526 / .692, 5,166-5,216 B; 0.45
	// .816 / .526 / .688; 0.5 .812 / .526 / .679, 5,239 B; 0.6 .816 / .526 / .675. The set kept
	// outside the repository answered alike at every share. Hits below topPassageHits that add
	// words keep lowerPassageShare: at 0.35 too, the dev half lost two facts and that set one.
	topPassageHits   = 3
	nextPassageShare = 0.35
	// wholeHitShare is the size, as a share of hit 1's budget, of the longest stored text that
	// the first topPassageHits hits show whole (1,536 bytes by default). On the dev questions,
	// 1.92 found the fact anywhere for 55.8%, 1.5 for 55.2%, and 1.92 for hit 1 with only
	// texts up to 768 bytes whole in hits 2 and 3 for 54.7%.
	wholeHitShare = 1.92
	// lowerPassageShare is the share of hit 1's budget of a hit below topPassageHits whose
	// passage holds words of the question the passages above it lack; the others get
	// pointerPassageBytes, one sentence (up to twice that when the sentence is longer). 0.5
	// found the fact anywhere for 56.4% of the dev questions, 0.3 for 55.8% at 170 bytes less
	// per answer. A pointer of 200 bytes found it for 57.5%, of 120 or 160 for 56.4% at 270
	// and 90 bytes less per answer.
	lowerPassageShare   = 0.5
	pointerPassageBytes = 200
	// extraPassageBytes is the smallest budget whose passage may join a second run of
	// segments to its core (see passage): not a pointer's, whose budget holds one fact at best.
	// On testdata/answers, extra runs in every passage showed the fact in 94 of the 105 top-10
	// passages whose text holds it at 10,070 B per result, in the top hits' only 93 at
	// 10,002 B, none 92 at 9,980 B.
	extraPassageBytes = 300
	// corePassageBytes bounds the window of segments a passage is chosen around (its core):
	// a larger budget grows the core with what surrounds it rather than choose a wider
	// window, whose words stand further apart. 400 was the top hits' whole budget, tuned on
	// testdata/answers; with hit 1's 800-byte window, cors' "default configuration" example
	// lost to a run of option descriptions that each named one of the question's words, and
	// testdata/answers found 2 facts fewer.
	corePassageBytes = 400
	// maxPassageWords bounds the stems a question's passages are scored by: its words, their
	// identifier parts and their other forms.
	maxPassageWords = 63
	// minSplitLine is the shortest line split into sentences: a shorter one is chosen whole.
	minSplitLine = 160
)

// hitBudget is what a hit's passage may spend, in bytes.
type hitBudget struct {
	passage int // the passage's budget
	whole   int // a stored text this long or shorter shows whole; 0: none does
	// pointer, for a hit below topPassageHits, is the budget of its passage when its passage
	// at the full budget holds no word of the question that the passages above it lack.
	pointer int
}

// passageBudget returns the budget of the hit at rank (from 0, over the whole result list) for
// a query asking for perHit bytes for hit 1 (0: DefaultPassageBytes).
func passageBudget(perHit, rank int) hitBudget {
	if perHit <= 0 {
		perHit = DefaultPassageBytes
	}
	perHit = min(perHit, MaxPassageBytes)
	share := func(f float64) int { return max(int(float64(perHit)*f), minPassageBytes) }
	switch {
	case rank == 0:
		return hitBudget{passage: share(1), whole: share(wholeHitShare)}
	case rank < topPassageHits:
		return hitBudget{passage: share(nextPassageShare), whole: share(wholeHitShare)}
	}
	return hitBudget{passage: share(lowerPassageShare), pointer: pointerPassageBytes}
}

// PageBytes returns about how many bytes of passages a page of limit hits holds when hit 1's
// budget is perHit (0: DefaultPassageBytes): the budgets of its hits, a pointer's for the hits
// below topPassageHits (most show one sentence).
func PageBytes(perHit, limit int) int {
	n := 0
	for rank := range limit {
		b := passageBudget(perHit, rank)
		if b.pointer > 0 {
			n += b.pointer
		} else {
			n += b.passage
		}
	}
	return n
}

// passageQuery is what passages are scored by: the question's words as lowercased stems, matched
// as prefixes of the text's words, each with a weight. A word of the question, its identifier
// parts ("expiresIn": "expires") and its other forms (synonyms.go's wordForms and howForms:
// "largest": "max") make one group, which counts once, by the heaviest of its stems that a
// passage holds: "WebSocket" in a text matches "websocket", "web" and "socket", one word.
type passageQuery struct {
	stems   []string
	weights []float64
	// group numbers each stem's group; groups[g] is the mask of group g's stems.
	group  []int
	groups []uint64
	// ident has bit g when group g's word is written as code names are: snake_case, camelCase,
	// in backticks, or called or given a value ("pool_size=0", "retry()").
	ident uint64
	// head tells the stems that are words of the question as typed (each the first of its
	// group), not parts or other forms.
	head []bool
	// words are the stems as snippet's first-match search takes them, for cutting within one
	// long unit.
	words []string
	// titled has bit g when group g's word, in one of its forms, is a word of the hit's title,
	// heading path or package (forHit): a pair of two such words only repeats the title.
	titled uint64
	// named has the bits of the stems that are words of the hit's title (forHit): the symbol's
	// name, which its own example code calls and so says nothing of which lines answer.
	named uint64
	// number is the weight of a number in a passage (see asksQuantity), 0 when the question
	// does not ask for one; it scores as one more distinct word, bit numberBit of a mask.
	number float64
	// asksValue tells a question that asks for a default or a number (answerCues), which an
	// example's literals state as well as prose does: its code lines count in full.
	asksValue bool
}

// numberBit is the bit of a segment's mask that says it holds a number.
const numberBit = maxPassageWords

// passageStopWords are words of a question that say nothing about where the answer is.
var passageStopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "how": true, "what": true, "from": true,
	"into": true, "that": true, "this": true, "are": true, "does": true, "can": true, "which": true,
	"when": true, "why": true, "who": true, "where": true, "there": true, "their": true, "its": true,
	"not": true, "but": true, "all": true, "any": true, "was": true, "has": true, "have": true,
	"should": true, "would": true, "will": true, "you": true, "your": true, "use": true,
	"using": true, "used": true, "via": true, "about": true, "than": true, "then": true, "them": true,
	"they": true, "these": true, "those": true, "been": true, "being": true, "our": true, "one": true,
	"get": false, // kept: a method's name as often as a verb
}

// newPassageQuery returns the passage query of text: its words, each with its identifier parts
// ("expiresIn": "expiresin", "expires", "in") and its other forms (at altWeight of its weight),
// without stop words and words under three letters other than numbers (the "0" of
// "pool_size=0", which the sentence that states the same value holds). weight, when not nil,
// gives a word's weight (its rarity).
func newPassageQuery(text string, weight func(word string) float64) *passageQuery {
	pq := &passageQuery{}
	seen := map[string]int{}
	// add adds word w to group g: as the question's word (head), as its part, or as its other
	// form, which weighs altWeight of the question's word (its own rarity would say how rare
	// the form is, not the word asked).
	add := func(w string, g int, head bool, form float64) {
		w = strings.ToLower(w)
		if len(w) < 3 && !allDigits(w) || passageStopWords[w] {
			return
		}
		s := lightStem(w)
		wt := 1.0
		if form > 0 {
			wt = form
		} else if weight != nil {
			wt = weight(w)
		}
		if i, ok := seen[s]; ok {
			// A word typed on its own that was another word's part or form is a group of
			// its own.
			if head && !pq.head[i] {
				pq.groups[pq.group[i]] &^= 1 << i
				pq.group[i], pq.head[i] = g, true
				pq.groups[g] |= 1 << i
				pq.weights[i] = max(pq.weights[i], wt)
			}
			return
		}
		if len(pq.stems) >= maxPassageWords {
			return
		}
		seen[s] = len(pq.stems)
		pq.groups[g] |= 1 << len(pq.stems)
		pq.stems = append(pq.stems, s)
		pq.weights = append(pq.weights, wt)
		pq.words = append(pq.words, s)
		pq.group = append(pq.group, g)
		pq.head = append(pq.head, head)
	}
	// A decimal number the question quotes ("np.round(2.5)", "version 1.2.3") is a word of its
	// own: the passage that states the same number is likelier to answer about it.
	for _, num := range decimals(text) {
		g := len(pq.groups)
		pq.groups = append(pq.groups, 0)
		if add(num, g, true, 0); pq.groups[g] == 0 {
			pq.groups = pq.groups[:g]
		}
	}
	toks := strings.FieldsFunc(plainWords(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
	for k, tok := range toks {
		g := len(pq.groups)
		pq.groups = append(pq.groups, 0)
		add(tok, g, true, 0)
		if parts := splitIdent([]byte(tok)); len(parts) > 1 {
			for _, p := range parts {
				add(tok[p[0]:p[1]], g, false, 0)
			}
		}
		if pq.groups[g] == 0 {
			pq.groups = pq.groups[:g]
			continue
		}
		if writtenAsCode(text, tok) {
			pq.ident |= 1 << g
		}
		form := altWeight * pq.weights[bitIndex(pq.groups[g])]
		for _, o := range passageForms()[lightStem(strings.ToLower(tok))] {
			add(o, g, false, form)
		}
		if k > 0 && strings.EqualFold(toks[k-1], "how") {
			for _, o := range howForms[strings.ToLower(tok)] {
				add(o, g, false, form)
			}
		}
	}
	pq.cue(text)
	return pq
}

// passageForms maps the lightStem of each word of wordForms to the other words of its groups.
var passageForms = sync.OnceValue(func() map[string][]string {
	idx := map[string][]string{}
	for _, group := range wordForms {
		for _, w := range group {
			s := lightStem(w)
			for _, o := range group {
				if o != w && !slices.Contains(idx[s], o) {
					idx[s] = append(idx[s], o)
				}
			}
		}
	}
	return idx
})

// score returns the weight of the distinct words of mask: each group's heaviest stem in mask,
// and the number's.
func (pq *passageQuery) score(mask uint64) float64 {
	total := 0.0
	for _, gm := range pq.groups {
		m := mask & gm
		best := 0.0
		for b := m; b != 0; b &= b - 1 {
			best = max(best, pq.weights[bitIndex(b)])
		}
		total += best
	}
	if mask&(1<<numberBit) != 0 {
		total += pq.number
	}
	return total
}

// pairScore returns the weight of the question's word pairs of pairs (bit g: groups g and g+1
// side by side in the text): pairWeight of the lighter word's weight each, but nothing for a
// pair of the title's words (titled).
func (pq *passageQuery) pairScore(pairs uint64) float64 {
	total := 0.0
	for b := pairs; b != 0; b &= b - 1 {
		g := bitIndex(b)
		if g+1 >= len(pq.groups) || pq.titled&(1<<g) != 0 && pq.titled&(1<<(g+1)) != 0 {
			continue
		}
		total += pairWeight * min(pq.groupWeight(g), pq.groupWeight(g+1))
	}
	return total
}

// groupsHeld returns how many of pq's groups with weight mask holds a stem of.
func (pq *passageQuery) groupsHeld(mask uint64) int {
	n := 0
	for _, gm := range pq.groups {
		for b := mask & gm; b != 0; b &= b - 1 {
			if pq.weights[bitIndex(b)] > 0 {
				n++
				break
			}
		}
	}
	return n
}

// titleHoldsAll reports whether the hit's title (named, see forHit) holds a word, in one of its
// forms, of every group of the question that weighs anything in the hit, and there is one.
func (pq *passageQuery) titleHoldsAll() bool {
	held := false
	for g, gm := range pq.groups {
		if pq.groupWeight(g) > 0 {
			if gm&pq.named == 0 {
				return false
			}
			held = true
		}
	}
	return held
}

// groupWeight returns the weight of group g's heaviest stem.
func (pq *passageQuery) groupWeight(g int) float64 {
	best := 0.0
	for b := pq.groups[g] &^ (1 << numberBit); b != 0; b &= b - 1 {
		best = max(best, pq.weights[bitIndex(b)])
	}
	return best
}

// definesWeight is the share of its weight that a word the question writes as code
// (passageQuery.ident) adds to a passage whose prose segment opens with it as the name it
// defines: ":param pool_size=5: …" for "create_engine(pool_size=0)", "- `countdown` (float,
// default `None`): …" for "self.retry(countdown=…)". The definition of a name the question
// asks about is likelier to answer it than a sentence that mentions the name in passing
// (sqlalchemy's max_overflow, "… beyond the pool_size setting"). A word written as prose
// takes none: "- methods: …" is not what "which methods are allowed by default" asks for,
// and weighing every word so lost hit 1 of two testdata/answers questions (cors, pino) and a
// fact of the dev half.
const definesWeight = 0.5

// definesScore returns the weight that the definitions of defines add (see definesWeight).
func (pq *passageQuery) definesScore(defines uint64) float64 {
	total := 0.0
	for b := defines; b != 0; b &= b - 1 {
		total += definesWeight * pq.groupWeight(bitIndex(b))
	}
	return total
}

// pairWeight is the share of its lighter word's weight that two consecutive words of the
// question add to a passage that holds them side by side ("inline styles" for "inline style
// attributes"), as proximity models of retrieval credit a phrase over its words scattered.
const pairWeight = 0.5

// Answer cues. Most questions about a package's behaviour ask for a default ("… by default?",
// "unless I change it") or a quantity ("how long …", "the largest message …"), and the sentence
// that answers says "default" or gives a number where the sentences around it only repeat the
// question's topic. A question with such a cue weighs "default", or a number, as much as an
// average word of the question (at least what its own rarity gives).

// defaultCues are words of a question that ask for a default.
var defaultCues = map[string]bool{
	"default": true, "defaults": true, "defaulting": true, "unless": true, "otherwise": true,
	"omit": true, "omitted": true, "unset": true, "unconfigured": true, "don't": true,
	"dont": true, "leave": true,
}

// quantityCues are words of a question that ask for a number; "how" followed by one of
// quantityHow asks for one too ("how long", "how many").
var quantityCues = map[string]bool{
	"largest": true, "smallest": true, "biggest": true, "highest": true, "lowest": true,
	"maximum": true, "minimum": true, "max": true, "min": true, "limit": true, "size": true,
	"timeout": true, "port": true, "number": true, "count": true, "duration": true,
	"interval": true, "length": true, "seconds": true, "milliseconds": true, "bytes": true,
}

// quantityHow are the words that make "how …" ask for a number.
var quantityHow = map[string]bool{
	"long": true, "many": true, "much": true, "big": true, "large": true, "often": true,
	"far": true, "old": true, "small": true, "high": true, "low": true, "deep": true, "fast": true,
	"close": true,
}

// answerCues reports whether a question asks for a default and whether it asks for a number.
func answerCues(text string) (asksDefault, asksNumber bool) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	for i, w := range words {
		w = strings.ReplaceAll(strings.Trim(w, "'’"), "’", "'")
		asksDefault = asksDefault || defaultCues[w] || absenceCue(words, i)
		asksNumber = asksNumber || quantityCues[w] || w == "how" && i+1 < len(words) && quantityHow[words[i+1]]
	}
	return asksDefault, asksNumber
}

// absenceWords are the words before "no" that make it say a setting is left out: "with no
// address", "has no $schema key".
var absenceWords = map[string]bool{"with": true, "has": true, "have": true, "had": true}

// absenceCue reports whether words[i] begins a phrase that leaves a setting out, which asks what
// is used in its place, its default: "with no X", "has no X", or "without" before a verb's -ing
// form that ends the question ("… without naming it?", "… without passing one?"). A plain "no"
// or "without" ("without bumping it to most-recently-used") asks for no default.
func absenceCue(words []string, i int) bool {
	switch w := words[i]; {
	case w == "no":
		return i > 0 && absenceWords[words[i-1]]
	case w == "without":
		rest := words[min(i+2, len(words)):]
		return i+1 < len(words) && strings.HasSuffix(words[i+1], "ing") && len(words[i+1]) > 5 &&
			(len(rest) == 0 || len(rest) == 1 && (rest[0] == "it" || rest[0] == "one" || rest[0] == "any"))
	}
	return false
}

// withDefaultCue returns the words a question is searched by: words, and "default" when the
// question asks for a default without saying the word ("… unless I change it?"), so that the
// documents that state a default rank as they would had it said it.
func withDefaultCue(words string) string {
	if asks, _ := answerCues(words); asks && !strings.Contains(strings.ToLower(words), "default") {
		return words + " default"
	}
	return words
}

// cue sets pq's answer cues from the question's words.
func (pq *passageQuery) cue(text string) {
	asksDefault, asksNumber := answerCues(text)
	if !asksDefault && !asksNumber {
		return
	}
	pq.asksValue = true
	mean, n := 0.0, 0
	for i, w := range pq.weights {
		if pq.head[i] {
			mean += w
			n++
		}
	}
	if n > 0 {
		mean /= float64(n)
	} else {
		mean = 1
	}
	if asksDefault {
		i := slices.Index(pq.stems, "default")
		switch {
		case i >= 0:
			pq.weights[i] = max(pq.weights[i], mean)
		case len(pq.stems) < maxPassageWords:
			pq.groups = append(pq.groups, 1<<len(pq.stems))
			pq.group = append(pq.group, len(pq.groups)-1)
			pq.head = append(pq.head, true)
			pq.stems = append(pq.stems, "default")
			pq.weights = append(pq.weights, mean)
			pq.words = append(pq.words, "default")
		}
	}
	if asksNumber {
		pq.number = mean
	}
}

// stemSuffixes are the endings lightStem removes, longest first.
var stemSuffixes = []string{"ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s", "e", "y"}

// decimals returns the decimal numbers of text, numbers with a dot ("2.5", "1.2.3"), that stand
// as words: not inside a longer word or number ("v2.5" is one, "x2.5y" and "1.2.3.4.5" parts).
func decimals(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !isDigit(text[i]) || i > 0 && (isAlnum(text[i-1]) || text[i-1] == '.') && text[i-1] != 'v' {
			i++
			continue
		}
		j, dots := i, 0
		for j < len(text) && (isDigit(text[j]) || text[j] == '.' && j+1 < len(text) && isDigit(text[j+1])) {
			if text[j] == '.' {
				dots++
			}
			j++
		}
		if dots > 0 && dots <= 3 && (j == len(text) || !isAlnum(text[j])) {
			out = append(out, text[i:j])
		}
		i = j
	}
	return out
}

// lightStem removes one common English ending from a lowercased word when at least four letters
// are left ("seconds" -> "second", "retries" -> "retr", "configured" -> "configur"), so that the
// stem matches the word's other forms as a prefix (see stemLen).
func lightStem(w string) string {
	return w[:stemLen(w)]
}

// stemLen returns the length of w's light stem, for a word in any ASCII case (lightStem,
// stemsTo): w without the first of stemSuffixes it ends with when at least four letters are
// left, but "ss" keeps its "s" ("class"), and a "y" goes only after a consonant, as English
// turns it into "i" there alone ("retry", "retries": "retr"; "array", "arrays", "delayed":
// "array", "delay"). Before "-ing" and "-ed" English doubles a consonant after a short vowel
// and keeps a "y" ("logging", "embedded", "retrying": "log", "embed", "retr"), which the stem
// loses as the word's other forms do. b, d, g, m, n, p, r and t are doubled so; l, s, z, f and
// c are doubled in the word itself ("falling", "passed", "buzzing", "stuffed") and stay.
func stemLen(w string) int {
	for _, suf := range stemSuffixes {
		n := len(w) - len(suf)
		if n < 4 || !equalFoldASCII(w[n:], suf) {
			continue
		}
		switch suf {
		case "s":
			if w[n-1]|0x20 == 's' {
				continue
			}
		case "y":
			if isVowel(w[n-1]) {
				continue
			}
		case "ing", "ings", "ed":
			if c := w[n-1] | 0x20; c == w[n-2]|0x20 && strings.IndexByte("bdgmnprt", c) >= 0 {
				n--
			} else if c == 'y' && n > 4 && !isVowel(w[n-2]) && suf != "ed" {
				n--
			}
		}
		return n
	}
	return len(w)
}

// isVowel reports whether the ASCII letter c is a vowel, in any case.
func isVowel(c byte) bool { return strings.IndexByte("aeiou", c|0x20) >= 0 }

// segment is one scoring unit of a stored text: a sentence of a prose line, or a code line.
type segment struct {
	start, end int // bytes of the text
	unit       int // the line or code block it belongs to
	code       bool
	// wordy, for a code line, tells one that reads as prose: a description indented under an
	// option, as Go doc comments lay out option lists (see wordyLine). It is scored as prose.
	wordy bool
	fence string // for the first line of a code block: its opening fence line
	mask  uint64 // the query words it holds
	pairs uint64 // bit g: it holds words of groups g and g+1 side by side (markMatches)
	// defines has bit g when the segment opens with a word of group g as the name it defines,
	// as a list item, a definition or a parameter field does (see definesAt).
	defines uint64
}

// passage returns the passage of text for pq in at most about budget bytes: the consecutive
// segments of one section, within corePassageBytes, holding the most weight of distinct query
// words, those only code lines hold at codeShare (the core, see passageCore), with the segment
// just before it when that adds words, and the segment elsewhere that holds two of the words
// and adds the most weight of those the core lacks when the budget is at least
// extraPassageBytes, each grown with the segments after and then before it to fill the budget
// (within its own section first: see opensSection), then with the segments that continue it
// (see continues) up to half as much again; units on lines of their own, "…" where text is
// left out. Segments are whole
// sentences, list items, table rows and code lines: a core of one sentence longer than the
// budget is shown whole up to twice the budget, and only a longer one is cut, around its
// first match. Without any match the passage is the text's opening.
func passage(text string, pq *passageQuery, budget int) string {
	var pt passageText
	pt.init(text, pq)
	defer pt.release()
	return pt.passage(budget)
}

// passageText is a stored text ready to choose passages of for one passage query: its
// segments, their matches marked, and the query weighed by the text (inText). A pointer hit
// chooses two passages of one text (see passages.choose), which split it and scanned it for
// the question's words twice.
type passageText struct {
	text    string
	segs    []segment
	buf     *[]segment // segs' storage, from segmentBufs
	pq      passageQuery
	weights [maxPassageWords]float64 // pq's weights
}

// init makes pt ready to choose passages of text for pq; release gives its storage back.
func (pt *passageText) init(text string, pq *passageQuery) {
	pt.text = text
	if text == "" {
		return
	}
	pt.buf = segmentBufs.Get().(*[]segment)
	pt.segs = appendSegments((*pt.buf)[:0], text)
	if len(pt.segs) == 0 {
		return
	}
	markMatches(text, pt.segs, pq)
	if pq.named != 0 {
		for k := range pt.segs {
			if pt.segs[k].code {
				pt.segs[k].mask &^= pq.named
			}
		}
	}
	pt.pq = pq.inText(pt.segs, pt.weights[:0])
}

func (pt *passageText) release() {
	if pt.buf == nil {
		return
	}
	clear(pt.segs) // drops the fences' references to text
	*pt.buf = pt.segs[:0]
	segmentBufs.Put(pt.buf)
	pt.buf, pt.segs = nil, nil
}

// passage returns the passage of pt's text in at most about budget bytes (see passage).
func (pt *passageText) passage(budget int) string {
	if len(pt.segs) == 0 {
		return ""
	}
	return choosePassage(pt.text, pt.segs, &pt.pq, budget)
}

// segmentSize returns the bytes segs[i] takes in a passage: its text and line break, and for the
// first line of a code block its fences.
func segmentSize(segs []segment, i int) int {
	n := segs[i].end - segs[i].start + 1
	if segs[i].fence != "" {
		n += len(segs[i].fence) + 5
	}
	return n
}

// passageCore returns the core of a passage of the segments of text for pq: the shortest first
// window of at most window bytes, within one section (a heading ends it), with the most weight
// of distinct words (see windowWords.score), as segments lo to hi, and the words it holds.
func passageCore(text string, segs []segment, pq *passageQuery, window int) (lo, hi int, held windowWords) {
	bestScore, bestBytes := 0.0, 0
	for i := range segs {
		if segs[i].mask == 0 {
			continue
		}
		var w windowWords
		score, bytes := 0.0, 0
		for j := i; j < len(segs); j++ {
			bytes += segmentSize(segs, j)
			if bytes > window && j > i || j > i && opensSection(text, segs, j) {
				break
			}
			if w.add(segs[j]) {
				score = w.score(pq)
			}
			// A word counts once however often the window repeats it: of two windows with
			// the same words, the shorter, where they stand closer, is the passage.
			if segs[j].mask != 0 && (score > bestScore+1e-9 || (math.Abs(score-bestScore) <= 1e-9 && bytes < bestBytes)) {
				lo, hi, held, bestScore, bestBytes = i, j, w, score, bytes
			}
		}
	}
	return lo, hi, held
}

// choosePassage is passage over the segments of text, their matches marked, for pq weighed by
// the text (inText). It does not change segs.
func choosePassage(text string, segs []segment, pq *passageQuery, budget int) string {
	size := func(i int) int { return segmentSize(segs, i) }
	lo, hi, _ := passageCore(text, segs, pq, min(budget, corePassageBytes))
	used := 0
	for k := lo; k <= hi; k++ {
		used += size(k)
	}
	// A core that opens with what the segment before it introduces begins with that segment,
	// before it grows: the sentence a "This …" points to (qs's "By default, … qs will only
	// parse up to 5 children deep." before "This means …" before "This depth can be
	// overridden …"), the line that ends in ":" before an example, and the lead-in a list's
	// first item completes (typing_inspect's "So it will return `False` if" before "- `tp` is
	// a `TypeVar` bound …", which alone says the opposite).
	// What a segment needs to be read right may take the passage up to twice its budget, as
	// one long sentence may.
	for lo > 0 && used <= budget && introduced(text, segs, lo) && used+size(lo-1) <= 2*budget {
		lo--
		used += size(lo)
	}
	// A core that begins inside a list item begins with the item, and one that ends inside it
	// ends with it: an item is read whole, as a sentence is (thiserror's "- The Error trait's
	// source() method … is named source, if any." before "The #[from] attribute always
	// implies that the same field is #[source] …", one item of a README's list).
	for lo > 0 && segs[lo-1].unit == segs[lo].unit && !segs[lo].code && inListItem(text, segs, lo) && used+size(lo-1) <= 2*budget {
		lo--
		used += size(lo)
	}
	for hi+1 < len(segs) && segs[hi+1].unit == segs[hi].unit && !segs[hi].code && inListItem(text, segs, hi) && used+size(hi+1) <= 2*budget {
		hi++
		used += size(hi)
	}
	if used > budget {
		// One segment longer than the budget: whole up to twice the budget, a sentence is not
		// cut; a longer one is cut around its first match.
		if used <= 2*budget {
			return render(text, segs, lo, hi)
		}
		s := segs[lo]
		cut := snippet(text[s.start:s.end], pq.words, budget, false)
		if lo > 0 && !strings.HasPrefix(cut, "…") {
			cut = "… " + cut
		}
		if lo < len(segs)-1 && !strings.HasSuffix(cut, "…") {
			cut += " …"
		}
		return cut
	}
	// A core inside a code block, past its first line, begins with the block and with the
	// paragraph that leads into it, when they fit: what a block lists is read by its lead-in
	// ("By default, all log statements write to files in a temporary directory. This package
	// provides several flags that modify this behavior." above glog's flags), not by what
	// follows the block, where the passage would otherwise grow.
	if segs[lo].code && segs[lo].fence == "" {
		from, n := lo, 0
		for from > 0 && segs[from-1].unit == segs[lo].unit {
			from--
			n += size(from)
		}
		if used+n <= budget {
			lo, used = from, used+n
			lead, n := from, 0
			for lead > 0 && !segs[lead-1].code && (lead == from || segs[lead-1].unit == segs[from-1].unit) && !opensSection(text, segs, lead-1) {
				lead--
				n += size(lead)
			}
			if lead < from && used+n <= budget {
				lo, used = lead, used+n
			}
		}
	}
	// A sentence elsewhere that holds words of the question the core lacks, and at least two
	// of its words (one rare word alone, "too big" for "a big file", is no answer), joins it,
	// after "…", before the core's neighbours do: orjson's "Subclasses of str, int, dict, and list
	// are now serialized." … "Users with dict objects using non-str keys should specify
	// option=orjson.OPT_NON_STR_KEYS."
	var core windowWords
	for k := lo; k <= hi; k++ {
		core.add(segs[k])
	}
	// The segment just before the core joins it first when it holds words of the question the
	// core lacks: the passage grows forward before it grows back, and would fill its budget with
	// what follows (thiserror's "The Error trait's source() method … returns whichever field
	// has a #[source] attribute or is named source" above "The #[from] attribute always implies
	// that the same field is #[source]" for "is naming it source enough").
	if lo > 0 && used+size(lo-1) <= budget && !opensSection(text, segs, lo) {
		w := core
		if w.add(segs[lo-1]) && w.score(pq) > core.score(pq)+1e-9 {
			lo--
			used += size(lo)
			core = w
		}
	}
	extra, gain := -1, 0.0
	base := core.score(pq)
	for k := range segs {
		if budget < extraPassageBytes || k >= lo-1 && k <= hi+1 || segs[k].mask&^(core.prose|core.code) == 0 || used+size(k)+4 > budget || pq.groupsHeld(segs[k].mask) < 2 {
			continue
		}
		w := core
		w.add(segs[k])
		if g := w.score(pq) - base; g > gain+1e-9 {
			extra, gain = k, g
		}
	}
	// finish extends the range ending at *hi, up to maxHi, with the segments that continue it
	// (see continues) while they fit in half as much again as the budget.
	quiet := quietSections(text, segs, pq)
	finish := func(hi *int, maxHi int) {
		for *hi+1 <= maxHi && !quiet[*hi+1] && continues(text, segs, *hi) && used+size(*hi+1) <= budget+budget/2 {
			*hi++
			used += size(*hi)
		}
	}
	// back grows the range starting at *lo with the segments before it, down to minLo, while
	// they fit in the budget: a code block's lines only all of them, since a passage that
	// starts inside a block shows its end without what it is.
	back := func(lo *int, minLo int) {
		for *lo-1 >= minLo && !quiet[*lo-1] {
			from, n := *lo-1, size(*lo-1)
			if segs[from].code && segs[from].fence == "" {
				for from > minLo && segs[from-1].unit == segs[*lo-1].unit {
					from--
					n += size(from)
				}
				if segs[from].fence == "" && from > 0 && segs[from-1].unit == segs[*lo-1].unit {
					return // the block starts before minLo
				}
			}
			if used+n > budget {
				return
			}
			*lo, used = from, used+n
		}
	}
	// grow extends the range lo..hi with the segments after it, up to maxHi, and before it,
	// down to minLo, while they fit in the budget: within its own section first (forward to
	// the next heading, then back), and only then into the next section. A doc comment's
	// headings part what differs (rustdoc's "# Examples", "# Panics", "# Errors", Go's
	// "# Heading"): the sentences before a core describe what it describes, an example
	// after the heading only shows it (serde_json's from_reader: "you will want to apply
	// your own buffering" above "Note that … this function is usually slower", not the
	// example after it).
	grow := func(lo, hi *int, minLo, maxHi int) {
		for *hi+1 <= maxHi && !opensSection(text, segs, *hi+1) && used+size(*hi+1) <= budget {
			*hi++
			used += size(*hi)
		}
		back(lo, minLo)
		end := *hi
		for *hi+1 <= maxHi && !quiet[*hi+1] && used+size(*hi+1) <= budget {
			*hi++
			used += size(*hi)
		}
		if *hi > end && opensSection(text, segs, *hi) { // a heading without its section
			used -= size(*hi)
			*hi--
		}
	}
	if extra < 0 {
		grow(&lo, &hi, 0, len(segs)-1)
		finish(&hi, len(segs)-1)
		back(&lo, 0)
		return render(text, segs, lo, hi)
	}
	used += size(extra) + 4
	elo, ehi := extra, extra
	// The extra sentence, like the core, begins with what introduces it, within the budget and
	// short of the core.
	minLo := 0
	if extra > hi {
		minLo = hi + 1
	}
	for elo > minLo && introduced(text, segs, elo) && used+size(elo-1) <= budget {
		elo--
		used += size(elo)
	}
	// Grow the core, then the extra sentence, each toward the other first; ranges that meet
	// are one.
	if extra > hi {
		grow(&lo, &hi, 0, elo-1)
		grow(&elo, &ehi, hi+1, len(segs)-1)
	} else {
		grow(&elo, &ehi, 0, lo-1)
		grow(&lo, &hi, ehi+1, len(segs)-1)
		lo, hi, elo, ehi = elo, ehi, lo, hi
	}
	if hi+1 >= elo {
		finish(&ehi, len(segs)-1)
		return render(text, segs, lo, ehi)
	}
	finish(&hi, elo-1)
	finish(&ehi, len(segs)-1)
	first := render(text, segs, lo, hi)
	return strings.TrimSuffix(first, "…") + "…\n" + strings.TrimPrefix(render(text, segs, elo, ehi), "… ")
}

// codeShare is the share of its weight that a word of the question counts for in a passage's
// core when the core holds it only in code lines, unless the question asks for a value
// (passageQuery.asksValue): as BM25F weighs a field by how much its words
// say about the document, an example's identifiers ("file", "reader", "source: io::Error")
// repeat the question's words without stating what the prose around them states (serde_json's
// from_reader: "you will want to apply your own buffering because serde_json will not buffer
// the input" above an example that opens a file "with buffer"). On the dev half of
// testdata/heldout, with the core kept within its section and an extra run needing two of the
// question's words, 0.5 found the fact in hit 1 for 43.2% of the questions against 42.3% before
// and in testdata/answers for 56.7% against 55.0%, and in the first 2 KB for 57.7% (57.3%) and
// 73.3% (71.7%); counting code lines in full for every question lost testdata/answers' cors
// default, whose answer is the example's literals.
const codeShare = 0.5

// windowWords is what a window of segments holds of the question: its words in prose segments
// and in code lines, and its word pairs likewise, and the words its prose segments define.
type windowWords struct {
	prose, code, prosePairs, codePairs uint64
	defines                            uint64 // groups a prose segment defines
}

// add adds s's words to w and reports whether w changed.
func (w *windowWords) add(s segment) bool {
	if s.code && !s.wordy {
		nw, np := s.mask&^(w.code|w.prose), s.pairs&^(w.codePairs|w.prosePairs)
		w.code |= nw
		w.codePairs |= np
		return nw != 0 || np != 0
	}
	nw, np, nd := s.mask&^w.prose, s.pairs&^w.prosePairs, s.defines&^w.defines
	w.prose |= nw
	w.prosePairs |= np
	w.defines |= nd
	w.code &^= nw
	w.codePairs &^= np
	return nw != 0 || np != 0 || nd != 0
}

// score returns w's weight for pq: its prose words, pairs and definitions in full, those only
// its code lines hold at codeShare.
func (w *windowWords) score(pq *passageQuery) float64 {
	defined := pq.definesScore(w.defines)
	all := pq.score(w.prose|w.code) + pq.pairScore(w.prosePairs|w.codePairs) + defined
	if pq.asksValue || w.code == 0 && w.codePairs == 0 {
		return all
	}
	prose := pq.score(w.prose) + pq.pairScore(w.prosePairs) + defined
	return prose + codeShare*(all-prose)
}

// inText returns pq with each stem's weight, and the number's, scaled by how rare it is among
// segs (the segments of one text, their masks marked), as BM25 weighs a word by its rarity
// among documents: a word of the question that most of a text's sentences hold (the subject of
// its section, "sign" all over jwt.sign's) says little about which of them answers, and the
// words that few hold choose the passage.
//
// The weights are appended to buf, whose storage the caller gives: passage's, on its stack.
func (pq *passageQuery) inText(segs []segment, buf []float64) passageQuery {
	var held [numberBit + 1]int
	for _, s := range segs {
		for b := s.mask; b != 0; b &= b - 1 {
			held[bitIndex(b)]++
		}
	}
	n := float64(len(segs))
	rarity := func(k int) float64 {
		return math.Log(1 + (n-float64(k)+0.5)/(float64(k)+0.5))
	}
	cp := *pq
	cp.weights = buf[:0]
	for i, w := range pq.weights {
		cp.weights = append(cp.weights, w*rarity(held[i]))
	}
	cp.number = pq.number * rarity(held[numberBit])
	return cp
}

// render joins segs[lo:hi+1]: sentences of one line with a space, units on lines of their own,
// code lines inside their block's fences.
func render(text string, segs []segment, lo, hi int) string {
	var b strings.Builder
	if lo > 0 {
		b.WriteString("… ")
	}
	inCode := false
	for k := lo; k <= hi; k++ {
		s := segs[k]
		if k > lo {
			if s.unit == segs[k-1].unit && !s.code {
				b.WriteByte(' ')
			} else {
				if inCode && s.unit != segs[k-1].unit {
					b.WriteString("\n```")
					inCode = false
				}
				b.WriteByte('\n')
			}
		}
		if s.code && !inCode {
			fence := s.fence
			if fence == "" {
				fence = "```"
			}
			b.WriteString(fence)
			b.WriteByte('\n')
			inCode = true
		}
		if s.code {
			b.WriteString(text[s.start:s.end])
		} else {
			b.WriteString(CollapseSpace(text[s.start:s.end]))
		}
	}
	if inCode {
		b.WriteString("\n```")
	}
	if hi < len(segs)-1 {
		if inCode {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		b.WriteString("…")
	}
	return b.String()
}

// continues reports whether segs[k+1] continues segs[k], so that a passage ending with segs[k]
// would stop before what completes it: the rest of a code block or of a list item (indexmap's
// "`serde`: Adds implementations for `Serialize` and `Deserialize` …" before "Alternative
// implementations for (de)serializing `IndexMap` as an ordered sequence are available in the
// `map::serde_seq` module."), the example or list that a sentence ending in ":" introduces, a
// sentence that gives an example of what segs[k] says ("For example, …", "E.g. …"), or the
// example a JSDoc "@example" tag introduces.
func continues(text string, segs []segment, k int) bool {
	if k+1 >= len(segs) {
		return false
	}
	cur, next := segs[k], segs[k+1]
	if cur.code {
		return next.code && next.unit == cur.unit
	}
	if next.unit == cur.unit && inListItem(text, segs, k) {
		return true
	}
	line := strings.TrimSpace(text[cur.start:cur.end])
	if strings.HasSuffix(line, ":") || strings.HasSuffix(line, "@example") {
		return true
	}
	if next.code {
		return false
	}
	lead := text[next.start:min(next.end, next.start+12)]
	for _, p := range exampleLeads {
		if len(lead) >= len(p) && strings.EqualFold(lead[:len(p)], p) {
			return true
		}
	}
	return false
}

// inListItem reports whether segs[k], a prose segment, is a sentence of a list item: its unit's
// line opens with a list marker (listMarked).
func inListItem(text string, segs []segment, k int) bool {
	first := k
	for first > 0 && segs[first-1].unit == segs[k].unit {
		first--
	}
	return listMarked(strings.TrimLeft(text[segs[first].start:segs[first].end], " \t"))
}

// opensSection reports whether segs[k] is a heading line of the text ("# Examples", "## Errors"),
// a markdown ATX heading as doc comments write them.
func opensSection(text string, segs []segment, k int) bool {
	s := segs[k]
	if s.code || k > 0 && segs[k-1].unit == s.unit {
		return false
	}
	line := strings.TrimLeft(text[s.start:s.end], "#")
	n := s.end - s.start - len(line)
	return n >= 1 && n <= 6 && strings.HasPrefix(line, " ")
}

// quietSections reports, by segment of text, whether it lies in a section that a heading opens
// (opensSection) and none of whose segments, the heading's included, holds a word pq weighs: a
// doc comment's "# Panics" or "# Upgrading from 0.x" under the answer to a question about
// defaults. A passage does not grow into such a section.
func quietSections(text string, segs []segment, pq *passageQuery) []bool {
	quiet := make([]bool, len(segs))
	for k := 0; k < len(segs); {
		if !opensSection(text, segs, k) {
			k++
			continue
		}
		end, mask := k+1, segs[k].mask
		for end < len(segs) && !opensSection(text, segs, end) {
			mask |= segs[end].mask
			end++
		}
		if pq.score(mask) <= 0 {
			for j := k; j < end; j++ {
				quiet[j] = true
			}
		}
		k = end
	}
	return quiet
}

// exampleLeads are the openings of a sentence that gives an example of the one before it.
var exampleLeads = []string{"for example", "for instance", "e.g.", "eg.", "eg:", "example:", "examples:", "@example"}

// bitIndex returns the index of the lowest set bit of b.
func bitIndex(b uint64) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// segmentBufs holds the segment slices of passage for reuse: a long text has hundreds of
// segments, and allocating them for every hit was a third of the bytes a search allocated.
var segmentBufs = sync.Pool{New: func() any { return new([]segment) }}

// appendSegments splits a stored text into segments, appended to segs: each prose line into
// sentences, each code line of a fenced block on its own. Blank lines and fence lines make no
// segment.
func appendSegments(segs []segment, text string) []segment {
	unit := -1
	inCode := false
	fence := ""
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		lineStart := start
		start = end + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if inCode {
				inCode = false
			} else {
				inCode, fence = true, trimmed
				unit++
			}
			continue
		}
		if trimmed == "" {
			continue
		}
		if inCode {
			s := segment{start: lineStart, end: lineStart + len(strings.TrimRight(line, " \t\r")), unit: unit, code: true, wordy: wordyLine(line)}
			if fence != "" {
				s.fence, fence = fence, ""
			}
			segs = append(segs, s)
			continue
		}
		unit++
		// Sentences: a cut after ". ", "! " or "? " when a capital letter, digit or mark that
		// starts a sentence follows.
		from := lineStart + (len(line) - len(strings.TrimLeft(line, " \t")))
		lineEnd := lineStart + len(strings.TrimRight(line, " \t\r"))
		for i := from; lineEnd-from > minSplitLine && i < lineEnd-2; i++ {
			k := strings.IndexAny(text[i:lineEnd-2], ".!?")
			if k < 0 {
				break
			}
			i += k
			if text[i+1] == ' ' && i+1-from > 20 && startsSentence(text[i+2:lineEnd]) && !endsAbbrev(text[from:i]) {
				segs = append(segs, segment{start: from, end: i + 1, unit: unit})
				from = i + 2
			}
		}
		if from < lineEnd {
			segs = append(segs, segment{start: from, end: lineEnd, unit: unit})
		}
	}
	return segs
}

// wordyLine reports whether a line of a code block reads as prose: at least six words, nearly
// all of them plain words, and none of the brackets, operators and separators of code
// ("DisablePointerAddresses specifies whether to disable the printing of", under spew's
// "* DisablePointerAddresses"; not "-log_backtrace_at=gopherflakes.go:234" or "x := f(y)").
func wordyLine(line string) bool {
	if strings.ContainsAny(line, "{}()[];=<>|&$#`\"") {
		return false
	}
	words, plain := 0, 0
	for w := range strings.FieldsSeq(line) {
		words++
		if w = strings.TrimRight(w, ".,:"); w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' }) < 0 {
			plain++
		}
	}
	return words >= 6 && plain*10 >= words*9
}

// endsAbbrev reports whether s, the text before a period, ends with an abbreviation whose
// period ends no sentence: "e.g", "i.e", "etc", "vs", "cf".
func endsAbbrev(s string) bool {
	w := s[strings.LastIndexAny(s, " (\t")+1:]
	switch strings.ToLower(w) {
	case "e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "approx", "incl":
		return true
	}
	return false
}

// startsSentence reports whether s starts like a sentence: a capital letter, a digit, or a quote,
// backtick or parenthesis.
func startsSentence(s string) bool {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || r == '`' || r == '"' || r == '(' || r == '\''
}

// introduced reports whether segs[k] needs segs[k-1] before it to be read right: a prose
// segment that points back (pointsBack), a code block that a line ending in ":" introduces,
// the first item of a list whose lead-in is a sentence it completes ("So it will return
// `False` if"), and a code line indented under the line before it in its block: the
// description under the term it describes, as option lists in doc comments write them
// (go-sqlite3's "_foreign_keys=Boolean | _fk=Boolean" above "  Enable or disable enforcement
// of foreign keys."), or the body under the line that opens it. A list after a whole sentence
// ("… one of the following functions:") reads without it.
func introduced(text string, segs []segment, k int) bool {
	cur, prev := segs[k], segs[k-1]
	if prev.code {
		return cur.code && cur.unit == prev.unit && cur.fence == "" &&
			indentOf(text[cur.start:cur.end]) > indentOf(text[prev.start:prev.end])
	}
	p := strings.TrimSpace(text[prev.start:prev.end])
	if cur.code {
		return cur.fence != "" && strings.HasSuffix(p, ":")
	}
	s := text[cur.start:cur.end]
	whole := p == "" || strings.ContainsAny(p[len(p)-1:], ".:!?;") // the lead-in ends a sentence
	item := listMarked(strings.TrimLeft(s, " \t"))
	return pointsBack(s) || item && !listMarked(p) && prev.unit != cur.unit && !whole
}

// pointsBack reports whether sentence s opens with a word that refers to the sentence before
// it: a demonstrative or personal pronoun ("This means …", "It defaults to …") or a connective
// that continues it ("Otherwise, …", "However, …").
func pointsBack(s string) bool {
	s = strings.TrimLeft(s, " \t*_>-")
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	return backWords[s[:end]]
}

// backWords are the words that, opening a sentence, refer to the one before it.
var backWords = map[string]bool{
	"This": true, "These": true, "That": true, "Those": true, "It": true, "Its": true,
	"They": true, "Their": true, "Such": true, "Otherwise": true, "However": true,
	"Instead": true, "Thus": true, "Therefore": true, "Hence": true, "Likewise": true,
	"Similarly": true, "Conversely": true,
}

// markMatches sets each segment's mask from the words of text that start with one of
// pq's stems and are a form of its word (wordEnds), outside URLs: a word starts after a
// character that is not a letter or digit, or at a capital after a lower-case letter
// (camelCase). The text is scanned once, each byte looked up in a table of the stems that
// start with it in either case: one pass with strings.IndexByte for each first letter and
// case was 14% of a search.
func markMatches(text string, segs []segment, pq *passageQuery) {
	if len(segs) == 0 {
		return
	}
	if pq.number > 0 {
		markNumbers(text, segs)
	}
	if d := slices.Index(pq.stems, "default"); d >= 0 {
		markAssignments(text, segs, d)
	}
	lo, hi := segs[0].start, segs[len(segs)-1].end
	// Most texts hold no URL: then no match is inside one.
	mayURL := strings.Contains(text, "://") || strings.Contains(text, "www.")
	// starts[c] holds the stems whose first byte is c, in lower or upper case.
	var starts [256]uint64
	for w, stem := range pq.stems {
		first := stem[0]
		starts[first] |= 1 << w
		if 'a' <= first && first <= 'z' {
			starts[first-'a'+'A'] |= 1 << w
		}
	}
	seg := 0
	// The groups of the last matched word, where it ends and its segment: a match of the next
	// group that follows it across nothing but a separator makes a pair.
	var prevGroups uint64
	prevEnd, prevSeg := -1, -1
	for at := lo; at < hi; at++ {
		c := text[at]
		cands := starts[c]
		if cands == 0 {
			continue
		}
		if at > 0 {
			prev := text[at-1]
			if isWordByte(prev) && !(c >= 'A' && c <= 'Z' && 'a' <= prev && prev <= 'z') {
				continue
			}
		}
		url := -1 // whether at is inside a URL, found when a stem matches
		for b := cands; b != 0; b &= b - 1 {
			w := bitIndex(b)
			stem := pq.stems[w]
			if at+len(stem) > hi {
				continue
			}
			if c >= utf8.RuneSelf {
				if !strings.EqualFold(text[at:at+len(stem)], stem) {
					continue
				}
			} else if !equalFoldASCII(text[at+1:at+len(stem)], stem[1:]) {
				continue
			}
			if !pq.wordEnds(text, at, at+len(stem), w) {
				continue
			}
			if url < 0 {
				url = 0
				if mayURL && inURL(text, at) {
					url = 1
				}
			}
			if url == 1 {
				break
			}
			for seg < len(segs) && segs[seg].end <= at {
				seg++
			}
			if seg < len(segs) && segs[seg].start <= at {
				segs[seg].mask |= 1 << w
				g := pq.group[w]
				if g > 0 && prevSeg == seg && prevGroups&(1<<(g-1)) != 0 && adjacent(text, prevEnd, at) {
					segs[seg].pairs |= 1 << (g - 1)
				}
				end := at + len(pq.stems[w])
				for end < hi && 'a' <= text[end] && text[end] <= 'z' {
					end++
				}
				if pq.ident&(1<<g) != 0 && pq.head[w] && !segs[seg].code && definesAt(text, segs[seg].start, at, end) {
					segs[seg].defines |= 1 << g
				}
				if end != prevEnd || seg != prevSeg {
					prevGroups = 0
				}
				prevGroups |= 1 << g
				prevEnd, prevSeg = end, seg
			}
		}
	}
}

// definesAt reports whether the word text[at:end] opens the segment that starts at start as the
// name it defines: after nothing but list markers, quotes and brackets, the qualifier of its
// name ("options." of "`options.maxPayload`"), or a reST or JSDoc field tag (":param",
// "@param"), and followed by what ends a defined name: a quote, a colon, "=", an opening
// parenthesis or bracket, " (", " - " or " :" before its type or description, or after a tag a
// space.
func definesAt(text string, start, at, end int) bool {
	head := strings.TrimLeft(text[start:at], " \t-*+`'\"[(")
	tagged := false
	switch {
	case head == "" || qualifier(head):
	default:
		tag, ok := strings.CutSuffix(head, " ")
		tag = strings.TrimRight(tag, " `")
		if !ok || len(tag) < 2 || tag[0] != ':' && tag[0] != '@' || !fieldTags[tag[1:]] {
			return false
		}
		tagged = true
	}
	for end < len(text) && isIdentByte(text[end]) {
		end++
	}
	if end >= len(text) {
		return false
	}
	switch text[end] {
	case '`', '\'', '"', ':', '=', '(', '[', ']':
		return true
	case ' ':
		// After a tag ("@param maxPayload The largest …"), a name is what the tag defines.
		return tagged || strings.HasPrefix(text[end:], " (") || strings.HasPrefix(text[end:], " - ") || strings.HasPrefix(text[end:], " :")
	}
	return false
}

// qualifier reports whether s is the qualifier of a dotted name: identifiers joined and ended by
// dots ("options.", "self.").
func qualifier(s string) bool {
	if !strings.HasSuffix(s, ".") || strings.HasPrefix(s, ".") {
		return false
	}
	for i := range len(s) {
		if !isIdentByte(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

// paramsIn returns the groups of pq whose word, as typed, is the name of a parameter the
// declaration sig declares: a name followed by "=", ":" or "?:" after "(", "," or "*" (Python's
// "countdown=None", TypeScript's "options?: Options", Rust's "n: usize"). A question about
// self.retry() "without a countdown" asks about that parameter as surely as one that writes
// countdown=… does.
func (pq *passageQuery) paramsIn(sig string) uint64 {
	var groups uint64
	open := false // after "(", "," or "*": a parameter's name may start
	for i := 0; i < len(sig); {
		c := sig[i]
		if !isIdentByte(c) {
			switch c {
			case '(', ',', '*':
				open = true
			case ' ', '\t', '\n':
			default:
				open = false
			}
			i++
			continue
		}
		j := i
		for j < len(sig) && isIdentByte(sig[j]) {
			j++
		}
		if open && j < len(sig) && (sig[j] == '=' || sig[j] == ':' || sig[j] == '?' && j+1 < len(sig) && sig[j+1] == ':') {
			stem := lightStem(strings.ToLower(sig[i:j]))
			for w, st := range pq.stems {
				if st == stem && pq.head[w] {
					groups |= 1 << pq.group[w]
				}
			}
		}
		open = false
		i = j
	}
	return groups
}

// writtenAsCode reports whether the question text writes its word tok as code names are
// written: with an underscore, in camelCase, in backticks, or followed by "(" or "=".
func writtenAsCode(text, tok string) bool {
	if strings.IndexByte(tok, '_') >= 0 {
		return true
	}
	// camelCase, not PascalCase: "WebSocket" and "GitHub" are names of things as often.
	if 'a' <= tok[0] && tok[0] <= 'z' && strings.IndexFunc(tok, unicode.IsUpper) > 0 {
		return true
	}
	for i := 0; ; {
		j := strings.Index(text[i:], tok)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(tok)
		if at > 0 && text[at-1] == '`' || end < len(text) && (text[end] == '(' || text[end] == '=' || text[end] == '`') {
			return true
		}
		i = end
	}
}

// fieldTags are the tags of reST field lists and JSDoc that open a parameter's or attribute's
// definition with its name.
var fieldTags = map[string]bool{"param": true, "parameter": true, "arg": true, "argument": true,
	"key": true, "keyword": true, "kwarg": true, "ivar": true, "cvar": true, "var": true, "property": true, "prop": true}

// adjacent reports whether text[end:at] separates two words of one phrase: nothing (the parts
// of a camelCase identifier), or at most two spaces, hyphens, underscores or slashes.
func adjacent(text string, end, at int) bool {
	if end < 0 || at < end || at-end > 2 {
		return false
	}
	for _, c := range []byte(text[end:at]) {
		if c != ' ' && c != '-' && c != '_' && c != '/' {
			return false
		}
	}
	return true
}

// wordEnds reports whether the text's word that starts at at with stem w of pq (text[at:end])
// is a form of that word, not another word that starts alike: the letters that follow in the
// same word (up to a camelCase boundary) are an ending that lightStem removes ("messages",
// "configuration" for "configured"), a comparative's ("larger"), or the start of another of the
// question's words ("maxsize" for "max size"). "expression" is not a form of "express", nor
// "retrieve" of "retries".
func (pq *passageQuery) wordEnds(text string, at, end, w int) bool {
	if stem := pq.stems[w]; isDigit(stem[len(stem)-1]) && end < len(text) &&
		(isDigit(text[end]) || text[end] == '.' && end+1 < len(text) && isDigit(text[end+1])) {
		return false // "2.5" is not "2.50", nor "100" "1000", nor "0" "0.5"
	}
	if isDigit(text[at]) && at > 0 && text[at-1] == '.' {
		return false // nor "0" the end of "2.0"
	}
	j := end
	for j < len(text) && 'a' <= text[j] && text[j] <= 'z' {
		j++
	}
	if j == end {
		return true
	}
	tail := text[end:j]
	switch tail {
	case "er", "ers", "est":
		return true
	}
	if stem := pq.stems[w]; isASCII(stem) {
		// text[at:end] matched the stem, so it is ASCII too: stemsTo, which does not copy.
		if stemsTo(text[at:j], stem) {
			return true
		}
	} else if lightStem(strings.ToLower(text[at:j])) == stem {
		return true
	}
	for _, s := range pq.stems {
		if strings.HasPrefix(tail, s) {
			return true
		}
	}
	return false
}

// inURL reports whether the word at text[at] is part of a URL ("http://example.com"): the words
// of a link's address say nothing about what its sentence says.
func inURL(text string, at int) bool {
	// Byte loops rather than strings.IndexAny, which builds its set of bytes at every call:
	// this runs for every match of a question's word.
	start := at
	for lo := max(0, at-256); start > lo; start-- {
		if c := text[start-1]; c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == '(' || c == '<' || c == '[' {
			break
		}
	}
	end := at
	for hi := min(len(text), at+256); end < hi; end++ {
		if c := text[end]; c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == ')' || c == '>' || c == ']' {
			break
		}
	}
	tok := text[start:end]
	return strings.Contains(tok, "://") || strings.HasPrefix(tok, "www.")
}

// markNumbers marks the segments that hold a number with numberBit: a digit that starts a word
// ("65000", "100:100", ".005", "4MB"), not one inside an identifier ("HS256", "utf8"), nor a
// version or address of three or more dotted parts ("v6.14.1", "127.0.0.1"), which names a
// release, not a quantity a question asks for.
func markNumbers(text string, segs []segment) {
	for k := range segs {
		s := &segs[k]
		for i := s.start; i < s.end; i++ {
			c := text[i]
			if c < '0' || c > '9' {
				continue
			}
			if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '_') && !('0' <= text[i-1] && text[i-1] <= '9') {
				continue
			}
			if end, ok := dottedVersion(text, s.start, i, s.end); ok {
				i = end
				continue
			}
			s.mask |= 1 << numberBit
			break
		}
	}
}

// dottedVersion reports whether the run of digits and dots that holds text[i] (a digit; the run
// within text[start:end]) has three or more parts, and returns where the run ends.
func dottedVersion(text string, start, i, end int) (int, bool) {
	for i > start && (isDigit(text[i-1]) || text[i-1] == '.') {
		i--
	}
	j, dots := i, 0
	for j < end && (isDigit(text[j]) || text[j] == '.' && j+1 < end && isDigit(text[j+1])) {
		if text[j] == '.' {
			dots++
		}
		j++
	}
	return j, dots >= 2
}

// markAssignments marks with bit d (the stem "default") the prose segments that give a
// parameter's default as name=value, the way JSDoc (`[options.leading=false]`), Python
// signatures and keyword arguments (`override=False`) and option strings write it: an
// identifier, "=" and a value, without spaces. Code lines are left out: there "=" assigns; and
// so is a key after brackets, a query string's "a[b][c]=d", which qs's README writes in prose.
func markAssignments(text string, segs []segment, d int) {
	for k := range segs {
		s := &segs[k]
		if s.code || s.mask&(1<<d) != 0 {
			continue
		}
		for i := s.start + 1; i < s.end-1; i++ {
			i += max(0, strings.IndexByte(text[i:s.end-1], '='))
			if text[i] != '=' {
				break
			}
			prev, next := text[i-1], text[i+1]
			if (isWordByte(prev) || prev == '_') && next != '=' && next != '>' && next != ' ' && next != '\n' {
				s.mask |= 1 << d
				break
			}
		}
	}
}

// isWordByte reports whether c is part of a word: an ASCII letter or digit, or a byte of a
// multi-byte character (taken for a letter).
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
}

// packageWords returns the mask of pq's stems that are words of the package name pkg: the hit
// is in that package, so every part of its documentation is about them, and a passage that
// names the package ("require('jsonwebtoken')") is no more likely to answer. A word is the
// package's when it is one of the name's words in the same form: "dotenv" of python-dotenv,
// not "git" of github.com/….
func (pq *passageQuery) packageWords(pkg string) uint64 {
	held, ok := pq.namedIn(pkg, false)
	if !ok {
		held = pq.namedInWords(pkg, false)
	}
	return held
}

// forHit returns pq for a hit of package pkg, titled title under the heading path section, with
// its weights in buf's storage: the package's words (see packageWords) weigh nothing, and the
// words of the title and section, and their identifier parts, titleWeight of their weight.
// page's passages take it for every hit: making it at once, rather than as two copies of the
// query and the title joined to the section, saved a tenth of what choosing them allocated.
func (pq *passageQuery) forHit(pkg, title, section string, buf []float64) passageQuery {
	zero := pq.packageWords(pkg)
	// No word runs across the space that joins title and section: the words of the two are
	// those of each.
	half, ok := pq.namedIn(title, true)
	named := half
	if !ok {
		named = pq.namedInWords(title, true)
	}
	if more, ok2 := pq.namedIn(section, true); ok && ok2 {
		half |= more
	} else {
		half = pq.namedInWords(title+" "+section, true)
	}
	out := *pq
	out.named = named
	out.ident |= pq.paramsIn(section)
	if zero|half == 0 {
		return out
	}
	out.weights = append(buf[:0], pq.weights...)
	for b := zero; b != 0; b &= b - 1 {
		out.weights[bitIndex(b)] = 0
	}
	for b := half; b != 0; b &= b - 1 {
		out.weights[bitIndex(b)] *= titleWeight
	}
	for g, gm := range pq.groups {
		if gm&(zero|half) != 0 {
			out.titled |= 1 << g
		}
	}
	return out
}

// titleWeight is the share of its weight a question's word keeps in a hit whose title or
// heading path holds it: the reader sees the title already, and its words are what the whole
// text is about, so the words it lacks tell its sentences apart. On testdata/answers, 0.5 and
// 0.2 showed the fact in 92 of the 105 top-10 passages whose text holds it, 1 in 90.
const titleWeight = 0.5

// namedInWords returns the mask of pq's stems that are the lightStem of a lowercased word of
// name (a run of letters and digits) or, with parts, of an identifier part of one of its words
// when it has several (splitIdent). namedIn finds the same for an ASCII name without splitting
// name into words.
func (pq *passageQuery) namedInWords(name string, parts bool) uint64 {
	var held uint64
	mark := func(w string) {
		if i := slices.Index(pq.stems, lightStem(w)); i >= 0 {
			held |= 1 << i
		}
	}
	for _, tok := range strings.FieldsFunc(strings.ToLower(name), notWordRune) {
		mark(tok)
	}
	// A snake_case identifier as a whole (see namedIn).
	for _, tok := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r != '_' && notWordRune(r) }) {
		if strings.IndexByte(tok, '_') >= 0 {
			mark(tok)
		}
	}
	if parts {
		for _, tok := range strings.FieldsFunc(name, notWordRune) {
			if ps := splitIdent([]byte(tok)); len(ps) > 1 {
				for _, p := range ps {
					mark(strings.ToLower(tok[p[0]:p[1]]))
				}
			}
		}
	}
	return held
}

// namedIn is namedInWords for a name whose letters and digits are ASCII, and ok false for any
// other; other characters, such as the " › " between headings, only separate words. It runs
// for every hit with the hit's title and heading path or signature, which can be long: rather
// than split name into words, lowercase and stem each, it looks for each stem in name (the
// word or part that stems to it starts with it) and checks only the words and parts that start
// where one occurs.
func (pq *passageQuery) namedIn(name string, parts bool) (held uint64, ok bool) {
	for i := 0; i < len(name); {
		if name[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(name[i:])
		if !notWordRune(r) {
			return 0, false
		}
		i += size // its bytes are not ASCII letters or digits: they separate words here too
	}
	for i, stem := range pq.stems {
		if !isASCII(stem) {
			continue // the stem of a word of ASCII letters and digits is ASCII
		}
		snake := strings.IndexByte(stem, '_') >= 0
		for from := 0; from < len(name); {
			k := indexFold(name[from:], stem)
			if k < 0 {
				break
			}
			at := from + k
			from = at + 1
			start, end := at, at // the word around at: the stem may hold other characters ("max_age")
			for start > 0 && isAlnum(name[start-1]) {
				start--
			}
			for end < len(name) && isAlnum(name[end]) {
				end++
			}
			if end-at < len(stem) {
				// A snake_case stem ("from_reader") is the whole identifier it starts, as
				// Rust and Python spell their names: "serde_json::from_reader".
				if snake && (at == 0 || !isIdentByte(name[at-1])) {
					for end < len(name) && isIdentByte(name[end]) {
						end++
					}
					if stemsTo(name[at:end], stem) {
						held |= 1 << i
						break
					}
				}
				continue // no word or part that starts at at holds the whole stem
			}
			word := name[start:end]
			if at == start && stemsTo(word, stem) || parts && partStemsTo(word, at-start, stem) {
				held |= 1 << i
				break
			}
		}
	}
	return held, true
}

// partStemsTo reports whether word, of ASCII letters and digits, has several identifier parts
// (splitIdent) and the one that starts at byte at stems to stem (stemsTo). Only a part's start
// is tested before splitIdent runs: a word's start, or a camelCase, digit or acronym boundary.
func partStemsTo(word string, at int, stem string) bool {
	if at > 0 {
		prev, c := word[at-1], word[at]
		upper := 'A' <= c && c <= 'Z'
		boundary := upper && 'a' <= prev && prev <= 'z' ||
			isDigit(c) != isDigit(prev) ||
			upper && 'A' <= prev && prev <= 'Z' && at+1 < len(word) && 'a' <= word[at+1] && word[at+1] <= 'z'
		if !boundary {
			return false
		}
	}
	ps := splitIdent([]byte(word))
	if len(ps) < 2 {
		return false
	}
	for _, p := range ps {
		if p[0] == at && stemsTo(word[p[0]:p[1]], stem) {
			return true
		}
	}
	return false
}

// stemsTo reports whether lightStem(strings.ToLower(w)) is stem, for an ASCII w and a
// lowercased stem, without lowering w: lightStem keeps a prefix of its word.
func stemsTo(w, stem string) bool {
	n := stemLen(w)
	return n == len(stem) && equalFoldASCII(w[:n], stem)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isAlnum reports whether the ASCII byte c is a letter or a digit: what notWordRune does not
// split at.
// isIdentByte reports whether c may be part of an identifier: an ASCII letter, digit or "_".
func isIdentByte(c byte) bool { return isAlnum(c) || c == '_' }

func isAlnum(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) }

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// shownWords returns the mask of pq's stems (and numberBit) that passage p, as passage
// returned it, holds.
func (pq *passageQuery) shownWords(p string) uint64 {
	if p == "" {
		return 0
	}
	buf := segmentBufs.Get().(*[]segment)
	segs := appendSegments((*buf)[:0], p)
	markMatches(p, segs, pq)
	var mask uint64
	for _, s := range segs {
		mask |= s.mask
	}
	clear(segs)
	*buf = segs[:0]
	segmentBufs.Put(buf)
	return mask
}

// addsWords reports whether the words of mask hold a word of the question, in any of its forms,
// that above does not, and that weighs something in pq (not the package's own name): or a
// number, when the question asks for one.
func (pq *passageQuery) addsWords(mask, above uint64) bool {
	for _, gm := range pq.groups {
		if mask&gm == 0 || above&gm != 0 {
			continue
		}
		for b := mask & gm; b != 0; b &= b - 1 {
			if pq.weights[bitIndex(b)] > 0 {
				return true
			}
		}
	}
	return pq.number > 0 && mask&^above&(1<<numberBit) != 0
}
