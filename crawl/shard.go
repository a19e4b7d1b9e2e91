package crawl

// shard.go splits a crawl's package set into N deterministic parts, so that N machines can crawl
// one part each in parallel and `docidx merge` can combine their snapshots.

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/purl"
)

// Shard selects the K-th of N parts of a crawl's package set (1 ≤ K ≤ N). The zero Shard
// selects everything. Which part a package version falls in depends only on its ecosystem,
// name (as its ecosystem compares names, see docidx.NormalizeName) and version, never on the
// order of the inputs, the machine or the other versions crawled: the N parts of one package set
// are disjoint and together cover it.
type Shard struct {
	K, N int
}

// ParseShard parses "K/N" with 1 ≤ K ≤ N (e.g. "2/4"). It returns an error that shows the
// accepted form for anything else ("0/2", "3/2", "x").
func ParseShard(s string) (Shard, error) {
	bad := func(why string) (Shard, error) {
		return Shard{}, fmt.Errorf("--shard %q: %s; want K/N with 1 ≤ K ≤ N, e.g. --shard 1/4 for the first of 4 parts", s, why)
	}
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return bad("no /")
	}
	k, err := strconv.Atoi(strings.TrimSpace(ks))
	if err != nil {
		return bad("K is not a number")
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil {
		return bad("N is not a number")
	}
	switch {
	case n < 1:
		return bad("N must be at least 1")
	case k < 1:
		return bad("K must be at least 1 (parts are numbered from 1)")
	case k > n:
		return bad("K is larger than N")
	}
	return Shard{K: k, N: n}, nil
}

// String returns "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// All reports whether s selects every package version (the zero Shard, or 1/1).
func (s Shard) All() bool { return s.N <= 1 }

// Has reports whether the package version ref falls in s: the first 8 bytes of the SHA-256 of
// its purl (purl.Format, with the name normalized), read as a big-endian integer, modulo N,
// equal K-1. SHA-256 rather than Go's map hash or hash/maphash, whose seeds differ between
// processes: every machine of a sharded crawl must compute the same parts.
func (s Shard) Has(ref docidx.Ref) bool {
	if s.All() {
		return true
	}
	return ShardOf(ref, s.N) == s.K
}

// ShardOf returns the part (1 to n) that the package version ref falls in when a package set is
// split into n parts; see Shard.Has. n must be at least 1.
func ShardOf(ref docidx.Ref, n int) int {
	ref.Name = docidx.NormalizeName(ref.Ecosystem, ref.Name)
	sum := sha256.Sum256([]byte(purl.Format(ref)))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(n)) + 1
}
