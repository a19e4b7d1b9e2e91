package main

// show.go holds the commands that ask the snapshot a question — search, show and read. They call
// package answer, as the MCP tools do, and print the same markdown (or with --json the same
// structured content) in the CLI's words (cliWords), so the CLI and an assistant always get the
// same answer.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/purl"
)

var cursorFlag = &cli.StringFlag{Name: "cursor", Usage: "continue an answer that was cut: the cursor it ended with"}

// maxTokensFlag is the --max-tokens of a command whose budget without it is def, as its help
// says it once: "(default: 4000)". The flag's value stays 0 when not given, which the answer
// layer reads as its default.
func maxTokensFlag(def string) *cli.IntFlag {
	return &cli.IntFlag{Name: "max-tokens", DefaultText: def,
		Usage: "answer budget in tokens (about 4 bytes each); what is beyond it continues with --cursor"}
}

// cliWords are the words of the CLI's answers: its commands and flags where MCP's name tools
// and arguments.
var cliWords = answer.Words{
	Read:           "docidx read URI",
	ReadDocument:   "docidx read URI/doc/PATH",
	DescribeSymbol: "show one with docidx show PACKAGE SYMBOL",
	Outline:        "docidx show PACKAGE without SYMBOL shows its API outline",
	API:            "docidx show PACKAGE shows its API instead",
	List:           "docidx list",
	PassURI:        "pass a URI exactly as docidx search or docidx show printed it",
	Cursor:         "--cursor",
	NextCursor:     "the cursor the previous answer ended with",
	Continue:       "add --cursor",
	Names:          cliIssuerNames(),
}

// cliIssuerNames names the CLI command of each cursor issuer: docidx show for the describe of
// every ecosystem.
func cliIssuerNames() map[string]string {
	names := map[string]string{answer.IssuerSearch: "docidx search", answer.IssuerRead: "docidx read", answer.IssuerList: "docidx list"}
	for _, eco := range docidx.Ecosystems {
		names[answer.IssuerDescribe(eco)] = "docidx show"
	}
	return names
}

// answerer opens the snapshot and returns the answer Service the command asks, and a function
// that closes the snapshot.
func answerer(c *cli.Context) (*answer.Service, func(), error) {
	r, err := openIndex(c)
	if err != nil {
		return nil, nil, err
	}
	return answerService(r), func() { r.Close() }, nil
}

// answerService is the answer Service over r in the CLI's words.
func answerService(r *index.Reader) *answer.Service {
	return answer.New(func() *index.Reader { return r }, answer.Options{Words: cliWords})
}

// printAnswer prints an answer method's result: its structured content with --json, else its
// text, both safe on a terminal (writeJSON, writeText). A usage error (bad arguments) exits 2,
// anything else that failed 1.
func printAnswer[Out any](c *cli.Context, text string, out Out, err error) error {
	if err != nil {
		if errors.Is(err, docidx.ErrUsage) {
			return usagef("%s: %v", c.Command.Name, err)
		}
		return failf("%v", err)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, out)
	}
	return writeText(c.App.Writer, text)
}

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search the snapshot: ranked hits, each with the passage that answers",
		ArgsUsage: "QUERY...",
		Flags: []cli.Flag{
			indexFlag, jsonFlag,
			&cli.StringFlag{Name: "ecosystem", Aliases: []string{"e"}, Usage: "only this ecosystem (golang, npm, pypi, cargo, swift)"},
			&cli.StringFlag{Name: "package", Aliases: []string{"p"}, Usage: "only this package: NAME (for a Go module its path, or its last element when no other package has that name, cpuid, or the end of its path, jpillora/backoff), ECOSYSTEM:NAME (pypi:msgpack), a Go import path (its module); NAME@VERSION (zod@4) is the same as --version"},
			&cli.StringFlag{Name: "version", Usage: "only this version: exact, or with --package (or of the package the query names) the newest indexed match of 4, v4, 4.x, ^4, ~4.2, >=4 <5 (default: each package's default version: node_modules' top-level copy when several are installed, else the latest)"},
			&cli.StringFlag{Name: "kind", Usage: "only sections, symbols, or one document or symbol kind (readme, func, method, type, class, field, …; also by long name, function, constant, module …, plural, any case)"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "hits to show (1-50)"},
			maxTokensFlag(strconv.Itoa(answer.DefaultMaxTokens)), cursorFlag,
		},
		Action: func(c *cli.Context) error {
			text := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
			if text == "" {
				return usagef("search: give a QUERY, e.g. docidx search define a subcommand with flags")
			}
			if n := c.Int("limit"); n < 1 || n > 50 {
				return usagef("--limit %d: want 1 to 50", n)
			}
			srv, done, err := answerer(c)
			if err != nil {
				return err
			}
			defer done()
			text, out, err := srv.Search(c.Context, answer.SearchInput{
				Query: text, Ecosystem: c.String("ecosystem"), Package: c.String("package"), Version: c.String("version"),
				Kind: c.String("kind"), Limit: c.Int("limit"), MaxTokens: c.Int("max-tokens"), Cursor: c.String("cursor"),
			})
			return printAnswer(c, text, out, err)
		},
	}
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a package's metadata, README summary and API outline, one symbol with its members, or what a docidx:// URI names",
		ArgsUsage: "[ECOSYSTEM:]PACKAGE[@VERSION] [SYMBOL] | PURL [SYMBOL] | URI",
		Flags:     []cli.Flag{indexFlag, jsonFlag, maxTokensFlag(strconv.Itoa(answer.DefaultMaxTokens)), cursorFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() == 1 && strings.HasPrefix(c.Args().First(), docidx.URIScheme+"://") {
				return read(c, c.Args().First(), nil)
			}
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("show: want [ECOSYSTEM:]PACKAGE[@VERSION] [SYMBOL] or a docidx:// URI, e.g. docidx show go:golang.org/x/sync/errgroup Group.Go or docidx show zod@^3")
			}
			ref, err := parseRef(c.Args().First())
			if err != nil {
				return usagef("show: %v", err)
			}
			srv, done, err := answerer(c)
			if err != nil {
				return err
			}
			defer done()
			if ref.Ecosystem == "" { // a bare name: "goldmark", "zod@^3"; "bytes bytes::Bytes" is cargo's
				found, err := srv.FindPackageOf("", ref.Name, c.Args().Get(1))
				if err != nil {
					return printAnswer(c, "", answer.DescribeOutput{}, err)
				}
				ref.Ecosystem, ref.Name = found.Ecosystem, found.Name
			}
			text, out, err := srv.Describe(c.Context, ref.Ecosystem, answer.DescribeInput{
				Package: ref.Name, Version: ref.Version, Symbol: c.Args().Get(1), MaxTokens: c.Int("max-tokens"), Cursor: c.String("cursor"),
			})
			return printAnswer(c, text, out, err)
		},
	}
}

func readCommand() *cli.Command {
	return &cli.Command{
		Name:      "read",
		Usage:     "read what a docidx:// URI from search or show names: a section with its subsections, a symbol with its members, a document",
		ArgsUsage: "URI [WORDS...]",
		Flags: []cli.Flag{indexFlag, jsonFlag, maxTokensFlag(strconv.Itoa(answer.DefaultMaxTokens)), cursorFlag, &cli.StringFlag{Name: "query", Aliases: []string{"q"},
			Usage: "only the passages of the page that hold these words (about 1,200 bytes, or --max-tokens), not the whole page; words after the URI are more of them"}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("read: want a URI, e.g. docidx read docidx://npm/express@4.21.2/readme#routing")
			}
			return read(c, c.Args().First(), c.Args().Tail())
		},
	}
}

// read prints what uri names: the whole page, or with words (--query and the words after the
// URI: `docidx read URI -q backoff delay` is read as -q "backoff delay", as the shell split it)
// only its passages that hold them. A second URI is an error: one page is read at a time.
func read(c *cli.Context, uri string, words []string) error {
	for _, w := range words {
		if strings.HasPrefix(w, docidx.URIScheme+"://") {
			return usagef("read: one URI at a time: read %s, then %s", docidx.Quote(uri), docidx.Quote(w))
		}
	}
	query := strings.TrimSpace(c.String("query") + " " + strings.Join(words, " "))
	srv, done, err := answerer(c)
	if err != nil {
		return err
	}
	defer done()
	// A read is bounded like a search (answer.DefaultMaxTokens): a README section with its
	// subsections can be most of a long README. The rest continues with --cursor.
	text, out, err := srv.Read(c.Context, answer.ReadInput{URI: uri, MaxTokens: c.Int("max-tokens"), Cursor: c.String("cursor"), Query: query})
	return printAnswer(c, text, out, err)
}

// parseRef parses [ECOSYSTEM:]PACKAGE[@VERSION] (for PyPI also NAME==VERSION) or a Package URL
// (pkg:npm/zod@3.23.8, as search results show them). Without an ecosystem the Ref's Ecosystem
// is empty: a bare name for answer.Service.FindPackage.
func parseRef(s string) (docidx.Ref, error) {
	if len(s) >= 4 && strings.EqualFold(s[:4], "pkg:") {
		ref, err := purl.Parse(s)
		if err != nil {
			return docidx.Ref{}, fmt.Errorf("%s: %v", docidx.Quote(s), err)
		}
		return ref, nil
	}
	var eco docidx.Ecosystem
	rest := s
	if ecoStr, r, ok := strings.Cut(s, ":"); ok {
		var err error
		if eco, err = docidx.ParseEcosystem(ecoStr); err != nil {
			return docidx.Ref{}, err
		}
		rest = r
	}
	if rest == "" {
		return docidx.Ref{}, fmt.Errorf("%q: want [ECOSYSTEM:]PACKAGE[@VERSION]", s)
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
