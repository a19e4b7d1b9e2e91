package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// testApp is an app with a global flag, a command with a flag of each shape, and a command with
// subcommands, so flagsFirst is checked on shapes the real app does not (yet) have.
func testApp() *cli.App {
	return &cli.App{
		Name:                 "tool",
		HideVersion:          true,
		EnableBashCompletion: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}},
			&cli.StringFlag{Name: "config"},
		},
		Commands: []*cli.Command{
			{
				Name:    "find",
				Aliases: []string{"f"},
				Flags: []cli.Flag{
					&cli.IntFlag{Name: "limit", Aliases: []string{"n"}},
					&cli.BoolFlag{Name: "json"},
					&cli.StringSliceFlag{Name: "tag"},
					&cli.StringFlag{Name: "config"}, // shadows the global one
				},
			},
			{Name: "exec", SkipFlagParsing: true, Flags: []cli.Flag{&cli.BoolFlag{Name: "json"}}},
			{
				Name:  "remote",
				Flags: []cli.Flag{&cli.StringFlag{Name: "url"}, &cli.BoolFlag{Name: "tag"}}, // a switch, as find's --tag is not
				Subcommands: []*cli.Command{
					{Name: "add", Flags: []cli.Flag{&cli.BoolFlag{Name: "force", Aliases: []string{"f"}}}},
				},
			},
		},
	}
}

func TestFlagsFirst(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     string
		want     string
		realApp  bool // docidx's own app instead of testApp
		viaEntry bool // through rewriteArgs (with the --go-modcache rewrite)
	}{
		{name: "nothing", args: "tool", want: "tool"},
		{name: "already first", args: "tool find --limit 3 a b", want: "tool find --limit 3 a b"},
		{name: "after positionals", args: "tool find a b --limit 3 --json", want: "tool find --limit 3 --json a b"},
		{name: "between positionals", args: "tool find a --json b", want: "tool find --json a b"},
		{name: "equals form", args: "tool find a --limit=3", want: "tool find --limit=3 a"},
		{name: "single dash and alias", args: "tool find a -n 3", want: "tool find -n 3 a"},
		{name: "command alias", args: "tool f a -n 3", want: "tool f -n 3 a"},
		{name: "value that looks like a flag", args: "tool find a --tag --json", want: "tool find --tag --json a"},
		{name: "repeated slice flag", args: "tool find --tag x a --tag y", want: "tool find --tag x --tag y a"},
		{name: "bool with value", args: "tool find a --json=false", want: "tool find --json=false a"},
		{name: "double dash ends flags", args: "tool find a -- --json -n", want: "tool find -- a --json -n"},
		{name: "double dash first", args: "tool find -- --json", want: "tool find -- --json"},
		{name: "flags before double dash move", args: "tool find a --json -- -b", want: "tool find --json -- a -b"},
		{name: "lone dash is positional", args: "tool find - --json", want: "tool find --json -"},
		{name: "global flag after command", args: "tool find a --verbose", want: "tool --verbose find a"},
		{name: "global alias after command", args: "tool find a -v --json", want: "tool -v find --json a"},
		{name: "command flag shadows global", args: "tool find a --config c", want: "tool find --config c a"},
		{name: "global flag before command stays", args: "tool --config c find a", want: "tool --config c find a"},
		{name: "command flag before command", args: "tool --limit 3 find a --json", want: "tool find --limit 3 --json a"},
		{name: "command switch before command", args: "tool --json -v find a", want: "tool -v find --json a"},
		{name: "command flag before subcommand", args: "tool remote --force add x", want: "tool remote add --force x"},
		{name: "command flag without a command", args: "tool --limit 3", want: "tool --limit 3"},
		{name: "command flag before unknown command", args: "tool --limit 3 fnd a", want: "tool --limit 3 fnd a"},
		{name: "command flag missing its value", args: "tool --limit", want: "tool --limit"},
		{name: "command flag beside help", args: "tool --help --limit 3", want: "tool --help"},
		{name: "flag the commands disagree on", args: "tool --tag x find a", want: "tool --tag x find a"},
		{name: "help after positionals", args: "tool find a b --help", want: "tool find --help"},
		{name: "short help", args: "tool find a -h --json", want: "tool find -h --json"},
		{name: "help off", args: "tool find a --help=false", want: "tool find --help=false a"},
		{name: "help as a value", args: "tool find a --tag -h", want: "tool find --tag -h a"},
		{name: "help after double dash", args: "tool find -- a --help", want: "tool find -- a --help"},
		{name: "help at a command with subcommands", args: "tool remote add --help", want: "tool remote add --help"},
		{name: "help for the subcommand", args: "tool remote --help add", want: "tool remote --help add"},
		{name: "unknown flag goes to the command", args: "tool find a --bogus", want: "tool find --bogus a"},
		{name: "unknown command left as written", args: "tool fnd a --limit 3", want: "tool fnd a --limit 3"},
		{name: "missing value left as written", args: "tool find a b --limit", want: "tool find a b --limit"},
		{name: "subcommand", args: "tool remote add x --force --url u", want: "tool remote --url u add --force x"},
		{name: "subcommand alias clash", args: "tool remote add x -f", want: "tool remote add -f x"},
		{name: "command that parses its own arguments", args: "tool exec a --json -- b --verbose", want: "tool exec a --json -- b --verbose"},
		{name: "global flag before a raw command", args: "tool --verbose exec a --json", want: "tool --verbose exec a --json"},
		{name: "completion stays last", args: "tool find a --json --generate-bash-completion", want: "tool find --json a --generate-bash-completion"},
		{name: "completion after double dash is positional", args: "tool find -- a --generate-bash-completion", want: "tool find -- a --generate-bash-completion"},

		{realApp: true, name: "search", args: "docidx search rate limiter --limit 3 --json", want: "docidx search --limit 3 --json rate limiter"},
		{realApp: true, name: "show", args: "docidx show npm:express --json", want: "docidx show --json npm:express"},
		{realApp: true, name: "unpack", args: "docidx unpack FILE --index DIR", want: "docidx unpack --index DIR FILE"},
		{realApp: true, name: "index before the command", args: "docidx --index DIR search a b -n 1", want: "docidx search --index DIR -n 1 a b"},
		{realApp: true, name: "pack to stdout", args: "docidx pack --json -o -", want: "docidx pack --json -o -"},
		{realApp: true, name: "crawl aliases", args: "docidx crawl npm:x -j 4 -q --from go.mod", want: "docidx crawl -j 4 -q --from go.mod npm:x"},
		{realApp: true, name: "prune dry run", args: "docidx prune npm:x -n --keep-latest 2", want: "docidx prune -n --keep-latest 2 npm:x"},
		{realApp: true, viaEntry: true, name: "bare go-modcache last", args: "docidx crawl npm:x --go-modcache", want: "docidx crawl --go-modcache=auto npm:x"},
		{realApp: true, viaEntry: true, name: "bare go-modcache before a spec", args: "docidx crawl --go-modcache npm:x --offline", want: "docidx crawl --go-modcache=auto --offline npm:x"},
		{realApp: true, viaEntry: true, name: "bare go-modcache before a purl", args: "docidx crawl --go-modcache pkg:npm/x@1.0.0", want: "docidx crawl --go-modcache=auto pkg:npm/x@1.0.0"},
		{realApp: true, viaEntry: true, name: "bare go-modcache before a flag", args: "docidx crawl --go-modcache --offline go:x", want: "docidx crawl --go-modcache=auto --offline go:x"},
		{realApp: true, viaEntry: true, name: "go-modcache missing dir", args: "docidx crawl --go-modcache /missing/modcache --offline", want: "docidx crawl --go-modcache /missing/modcache --offline"},
		{realApp: true, viaEntry: true, name: "go-modcache missing relative dir", args: "docidx crawl go:x --go-modcache missing-cache", want: "docidx crawl --go-modcache missing-cache go:x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := strings.Fields(tc.args)
			var got []string
			switch {
			case tc.viaEntry:
				got = rewriteArgs(args)
			case tc.realApp:
				got = flagsFirst(newApp(), args)
			default:
				got = flagsFirst(testApp(), args)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("flagsFirst(%q)\n got %q\nwant %q", tc.args, strings.Join(got, " "), tc.want)
			}
		})
	}
}

// TestFlagsFirstEveryFlag runs docidx's own app (actions replaced) with every flag of every
// command, by every name, written after a positional argument, and checks urfave/cli reads the
// flag and leaves the positional argument alone.
func TestFlagsFirstEveryFlag(t *testing.T) {
	for _, cmd := range newApp().Commands {
		for _, f := range cmd.Flags {
			for _, name := range f.Names() {
				t.Run(cmd.Name+"/"+name, func(t *testing.T) {
					app := newApp()
					app.Writer, app.ErrWriter = io.Discard, io.Discard
					var set bool
					var args []string
					for _, c := range app.Commands {
						c.Before = nil
						c.Action = func(c *cli.Context) error {
							set = c.IsSet(f.Names()[0])
							args = c.Args().Slice()
							return nil
						}
					}
					argv := []string{"docidx", cmd.Name, "POS", "-" + name}
					if len(name) > 1 {
						argv[3] = "-" + argv[3]
					}
					if _, ok := f.(*cli.DurationFlag); ok {
						argv = append(argv, "1s")
					} else if tv, ok := f.(cli.DocGenerationFlag); ok && tv.TakesValue() {
						argv = append(argv, "1")
					}
					if err := app.Run(flagsFirst(app, argv)); err != nil {
						t.Fatalf("%q: %v", argv, err)
					}
					if !set || !slices.Equal(args, []string{"POS"}) {
						t.Errorf("%q: flag set %v, args %q; want true, [POS]", argv, set, args)
					}
				})
			}
		}
	}
}
