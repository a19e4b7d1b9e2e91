package index_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// currentGeneration returns what CURRENT names in the index directory dir.
func currentGeneration(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

func refStrings(t *testing.T, r *index.Reader) []string {
	t.Helper()
	refs, err := r.Refs()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ref := range refs {
		out = append(out, ref.String())
	}
	return out
}

// hitIDs returns the URIs and scores of the hits of q, best first, hits of equal score by URI:
// the order of equal scores is not fixed by the index (it follows Bleve's document numbers).
func hitIDs(t *testing.T, r *index.Reader, q index.Query) []string {
	t.Helper()
	hits := search(t, r, q)
	slices.SortStableFunc(hits, func(a, b docidx.Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return strings.Compare(a.URI, b.URI)
	})
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s %.6f", h.URI, h.Score))
	}
	return out
}

// TestMergeEqualsOneSnapshot merges two disjoint snapshots (one as a directory, one as a packed
// archive) into an empty index: the result holds, counts and ranks as one snapshot written with
// everything.
func TestMergeEqualsOneSnapshot(t *testing.T) {
	a := []*docidx.PackageDocs{goModule("v0.7.0"), npmPackage("commander", "12.0.0", "the complete solution for node.js command-line programs")}
	b := []*docidx.PackageDocs{goModule("v0.8.0"), npmPackage("yargs", "17.7.2", "yargs the modern, pirate-themed successor to optimist")}
	whole := build(t, append(slices.Clone(a), b...)...)
	archive := writeArchive(t, pack(t, build(t, b...), index.Zstd))

	dir := t.TempDir()
	sum, err := index.Merge(context.Background(), dir, []string{build(t, a...), archive})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Changed || sum.Versions != 4 || len(sum.Inputs) != 2 || sum.Inputs[0].Added != 2 || sum.Inputs[1].Added != 2 {
		t.Fatalf("summary %+v", sum)
	}
	if !slices.Equal(sum.Inputs[1].Sources, []string{"testdata"}) || !slices.Equal(sum.Manifest.Sources, []string{"testdata"}) {
		t.Errorf("sources: input %v, manifest %v; want [testdata]", sum.Inputs[1].Sources, sum.Manifest.Sources)
	}
	merged, one := open(t, dir), open(t, whole)
	// The inputs' segments are linked, not indexed again; they rank as one.
	if segs := merged.Manifest().Segments; len(segs) != 2 {
		t.Errorf("merged segments %+v, want the inputs' two", segs)
	}
	if got, want := refStrings(t, merged), refStrings(t, one); !slices.Equal(got, want) {
		t.Errorf("merged holds %v, want %v", got, want)
	}
	if got, want := merged.Counts(), one.Counts(); !slices.Equal(got, want) {
		t.Errorf("merged counts %+v, want %+v", got, want)
	}
	for _, q := range []index.Query{{Text: "command line options"}, {Text: "goroutines error group"}, {Text: "install"}, {Text: "semaphore", Version: "v0.7.0"}} {
		if got, want := hitIDs(t, merged, q), hitIDs(t, one, q); !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("search %+v: merged %v, one snapshot %v", q, got, want)
		}
	}
}

// TestMergeIntoCurrent: the index's own snapshot is merged too, and a copy identical to one it
// holds (crawled at another time, from another source) is fine.
func TestMergeIntoCurrent(t *testing.T) {
	dir := build(t, goModule("v0.7.0"))
	again := goModule("v0.7.0")
	again.Package.CrawledAt = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	again.Package.Source = "another proxy"
	again.Package.Versions = []string{"v0.7.0", "v0.9.0"}
	other := build(t, again, npmPackage("commander", "12.0.0", "cli"))

	sum, err := index.Merge(context.Background(), dir, []string{other})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Inputs) != 2 || !sum.Inputs[0].Current || sum.Inputs[1].Identical != 1 || sum.Inputs[1].Added != 1 || sum.Versions != 2 {
		t.Fatalf("summary %+v", sum)
	}
	if got := refStrings(t, open(t, dir)); !slices.Equal(got, []string{"golang:golang.org/x/sync@v0.7.0", "npm:commander@12.0.0"}) {
		t.Errorf("merged holds %v", got)
	}

	// Merging what is already there writes no generation.
	gen := currentGeneration(t, dir)
	sum, err = index.Merge(context.Background(), dir, []string{other})
	if err != nil || sum.Changed {
		t.Fatalf("second merge: changed %v, %v", sum != nil && sum.Changed, err)
	}
	if now := currentGeneration(t, dir); now != gen {
		t.Errorf("a merge that added nothing published %s (was %s)", now, gen)
	}
}

// TestMergeConflictRefused: two inputs with different content for one version are refused,
// naming the version, and the index keeps its snapshot.
func TestMergeConflictRefused(t *testing.T) {
	dir := build(t, npmPackage("yargs", "17.7.2", "cli"))
	gen := currentGeneration(t, dir)
	changed := goModule("v0.7.0")
	changed.Symbols[1].Doc = "Something else."
	a, b := build(t, goModule("v0.7.0")), build(t, changed)
	_, err := index.Merge(context.Background(), dir, []string{a, b})
	if !errors.Is(err, index.ErrConflict) {
		t.Fatalf("err = %v, want ErrConflict", err)
	}
	for _, want := range []string{"golang:golang.org/x/sync@v0.7.0", a, b, "docidx prune"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if now := currentGeneration(t, dir); now != gen {
		t.Errorf("a refused merge published %s (was %s)", now, gen)
	}
	if got := refStrings(t, open(t, dir)); !slices.Equal(got, []string{"npm:yargs@17.7.2"}) {
		t.Errorf("after a refused merge the index holds %v", got)
	}
	// The index's own snapshot conflicts as any input does.
	if _, err := index.Merge(context.Background(), a, []string{b}); !errors.Is(err, index.ErrConflict) {
		t.Errorf("conflict with the current snapshot: %v, want ErrConflict", err)
	}
}

// TestMergeFormatRefused: an input of a newer snapshot format is refused with a message that
// says so; nothing is published.
func TestMergeFormatRefused(t *testing.T) {
	in := build(t, goModule("v0.7.0"))
	cur := filepath.Join(in, currentGeneration(t, in), index.ManifestFile)
	data, err := os.ReadFile(cur)
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(string(data), fmt.Sprintf(`"format": %d`, index.FormatVersion), `"format": 99`, 1)
	if newer == string(data) {
		t.Fatalf("no format in %s", data)
	}
	if err := os.WriteFile(cur, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, err = index.Merge(context.Background(), dir, []string{build(t, npmPackage("yargs", "17.7.2", "cli")), in})
	if !errors.Is(err, docidx.ErrFormat) {
		t.Fatalf("err = %v, want ErrFormat", err)
	}
	for _, want := range []string{in, "format 99", "upgrade docidx"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, err := index.Open(dir); !errors.Is(err, docidx.ErrNoSnapshot) {
		t.Errorf("after a refused merge into an empty index: Open: %v, want ErrNoSnapshot", err)
	}
}

// TestMergeBadInputs: a missing input, a file that is no archive and a directory without a
// snapshot are errors naming them.
func TestMergeBadInputs(t *testing.T) {
	notArchive := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notArchive, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{filepath.Join(t.TempDir(), "missing"), notArchive, t.TempDir()} {
		dir := t.TempDir()
		if _, err := index.Merge(context.Background(), dir, []string{in}); err == nil || !strings.Contains(err.Error(), in) {
			t.Errorf("Merge(%s): %v, want an error naming it", in, err)
		}
	}
}

func TestContentHashIgnoresCrawl(t *testing.T) {
	a, b := goModule("v0.7.0"), goModule("v0.7.0")
	b.Package.CrawledAt, b.Package.Source, b.Package.Versions = time.Now(), "elsewhere", []string{"v0.7.0"}
	ha, _ := index.ContentHash(a)
	hb, _ := index.ContentHash(b)
	if ha != hb {
		t.Error("the same version crawled at another time hashes differently")
	}
	b.Package.License = "MIT"
	if hb, _ = index.ContentHash(b); ha == hb {
		t.Error("a different license hashes the same")
	}
}

// Merge adopts the segments of its inputs as they are: an input whose rank.idx has a flipped bit,
// which only its checksum shows (and which Open leaves to the first search), is refused with an
// error naming the file, and nothing is published.
func TestMergeRefusesDamagedInput(t *testing.T) {
	in := build(t, goModule("v0.7.0"))
	path := filepath.Join(in, "seg-000001", index.RankFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x02
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := build(t, npmPackage("yargs", "17.7.2", "yargs the modern, pirate-themed successor to optimist"))
	before := currentGeneration(t, dir)
	_, err = index.Merge(context.Background(), dir, []string{in})
	if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Merge of a damaged input: %v, want ErrCorrupt naming %s", err, path)
	}
	if now := currentGeneration(t, dir); now != before {
		t.Errorf("Merge published %s", now)
	}
}
