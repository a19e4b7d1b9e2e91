package index

import (
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

func TestPlainWords(t *testing.T) {
	for in, want := range map[string]string{
		"how big is the driver's pool if I don't configure it?": "how big is the driver pool if I configure it?",
		"it’s the user’s call, isn’t it":                        "it the user call, it",
		"we've said you're right and I'm sure they'll go":       "we said you right and I sure they go",
		"'2h' or '1d' in ms":                                    "'2h' or '1d' in ms",
		"no apostrophe":                                         "no apostrophe",
	} {
		if got := plainWords(in); got != want {
			t.Errorf("plainWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestForms(t *testing.T) {
	idx := forms()
	for stem, want := range map[string][]string{
		"messag":  {"msg"},                             // "message", "messages"
		"msg":     {"message"},                         // the abbreviation leads to the word
		"largest": {"max", "maximum"},                  // a superlative to the limit's name
		"receiv":  {"recv"},                            // "receive", "received"
		"auth":    {"authentication", "authorization"}, // in two groups
	} {
		for _, w := range want {
			if !slices.Contains(idx[stem], w) {
				t.Errorf("forms()[%q] = %v, want it to hold %q", stem, idx[stem], w)
			}
		}
	}
	if got := idx["messag"]; slices.Contains(got, "message") {
		t.Errorf("forms()[messag] = %v holds the word itself", got)
	}
}

func TestSearchTerms(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/m", Version: "v1.0.0"}})
	for in, want := range map[string][]string{
		"gRPC server":                   {"grpc", "server", "rpc"}, // not "g"
		"the driver's pool, don't":      {"driver", "pool"},        // not "s", "don", "t"
		"'2h' or 'a' or MaxRecvMsgSize": {"2h", "2", "h", "maxrecvmsgs", "max", "recv", "msg", "size"},
	} {
		got := r.r.searchTerms(in)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("searchTerms(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestDominant(t *testing.T) {
	type hit struct {
		pkg   string
		score float64
	}
	for _, c := range []struct {
		hits []hit
		want string // "" for none
	}{
		{[]hit{{"a", 10}, {"b", 5}, {"a", 9}}, "a"},
		{[]hit{{"b", 4}, {"a", 10}, {"b", 5.1}}, ""}, // 10 < 2 x 5.1
		{[]hit{{"b", 5}, {"a", 10}, {"c", 4}}, "a"},  // b's best was the best before a's
		{[]hit{{"a", 3}, {"a", 1}}, "a"},             // no other package
		{[]hit{{"a", 4}, {"b", 1}, {"b", 2.5}}, ""},  // b's second hit counts
		{nil, ""},
	} {
		p, ok := dominant(len(c.hits), func(i int) (string, float64) { return c.hits[i].pkg, c.hits[i].score })
		if got := map[bool]string{true: p, false: ""}[ok]; got != c.want {
			t.Errorf("dominant(%v) = %q, want %q", c.hits, got, c.want)
		}
	}
}
