package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search the snapshot",
		ArgsUsage: "QUERY...",
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.StringFlag{Name: "ecosystem", Aliases: []string{"e"}, Usage: "only this ecosystem (golang, npm, pypi, cargo, swift)"},
			&cli.StringFlag{Name: "package", Aliases: []string{"p"}, Usage: "only this package"},
			&cli.StringFlag{Name: "version", Usage: "only this version (default: each package's latest)"},
			&cli.StringFlag{Name: "kind", Usage: "only sections, symbols, or one symbol kind (func, type, …)"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "hits to show (1-100)"},
		},
		Action: func(c *cli.Context) error {
			text := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
			if text == "" {
				return usagef("search: give a QUERY, e.g. docidx search define a subcommand with flags")
			}
			if n := c.Int("limit"); n < 1 || n > 100 {
				return usagef("--limit %d: want 1 to 100", n)
			}
			q := index.Query{Text: text, Package: c.String("package"), Version: c.String("version"), Kind: c.String("kind"), Limit: c.Int("limit")}
			if e := c.String("ecosystem"); e != "" {
				eco, err := docidx.ParseEcosystem(e)
				if err != nil {
					return usagef("--ecosystem: %v", err)
				}
				q.Ecosystem = eco
			}
			r, err := openIndex(c)
			if err != nil {
				return err
			}
			defer r.Close()
			res, err := r.Search(c.Context, q)
			if err != nil {
				return failf("search: %v", err)
			}
			if c.Bool("json") {
				out := struct {
					Results []docidx.Hit `json:"results"`
					Total   int          `json:"total"`
				}{res.Hits, res.Total}
				if out.Results == nil {
					out.Results = []docidx.Hit{}
				}
				if err := writeJSON(c.App.Writer, out); err != nil {
					return err
				}
			} else {
				printHits(c.App.Writer, res.Hits)
			}
			if len(res.Hits) == 0 {
				return failf("nothing found for %q", text)
			}
			return nil
		},
	}
}

func printHits(w io.Writer, hits []docidx.Hit) {
	for i, h := range hits {
		fmt.Fprintf(w, "%2d. %s@%s  %s", i+1, h.Package, h.Version, h.Title)
		if h.Section != "" {
			fmt.Fprintf(w, " › %s", h.Section)
		}
		fmt.Fprintf(w, "  (%s, %.2f)\n", h.Kind, h.Score)
		if s := oneLine(h.Snippet, 160); s != "" {
			fmt.Fprintf(w, "    %s\n", s)
		}
		fmt.Fprintf(w, "    %s\n", h.URI)
	}
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
			tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
			for _, l := range all {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Ecosystem, l.Name, strings.Join(l.Versions, " "))
			}
			return tw.Flush()
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
			out := statsOutput{Ecosystems: r.Counts(), Format: m.Format, Docidx: m.DocidxVersion, Created: m.Created, Snapshot: r.Dir(), Sources: m.Sources}
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
			out.SizeBytes = dirSize(r.Dir())
			if c.Bool("json") {
				return writeJSON(c.App.Writer, out)
			}
			w := c.App.Writer
			fmt.Fprintf(w, "snapshot  %s\ncreated   %s by docidx %s (format %d)\nsize      %.1f MB\n\n",
				out.Snapshot, out.Created.Local().Format(time.DateTime), out.Docidx, out.Format, float64(out.SizeBytes)/1e6)
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "ecosystem\tpackages\tversions\tdocuments\tsections\tsymbols\t")
			for _, e := range append(out.Ecosystems, out.Total) {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", e.Ecosystem, e.Packages, e.Versions, e.Documents, e.Sections, e.Symbols)
			}
			return tw.Flush()
		},
	}
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a package's metadata, README summary and API, or one symbol",
		ArgsUsage: "ECOSYSTEM:PACKAGE[@VERSION] [SYMBOL]",
		Flags:     []cli.Flag{indexFlag, jsonFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("show: want ECOSYSTEM:PACKAGE[@VERSION] [SYMBOL], e.g. docidx show go:golang.org/x/sync/errgroup Group.Go")
			}
			ref, err := parseRef(c.Args().First())
			if err != nil {
				return usagef("show: %v", err)
			}
			r, err := openIndex(c)
			if err != nil {
				return err
			}
			defer r.Close()
			return show(c, r, ref, c.Args().Get(1))
		},
	}
}

// parseRef parses ECOSYSTEM:PACKAGE[@VERSION].
func parseRef(s string) (docidx.Ref, error) {
	ecoStr, rest, ok := strings.Cut(s, ":")
	if !ok || rest == "" {
		return docidx.Ref{}, fmt.Errorf("%q: want ECOSYSTEM:PACKAGE[@VERSION]", s)
	}
	eco, err := docidx.ParseEcosystem(ecoStr)
	if err != nil {
		return docidx.Ref{}, err
	}
	ref := docidx.Ref{Ecosystem: eco, Name: rest}
	if i := strings.LastIndexByte(rest, '@'); i > 0 {
		ref.Name, ref.Version = rest[:i], rest[i+1:]
	}
	if eco == docidx.PyPI {
		if n, v, ok := strings.Cut(ref.Name, "=="); ok {
			ref.Name, ref.Version = n, v
		}
	}
	return ref, nil
}

// errNoPackage is returned by findPackage with suggestions in its message.
var errNoPackage = errors.New("not in the snapshot")
