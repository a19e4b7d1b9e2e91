package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// sameTokens reports where asciiTokenizer and bleve's unicode tokenizer part on input.
func sameTokens(t *testing.T, input []byte) {
	t.Helper()
	u := unicode.NewUnicodeTokenizer()
	want := u.Tokenize(input)
	got := asciiTokenizer{unicode: u, arena: &tokenArena{}}.Tokenize(input)
	if len(got) != len(want) {
		t.Fatalf("%q: %d tokens %s, want %d %s", input, len(got), terms(got), len(want), terms(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if string(g.Term) != string(w.Term) || g.Start != w.Start || g.End != w.End || g.Position != w.Position || g.Type != w.Type {
			t.Fatalf("%q: token %d is %q %d-%d @%d type %d, want %q %d-%d @%d type %d", input, i,
				g.Term, g.Start, g.End, g.Position, g.Type, w.Term, w.Start, w.End, w.Position, w.Type)
		}
	}
}

func terms(ts analysis.TokenStream) []string {
	var out []string
	for _, t := range ts {
		out = append(out, string(t.Term))
	}
	return out
}

// TestASCIITokenizer checks the word-boundary rules asciiTokenizer follows against bleve's
// unicode tokenizer, one case a rule, and that text with a non-ASCII byte goes to bleve's.
func TestASCIITokenizer(t *testing.T) {
	for _, s := range []string{
		"", "a", "_", "__", "_1", "1_", "a_1_b", "don't", "e.g. this", "U.S.A.", "a:b", "a::b", "a..b",
		"1,000.5", "1:2", "1'2", "a'1", "a,b", "3.14.15", "a1.5", "1.5a", "abc.123", "v1.2.3",
		"foo.bar()", "x = y; z", "std::io::Read", "HTTPServer read_file", "'quoted'", "\"dq\"",
		"tab\there\r\nnext\x0bline\x0c", "end.", ".start", "a.b.", "1.", ".5", "5.", "a'", "'a",
		"# Heading\n\n- item `code` [link](http://x.y/z?q=1&r=2#frag) <b>bold</b>",
		"naïve café", "日本語 text", "emoji 🙂 here",
	} {
		sameTokens(t, []byte(s))
	}
	// Every short string over the bytes the rules treat apart, drawn at random.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ09_.:',;\"- \n\t#@"
	b := make([]byte, 0, 12)
	for range 50000 {
		b = b[:0]
		for range rng.IntN(12) + 1 {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		sameTokens(t, b)
	}
	if a := withTokenArena(nil, &tokenArena{}); a != nil {
		t.Error("a nil analyzer changed")
	}
}

// FuzzASCIITokenizer holds asciiTokenizer to bleve's unicode tokenizer on any input.
func FuzzASCIITokenizer(f *testing.F) {
	for _, s := range []string{"don't e.g. 1,000.5 a_1 std::io", "a:b.c'd,e;f", "x1.y2_z3", "__.__", "1'a'2"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		sameTokens(t, input)
	})
}

// TestTokenArena checks that the rank index's analyzers, whose tokens come from one reused
// arena, give each text the tokens the mapping's own analyzers give it, text after text: long
// texts (more tokens than a chunk of the arena) and short ones, identifiers split into parts,
// and non-ASCII text, which bleve's tokenizer reads.
func TestTokenArena(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("HTTPServer read_file parses the config; ", tokenArenaChunk/2)
	texts := []string{long, "a b", "Ünïcode café naïve read_file", long + "tail words", "x", "getUserID v2 JSONParser", ""}
	arena := &tokenArena{}
	for _, f := range []string{fAll, fName} {
		plain := im.AnalyzerNamed(im.AnalyzerNameForPath(f))
		reused := withTokenArena(plain, arena)
		if reused == plain {
			t.Fatalf("field %s: the analyzer did not take the arena", f)
		}
		for round := range 2 {
			for _, text := range texts {
				want := tokenList(plain.Analyze([]byte(text)))
				arena.reset()
				if got := tokenList(reused.Analyze([]byte(text))); !slices.Equal(got, want) {
					t.Fatalf("field %s, round %d, %.40q: %d tokens %.200q, want %d %.200q", f, round, text, len(got), got, len(want), want)
				}
			}
		}
	}
}

// tokenList returns ts as "term start-end @position type" strings.
func tokenList(ts analysis.TokenStream) []string {
	out := make([]string, len(ts))
	for i, tok := range ts {
		out[i] = fmt.Sprintf("%s %d-%d @%d %d", tok.Term, tok.Start, tok.End, tok.Position, tok.Type)
	}
	return out
}
