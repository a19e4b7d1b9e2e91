package index_test

import (
	"slices"
	"testing"

	"github.com/docidx/docidx/index"
)

func TestClosest(t *testing.T) {
	names := []string{"Router", "Router.use", "RouterOptions", "createRouter", "redis.Options.PoolSize", "redis.Options", "middleware", "install",
		"@types/express", "express", "github.com/yuin/goldmark"}
	for _, tc := range []struct {
		want string
		n    int
		got  []string
	}{
		{"router", 5, []string{"Router", "Router.use", "RouterOptions", "createRouter"}},
		{"Routr", 5, []string{"Router"}},
		{"poolsize", 5, []string{"redis.Options.PoolSize"}},
		{"PoolSise", 5, []string{"redis.Options.PoolSize"}},
		{"midleware", 5, []string{"middleware"}},
		{"options", 1, []string{"redis.Options"}},
		{"zzz", 5, nil},
		// At equal typos the whole name comes before a last segment, whatever their order.
		{"exprss", 5, []string{"express", "@types/express"}},
		{"github.com/yuin/goldmrk", 5, []string{"github.com/yuin/goldmark"}},
		{"", 5, nil},
	} {
		if got := index.Closest(tc.want, names, tc.n); !slices.Equal(got, tc.got) {
			t.Errorf("Closest(%q) = %q, want %q", tc.want, got, tc.got)
		}
	}
}
