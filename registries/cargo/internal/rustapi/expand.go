package rustapi

// expand.go expands item-level invocations of the crate's own macro_rules, the way crates
// generate families of items (serde's primitive_deserializer!(bool, "a `bool`.",
// BoolDeserializer, visit_bool), axum's top_level_handler_fn!(get, GET)): the first rule whose
// matcher matches the invocation's tokens is transcribed and the result parsed as items.
//
// It implements the part of macro_rules that item-generating macros use
// (https://doc.rust-lang.org/reference/macros-by-example.html): literal tokens and delimited
// groups, fragments ($x:ident, tt, literal, lifetime, block; ty, expr, path, pat, meta, vis,
// item, stmt taken as the token trees up to the matcher's next literal token), repetitions
// $( … ) sep? *|+|? (two levels deep; deeper ones are matched and left out of the output),
// $crate. A rule it cannot follow does not match; an invocation no rule matches
// brings nothing.

import "strings"

// macroRule is one rule of a macro_rules: its matcher and transcriber, inside their brackets.
type macroRule struct {
	matcher, body []token
}

// Bounds of macro expansion.
const (
	maxExpandDepth  = 8       // macro invocations expanded inside one another's output
	maxExpandTokens = 1 << 16 // tokens one transcription may produce
	maxMacroRules   = 1024    // macro_rules remembered per crate
	// maxCrateExpansion bounds the tokens all expansions of one crate produce, so that macros
	// expanding to many invocations of themselves stay cheap.
	maxCrateExpansion = 1 << 22
)

// frag is what a fragment variable bound: its tokens (depth 0), one list of tokens per
// repetition (depth 1), or per repetition of a repetition (depth 2). Deeper variables are
// matched, not transcribed.
type frag struct {
	depth int
	toks  []token
	reps  [][]token
	reps2 [][][]token
}

// desugarDocs rewrites /// and /** */ comments as the #[doc = "…"] attributes they are, which
// matchers such as $(#[$m:meta])* match.
func desugarDocs(toks []token) []token {
	var out []token
	for _, t := range toks {
		if t.kind != tOuterDoc {
			out = append(out, t)
			continue
		}
		h := "#"
		for strings.Contains(t.text, "\""+h) {
			h += "#"
		}
		out = append(out,
			token{kind: tPunct, text: "#", line: t.line}, token{kind: tPunct, text: "[", line: t.line},
			token{kind: tIdent, text: "doc", line: t.line}, token{kind: tPunct, text: "=", line: t.line},
			token{kind: tLiteral, text: "r" + h + "\"" + t.text + "\"" + h, line: t.line},
			token{kind: tPunct, text: "]", line: t.line})
	}
	return out
}

// treeEnd returns the index after the token tree that starts at i of toks (m: matchBrackets).
func treeEnd(toks []token, m []int, i int) int {
	if m[i] >= 0 && isOpen(toks[i]) {
		return m[i] + 1
	}
	return i + 1
}

func isOpen(t token) bool {
	return t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{")
}

func isPunct(t token, s string) bool { return t.kind == tPunct && t.text == s }

// matcher matches one rule's matcher against an invocation's tokens.
type matcher struct {
	m, in    []token
	mm, im   []int
	binds    map[string]*frag
	repDepth int
	outer    int // the iteration of the repetition one level deep being matched
}

// bound is how much a variable had bound, to undo a failed repetition attempt.
type bound struct {
	reps  int
	reps2 []int
}

func (mt *matcher) snapshot() map[string]bound {
	s := make(map[string]bound, len(mt.binds))
	for n, f := range mt.binds {
		b := bound{reps: len(f.reps)}
		for _, r := range f.reps2 {
			b.reps2 = append(b.reps2, len(r))
		}
		s[n] = b
	}
	return s
}

func (mt *matcher) restore(s map[string]bound) {
	for n, f := range mt.binds {
		b, ok := s[n]
		if !ok {
			delete(mt.binds, n)
			continue
		}
		f.reps, f.reps2 = f.reps[:b.reps], f.reps2[:len(b.reps2)]
		for i, l := range b.reps2 {
			f.reps2[i] = f.reps2[i][:l]
		}
	}
}

// matchRule binds the rule's variables to the input's tokens; ok is false when it does not match.
func matchRule(r macroRule, in []token) (map[string]*frag, bool) {
	mt := &matcher{m: r.matcher, in: in, mm: matchBrackets(r.matcher), im: matchBrackets(in), binds: map[string]*frag{}}
	end, ok := mt.seq(0, len(r.matcher), 0, len(in))
	return mt.binds, ok && end == len(in)
}

// seq matches matcher tokens [ma, mb) against input from ia (up to ib) and returns the input
// index after what it consumed.
func (mt *matcher) seq(ma, mb, ia, ib int) (int, bool) {
	i := ia
	for k := ma; k < mb; {
		t := mt.m[k]
		switch {
		case isPunct(t, "$") && k+1 < mb && mt.m[k+1].kind == tIdent && k+3 < mb && isPunct(mt.m[k+2], ":") && mt.m[k+3].kind == tIdent:
			name, kind := mt.m[k+1].text, mt.m[k+3].text
			k += 4
			end, ok := mt.fragment(kind, k, mb, i, ib)
			if !ok {
				return i, false
			}
			mt.bind(name, mt.in[i:end])
			i = end
		case isPunct(t, "$") && k+1 < mb && isPunct(mt.m[k+1], "("):
			open := k + 1
			close := mt.mm[open]
			if close < 0 {
				return i, false
			}
			k = close + 1
			var sep *token
			if k < mb && !(isPunct(mt.m[k], "*") || isPunct(mt.m[k], "+") || isPunct(mt.m[k], "?")) {
				sep = &mt.m[k]
				k++
			}
			if k >= mb {
				return i, false
			}
			op := mt.m[k].text
			k++
			mt.repDepth++
			n := 0
			for i < ib {
				j := i
				if n > 0 && sep != nil {
					if mt.in[j].text != sep.text {
						break
					}
					j++
				}
				snap := mt.snapshot()
				if mt.repDepth == 1 {
					mt.outer = n
				}
				end, ok := mt.seq(open+1, close, j, ib)
				if !ok || end == j && close > open+1 {
					mt.restore(snap)
					break
				}
				i = end
				n++
				if op == "?" {
					break
				}
			}
			mt.repDepth--
			if op == "+" && n == 0 {
				return i, false
			}
			mt.closeReps(open+1, close, n)
		case isOpen(t):
			if i >= ib || mt.in[i].text != t.text {
				return i, false
			}
			close, iclose := mt.mm[k], mt.im[i]
			if close < 0 || iclose < 0 {
				return i, false
			}
			end, ok := mt.seq(k+1, close, i+1, iclose)
			if !ok || end != iclose {
				return i, false
			}
			k, i = close+1, iclose+1
		default:
			if i >= ib || mt.in[i].text != t.text || mt.in[i].kind != t.kind {
				return i, false
			}
			k++
			i++
		}
	}
	return i, true
}

// fragment returns where a fragment of the kind starting at input i ends; next is the matcher
// index after the fragment variable.
func (mt *matcher) fragment(kind string, next, mb, i, ib int) (int, bool) {
	switch kind {
	case "ident":
		if i < ib && mt.in[i].kind == tIdent {
			return i + 1, true
		}
		return i, false
	case "lifetime":
		if i < ib && mt.in[i].kind == tLifetime {
			return i + 1, true
		}
		return i, false
	case "literal":
		j := i
		if j < ib && isPunct(mt.in[j], "-") {
			j++
		}
		if j < ib && (mt.in[j].kind == tLiteral || mt.in[j].text == "true" || mt.in[j].text == "false") {
			return j + 1, true
		}
		return i, false
	case "tt":
		if i < ib {
			return treeEnd(mt.in, mt.im, i), true
		}
		return i, false
	case "block":
		if i < ib && isPunct(mt.in[i], "{") {
			return treeEnd(mt.in, mt.im, i), true
		}
		return i, false
	case "vis":
		if i < ib && mt.in[i].text == "pub" {
			if i+1 < ib && isPunct(mt.in[i+1], "(") {
				return treeEnd(mt.in, mt.im, i+1), true
			}
			return i + 1, true
		}
		return i, true // an empty visibility
	}
	// ty, expr, path, pat, meta, item, stmt …: token trees up to the matcher's next literal
	// token, or to the end of the group.
	var stop *token
	if next < mb && !isPunct(mt.m[next], "$") {
		stop = &mt.m[next]
	}
	j := i
	angle := 0
	for j < ib {
		t := mt.in[j]
		if stop != nil && angle == 0 && t.text == stop.text && t.kind == stop.kind {
			break
		}
		switch {
		case isPunct(t, "<"):
			angle++
		case isPunct(t, ">") && angle > 0:
			angle--
		}
		j = treeEnd(mt.in, mt.im, j)
	}
	if j == i {
		return i, false
	}
	return j, true
}

func (mt *matcher) bind(name string, toks []token) {
	f := mt.binds[name]
	if f == nil {
		f = &frag{depth: mt.repDepth}
		mt.binds[name] = f
	}
	switch mt.repDepth {
	case 0:
		f.toks = toks
	case 1:
		f.reps = append(f.reps, toks)
	case 2:
		for len(f.reps2) <= mt.outer {
			f.reps2 = append(f.reps2, nil)
		}
		f.reps2[mt.outer] = append(f.reps2[mt.outer], toks)
	}
}

// closeReps makes sure every variable of a repetition, matched or not, is known at its depth.
func (mt *matcher) closeReps(ma, mb, n int) {
	depth := mt.repDepth + 1
	for k := ma; k+1 < mb; k++ {
		if isPunct(mt.m[k], "$") && mt.m[k+1].kind == tIdent {
			if mt.binds[mt.m[k+1].text] == nil {
				mt.binds[mt.m[k+1].text] = &frag{depth: depth}
			}
		}
	}
	for _, f := range mt.binds {
		if f.depth == 2 && depth == 1 {
			for len(f.reps2) < n {
				f.reps2 = append(f.reps2, nil)
			}
		}
	}
}

// transcribe writes a rule's transcriber with its variables replaced; idx are the iterations
// of the repetitions being written. ok is false when it uses what the matcher did not bind as
// it is used, or grows past maxExpandTokens.
func transcribe(body []token, binds map[string]*frag, idx []int) ([]token, bool) {
	m := matchBrackets(body)
	var out []token
	for k := 0; k < len(body); {
		t := body[k]
		if !isPunct(t, "$") || k+1 >= len(body) {
			out = append(out, t)
			k++
			continue
		}
		n := body[k+1]
		switch {
		case n.kind == tIdent && n.text == "crate":
			out = append(out, token{kind: tIdent, text: "crate", line: n.line})
			k += 2
		case n.kind == tIdent:
			f, ok := binds[n.text]
			if !ok {
				out = append(out, t, n) // not a variable of this rule: left as written
				k += 2
				continue
			}
			toks, ok := f.at(idx)
			if !ok {
				return nil, false
			}
			if len(toks) > 0 {
				// The fragment stands where "$name" does: spaced from what precedes it when
				// "$" is ("pub struct $name" renders "pub struct AtomicU8", though "(" preceded
				// AtomicU8 in the invocation) or when it was where it was written ("A, B").
				first := toks[0]
				first.gap, first.nl = first.gap || t.gap, first.nl || t.nl
				out = append(out, first)
				toks = toks[1:]
			}
			out = append(out, toks...)
			k += 2
		case isPunct(n, "("):
			close := m[k+1]
			if close < 0 {
				return nil, false
			}
			inner := body[k+2 : close]
			k = close + 1
			var sep *token
			if k < len(body) && !(isPunct(body[k], "*") || isPunct(body[k], "+") || isPunct(body[k], "?")) {
				sep = &body[k]
				k++
			}
			k++ // the operator
			// The repetition runs as many times as its variables one level deeper matched; one
			// over deeper variables than are followed is left out.
			times := -1
			for j := 0; j+1 < len(inner); j++ {
				if !isPunct(inner[j], "$") || inner[j+1].kind != tIdent {
					continue
				}
				f, ok := binds[inner[j+1].text]
				if !ok || f.depth != len(idx)+1 {
					continue // bound outside this repetition, or counted by one inside it
				}
				c, ok := f.count(idx)
				if !ok {
					times = -1
					break
				}
				times = max(times, c)
			}
			for r := 0; r < times; r++ {
				if r > 0 && sep != nil {
					out = append(out, *sep)
				}
				part, ok := transcribe(inner, binds, append(idx[:len(idx):len(idx)], r))
				if !ok {
					return nil, false
				}
				out = append(out, part...)
			}
		default:
			out = append(out, t)
			k++
		}
		if len(out) > maxExpandTokens {
			return nil, false
		}
	}
	return out, true
}

// at returns what f bound at the repetition iterations idx.
func (f *frag) at(idx []int) ([]token, bool) {
	switch {
	case f.depth == 0:
		return f.toks, true
	case f.depth == 1 && len(idx) >= 1 && idx[0] < len(f.reps):
		return f.reps[idx[0]], true
	case f.depth == 2 && len(idx) >= 2 && idx[0] < len(f.reps2) && idx[1] < len(f.reps2[idx[0]]):
		return f.reps2[idx[0]][idx[1]], true
	}
	return nil, false
}

// count returns how many times f matched one level below the iterations idx.
func (f *frag) count(idx []int) (int, bool) {
	switch {
	case f.depth == 1 && len(idx) == 0:
		return len(f.reps), true
	case f.depth == 2 && len(idx) == 1 && idx[0] < len(f.reps2):
		return len(f.reps2[idx[0]]), true
	case f.depth == 2 && len(idx) == 1:
		return 0, true
	}
	return 0, false
}
