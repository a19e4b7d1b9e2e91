package index

import "sync/atomic"

// Progress receives a Commit's reports of its progress (see Writer.SetProgress). Commit calls it
// from the goroutines that build segments, several at once where segments are built in
// parallel: it must be safe for concurrent use, and return quickly, as the build waits for it.
type Progress func(WriteProgress)

// WriteStep names what a Commit is doing when it reports.
type WriteStep string

// The steps of a Commit, in the order one segment goes through them; StepPublish comes once,
// after every segment is built.
const (
	// StepIndex analyses package versions' search documents into a new segment, reported as
	// the segment starts and after each version, Done moving.
	StepIndex WriteStep = "indexing"
	// StepMerge merges the files a new segment's search index was written in batches into one
	// (a second or two for a segment of 100,000 documents).
	StepMerge WriteStep = "merging"
	// StepRank writes a new segment's ranking index, rank.idx, from the words its documents
	// were analysed into.
	StepRank WriteStep = "ranking"
	// StepPublish syncs and hashes the generation's files, writes its manifest and makes it
	// current.
	StepPublish WriteStep = "publishing"
)

// WriteProgress is one report of a Commit's progress.
type WriteProgress struct {
	// Step is what the Commit has reached.
	Step WriteStep
	// Segment names the segment the step works on ("seg-000012"); "" for StepPublish.
	Segment string
	// Done counts the search documents of the package versions the Commit has indexed so far
	// (one overview, one per section, one per symbol, as the counts of a version say), and Total
	// those it has to index as far as it knows: Total grows when the merge policy has segments
	// rewritten, whose documents are indexed again. 0 <= Done <= Total. Reports made at once
	// from several goroutines may arrive in any order: the largest Done seen is the progress.
	Done, Total int
}

// progressCounter adds up the documents a Commit indexes and reports to f. Its methods are safe
// for concurrent use, and do nothing on a nil *progressCounter.
type progressCounter struct {
	f           Progress
	done, total atomic.Int64
}

// addTotal adds n documents to those the Commit has to index.
func (p *progressCounter) addTotal(n int) {
	if p != nil {
		p.total.Add(int64(n))
	}
}

// report adds indexed documents to those done and reports step of segment seg.
func (p *progressCounter) report(step WriteStep, seg string, indexed int) {
	if p == nil {
		return
	}
	done := p.done.Add(int64(indexed))
	// A version whose counts a store of format 2 or older lacks was not counted in total.
	total := max(p.total.Load(), done)
	p.f(WriteProgress{Step: step, Segment: seg, Done: int(done), Total: int(total)})
}

// SetProgress makes Commit report its progress to f, from the goroutines that build segments
// (see Progress); nil reports nothing. Call it before Commit.
func (w *Writer) SetProgress(f Progress) {
	w.w.mu.Lock()
	defer w.w.mu.Unlock()
	w.w.progress = nil
	if f != nil {
		w.w.progress = &progressCounter{f: f}
	}
}
