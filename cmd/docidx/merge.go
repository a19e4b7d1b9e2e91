package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "combine snapshots (e.g. the parts of a crawl --shard K/N) into one new generation of the index",
		ArgsUsage: "SNAPSHOT...  (index or snapshot directories, or archives made by docidx pack)",
		Description: `Writes a new generation of --index DIR holding every package version of DIR's current
snapshot (if any) and of each SNAPSHOT, and rebuilds its search indexes as a crawl does.
A package version in several inputs must have the same content in each (when and where
it was crawled aside): conflicting copies are refused, as are snapshots of a format this
docidx cannot read. On any error nothing is published. Typical use, after N machines ran
'docidx crawl --shard K/N' and 'docidx pack':
  docidx merge --index merged shard-1.tar.zst shard-2.tar.zst
  docidx pack --index merged -o docidx.tar.zst`,
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing but errors", EnvVars: []string{"DOCIDX_QUIET"}},
		},
		Action: runMerge,
	}
}

func runMerge(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("merge: give the snapshots to merge: docidx merge --index DIR SNAPSHOT... (directories, or archives made by docidx pack)")
	}
	dir := c.String("index")
	if index.IsArchive(dir) {
		return usagef("merge: --index %s is an archive; merge into an index directory (the archive can be one of the SNAPSHOTs)", dir)
	}
	sum, err := index.Merge(c.Context, dir, c.Args().Slice())
	var msg string
	if err != nil {
		msg = strings.TrimPrefix(err.Error(), "index: merge: ")
	}
	switch {
	case errors.Is(err, index.ErrConflict):
		return failf("merge: %s\nthe index in %s is unchanged", msg, dir)
	case errors.Is(err, docidx.ErrFormat), errors.Is(err, index.ErrCorrupt), errors.Is(err, docidx.ErrTooLarge):
		return failf("merge: %s\nnothing was merged; the index in %s is unchanged", msg, dir)
	case err != nil:
		return failf("merge: %s; the index in %s is unchanged", msg, dir)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, mergeJSON{SchemaVersion: docidx.SchemaVersion, MergeSummary: sum, Snapshot: dir})
	}
	if !c.Bool("quiet") {
		printMerge(c.App.ErrWriter, sum)
	}
	return nil
}

// mergeJSON is merge's --json output: what each input brought, and the index merged into.
type mergeJSON struct {
	SchemaVersion int `json:"schemaVersion"` // docidx.SchemaVersion (docs/json-changelog.md)
	*index.MergeSummary
	Snapshot string `json:"snapshot"`
}

// printMerge prints one line per input (versions it held, added, identical to an earlier
// input's) and the total.
func printMerge(w io.Writer, sum *index.MergeSummary) {
	for _, in := range sum.Inputs {
		if in.Current {
			fmt.Fprintf(w, "current    %s: %s\n", in.Path, count(in.Versions, "version", "versions"))
			continue
		}
		fmt.Fprintf(w, "input      %s: %s, %d added, %d identical to an earlier copy\n", in.Path, count(in.Versions, "version", "versions"), in.Added, in.Identical)
	}
	fmt.Fprintf(w, "merged %s in %s: %s", count(len(sum.Inputs), "input", "inputs"), sum.Elapsed.Round(time.Millisecond), count(sum.Versions, "version", "versions"))
	if sum.Changed {
		fmt.Fprintf(w, "; new generation written\n")
	} else {
		fmt.Fprintf(w, "; nothing new: no generation written\n")
	}
	printHolds(w, sum.Counts)
}
