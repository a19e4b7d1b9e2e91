package index_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// reports collects a Commit's progress reports.
type reports struct {
	mu  sync.Mutex
	all []index.WriteProgress
}

func (r *reports) add(p index.WriteProgress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, p)
}

// commitWithProgress commits w, collecting its progress reports.
func commitWithProgress(t *testing.T, w *index.Writer) []index.WriteProgress {
	t.Helper()
	var r reports
	w.SetProgress(r.add)
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r.all
}

// bigModule is a Go module version of n symbols: more search documents than one batch holds.
func bigModule(version string, n int) *docidx.PackageDocs {
	var syms []docidx.Symbol
	for i := range n {
		name := fmt.Sprintf("Func%04d", i)
		syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: name, Package: "example.com/big", QualifiedName: "big." + name,
			Signature: "func " + name + "()", Doc: name + " does thing number " + fmt.Sprint(i) + "."})
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/big", Version: version, Description: "a module of many functions"},
		Symbols: syms,
	}
}

// checkReports checks what a Commit reported: it counts up to total search documents, moving
// by batches (some report lies strictly between 0 and total), merges and ranks each segment it
// indexes after indexing it, and publishes last, once.
func checkReports(t *testing.T, got []index.WriteProgress, total int) {
	t.Helper()
	if len(got) == 0 {
		t.Fatal("no progress reported")
	}
	last := got[len(got)-1]
	if last.Step != index.StepPublish || last.Done != total || last.Total != total {
		t.Errorf("last report %+v, want publishing with %d of %d", last, total, total)
	}
	between, done := false, 0
	steps := map[string][]index.WriteStep{} // by segment, in order
	for i, p := range got {
		if p.Done < done || p.Done > p.Total || p.Total > total {
			t.Errorf("report %d: %+v after %d done; want done counting up to at most %d", i, p, done, total)
		}
		done = p.Done
		between = between || p.Done > 0 && p.Done < p.Total
		if p.Step == index.StepPublish {
			if i != len(got)-1 {
				t.Errorf("report %d publishes before the end: %+v", i, p)
			}
			continue
		}
		if s := steps[p.Segment]; len(s) == 0 || s[len(s)-1] != p.Step {
			steps[p.Segment] = append(s, p.Step)
		}
	}
	if !between {
		t.Errorf("no report between 0 and %d documents: %+v", total, got)
	}
	for seg, s := range steps {
		if !slices.Equal(s, []index.WriteStep{index.StepIndex, index.StepMerge, index.StepRank}) {
			t.Errorf("segment %q went through %v, want indexing, merging, ranking", seg, s)
		}
	}
}

// TestCommitProgress: a Commit reports the search documents it indexed, batch by batch, up to
// the total it announced, then the merging and ranking of each new segment, then publishing;
// and a compaction, which indexes every segment's documents again, counts those.
func TestCommitProgress(t *testing.T) {
	big := bigModule("v1.0.0", 4999)                  // 1 overview + 4,999 symbols
	small := npmPackage("commander", "12.1.0", "cli") // 1 overview + 2 sections + 3 symbols
	const bigDocs, smallDocs = 5000, 6

	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*docidx.PackageDocs{big, small} {
		if err := w.Put(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	checkReports(t, commitWithProgress(t, w), bigDocs+smallDocs)

	// A second segment, then a compaction that merges both into one.
	commit(t, dir, npmPackage("zod", "3.23.8", "schema validation"))
	w, err = index.CreateFor(dir, "compact")
	if err != nil {
		t.Fatal(err)
	}
	if changed, damaged := w.Compact(); !changed || damaged != nil {
		t.Fatalf("Compact: %v, %v; want a change and no damage", changed, damaged)
	}
	checkReports(t, commitWithProgress(t, w), bigDocs+2*smallDocs)
}
