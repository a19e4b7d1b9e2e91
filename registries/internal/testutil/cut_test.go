package testutil

import (
	"errors"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/extracted"
)

func TestCutShort(t *testing.T) {
	errBound := errors.New("too many tokens")
	cut := extracted.Result{Symbols: []docidx.Symbol{{Name: "first"}}, Truncated: true,
		Problems: []string{"b.js: not read: too many tokens", "c.js: not read: too many tokens"}}
	for _, tc := range []struct {
		name  string
		mod   func(*extracted.Result)
		fails bool
	}{
		{"as wanted", func(*extracted.Result) {}, false},
		{"another symbol", func(r *extracted.Result) { r.Symbols = append(r.Symbols, docidx.Symbol{Name: "second"}) }, true},
		{"not truncated", func(r *extracted.Result) { r.Truncated = false }, true},
		{"one problem", func(r *extracted.Result) { r.Problems = r.Problems[:1] }, true},
		{"another reason", func(r *extracted.Result) { r.Problems = []string{r.Problems[0], "c.js: not UTF-8"} }, true},
	} {
		res := cut
		res.Symbols = append([]docidx.Symbol(nil), cut.Symbols...)
		res.Problems = append([]string(nil), cut.Problems...)
		tc.mod(&res)
		r := &recorder{TB: t}
		CutShort(r, res, "first", errBound, 2)
		if (len(r.errs) > 0) != tc.fails {
			t.Errorf("%s: reported %q", tc.name, r.errs)
		}
	}
}
