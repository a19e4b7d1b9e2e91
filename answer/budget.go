package answer

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Token budget (docs/ARCHITECTURE.md §6): every answer is bounded by max_tokens, counted as bytes/4,
// cut at a unit boundary — a section, an outline entry, a symbol, a search hit — and continued
// with a cursor. Only a single unit larger than the whole budget is cut inside, at a line
// boundary (or, for one overlong line, after a sentence, an item of a value or a word; see
// LineCut).

// DefaultMaxTokens is the max_tokens used when neither the call nor Options give one.
const DefaultMaxTokens = 4000

// Bounds of the max_tokens argument, in tokens: a smaller or larger one is taken as these.
const (
	MinMaxTokens = 50
	MaxMaxTokens = 100_000
)

// bytesPerToken is the rough size of one token used to turn max_tokens into bytes.
const bytesPerToken = 4

// Budget returns the page size in bytes for a request's max_tokens argument: the default of
// Options when it is 0 or less, bounded by MinMaxTokens and MaxMaxTokens, times 4 bytes.
func (s *Service) Budget(maxTokens int) int {
	if maxTokens <= 0 {
		maxTokens = s.opts.DefaultMaxTokens
	}
	maxTokens = min(max(maxTokens, MinMaxTokens), MaxMaxTokens)
	return maxTokens * bytesPerToken
}

// unitList is the text of a paged answer as a sequence of units (see cutPage): Len of them,
// unit i given by At. An API outline renders its units only when a page asks for them.
type unitList interface {
	Len() int
	At(i int) string
}

// weighedUnits is a unitList whose units also go out in a heavier form than their text: the
// entries of the structured content, as JSON. Weight(i) is the larger of unit i's text and that
// form, in bytes. Claude Code, the Copilot CLI, Codex and opencode give the model the structured
// content instead of the text, so a page cut by its text alone overran max_tokens there: the
// first page of npm:commander's outline was 16,020 bytes of text and 40,935 of JSON.
type weighedUnits interface {
	unitList
	Weight(i int) int
}

// weighed is a unitList of units made with the weights of their structured form.
type weighed struct {
	textUnits
	weights []int // weights[i] is the JSON size of unit i's structured entry
}

// Weight implements weighedUnits.
func (w weighed) Weight(i int) int { return max(len(w.textUnits[i]), w.weights[i]) }

// jsonSize returns the size of v as compact JSON, written as the JSON-RPC layer writes it (<, >
// and & not escaped), and of the comma that separates it from the next entry of a list, in
// bytes; 0 when v does not marshal.
func jsonSize(v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0
	}
	return b.Len() // the newline Encode ends with stands for the comma
}

// jsonStringSize returns the size of s as a JSON string, quotes included, as encoding/json writes
// it with HTML escaping off: `"` and `\` and the control characters \b \f \n \r \t take two
// bytes, other control characters, U+2028, U+2029 and each byte of invalid UTF-8 six.
func jsonStringSize(s string) int {
	n := 2 + len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"', c == '\\', c == '\b', c == '\f', c == '\n', c == '\r', c == '\t':
				n++
			case c < 0x20:
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5
		case r == '\u2028', r == '\u2029':
			n += 3
		}
		i += size
	}
	return n
}

// asText is a unitList whose structured form carries each unit's text as a JSON string (read's
// and get_package_doc's text field): a unit weighs its text escaped as JSON, whatever form the
// wrapped units weigh otherwise (an outline read as a page is its text and names, not entries).
type asText struct{ unitList }

// Weight implements weighedUnits.
func (t asText) Weight(i int) int { return jsonSize(t.At(i)) - 1 } // the quotes, not a comma

// textUnits is a unitList of units already made.
type textUnits []string

// Len implements unitList.
func (u textUnits) Len() int { return len(u) }

// At implements unitList.
func (u textUnits) At(i int) string { return u[i] }

// pos is a position in a sequence of text units: the unit index and a byte offset inside it.
type pos struct{ unit, off int }

// validPos reports whether p is a place a page can start in units: inside a unit on a
// character boundary, or exactly at the end (an empty last page).
func validPos(units unitList, p pos) bool {
	if p.unit == units.Len() {
		return p.off == 0
	}
	if p.unit < 0 || p.unit > units.Len() || p.off < 0 {
		return false
	}
	u := units.At(p.unit)
	if p.off >= max(len(u), 1) {
		return false
	}
	return p.off == 0 || utf8.RuneStart(u[p.off])
}

// cutPage returns the page of at most budget bytes that starts at p: whole units while they fit
// (counted by their weight when units is a weighedUnits, so that the structured form fits too)
// and, when the first unit alone is larger than budget, the part of its text that fits, cut at a
// line boundary. It always makes progress (one line or one character at least), so repeated
// calls from next reproduce the concatenation of units exactly. more is false at the end.
func cutPage(units unitList, p pos, budget int) (text string, first, end int, next pos, more bool) {
	var b strings.Builder
	first = p.unit
	u, off := p.unit, p.off
	n := units.Len()
	weights, _ := units.(weighedUnits)
	spent := 0 // b's bytes, or the units' weights
	for u < n {
		unit := units.At(u)
		rest := unit[off:]
		size := len(rest)
		if weights != nil && off == 0 {
			size = max(size, weights.Weight(u))
		}
		room := budget - spent
		if size <= room {
			b.WriteString(rest)
			spent += size
			u, off = u+1, 0
			continue
		}
		if spent > 0 {
			break // stop at the unit boundary; the next page starts with this unit
		}
		cut := LineCut(rest, room)
		b.WriteString(rest[:cut])
		if off += cut; off == len(unit) { // one character wider than the budget was the rest
			u, off = u+1, 0
		}
		break
	}
	end = u
	if off > 0 {
		end = u + 1 // unit u is partly on this page
	}
	return b.String(), first, end, pos{u, off}, u < n
}

// LineCut returns how many bytes of s to put on a page with room bytes left: up to the last
// newline that fits (a line, list item or table row ends there); for one overlong line, up to
// the last sentence end that fits, else the last ", " or "; " (between the items or arguments of
// a value), else the last space, so that no word or value is cut, provided the page is then at
// least half full; else up to the last character boundary that fits. It returns at least one
// character.
func LineCut(s string, room int) int {
	if room >= len(s) {
		return len(s)
	}
	room = max(room, 0)
	if i := strings.LastIndexByte(s[:room], '\n'); i >= 0 {
		return i + 1
	}
	for _, seps := range [][]string{{". ", "! ", "? "}, {", ", "; "}, {" "}} {
		best := -1
		for _, sep := range seps {
			if i := strings.LastIndex(s[:room], sep); i >= 0 && i+len(sep) > best {
				best = i + len(sep)
			}
		}
		if best > room/2 {
			return best
		}
	}
	n := room
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n == 0 {
		_, size := utf8.DecodeRuneInString(s)
		n = size
	}
	return n
}
