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
	"github.com/docidx/docidx/answer"
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
			srv, done, err := answerer(c)
			if err != nil {
				return err
			}
			defer done()
			// Every package: the answer's pages, at their largest, one after the other.
			all := []answer.PackageListing{}
			in := answer.ListInput{Ecosystem: string(eco), Prefix: c.String("prefix"), Limit: answer.MaxListLimit, MaxTokens: answer.MaxMaxTokens}
			for {
				_, out, err := srv.List(c.Context, in)
				if err != nil {
					return failf("list: %v", err)
				}
				all = append(all, out.Packages...)
				if out.NextCursor == "" {
					break
				}
				in.Cursor = out.NextCursor
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, answer.ListOutput{SchemaVersion: docidx.SchemaVersion, Packages: all})
			}
			var buf strings.Builder
			tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
			for _, l := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Ecosystem, l.Package, strings.Join(l.Versions, " "))
			}
			tw.Flush()
			return writeText(c.App.Writer, buf.String())
		},
	}
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "count what the snapshot holds",
		Flags: []cli.Flag{indexFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			srv, done, err := answerer(c)
			if err != nil {
				return err
			}
			defer done()
			out := srv.Stats()
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
