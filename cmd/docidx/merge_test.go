package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// fixtureModcache is the repository's fixture Go module cache, which shard_merge.txtar crawls.
// Tests run in the package directory, so the relative path resolves at init.
var fixtureModcache, _ = filepath.Abs(filepath.Join("..", "..", "registries", "gomod", "testdata", "mod"))

func init() {
	// gofixture DIR copies the fixture Go module cache into DIR (merged with what DIR holds).
	scriptCmds["gofixture"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: gofixture DIR")
		}
		dst := ts.MkAbs(args[0])
		ts.Check(filepath.WalkDir(fixtureModcache, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(fixtureModcache, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		}))
	}
	// tophits N IN OUT writes the first N hits of the search --json output in file IN to OUT, one
	// "uri score" line each, best first and hits of equal score by URI: the index does not fix
	// the order of equal scores, and two snapshots that rank alike must compare equal.
	scriptCmds["tophits"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: tophits N IN OUT")
		}
		n, err := strconv.Atoi(args[0])
		ts.Check(err)
		var res struct {
			Results []struct {
				URI   string  `json:"uri"`
				Score float64 `json:"score"`
			} `json:"results"`
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &res))
		hits := res.Results
		slices.SortStableFunc(hits, func(a, b struct {
			URI   string  `json:"uri"`
			Score float64 `json:"score"`
		}) int {
			if a.Score != b.Score {
				return cmp.Compare(b.Score, a.Score)
			}
			return strings.Compare(a.URI, b.URI)
		})
		if len(hits) < n {
			ts.Fatalf("%s has %d hits, want at least %d", args[1], len(hits), n)
		}
		var b strings.Builder
		for _, h := range hits[:n] {
			fmt.Fprintf(&b, "%s %.6f\n", h.URI, h.Score)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o644))
	}
	// counts IN OUT writes the counts of the stats --json output in file IN to OUT, without what
	// differs between two snapshots of the same packages (directory, time, size).
	scriptCmds["counts"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: counts IN OUT")
		}
		var st struct {
			Ecosystems json.RawMessage `json:"ecosystems"`
			Total      json.RawMessage `json:"total"`
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &st))
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), append(append(st.Ecosystems, '\n'), append(st.Total, '\n')...), 0o644))
	}
}
