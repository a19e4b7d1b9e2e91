package gomod

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docidx/docidx"
)

func TestFairShares(t *testing.T) {
	for _, tc := range []struct {
		counts, weights []int
		max             int
		want            []int
	}{
		{[]int{3, 4}, []int{1, 1}, 10, []int{3, 4}}, // all fit
		{[]int{2, 100, 5}, []int{1, 1, 1}, 20, []int{2, 13, 5}},
		{[]int{100, 100, 100}, []int{1, 1, 1}, 30, []int{10, 10, 10}},
		{[]int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, 3, []int{1, 1, 1, 1, 1}}, // rounded up
		{[]int{100, 100}, []int{3, 1}, 40, []int{30, 10}},
		{[]int{20, 100, 100}, []int{8, 1, 1}, 40, []int{20, 10, 10}}, // the imported one whole
		{nil, nil, 5, nil},
	} {
		if got := fairShares(tc.counts, tc.weights, tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("fairShares(%v, %v, %d) = %v, want %v", tc.counts, tc.weights, tc.max, got, tc.want)
		}
	}
}

// TestSymbolLimitShares checks that a module over MaxSymbols keeps a small package's API whole
// although a package walked before it holds thousands of generated constants, and that the
// large package keeps its functions and types before its constants. The declarations take the
// whole limit, so no member is kept.
func TestSymbolLimitShares(t *testing.T) {
	var gen strings.Builder
	gen.WriteString("// Package aconv holds generated attribute keys.\npackage aconv\n\nconst (\n")
	for i := range 500 {
		fmt.Fprintf(&gen, "\t// Key%d is a key.\n\tKey%d = \"k%d\"\n", i, i, i)
	}
	gen.WriteString(")\n\n// Version is the schema version.\nfunc Version() string { return \"1\" }\n\n// Schema is a schema.\ntype Schema struct{ URL string }\n")
	fsys := fstest.MapFS{
		"go.mod":       {Data: []byte("module example.com/big\n\ngo 1.22\n")},
		"aconv/gen.go": {Data: []byte(gen.String())},
		"trace/trace.go": {Data: []byte("// Package trace traces.\npackage trace\n\n// Start starts a span.\nfunc Start() {}\n\n" +
			"// Span is a span.\ntype Span interface {\n\t// End ends it.\n\tEnd()\n}\n\n// FromContext returns the span.\nfunc FromContext() Span { return nil }\n")},
	}
	md, err := extractModule(context.Background(), fsys, "example.com/big", Limits{MaxSymbols: 40}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	consts := 0
	for _, s := range md.symbols {
		got[s.QualifiedName] = true
		if s.Kind == docidx.KindConst {
			consts++
		}
	}
	for _, q := range []string{"example.com/big/trace", "trace.Start", "trace.Span", "trace.FromContext",
		"example.com/big/aconv", "aconv.Version", "aconv.Schema", "aconv.Key0"} {
		if !got[q] {
			t.Errorf("%s dropped", q)
		}
	}
	if len(md.symbols) != 40 || consts == 0 || got["aconv.Key499"] || got["trace.Span.End"] {
		t.Errorf("%d symbols (%d constants), Key499 kept %v, Span.End kept %v: want 40, the first constants in walk order, no member",
			len(md.symbols), consts, got["aconv.Key499"], got["trace.Span.End"])
	}
}
