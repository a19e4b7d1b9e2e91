package crawl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"1/1": {1, 1}, "1/2": {1, 2}, "2/2": {2, 2}, " 3/8 ": {3, 8}} {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0/2", "3/2", "x", "", "1/0", "-1/2", "1/x", "1/2/3", "/2"} {
		if got, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) = %v, want an error", in, got)
		} else if !strings.Contains(err.Error(), "want K/N") {
			t.Errorf("ParseShard(%q): %v does not show the accepted form", in, err)
		}
	}
}

// TestShardOfStable pins the part of a few package versions: the partition is part of the
// interface between machines (and docidx versions) crawling one package set, so it must never
// change. The expected parts are the first 8 bytes of `printf %s PURL | sha256sum`, mod N, + 1.
func TestShardOfStable(t *testing.T) {
	for _, tc := range []struct {
		ref      docidx.Ref
		of2, of7 int
	}{
		{docidx.Ref{Ecosystem: docidx.Go, Name: "github.com/spf13/cobra", Version: "v1.8.0"}, 1, 1},
		{docidx.Ref{Ecosystem: docidx.NPM, Name: "@types/node", Version: "20.1.0"}, 2, 6},
		// Names as their ecosystem compares them: pypi:Flask is pypi:flask.
		{docidx.Ref{Ecosystem: docidx.PyPI, Name: "Flask", Version: "3.0.0"}, 1, 3},
		{docidx.Ref{Ecosystem: docidx.PyPI, Name: "flask", Version: "3.0.0"}, 1, 3},
		// pkg:swift/github.com/apple/swift-nio@2.65.0
		{docidx.Ref{Ecosystem: docidx.Swift, Name: "https://github.com/apple/swift-nio", Version: "2.65.0"}, 2, 4},
	} {
		if got := ShardOf(tc.ref, 2); got != tc.of2 {
			t.Errorf("ShardOf(%s, 2) = %d, want %d", tc.ref, got, tc.of2)
		}
		if got := ShardOf(tc.ref, 7); got != tc.of7 {
			t.Errorf("ShardOf(%s, 7) = %d, want %d", tc.ref, got, tc.of7)
		}
	}
}

// manyRefs returns n package versions over several ecosystems.
func manyRefs(n int) []docidx.Ref {
	ecos := []docidx.Ecosystem{docidx.Go, docidx.NPM, docidx.PyPI, docidx.Cargo}
	var out []docidx.Ref
	for i := range n {
		out = append(out, docidx.Ref{Ecosystem: ecos[i%len(ecos)], Name: fmt.Sprintf("pkg%d", i/3), Version: fmt.Sprintf("1.%d.0", i%3)})
	}
	return out
}

// TestShardPartition: for each N, every package version is in exactly one of the N parts, and
// no part is empty or holds nearly everything on a set of 600.
func TestShardPartition(t *testing.T) {
	refs := manyRefs(600)
	for n := 1; n <= 8; n++ {
		sizes := make([]int, n)
		for _, ref := range refs {
			in := 0
			for k := 1; k <= n; k++ {
				if (Shard{K: k, N: n}).Has(ref) {
					in++
					sizes[k-1]++
				}
			}
			if in != 1 {
				t.Fatalf("N=%d: %s is in %d parts, want 1", n, ref, in)
			}
		}
		for k, size := range sizes {
			// Expected 600/n each; a fair hash stays well inside half to twice that.
			if want := len(refs) / n; size < want/2 || size > 2*want {
				t.Errorf("N=%d: part %d holds %d of %d versions", n, k+1, size, len(refs))
			}
		}
	}
}

// listedCache is a cache whose List returns refs in the order given.
type listedCache struct {
	fakeSource
	refs []docidx.Ref
}

func (c *listedCache) List(context.Context) ([]docidx.Ref, error) { return c.refs, nil }

func (c *listedCache) Resolve(ctx context.Context, name, query string) (string, error) {
	for _, r := range c.refs {
		if r.Name == name && r.Version == query {
			return query, nil
		}
	}
	return "", docidx.ErrNotFound
}

// TestRunShardsOfCache crawls one cache as N shards, each with its listing in another order:
// the parts are disjoint, cover the cache, and do not depend on the order.
func TestRunShardsOfCache(t *testing.T) {
	var refs []docidx.Ref
	for _, r := range manyRefs(200) {
		if r.Ecosystem == docidx.NPM {
			refs = append(refs, r)
		}
	}
	var all []string
	for _, r := range refs {
		all = append(all, r.String())
	}
	slices.Sort(all)
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 3
	var first [n + 1][]string
	for round := range 3 {
		var union []string
		for k := 1; k <= n; k++ {
			shuffled := slices.Clone(refs)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			cache := &listedCache{fakeSource: fakeSource{eco: docidx.NPM, name: "node_modules"}, refs: shuffled}
			sink := &fakeSink{}
			sum, err := Run(context.Background(), sink, Options{Caches: []docidx.Cache{cache}, Shard: Shard{K: k, N: n}})
			if err != nil {
				t.Fatal(err)
			}
			got := sink.putStrings()
			if sum.Indexed != len(got) || sum.OtherShards != len(refs)-len(got) {
				t.Errorf("shard %d/%d: indexed %d, other shards %d; stored %d of %d", k, n, sum.Indexed, sum.OtherShards, len(got), len(refs))
			}
			if round == 0 {
				first[k] = got
			} else if !slices.Equal(got, first[k]) {
				t.Errorf("shard %d/%d differs with the cache listed in another order", k, n)
			}
			union = append(union, got...)
		}
		slices.Sort(union)
		if !slices.Equal(union, all) {
			t.Fatalf("the %d shards stored %d versions (with repeats), want the cache's %d once each", n, len(union), len(all))
		}
	}
}

// TestRunShardsOfSpecs: exact specs are split before anything is fetched, range specs once
// resolved, and a spec that does not resolve fails in exactly one shard.
func TestRunShardsOfSpecs(t *testing.T) {
	versions := map[string][]string{}
	var specs []string
	for i := range 40 {
		name := fmt.Sprintf("p%d", i)
		versions[name] = []string{"1.0.0", "1.1.0"}
		if i%2 == 0 {
			specs = append(specs, "npm:"+name+"@1.0.0") // exact
		} else {
			specs = append(specs, "npm:"+name+"@^1") // a range: 1.1.0
		}
	}
	specs = append(specs, "npm:missing@^2")
	parsed := mustSpecs(t, specs...)
	for i := range parsed {
		parsed[i].Exact = !strings.Contains(parsed[i].Query, "^")
	}
	var union []string
	failures, fetches := 0, int32(0)
	const n = 4
	for k := 1; k <= n; k++ {
		reg := &fakeSource{eco: docidx.NPM, name: "r", versions: versions}
		sink := &fakeSink{}
		sum, err := Run(context.Background(), sink, Options{Specs: parsed, Registries: []docidx.Registry{reg}, Shard: Shard{K: k, N: n}})
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range sink.put {
			if !(Shard{K: k, N: n}).Has(ref) {
				t.Errorf("shard %d/%d stored %s, which is in part %d", k, n, ref, ShardOf(ref, n))
			}
		}
		union = append(union, sink.putStrings()...)
		failures += sum.Failed
		fetches += reg.fetches.Load()
		if len(sum.Results)+sum.OtherShards != len(specs) {
			t.Errorf("shard %d/%d: %d results + %d in other shards, want %d specs", k, n, len(sum.Results), sum.OtherShards, len(specs))
		}
	}
	if len(union) != 40 || fetches != 40 {
		t.Errorf("%d shards stored %d versions with %d fetches, want 40 and 40", n, len(union), fetches)
	}
	slices.Sort(union)
	if len(slices.Compact(union)) != 40 {
		t.Errorf("a version was stored by two shards: %v", union)
	}
	if failures != 1 {
		t.Errorf("the unresolvable spec failed in %d shards, want 1", failures)
	}
}
