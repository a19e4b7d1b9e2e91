package index

// suggest.go is docidx's one did-you-mean: the names closest to one that names nothing indexed.

import (
	"sort"
	"strings"

	"github.com/docidx/docidx"
)

func (r *reader) suggest(eco docidx.Ecosystem, name string, n int) []docidx.Ref {
	if n <= 0 {
		return nil
	}
	r.loadNames()
	want := strings.ToLower(strings.TrimSpace(name))
	if want == "" {
		return nil
	}
	var cands []candidate[docidx.Ref]
	for _, ref := range r.names {
		if eco != "" && ref.Ecosystem != eco {
			continue
		}
		if s, ok := nameDistance(want, strings.ToLower(ref.Name)); ok {
			cands = append(cands, candidate[docidx.Ref]{ref, ref.Name, s})
		}
	}
	return best(cands, n)
}

// Closest returns up to n of names that are closest to want, best first: the did-you-mean of
// every lookup (package names through Reader.Suggest, symbol names, import paths, section
// anchors). Names are compared ignoring case, whole and by their last segment after "/" or ".":
// equal first, then prefixes, then substrings, then names within a few typos (an edit distance of
// about a third of the last segment, or a fifth of the whole name), fewer typos first and, at
// equal typos, a whole name before a last segment (express before @types/express). It returns
// nil when nothing is close; duplicates count once.
func Closest(want string, names []string, n int) []string {
	want = strings.ToLower(strings.TrimSpace(want))
	if want == "" || n <= 0 {
		return nil
	}
	seen := make(map[string]bool, len(names))
	var cands []candidate[string]
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if s, ok := nameDistance(want, strings.ToLower(name)); ok {
			cands = append(cands, candidate[string]{name, name, s})
		}
	}
	return best(cands, n)
}

// candidate is one name a did-you-mean may offer, with its nameDistance score.
type candidate[T any] struct {
	v     T
	name  string
	score int // lower is better
}

// best returns the values of the n best-scored candidates, ties in name order.
func best[T any](cands []candidate[T], n int) []T {
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return cands[i].name < cands[j].name
	})
	var out []T
	for i := 0; i < len(cands) && len(out) < n; i++ {
		out = append(out, cands[i].v)
	}
	return out
}

// nameDistance scores how close an indexed name is to what the user typed; ok is false when it
// is not close at all.
func nameDistance(want, have string) (int, bool) {
	last := have[strings.LastIndexAny(have, "./")+1:]
	switch {
	case have == want:
		return 0, true
	case last == want:
		return 1, true
	case strings.HasPrefix(have, want), strings.HasPrefix(last, want):
		return 2 + len(have) - len(want), true
	case len(want) >= 3 && strings.Contains(have, want):
		return 10 + len(have) - len(want), true
	}
	// Typos: fewer edits first, and at equal edits the whole name before a last segment, so
	// "exprss" is express before @types/express.
	score := 0
	if d := levenshtein(want, have); d <= max(1, len(have)/5) {
		score = 20 + 2*d
	}
	if d := levenshtein(want, last); d <= max(1, min(len(want), len(last))/3) && (score == 0 || 21+2*d < score) {
		score = 21 + 2*d
	}
	return score, score > 0
}

// levenshtein returns the optimal-string-alignment edit distance between a and b, in bytes:
// insertions, deletions, substitutions and transpositions of adjacent bytes ("zdo" -> "zod")
// each count one.
func levenshtein(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
