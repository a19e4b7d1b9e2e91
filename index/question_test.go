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
