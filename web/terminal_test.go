package web_test

import (
	"log/slog"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/safetext/safetexttest"
	"github.com/docidx/docidx/serve"
	"github.com/docidx/docidx/web"
)

// TestHostileCharacters is issue 25's point 3 for the pages: no page kind — search, the start
// page, overview, README, another document, API outline, symbol, diff, snapshot, not found with
// its suggestions — holds a control, bidi, zero-width or tag character from a package that
// carries them in every field; each is shown as its escape, and the words stay.
func TestHostileCharacters(t *testing.T) {
	r := safetexttest.Snapshot(t)
	log := slog.New(slog.DiscardHandler)
	s := serve.New(r, serve.Options{Version: "v0.0.0-test", Logger: log})
	ts := httptest.NewServer(s.NewHTTPHandler(serve.HTTPOptions{Pages: web.New(s.Answers(), web.Options{Logger: log}), RateLimit: -1}))
	t.Cleanup(ts.Close)

	name, v1, v2 := safetexttest.HostileName, safetexttest.HostileVersions[0], safetexttest.HostileVersions[1]
	page := func(version, pg string) string {
		return strings.TrimPrefix(docidx.PageURI(docidx.NPM, safetexttest.HostilePackage, version, pg), docidx.URIScheme+":/")
	}
	for _, c := range []struct {
		path   string
		status int
		want   string // an escape the page shows
	}{
		{"/", 200, `hostile description label ED\x1b[2J`},
		{"/?q=label", 200, `\u202e`},
		{"/?q=greets&kind=symbols", 200, `\x1b]52`},
		{strings.TrimSuffix(page(v2, docidx.PageOverview), "/"+docidx.PageOverview), 200, `2.0.0-\u202e\x1b[2J`},
		{page(v2, docidx.PageReadme), 200, `OSC8\x1b]8;;http://127.0.0.1:9/\x1b\link`},
		{page(v2, docidx.PageDocPrefix+"docs/guide"+name+".md"), 200, `C1CSI\u009b2J`},
		{page(v2, docidx.PageAPI), 200, `Wid\u202eget\u200b\u2066`},
		{page(v2, docidx.PageSymbolPrefix+name), 200, `TAG\U000e0041\U000e007f`},
		{"/npm/hostile/diff?from=" + url.QueryEscape(v1) + "&to=" + url.QueryEscape(v2), 200, `added` + `Wid\u202eget`},
		{"/snapshot", 200, `2.0.0-\u202e\x1b[2J`},
		{page("9.9.9", docidx.PageOverview), 404, `2.0.0-\u202e\x1b[2J`},
		{page(v2, docidx.PageSymbolPrefix+"Wid"), 404, `Wid\u202eget`},
	} {
		resp, body := get(t, ts, c.path)
		if resp.StatusCode != c.status {
			t.Errorf("GET %s: status %d, want %d\n%s", c.path, resp.StatusCode, c.status, body)
			continue
		}
		if err := safetexttest.CheckPeople("GET "+c.path, body); err != nil {
			t.Error(err)
		}
		if !strings.Contains(body, c.want) {
			t.Errorf("GET %s: the page lacks %s:\n%s", c.path, c.want, body)
		}
	}
}
