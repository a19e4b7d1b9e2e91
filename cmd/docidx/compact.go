package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func compactCommand() *cli.Command {
	return &cli.Command{
		Name:  "compact",
		Usage: "merge the snapshot's segments into one new generation of the index",
		Description: `Each crawl adds a segment to the snapshot: the search indexes of the package versions it
indexed. Crawls merge segments on their own, by a log merge policy (when 8 segments of
about the same size pile up they become one, and a segment most of whose versions were
crawled again or pruned is rewritten), so compact is seldom needed. Use it after many
small crawls or prunes, or before 'docidx pack' of a snapshot that will be served for a
long time: the new generation holds one segment (or, past 2,097,152 documents, as few as
that segment size allows) without the copies of versions no longer searched, so it is as
small and as quick to open and search as it can be. Search results
do not change. It also checks every segment in full, as 'docidx verify' does, and
rewrites any whose search or ranking index is damaged from the documents the segment
keeps, which mends such damage without a crawl from scratch. It rewrites every package version's search indexes, which takes about as
long as a first crawl of them (no registry is asked). A snapshot of an older format is
rewritten in the current one.`,
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors", EnvVars: []string{"DOCIDX_QUIET"}},
		},
		Action: runCompact,
	}
}

// compactJSON is compact's --json output. SegmentsBefore is 0 for a snapshot of a format
// before segments (FormatBefore < 3).
type compactJSON struct {
	SchemaVersion  int                     `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	Snapshot       string                  `json:"snapshot"`
	Changed        bool                    `json:"changed"` // false: already compact, no generation written
	FormatBefore   int                     `json:"formatBefore"`
	SegmentsBefore int                     `json:"segmentsBefore"`
	SegmentsAfter  int                     `json:"segmentsAfter"`
	Elapsed        time.Duration           `json:"elapsedNs"`
	Counts         []index.EcosystemCounts `json:"counts"`
}

func runCompact(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("compact takes no arguments, got %q (the index is --index DIR)", c.Args().First())
	}
	dir := c.String("index")
	if index.IsArchive(dir) {
		return usagef("compact: --index %s is an archive, which never changes: unpack it into an index directory first (docidx unpack)", dir)
	}
	if _, err := index.Current(dir); errors.Is(err, docidx.ErrNoSnapshot) {
		return failf("no snapshot in %s yet: nothing to compact", dir)
	}
	start := time.Now()
	w, err := index.CreateFor(dir, "compact")
	if err != nil {
		return failf("%v", err)
	}
	defer w.Abort() // no-op after Commit
	base := w.Base()
	if base == nil { // the snapshot went between Current and Create
		return failf("no snapshot in %s yet: nothing to compact", dir)
	}
	out := compactJSON{SchemaVersion: docidx.SchemaVersion, Snapshot: dir, FormatBefore: base.Format, SegmentsBefore: len(base.Segments), Counts: base.Counts}
	changed, damaged := w.Compact()
	if !changed {
		// A new generation would be a copy of this one, and make every server reload.
		w.Abort()
		out.SegmentsAfter = out.SegmentsBefore
		out.Elapsed = time.Since(start)
		if c.Bool("json") {
			return writeJSON(c.App.Writer, out)
		}
		if !c.Bool("quiet") {
			fmt.Fprintf(c.App.ErrWriter, "the snapshot is already compact (%s): no generation written\n", count(out.SegmentsBefore, "segment", "segments"))
		}
		return nil
	}
	for _, err := range damaged {
		if !c.Bool("quiet") {
			fmt.Fprintf(c.App.ErrWriter, "rewriting a damaged segment from its documents: %v\n", err)
		}
	}
	m, err := w.Commit(c.Context)
	switch {
	case errors.Is(err, index.ErrCorrupt), errors.Is(err, docidx.ErrTooLarge):
		return failf("compact: %v\nnothing was compacted; the index in %s is unchanged", err, dir)
	case err != nil:
		return failf("compact: %v; the index in %s is unchanged", err, dir)
	}
	out.Changed, out.SegmentsAfter, out.Elapsed, out.Counts = true, len(m.Segments), time.Since(start), m.Counts
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	if !c.Bool("quiet") {
		before := count(out.SegmentsBefore, "segment", "segments")
		if out.FormatBefore < 3 {
			before = fmt.Sprintf("the snapshot of format %d", out.FormatBefore)
		}
		fmt.Fprintf(c.App.ErrWriter, "compacted %s into %d in %s; new generation written\n", before, out.SegmentsAfter, out.Elapsed.Round(time.Millisecond))
		printHolds(c.App.ErrWriter, m.Counts)
	}
	return nil
}
