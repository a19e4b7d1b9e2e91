package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
)

// writeJSON writes v as indented JSON, with every character of package content that could
// drive a terminal or reorder text written as a \uXXXX escape (safetext.JSON): the output
// decodes to the same value, and is safe on a terminal or in a pager too.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(safetext.JSON(buf.Bytes()))
	return err
}

// writeText writes text for people: package content with every control, bidi, zero-width and
// tag character shown as its escape (safetext.Text), whether w is a terminal or not. Output that
// is piped is read by people too (through less -R, or cat of a saved file), so it is escaped
// always; --json is the lossless form for programs.
func writeText(w io.Writer, text string) error {
	_, err := io.WriteString(w, safetext.Text(text))
	return err
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list indexed packages and their versions",
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.StringFlag{Name: "ecosystem", Aliases: []string{"e"}, Usage: "only this ecosystem"},
			&cli.StringFlag{Name: "prefix", Usage: "only names starting with this"},
		},
		Action: func(c *cli.Context) error {
			var eco docidx.Ecosystem
			if e := c.String("ecosystem"); e != "" {
				var err error
				if eco, err = docidx.ParseEcosystem(e); err != nil {
					return usagef("--ecosystem: %v", err)
				}
			}
			r, err := openIndex(c)
			if err != nil {
				return err
			}
			defer r.Close()
			all := []index.Listing{}
			for cursor := ""; ; {
				page, next, err := r.List(eco, c.String("prefix"), cursor, 1000)
				if err != nil {
					return failf("list: %v", err)
				}
				all = append(all, page...)
				if next == "" {
					break
				}
				cursor = next
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, struct {
					Packages []index.Listing `json:"packages"`
				}{all})
			}
			var buf strings.Builder
			tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
			for _, l := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Ecosystem, l.Name, strings.Join(l.Versions, " "))
			}
			tw.Flush()
			return writeText(c.App.Writer, buf.String())
		},
	}
}

// statsOutput is the stable shape of `docidx stats --json`.
type statsOutput struct {
	Ecosystems []index.EcosystemCounts `json:"ecosystems"`
	Total      index.EcosystemCounts   `json:"total"`
	Format     int                     `json:"format"`
	Docidx     string                  `json:"docidxVersion"`
	Created    time.Time               `json:"created"`
	Snapshot   string                  `json:"snapshot"`  // directory opened
	SizeBytes  int64                   `json:"sizeBytes"` // on disk
	Sources    []string                `json:"sources"`
	Segments   []index.Segment         `json:"segments"` // see docidx compact
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "count what the snapshot holds",
		Flags: []cli.Flag{indexFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			r, err := openIndex(c)
			if err != nil {
				return err
			}
			defer r.Close()
			m := r.Manifest()
			out := statsOutput{Ecosystems: r.Counts(), Format: m.Format, Docidx: m.DocidxVersion, Created: m.Created, Snapshot: r.Dir(), Sources: m.Sources, Segments: m.Segments}
			if out.Segments == nil {
				out.Segments = []index.Segment{}
			}
			if out.Ecosystems == nil {
				out.Ecosystems = []index.EcosystemCounts{}
			}
			if out.Sources == nil {
				out.Sources = []string{}
			}
			out.Total.Ecosystem = "all"
			for _, e := range out.Ecosystems {
				out.Total.Packages += e.Packages
				out.Total.Versions += e.Versions
				out.Total.Documents += e.Documents
				out.Total.Sections += e.Sections
				out.Total.Symbols += e.Symbols
			}
			out.SizeBytes = r.Size()
			if c.Bool("json") {
				return writeJSON(c.App.Writer, out)
			}
			// The manifest (docidx version, sources) of an unpacked archive is someone else's text.
			w := new(strings.Builder)
			fmt.Fprintf(w, "snapshot  %s\ncreated   %s by docidx %s (format %d)\nsize      %.1f MB\n",
				out.Snapshot, out.Created.Local().Format(time.DateTime), out.Docidx, out.Format, float64(out.SizeBytes)/1e6)
			docs, live := 0, 0
			for _, seg := range out.Segments {
				docs, live = docs+seg.Documents, live+seg.Live
			}
			fmt.Fprintf(w, "segments  %d, %d search documents, %d of them searched", len(out.Segments), docs, live)
			if index.Compacted(out.Segments) {
				fmt.Fprint(w, " (compact)")
			}
			fmt.Fprint(w, "\n\n")
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "ecosystem\tpackages\tversions\tdocuments\tsections\tsymbols\t")
			for _, e := range append(out.Ecosystems, out.Total) {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", e.Ecosystem, e.Packages, e.Versions, e.Documents, e.Sections, e.Symbols)
			}
			tw.Flush()
			return writeText(c.App.Writer, w.String())
		},
	}
}
