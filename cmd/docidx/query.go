package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
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
		Description: "Lists the packages the snapshot holds, or those of one --ecosystem and whose names\n" +
			"start with --prefix, one line each: a page within --max-tokens, as every answer is, that\n" +
			"--cursor continues; --all lists every one (for scripts). When none matches, it says so on\n" +
			"stderr and exits 1, as search does when nothing is found (with --json it prints an empty\n" +
			"list first).",
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.StringFlag{Name: "ecosystem", Aliases: []string{"e"}, Usage: "only this ecosystem"},
			&cli.StringFlag{Name: "prefix", Usage: "only names starting with this"},
			maxTokensFlag(strconv.Itoa(answer.DefaultMaxTokens)), cursorFlag,
			&cli.BoolFlag{Name: "all", Usage: "every package, however many, instead of a page"},
		},
		Action: func(c *cli.Context) error {
			var eco docidx.Ecosystem
			if e := c.String("ecosystem"); e != "" {
				var err error
				if eco, err = docidx.ParseEcosystem(e); err != nil {
					return usagef("--ecosystem: %v", err)
				}
			}
			if c.Bool("all") && c.String("cursor") != "" {
				return usagef("list: --all lists every package; give it without --cursor")
			}
			srv, done, err := answerer(c)
			if err != nil {
				return err
			}
			defer done()
			in := answer.ListInput{Ecosystem: string(eco), Prefix: c.String("prefix"), Limit: answer.MaxListLimit,
				MaxTokens: c.Int("max-tokens"), Cursor: c.String("cursor")}
			if c.Bool("all") {
				in.MaxTokens = answer.MaxMaxTokens
			}
			// A page, or with --all the answer's pages at their largest, one after the other.
			page := answer.ListOutput{SchemaVersion: docidx.SchemaVersion, Packages: []answer.PackageListing{}}
			for {
				_, out, err := srv.List(c.Context, in)
				if err != nil {
					return printAnswer(c, "", out, err)
				}
				page.Packages = append(page.Packages, out.Packages...)
				page.NextCursor = out.NextCursor
				if out.NextCursor == "" || !c.Bool("all") {
					break
				}
				in.Cursor = out.NextCursor
			}
			if c.Bool("json") {
				if err := writeJSON(c.App.Writer, page); err != nil {
					return err
				}
			}
			if len(page.Packages) == 0 {
				return noPackages(c.String("index"), c.IsSet("index"), eco, c.String("prefix"))
			}
			if c.Bool("json") {
				return nil
			}
			var buf strings.Builder
			tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
			for _, l := range page.Packages {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Ecosystem, l.Package, strings.Join(l.Versions, " "))
			}
			tw.Flush()
			if page.NextCursor != "" {
				fmt.Fprintf(&buf, "---\nMore: add --cursor %q, or --all for every package.\n", page.NextCursor)
			}
			return writeText(c.App.Writer, buf.String())
		},
	}
}

// noPackages is list's failure when no package in the snapshot at dir is of ecosystem eco (any
// when empty) with a name starting with prefix: it says so, and how to crawl some (into dir,
// named when the user named it).
func noPackages(dir string, named bool, eco docidx.Ecosystem, prefix string) error {
	what := "packages"
	if eco != "" {
		what = string(eco) + " packages"
	}
	if prefix != "" {
		what += " whose names start with " + docidx.Quote(prefix)
	}
	crawl := "docidx crawl "
	if named {
		crawl += "--index " + dir + " "
	}
	switch eco {
	case docidx.Go:
		crawl += "go:MODULE, or from a module cache with --go-modcache"
	case docidx.NPM:
		crawl += "npm:NAME, or from node_modules with --node-modules DIR"
	case docidx.PyPI:
		crawl += "pypi:NAME, or from site-packages with --site-packages DIR"
	case docidx.Cargo:
		crawl += "cargo:CRATE, or from a cargo home with --cargo-home DIR"
	case docidx.Swift:
		crawl += "swift:SCOPE.NAME, or from a SwiftPM project with --swift-checkouts DIR"
	default:
		crawl += "SPEC…"
	}
	return failf("no %s in the snapshot at %s; crawl some with %s", what, dir, crawl)
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
			fmt.Fprintf(w, "segments  %d, %s, %d of them searched", len(out.Segments), count(docs, "search document", "search documents"), live)
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
