package index

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// snippetWhole is snippet as it was before it cut long texts to a window: the reference it must
// agree with.
func snippetWhole(text string, words []string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) <= n {
		return text
	}
	lower := strings.ToLower(text)
	pos := -1
	for _, w := range words {
		if len(w) > 5 {
			w = w[:5]
		}
		if i := strings.Index(lower, w); i >= 0 && (pos < 0 || i < pos) {
			pos = i
		}
	}
	start := 0
	if pos > n/3 {
		start = pos - n/3
		if i := strings.LastIndexAny(text[:start], ".!?"); i >= 0 && start-i < n/3 {
			start = i + 1
		} else if i := strings.IndexByte(text[start:], ' '); i >= 0 && i < 20 {
			start += i + 1
		}
		for start < len(text) && (text[start] == ' ' || text[start]&0xC0 == 0x80) {
			start++
		}
	}
	end := min(start+n, len(text))
	if end < len(text) {
		if i := strings.LastIndexByte(text[start:end], ' '); i > n/2 {
			end = start + i
		}
		for end > start && text[end-1]&0xC0 == 0xC0 {
			end--
		}
	}
	s := clip(text[start:], end-start)
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}

// TestSnippetWindow checks that cutting a long text to the window around its first match gives
// the snippet the whole text gives, for texts of single-spaced words (where collapsing white
// space moves nothing).
func TestSnippetWindow(t *testing.T) {
	vocab := []string{"Goroutine", "errors.", "first", "the", "Return", "é", "naïve", "Ωmega", "salt!", "hash?", "x"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var words []string
		for range 50 + rng.IntN(800) {
			words = append(words, vocab[rng.IntN(len(vocab))])
		}
		text := strings.Join(words, " ")
		q := [][]string{{"salt"}, {"goroutines", "error"}, {"return"}, {"missing"}, {"naïve"}, {"ωmega"}}[rng.IntN(6)]
		want := snippetWhole(text, q, 240)
		if got := snippet(text, q, 240, false); got != want {
			t.Fatalf("snippet(%q, %q):\n got %q\nwant %q", text, q, got, want)
		}
		if got := snippet(text, q, 240, true); got != want { // single-spaced: collapsed already

			t.Fatalf("snippet(%q, %q):\n got %q\nwant %q", text, q, got, want)
		}
	}
	// Collapsed white space still centres on the match.
	text := strings.Repeat("filler words \n\n  ", 400) + "hash passwords with a salt " + strings.Repeat("tail   ", 300)
	if s := snippet(text, []string{"salt"}, 240, false); !strings.Contains(s, "salt") || !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") || strings.Contains(s, "  ") {
		t.Errorf("snippet around a match in spaced text = %q", s)
	}
}

func TestCollapseSpace(t *testing.T) {
	parts := []string{"a", "bc", " ", "  ", "\n", "\t", "\r\n", "\u00a0", "\u2003", "…", "é", "\xff", "x y"}
	for i := range 28561 { // every string of four parts: i in base len(parts)
		var b strings.Builder
		for k, n := i, 0; n < 4; n, k = n+1, k/len(parts) {
			b.WriteString(parts[k%len(parts)])
		}
		s := b.String()
		if got, want := CollapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("CollapseSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestIndexFold(t *testing.T) {
	texts := []string{"", "a", "Go goroutines GOROUTINE", "xGoRoutine", "gog", "ERR err", "naïve NAÏVE", "aaaaB", "abAB"}
	words := []string{"gorou", "g", "err", "naïve", "ab", "b", "zz", "aab"}
	for _, text := range texts {
		for _, w := range words {
			if got, want := indexFold(text, w), strings.Index(strings.ToLower(text), w); got != want {
				t.Errorf("indexFold(%q, %q) = %d, want %d", text, w, got, want)
			}
		}
	}
}
