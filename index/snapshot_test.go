package index_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func gens(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "gen-*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	return out
}

// TestWriterNeverWaitsForReaders holds Readers (a running server) open on the current
// generation, in this process, while a crawl creates, fills and commits the next one: nothing
// blocks (each step returns well within bbolt's lock timeout), the readers keep answering, and
// the generation they hold survives until they close.
func TestWriterNeverWaitsForReaders(t *testing.T) {
	dir := build(t, goModule("v0.9.0"))
	readers := []*index.Reader{open(t, dir), open(t, dir)}
	held := readers[0].Generation()

	start := time.Now()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Put(context.Background(), npmPackage("commander", "12.1.0", "cli")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Waiting for a reader's lock would take the writer's whole lock timeout (5 s) and fail.
	if d := time.Since(start); d > 4500*time.Millisecond {
		t.Errorf("crawl beside readers took %v: did it wait for their locks?", d)
	}
	for _, r := range readers {
		if !r.Stale() {
			t.Error("reader of the replaced generation is not stale")
		}
		if hits := search(t, r, index.Query{Text: "SetLimit"}); len(hits) == 0 {
			t.Error("reader of the replaced generation stopped answering")
		}
	}
	if g := gens(t, dir); len(g) != 2 || g[0] != held {
		t.Errorf("generations = %v, want the held %s kept", g, held)
	}
	cur, err := index.Current(dir)
	if err != nil || cur == held || cur == "" {
		t.Fatalf("Current = %q, %v", cur, err)
	}
	fresh := open(t, dir)
	if fresh.Generation() != cur || fresh.Stale() || fresh.IndexDir() != dir {
		t.Errorf("fresh reader: generation %q stale %v dir %q", fresh.Generation(), fresh.Stale(), fresh.IndexDir())
	}
	// One reader closes: the generation stays for the other one.
	readers[0].Close()
	commit(t, dir, npmPackage("yargs", "17.7.2", "cli"))
	if g := gens(t, dir); len(g) != 3 || g[0] != held {
		t.Errorf("generations = %v, want %s kept for the remaining reader", g, held)
	}
	readers[1].Close()
	fresh.Close()
	commit(t, dir)
	if g := gens(t, dir); len(g) != 1 {
		t.Errorf("generations with no reader left = %v", g)
	}
}

// TestCreateRemovesDebris: generations left by crawls killed before they published, and old
// ones nobody reads, are removed by the next crawl; the current one is not touched.
func TestCreateRemovesDebris(t *testing.T) {
	dir := build(t, goModule("v0.9.0"))
	cur, _ := index.Current(dir)
	for _, name := range []string{"gen-000000", "gen-000042", "gen-000043"} {
		if err := os.MkdirAll(filepath.Join(dir, name, "search.bleve"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "gen-000042", index.StoreFile), []byte("half"), 0o644)
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if g := gens(t, dir); len(g) != 2 || g[0] != cur {
		t.Errorf("generations while writing = %v, want %s and the new one", g, cur)
	}
}

func TestSingleSnapshotIsNeverStale(t *testing.T) {
	dir := build(t, goModule("v0.9.0"))
	r := open(t, dir)
	single := open(t, r.Dir())
	if single.Generation() != "" || single.Stale() {
		t.Errorf("single snapshot: generation %q, stale %v", single.Generation(), single.Stale())
	}
	if cur, err := index.Current(r.Dir()); cur != "" || err != nil {
		t.Errorf("Current(snapshot dir) = %q, %v", cur, err)
	}
	if _, err := index.Current(t.TempDir()); !errors.Is(err, docidx.ErrNoSnapshot) {
		t.Errorf("Current(empty) err = %v", err)
	}
}

func TestWatcher(t *testing.T) {
	dir := build(t, goModule("v0.9.0"))
	w, err := index.Watch(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if switched, err := w.Check(); switched || err != nil {
		t.Fatalf("Check with nothing new = %v, %v", switched, err)
	}
	r1, release1 := w.Acquire() // a request in flight across the switch
	gen1 := r1.Generation()

	commit(t, dir, npmPackage("commander", "12.1.0", "cli"))
	if switched, err := w.Check(); !switched || err != nil {
		t.Fatalf("Check after a crawl = %v, %v", switched, err)
	}
	r2, release2 := w.Acquire()
	if r2.Generation() == gen1 {
		t.Fatal("Acquire after the switch returned the old generation")
	}
	if _, err := r2.Package(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander"}); err != nil {
		t.Errorf("new generation: %v", err)
	}
	// The request that started before the switch still reads the old generation.
	if hits := search(t, r1, index.Query{Text: "SetLimit"}); len(hits) == 0 {
		t.Error("old reader closed while acquired")
	}
	release1()
	release1() // idempotent
	if err := r1.Close(); !errors.Is(err, index.ErrClosed) {
		t.Errorf("old reader after its last release is still open (Close: %v)", err)
	}
	// Its files go at the next crawl.
	commit(t, dir)
	for _, g := range gens(t, dir) {
		if g == gen1 {
			t.Errorf("released generation %s still on disk", gen1)
		}
	}
	release2()
	if switched, err := w.Check(); !switched || err != nil {
		t.Fatalf("Check = %v, %v", switched, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	switched := make(chan string, 1)
	go w.Run(ctx, 10*time.Millisecond, func(r *index.Reader) { switched <- r.Generation() }, nil)
	commit(t, dir, npmPackage("yargs", "17.7.2", "cli"))
	cur, _ := index.Current(dir)
	select {
	case g := <-switched:
		if g != cur {
			t.Errorf("Run switched to %s, CURRENT names %s", g, cur)
		}
	case <-time.After(10 * time.Second):
		t.Error("Run did not switch")
	}
	cancel()
}

func TestDelete(t *testing.T) {
	dir := build(t, goModule("v0.9.0"), goModule("v0.10.0"), npmPackage("commander", "12.1.0", "cli"))
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := w.Refs()
	if err != nil || len(refs) != 3 {
		t.Fatalf("Refs = %v, %v", refs, err)
	}
	latest := docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync", Version: "v0.10.0"}
	if err := w.Delete(latest); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete(latest); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if err := w.Delete(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander", Version: "12.1.0"}); err != nil {
		t.Fatal(err)
	}
	if w.Has(latest) {
		t.Error("Has after Delete")
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir)
	if p, err := r.Package(docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}); err != nil || p.Version != "v0.9.0" {
		t.Errorf("latest after deleting v0.10.0 = %+v, %v", p, err)
	}
	if _, err := r.Versions(docidx.NPM, "commander"); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("package with no version left: %v", err)
	}
	if hits := search(t, r, index.Query{Text: "SetLimit"}); len(hits) == 0 || hits[0].Version != "v0.9.0" {
		t.Errorf("search after delete: %+v", hits)
	}
	if c := r.Counts(); len(c) != 1 || c[0].Versions != 1 {
		t.Errorf("counts = %+v", c)
	}
}

func TestPrune(t *testing.T) {
	dir := build(t, goModule("v0.8.0"), goModule("v0.9.0"), goModule("v0.10.0"),
		npmPackage("commander", "11.0.0", "cli"), npmPackage("commander", "12.1.0", "cli"), npmPackage("yargs", "17.7.2", "cli"))
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	sync := docidx.Ref{Ecosystem: docidx.Go, Name: "golang.org/x/sync"}
	for _, c := range []struct {
		opts index.PruneOptions
		want string
	}{
		{index.PruneOptions{KeepLatest: 1}, "[golang:golang.org/x/sync@v0.8.0 golang:golang.org/x/sync@v0.9.0 npm:commander@11.0.0]"},
		{index.PruneOptions{KeepLatest: 2, Ecosystem: docidx.Go}, "[golang:golang.org/x/sync@v0.8.0]"},
		{index.PruneOptions{Packages: []docidx.Ref{sync}}, "[golang:golang.org/x/sync@v0.8.0 golang:golang.org/x/sync@v0.9.0 golang:golang.org/x/sync@v0.10.0]"},
		{index.PruneOptions{Packages: []docidx.Ref{{Ecosystem: docidx.NPM, Name: "commander", Version: "12.1.0"}}}, "[npm:commander@12.1.0]"},
		{index.PruneOptions{Ecosystem: docidx.NPM}, "[npm:commander@11.0.0 npm:commander@12.1.0 npm:yargs@17.7.2]"},
	} {
		c.opts.DryRun = true
		got, err := w.Prune(c.opts)
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("Prune(%+v) = %v, %v; want %s", c.opts, got, err, c.want)
		}
	}
	if _, err := w.Prune(index.PruneOptions{Packages: []docidx.Ref{{Ecosystem: docidx.NPM, Name: "nope"}}}); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("unknown package: %v", err)
	}
	if _, err := w.Prune(index.PruneOptions{Packages: []docidx.Ref{{Ecosystem: docidx.NPM, Name: "yargs", Version: "1.0.0"}}}); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("unknown version: %v", err)
	}
	if got, err := w.Prune(index.PruneOptions{KeepLatest: 1}); err != nil || len(got) != 3 {
		t.Fatalf("Prune = %v, %v", got, err)
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir)
	if vs, _ := r.Versions(docidx.Go, "golang.org/x/sync"); fmt.Sprint(vs) != "[v0.10.0]" {
		t.Errorf("versions after prune = %v", vs)
	}
}
