package main

// progress.go shows a crawl's progress through its phases: listing the package versions,
// fetching and extracting them, writing the index (indexing the documents, merging and ranking
// each new segment) and publishing the snapshot. On a terminal that is one line on stderr,
// redrawn in place (schollz/progressbar): a bar with a count and an estimated time left while
// the package versions or the documents have a total, a spinner with the time spent for the
// steps that have none. --progress json writes the same events as JSON lines on stderr.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
)

// The values of --progress.
const (
	progressAuto = "auto" // a bar when stderr is a terminal, unless --quiet or --json
	progressBar  = "bar"  // a bar on stderr, whatever it is
	progressJSON = "json" // JSON lines on stderr (see progressLine)
	progressNone = "none"
)

var progressFlag = &cli.StringFlag{
	Name:    "progress",
	Value:   progressAuto,
	Usage:   "how to show the crawl's progress on stderr: `MODE` auto (a bar on a terminal, unless --quiet or --json), bar, json (one JSON object per line) or none",
	EnvVars: []string{"DOCIDX_PROGRESS"},
}

// crawlProgress shows a crawl's progress. Its methods are called in this order (listed and
// fetched by crawl.Run, write by index.Writer.Commit), and are safe for concurrent use. It is
// also stderr for the crawl's log, so that a line logged while the bar is drawn goes above it.
type crawlProgress interface {
	io.Writer
	// opening says the crawl opens the index and lists the package versions to crawl.
	opening()
	// listed says the crawl has listed total package versions to fetch (crawl.Options.OnStart).
	listed(total int)
	// fetched says one package version was fetched and extracted, or failed
	// (crawl.Options.OnResult).
	fetched(r crawl.Result)
	// crawled says crawl.Run has returned: the display leaves the line to the warnings
	// printed before the index is written.
	crawled()
	// writing says Commit starts writing the index.
	writing()
	// write is one report of Commit's (index.Writer.SetProgress).
	write(p index.WriteProgress)
	// finish takes the display away for good; it may be called more than once.
	finish()
}

// newCrawlProgress returns the display --progress asks for, on w (stderr), for a crawl with
// --quiet and --json as given. It returns a usage error for an unknown mode.
func newCrawlProgress(mode string, w io.Writer, quiet, asJSON bool) (crawlProgress, error) {
	switch mode {
	case progressAuto:
		if quiet || asJSON || !isTerminal(w) {
			return noProgress{w}, nil
		}
		return &barProgress{w: w}, nil
	case progressBar:
		return &barProgress{w: w}, nil
	case progressJSON:
		return &jsonProgress{w: w}, nil
	case progressNone:
		return noProgress{w}, nil
	}
	return nil, usagef("--progress %q: want auto, bar, json or none", mode)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// noProgress shows nothing; the log goes to w as it comes.
type noProgress struct{ w io.Writer }

func (n noProgress) Write(b []byte) (int, error) { return n.w.Write(b) }
func (noProgress) opening()                      {}
func (noProgress) listed(int)                    {}
func (noProgress) fetched(crawl.Result)          {}
func (noProgress) crawled()                      {}
func (noProgress) writing()                      {}
func (noProgress) write(index.WriteProgress)     {}
func (noProgress) finish()                       {}

// redrawEvery is how often the bar is drawn again, so that its count follows the package
// versions fetched (which can come by the thousand a second, and are not drawn one by one) and
// its clock goes on while a step without a count (merging, ranking a large segment) runs.
const redrawEvery = 200 * time.Millisecond

// barProgress draws the crawl's progress on one line of a terminal: one progress bar after
// another in the same place, each cleared when the next takes over. The bars draw only when
// told to (they are not throttled), so that a log line held above one is always written out
// before it goes.
type barProgress struct {
	mu   sync.Mutex
	w    io.Writer
	bar  *progressbar.ProgressBar // nil when the line is clear
	what string                   // what bar shows: "spinner", "packages" or "documents"
	desc string                   // its description
	// held is set when bar holds a log line, to write above it when it is next drawn.
	held bool
	// fetchDone counts the package versions fetched, drawn at most every redrawEvery.
	fetchDone, fetchTotal int
	fetchDrawn            time.Time
	// base is the documents indexed before the documents bar started, which counts from
	// there; done and total are the write's largest Done and Total reported.
	base, done, total int
	stop              chan struct{} // closed by finish; nil before opening
	over              bool
}

func (p *barProgress) opening() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over || p.stop != nil {
		return
	}
	p.spinner("opening the index, listing package versions")
	p.stop = make(chan struct{})
	go p.redraw(p.stop)
}

// redraw draws the bar again every redrawEvery until stop is closed. It describes the bar
// again rather than adding 0 to it, which would count as a pause in the rate the estimate is
// made from.
func (p *barProgress) redraw(stop chan struct{}) {
	t := time.NewTicker(redrawEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			switch p.what {
			case "packages":
				p.drawFetched()
			case "documents":
				p.bar.Describe(p.desc)
				p.held = false
			} // a spinner draws itself
			p.mu.Unlock()
		}
	}
}

// Write writes a line of the log: above the bar when one is drawn (the bar draws it at its
// next drawing, at most redrawEvery later), else as it comes.
func (p *barProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil || p.bar.IsFinished() {
		return p.w.Write(b)
	}
	p.held = true
	return progressbar.Bprintf(p.bar, "%s", b)
}

// clear takes the current bar away, writing out the log lines it holds. p.mu is held.
func (p *barProgress) clear() {
	if p.bar != nil {
		if p.held {
			p.bar.Describe(p.desc) // draws it, and the lines above it
		}
		p.bar.Finish() // with OptionClearOnFinish: clears the line
		p.bar = nil
	}
	p.what, p.desc, p.held = "", "", false
}

// spinner shows a spinner with the time spent, for a step without a count. p.mu is held.
func (p *barProgress) spinner(desc string) {
	if p.what == "spinner" && p.desc == desc {
		return
	}
	p.clear()
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	p.what, p.desc = "spinner", desc
}

// counter shows a bar of max items with their count, the time spent and the time left. p.mu
// is held.
func (p *barProgress) counter(what string, max int, desc string) {
	p.clear()
	p.bar = progressbar.NewOptions(max,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	p.what, p.desc = what, desc
}

func (p *barProgress) listed(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over {
		return
	}
	p.fetchDone, p.fetchTotal = 0, total
	if total == 0 {
		p.clear()
		return
	}
	p.counter("packages", total, "fetch+extract")
	p.fetchDrawn = time.Now()
}

func (p *barProgress) fetched(r crawl.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over || p.what != "packages" {
		return
	}
	p.fetchDone++
	// A package's name and version are its own words: safetext keeps their control
	// characters from reaching the terminal. Padded, so that the bar keeps its place.
	p.desc = fmt.Sprintf("fetch+extract %-40s", oneLine(safetext.Text(r.Ref.String()), 40))
	if p.fetchDone == p.fetchTotal || time.Since(p.fetchDrawn) >= redrawEvery {
		p.drawFetched()
	}
}

// drawFetched draws the package versions bar. The last version fills it, which clears it.
// p.mu is held.
func (p *barProgress) drawFetched() {
	p.bar.Set(p.fetchDone) // draws, and the log lines held above
	p.bar.Describe(p.desc)
	p.held = false
	p.fetchDrawn = time.Now()
}

func (p *barProgress) crawled() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

func (p *barProgress) writing() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.over {
		p.spinner("writing the index")
	}
}

// stepDesc describes step of segment seg, in the words of the display.
func stepDesc(step index.WriteStep, seg string) string {
	switch step {
	case index.StepIndex:
		return "indexing search documents"
	case index.StepMerge:
		return "merging the search index of " + seg
	case index.StepRank:
		return "building the ranking index of " + seg
	}
	return "publishing the snapshot"
}

func (p *barProgress) write(wp index.WriteProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over {
		return
	}
	// Reports from segments built at once may come out of order: the largest counts win.
	before := p.done
	p.done, p.total = max(p.done, wp.Done), max(p.total, wp.Total)
	desc := stepDesc(wp.Step, wp.Segment)
	if p.done >= p.total {
		// Every document known is indexed; the last steps have no count.
		if p.done > 0 {
			desc += " (" + count(p.done, "search document", "search documents") + " indexed)"
		}
		p.spinner(desc)
		return
	}
	if p.what != "documents" {
		p.base = before
		p.counter("documents", p.total-p.base, fmt.Sprintf("%-45s", desc))
	} else if p.bar.GetMax() != p.total-p.base {
		p.bar.ChangeMax(p.total - p.base)
	}
	p.desc = fmt.Sprintf("%-45s", desc)
	p.bar.Set(p.done - p.base) // draws, and the log lines held above
	p.bar.Describe(p.desc)
	p.held = false
}

func (p *barProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.over {
		return
	}
	p.over = true
	if p.stop != nil {
		close(p.stop)
	}
	p.clear()
}

// progressLine is one line of --progress json: an event of the crawl, as a JSON object. Its
// JSON Schema is schemas/progress.schema.json (docs/json-changelog.md).
type progressLine struct {
	SchemaVersion int `json:"schemaVersion"` // docidx.SchemaVersion
	// Phase is "list" (listing the package versions to crawl), "fetch" (fetching and
	// extracting them), "index" (writing the index) or "publish" (syncing, hashing and
	// switching to the new snapshot).
	Phase string `json:"phase"`
	// Step, in the index phase, is "indexing", "merging" or "ranking"; Segment the segment it
	// works on.
	Step    string `json:"step,omitempty"`
	Segment string `json:"segment,omitempty"`
	// Package and Status, in the fetch phase, are the last package version done and how it
	// went (indexed, unchanged, failed).
	Package string `json:"package,omitempty"`
	Status  string `json:"status,omitempty"`
	// Done and Total count package versions in the fetch phase and search documents in the
	// index and publish phases.
	Done  int `json:"done"`
	Total int `json:"total"`
	// ElapsedMs is the time since the crawl started, in milliseconds; EtaMs the time the
	// phase still needs at its pace so far, once it has done something.
	ElapsedMs int64  `json:"elapsedMs"`
	EtaMs     *int64 `json:"etaMs,omitempty"`
}

// jsonEvery is how often --progress json writes a line while the phase and step stay the same.
const jsonEvery = 200 * time.Millisecond

// jsonProgress writes the crawl's progress as JSON lines: at every change of phase, step or
// segment, when a phase's count is complete, and otherwise at most every jsonEvery.
type jsonProgress struct {
	mu         sync.Mutex
	w          io.Writer
	start      time.Time // the crawl's, set by opening
	phaseStart time.Time
	last       progressLine // the last line written
	lastAt     time.Time
	fetchDone  int
	fetchTotal int
	over       bool
}

func (p *jsonProgress) opening() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start = time.Now()
	p.emit(progressLine{Phase: "list"})
}

// Write writes a line of the log between the JSON lines.
func (p *jsonProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.w.Write(b)
}

// emit writes l unless it says nothing new since the last line, jsonEvery ago. p.mu is held.
func (p *jsonProgress) emit(l progressLine) {
	if p.over {
		return
	}
	now := time.Now()
	changed := l.Phase != p.last.Phase || l.Step != p.last.Step || l.Segment != p.last.Segment
	if changed && l.Phase != p.last.Phase {
		p.phaseStart = now
	}
	if !changed && l.Done < l.Total && now.Sub(p.lastAt) < jsonEvery {
		return
	}
	l.SchemaVersion = docidx.SchemaVersion
	l.ElapsedMs = now.Sub(p.start).Milliseconds()
	if l.Done > 0 && l.Total >= l.Done && !p.phaseStart.IsZero() {
		spent := now.Sub(p.phaseStart)
		eta := (spent * time.Duration(l.Total-l.Done) / time.Duration(l.Done)).Milliseconds()
		l.EtaMs = &eta
	}
	data, err := json.Marshal(l)
	if err != nil {
		return
	}
	// A package's name and version are its own words: safetext escapes their control
	// characters, and the line stays the JSON it was.
	p.w.Write(append(safetext.JSON(data), '\n'))
	p.last, p.lastAt = l, now
}

func (p *jsonProgress) listed(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fetchTotal = total
	p.emit(progressLine{Phase: "fetch", Total: total})
}

func (p *jsonProgress) fetched(r crawl.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fetchDone++
	p.emit(progressLine{Phase: "fetch", Package: r.Ref.String(), Status: string(r.Status), Done: p.fetchDone, Total: p.fetchTotal})
}

func (p *jsonProgress) crawled() {}
func (p *jsonProgress) writing() {}

func (p *jsonProgress) write(wp index.WriteProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := progressLine{Phase: "index", Step: string(wp.Step), Segment: wp.Segment, Done: wp.Done, Total: wp.Total}
	if wp.Step == index.StepPublish {
		l = progressLine{Phase: "publish", Done: wp.Done, Total: wp.Total}
	}
	p.emit(l)
}

func (p *jsonProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.over = true
}
