package index_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// segmentQueries are searches of every kind: plain, filtered by ecosystem, package, version
// (latest and older) and kind, by names, and with typos.
var segmentQueries = []index.Query{
	{Text: "zod"},
	{Text: "run goroutines and return the first error"},
	{Text: "NewWeighted"},
	{Text: "SetLimit goroutines"},
	{Text: "command line programs in node"},
	{Text: "schema validation"},
	{Text: "goroutines"},
	{Text: "options", Ecosystem: docidx.NPM},
	{Text: "group", Kind: "symbols"},
	{Text: "install", Kind: "section"},
	{Text: "define options for flags with commander"},
	{Text: "weighted semaphore", Package: "golang.org/x/sync"},
	{Text: "weighted semaphore", Package: "golang.org/x/sync", Version: "v0.6.0"},
	{Text: "options", Package: "zod", Version: "3.22.0", Ecosystem: docidx.NPM},
	{Text: "goroutnies"},
	{Text: "install options command", Limit: 20},
}

// segmentFixture is the package versions the segment tests index, in crawl order: older
// versions first, as a project's history adds them.
func segmentFixture() []*docidx.PackageDocs {
	return []*docidx.PackageDocs{
		goModule("v0.6.0"),
		npmPackage("zod", "3.22.0", "TypeScript-first schema validation"),
		npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"),
		goModule("v0.7.0"),
		npmPackage("zod", "3.23.8", "TypeScript-first schema validation with static type inference"),
		npmPackage("yargs", "17.7.2", "yargs the modern, pirate-themed successor to optimist: command line options"),
	}
}

// segments returns the names of the segments of dir's current snapshot.
func segments(t *testing.T, dir string) []string {
	t.Helper()
	r := open(t, dir)
	var out []string
	for _, s := range r.Manifest().Segments {
		out = append(out, s.Name)
	}
	r.Close()
	return out
}

// sameResults checks that every segment query finds the same hits, scores and totals in got's
// snapshot as in want's.
func sameResults(t *testing.T, got, want string) {
	t.Helper()
	rg, rw := open(t, got), open(t, want)
	defer rg.Close()
	defer rw.Close()
	for _, q := range segmentQueries {
		g, err := rg.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		w, err := rw.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Hits) == 0 {
			t.Errorf("%+v: no hits", q)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%+v:\n got  %d %s\n want %d %s", q, g.Total, hitList(g.Hits), w.Total, hitList(w.Hits))
		}
	}
}

func hitList(hits []docidx.Hit) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "\n   %.4f %s", h.Score, h.URI)
	}
	return b.String()
}

// Ranking across segments equals one index: a snapshot crawled one package version at a time
// (a segment each) finds the same hits with the same scores as one crawled at once, however
// versions were crawled again, superseded or pruned in between, and after compaction.
func TestSegmentsRankAsOne(t *testing.T) {
	docs := segmentFixture()
	once := build(t, docs...)

	many := t.TempDir()
	for _, d := range docs {
		commit(t, many, d)
	}
	if n := len(segments(t, many)); n != len(docs) {
		t.Fatalf("%d crawls left %d segments, want one each", len(docs), n)
	}
	sameResults(t, many, once)

	// A version crawled again is searched in its new segment only.
	commit(t, many, goModule("v0.6.0"), npmPackage("zod", "3.23.8", "TypeScript-first schema validation with static type inference"))
	sameResults(t, many, once)

	// Pruning the latest version makes the one before it latest again, in its old segment.
	w, err := index.Create(many)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Delete(docidx.Ref{Ecosystem: docidx.NPM, Name: "zod", Version: "3.23.8"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	pruned := build(t, append(docs[:4:4], docs[5])...)
	sameResults(t, many, pruned)

	// Compaction leaves one segment that ranks alike.
	before := len(segments(t, many))
	w, err = index.Create(many)
	if err != nil {
		t.Fatal(err)
	}
	w.Compact()
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if segs := segments(t, many); len(segs) != 1 || before < 2 {
		t.Errorf("compaction: %d segments, then %v", before, segs)
	}
	sameResults(t, many, pruned)
}

// A crawl writes its new segment beside the generations and keeps the others where they are:
// a generation is its manifest and store. A segment goes once no generation left lists it.
func TestCrawlKeepsSegments(t *testing.T) {
	dir := t.TempDir()
	commit(t, dir, goModule("v0.7.0"))
	first := currentGen(t, dir)
	before, err := os.Stat(filepath.Join(dir, "seg-000001", index.RankFile))
	if err != nil {
		t.Fatal(err)
	}
	// A reader holds the first generation, which the second crawl would remove otherwise.
	r := open(t, dir)
	commit(t, dir, npmPackage("zod", "3.23.8", "schema validation"))
	second := currentGen(t, dir)
	after, err := os.Stat(filepath.Join(dir, "seg-000001", index.RankFile))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("the second crawl wrote the first one's segment again")
	}
	if _, err := os.Stat(filepath.Join(dir, "seg-000002", index.RankFile)); err != nil {
		t.Errorf("no segment for the second crawl: %v", err)
	}
	for _, gen := range []string{first, second} {
		entries, err := os.ReadDir(gen)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if want := []string{index.ManifestFile, index.StoreFile}; !slices.Equal(names, want) {
			t.Errorf("%s holds %v, want %v", filepath.Base(gen), names, want)
		}
	}

	// Compaction merges both segments into a third; the first generation, read, keeps
	// seg-000001 until its reader closes.
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.Compact()
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	exist := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	if got := segments(t, dir); !slices.Equal(got, []string{"seg-000003"}) {
		t.Fatalf("compacted into %v", got)
	}
	if !exist("seg-000001") || exist("seg-000002") {
		t.Errorf("after compaction, with the first generation read: seg-000001 %v (want true), seg-000002 %v (want false)", exist("seg-000001"), exist("seg-000002"))
	}
	r.Close()
	commit(t, dir, npmPackage("ws", "8.18.0", "websockets"))
	if exist("seg-000001") || exist(filepath.Base(first)) {
		t.Errorf("the first generation and its segment stayed after its reader closed")
	}
	if v, err := index.Verify(context.Background(), dir, t.TempDir()); err != nil {
		t.Fatalf("verify: %v (%+v)", err, v)
	}
}

// currentGen returns the directory of dir's current generation.
func currentGen(t *testing.T, dir string) string {
	t.Helper()
	cur, err := os.ReadFile(filepath.Join(dir, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, strings.TrimSpace(string(cur)))
}

// The merge policy keeps the number of segments logarithmic: many small crawls merge as they
// go, and the snapshot still ranks as one crawl of the same versions.
func TestMergePolicy(t *testing.T) {
	dir := t.TempDir()
	var all []*docidx.PackageDocs
	for i := range 20 {
		d := npmPackage(fmt.Sprintf("pkg%02d", i), "1.0.0", fmt.Sprintf("package number %d of the merge test: options and commands", i))
		all = append(all, d)
		commit(t, dir, d)
		// At most mergeFactor-1 segments of each level: 7 of one package and 2 of eight.
		if n := len(segments(t, dir)); n > 9 {
			t.Fatalf("after %d crawls: %d segments", i+1, n)
		}
	}
	if n := len(segments(t, dir)); n >= len(all)/2 {
		t.Errorf("%d crawls left %d segments: no merges", len(all), n)
	}
	once := build(t, all...)
	r, ro := open(t, dir), open(t, once)
	defer r.Close()
	defer ro.Close()
	for _, q := range []index.Query{{Text: "options"}, {Text: "package number 7"}, {Text: "pkg13"}} {
		g, err := r.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ro.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Hits) == 0 || !reflect.DeepEqual(g, w) {
			t.Errorf("%q:\n got  %s\n want %s", q.Text, hitList(g.Hits), hitList(w.Hits))
		}
	}
	if got, want := r.Counts(), ro.Counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("counts %+v, want %+v", got, want)
	}
}

// Snapshots of older formats, packed by the docidx that wrote them (format 2 by bdcdf29, format
// 3 by ac77dfc, format 5 by f398373), unpack, are refused by Open with a message saying to
// crawl (formats 2 and 3), and a crawl that adds nothing rewrites them in this format with the
// same counts and searchable documents. Format 5's query has a typo: its segment's spelling
// dictionaries are search.bleve's, and compaction rewrites it with its own (format 6).
func TestOlderFormatSnapshots(t *testing.T) {
	for _, tc := range []struct {
		format int
		counts index.EcosystemCounts
		query  string
	}{
		// The Go module cache fixture of registries/gomod.
		{2, index.EcosystemCounts{Ecosystem: docidx.Go, Packages: 1, Versions: 3, Documents: 5, Sections: 7, Symbols: 57}, "hello"},
		// goModule at v0.6.0 and v0.7.0, then at v0.8.0: two segments.
		{3, index.EcosystemCounts{Ecosystem: docidx.Go, Packages: 1, Versions: 3, Documents: 3, Sections: 6, Symbols: 15}, "errgroup"},
		// The same, its segments in the generation: read as it is, and moved beside the
		// generations by a crawl.
		{4, index.EcosystemCounts{Ecosystem: docidx.Go, Packages: 1, Versions: 3, Documents: 3, Sections: 6, Symbols: 15}, "errgroup"},
		// golang.org/x/sync v0.25.0 from the corpus's module cache: one segment beside the
		// generation.
		{5, index.EcosystemCounts{Ecosystem: docidx.Go, Packages: 1, Versions: 1, Documents: 1, Sections: 1, Symbols: 24}, "errgrop waitgroup"},
	} {
		t.Run(fmt.Sprint("format", tc.format), func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", fmt.Sprintf("format%d.tar.zst", tc.format)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dir := filepath.Join(t.TempDir(), "idx")
			if _, err := index.Install(dir, f); err != nil {
				t.Fatal(err)
			}
			var before []docidx.Hit
			if r, err := index.Open(dir); tc.format >= 4 && err == nil {
				before = search(t, r, index.Query{Text: tc.query})
				r.Close()
			} else if tc.format >= 4 || !errors.Is(err, docidx.ErrFormat) || !strings.Contains(err.Error(), fmt.Sprint("format ", tc.format)) || !strings.Contains(err.Error(), "docidx crawl") {
				t.Fatalf("Open of a format %d snapshot: %v, want ErrFormat saying to crawl", tc.format, err)
			}
			m := commit(t, dir)
			segs := 1 // every version indexed anew
			if tc.format == 4 {
				segs = 2 // the segments moved as they are
			}
			if m.Format != index.FormatVersion || len(m.Segments) != segs || m.SegmentDir != ".." {
				t.Errorf("after a crawl: format %d, segments %+v in %q", m.Format, m.Segments, m.SegmentDir)
			}
			for _, seg := range m.Segments {
				if _, err := os.Stat(filepath.Join(dir, seg.Name, index.RankFile)); err != nil {
					t.Errorf("segment %s is not beside the generations: %v", seg.Name, err)
				}
			}
			if want := []index.EcosystemCounts{tc.counts}; !reflect.DeepEqual(m.Counts, want) {
				t.Errorf("counts %+v, want those of the format %d snapshot %+v", m.Counts, tc.format, want)
			}
			r := open(t, dir)
			hits := search(t, r, index.Query{Text: tc.query})
			if len(hits) == 0 {
				t.Error("no hits in the rewritten snapshot")
			}
			if before != nil && !reflect.DeepEqual(hits, before) {
				t.Errorf("hits before the crawl:%s\nafter:%s", hitList(before), hitList(hits))
			}
			refs, err := r.Refs()
			if err != nil || len(refs) != tc.counts.Versions {
				t.Fatalf("Refs: %v, %v", refs, err)
			}
			ref := refs[0]
			docs, err := r.Documents(ref)
			if err != nil || len(docs) == 0 {
				t.Errorf("Documents(%s) of the rewritten snapshot: %d, %v", ref, len(docs), err)
			}
			if syms, err := r.Symbols(ref); err != nil || len(syms) == 0 {
				t.Errorf("Symbols(%s) of the rewritten snapshot: %d, %v", ref, len(syms), err)
			}
			if _, err := index.Verify(context.Background(), dir, t.TempDir()); err != nil {
				t.Errorf("verify the rewritten snapshot: %v", err)
			}
			if tc.format < 5 {
				return
			}
			w, err := index.Create(dir)
			if err != nil {
				t.Fatal(err)
			}
			if changed, damaged := w.Compact(); !changed || damaged != nil {
				t.Fatalf("Compact of a format %d segment: changed %v, damaged %v", tc.format, changed, damaged)
			}
			if _, err := w.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if compacted := search(t, open(t, dir), index.Query{Text: tc.query}); !reflect.DeepEqual(compacted, before) {
				t.Errorf("hits before compaction:%s\nafter:%s", hitList(before), hitList(compacted))
			}
		})
	}
}

// A crawl reads the table of each segment it keeps and checks the shape of its ranking index.
// A damaged table stops it before it publishes, saying how to crawl from scratch: the versions
// it lists are lost. A ranking index cut short is rewritten from the segment's documents.
func TestCrawlOverDamagedSegment(t *testing.T) {
	for _, file := range []string{index.DocsFile, index.RankFile} {
		t.Run(file, func(t *testing.T) {
			docs := segmentFixture()
			dir := t.TempDir()
			commit(t, dir, docs[:3]...)
			commit(t, dir, docs[3:5]...)
			cur := currentGen(t, dir)
			path := filepath.Join(dir, "seg-000002", file)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()-3); err != nil {
				t.Fatal(err)
			}
			w, err := index.Create(dir)
			if err == nil {
				if err = w.Put(context.Background(), docs[5]); err != nil {
					t.Fatal(err)
				}
				_, err = w.Commit(context.Background())
			}
			if file == index.RankFile {
				if err != nil {
					t.Fatalf("a crawl over a %s cut short: %v", file, err)
				}
				if segs := segments(t, dir); slices.Contains(segs, "seg-000002") {
					t.Errorf("the damaged segment is still searched: %v", segs)
				}
				sameResults(t, dir, build(t, docs...))
				return
			}
			if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "from scratch") {
				t.Fatalf("a crawl over a damaged %s: %v, want ErrCorrupt naming %s and how to crawl from scratch", file, err, path)
			}
			if now := currentGen(t, dir); now != cur {
				t.Errorf("the crawl published %s", now)
			}
		})
	}
}

// A crawl checks only the shape of the segments it keeps, so a flipped bit inside a kept
// segment's ranking index is found by the first search (Open too checks only its shape), whose
// error says that compact mends it; compact
// checks every segment in full and rewrites the damaged one from its documents, after which
// the snapshot ranks as one never damaged.
func TestCompactRepairsSegment(t *testing.T) {
	docs := segmentFixture()
	dir := t.TempDir()
	for _, d := range docs[:3] {
		commit(t, dir, d)
	}
	path := filepath.Join(dir, "seg-000002", index.RankFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	commit(t, dir, docs[3])
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Search(context.Background(), index.Query{Text: "pool"})
	r.Close()
	if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "docidx compact") {
		t.Fatalf("a search over a flipped bit in %s: %v, want ErrCorrupt naming it and docidx compact", index.RankFile, err)
	}
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	changed, damaged := w.Compact()
	if !changed || len(damaged) != 1 || !errors.Is(damaged[0], index.ErrCorrupt) || !strings.Contains(damaged[0].Error(), "seg-000002") {
		t.Fatalf("Compact: changed %v, damaged %v; want one damaged segment, seg-000002", changed, damaged)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	sameResults(t, dir, build(t, docs[:4]...))
	if v, err := index.Verify(context.Background(), dir, t.TempDir()); err != nil {
		t.Fatalf("verify after compact: %v (%+v)", err, v)
	}
}

// A commit derives the counts and each segment's live documents from what it changed, not from
// the whole catalog; docidx verify counts them anew. Through puts of new versions, puts of
// versions again, deletions of versions and of whole packages, merges and compaction, the two
// agree after every commit.
func TestChangedCountsMatchRecount(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 16))
	pkg := func(i, v int) *docidx.PackageDocs {
		d := npmPackage(fmt.Sprintf("p%d", i), fmt.Sprintf("1.%d.0", v), fmt.Sprintf("package %d, its version %d: options", i, v))
		for j := range rng.IntN(3) {
			d.Symbols = append(d.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("f%d", j), QualifiedName: fmt.Sprintf("p%d.f%d", i, j)})
		}
		return d
	}
	have := map[docidx.Ref]bool{}
	for round := range 30 {
		w, err := index.Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + rng.IntN(4) {
			d := pkg(rng.IntN(6), rng.IntN(3))
			if err := w.Put(context.Background(), d); err != nil {
				t.Fatal(err)
			}
			have[d.Package.Ref()] = true
		}
		for ref := range have {
			if rng.IntN(6) == 0 {
				if err := w.Delete(ref); err != nil {
					t.Fatal(err)
				}
				delete(have, ref)
			}
		}
		if round%10 == 9 {
			w.Compact()
		}
		if _, err := w.Commit(context.Background()); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if _, err := index.Verify(context.Background(), dir, t.TempDir()); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	r := open(t, dir)
	defer r.Close()
	versions := 0
	for _, c := range r.Counts() {
		versions += c.Versions
	}
	if versions != len(have) {
		t.Errorf("counts %+v, %d versions put and not deleted", r.Counts(), len(have))
	}
}

// A crawl of more documents than a core's share is built into one segment per core at once
// (under the race detector in make test), and ranks exactly as the same documents compacted
// into one segment.
func TestParallelSegments(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 16,790 documents")
	}
	cores := runtime.GOMAXPROCS(0)
	if cores < 2 {
		t.Skip("one core: segments are built one at a time")
	}
	dir := t.TempDir()
	docs := synthetic(230) // 73 search documents each: above twice a part's least
	m := commit(t, dir, docs...)
	if len(m.Segments) != 2 {
		t.Fatalf("%d segments for %d documents on %d cores, want 2: %+v", len(m.Segments), 230*73, cores, m.Segments)
	}
	queries := []string{"http server middleware", "parse flag", "retry backoff timer", "json encode stream", "w1234x"}
	before := map[string][]docidx.Hit{}
	r := open(t, dir)
	for _, q := range queries {
		before[q] = search(t, r, index.Query{Text: q})
	}
	r.Close()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	w.Compact()
	if m, err = w.Commit(context.Background()); err != nil || len(m.Segments) != 1 {
		t.Fatalf("compact: %v, %+v", err, m)
	}
	r = open(t, dir)
	for _, q := range queries {
		if got := search(t, r, index.Query{Text: q}); len(got) == 0 || !reflect.DeepEqual(got, before[q]) {
			t.Errorf("%q in two segments:%s\nin one:%s", q, hitList(before[q]), hitList(got))
		}
	}
}
