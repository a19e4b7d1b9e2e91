package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/module"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// Exit statuses.
const (
	exitFailure = 1 // a package failed, nothing found
	exitUsage   = 2 // bad flags or arguments
)

// versionFlag is the app's --version: urfave/cli's, without its -v alias, which a command's
// flags would be mistaken for (flagsFirst moves a flag no command defines to the app).
var versionFlag = &cli.BoolFlag{Name: "version", Usage: "print docidx's version, as docidx version does", DisableDefaultText: true}

// appDescription is the top of docidx --help: how a question is answered from the snapshot, so
// that a person or an assistant new to docidx asks it without reading three more help pages.
const appDescription = `Answer a question from the snapshot (crawl first, or unpack an archive):
   docidx search [-p PACKAGE] [-n HITS] WORDS...   ranked hits, each with the passage that answers
   docidx read URI [WORDS...]                      a hit in full, or only its passages holding WORDS
   docidx show PACKAGE[@VERSION] [SYMBOL]          metadata and API outline, or one symbol in full
PACKAGE is a name as its users write it (zod, go-redis, jpillora/backoff, serde); no list is
needed first, and a search without -p finds the package its words name.
Answers stop near --max-tokens (4000; a token is about 4 bytes): -n 2 --max-tokens 500 shows the
best two hits in about 1.4 KB. --cursor C continues an answer.`

func newApp() *cli.App {
	// urfave/cli reads its version flag and printer from package variables; docidx sets them to
	// its own, the same on every call.
	cli.VersionFlag = versionFlag
	cli.VersionPrinter = func(c *cli.Context) { printVersion(c.App.Writer) }
	app := &cli.App{
		Name:                 "docidx",
		Usage:                "offline package documentation for AI coding assistants",
		Description:          appDescription,
		Version:              docidx.Version,
		EnableBashCompletion: true,
		Writer:               os.Stdout,
		ErrWriter:            os.Stderr,
		Commands: []*cli.Command{
			crawlCommand(),
			serveCommand(),
			browseCommand(),
			searchCommand(),
			showCommand(),
			readCommand(),
			listCommand(),
			statsCommand(),
			verifyCommand(),
			packCommand(),
			unpackCommand(),
			pruneCommand(),
			mergeCommand(),
			compactCommand(),
			versionCommand(),
			completionCommand(),
			manCommand(),
		},
		OnUsageError: usageError,
		// main prints errors and exits; urfave/cli must not exit on its own.
		ExitErrHandler: func(*cli.Context, error) {},
		// docidx alone shows the help; docidx NAME, where NAME is no command, is a usage error.
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c, c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		// docidx help NAME: urfave/cli's help command calls this and then returns no error,
		// so the usage error's exit status is set here.
		CommandNotFound: func(c *cli.Context, name string) {
			os.Exit(exitCode(c.App.ErrWriter, unknownCommand(c, name)))
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}

// usageError is the error of a command line whose flags do not parse. An unknown flag is named
// as it is written (--indx) with the closest flags of its command as a did-you-mean; the error
// ends by naming the help of the command the flag was given to (c.Command.HelpName: "docidx
// search", or "docidx" itself).
func usageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		for _, f := range c.Command.VisibleFlags() {
			names = append(names, f.Names()...)
		}
		if cli.HelpFlag != nil && !slices.Contains(names, "help") {
			names = append(names, cli.HelpFlag.Names()...)
		}
		msg = "unknown flag " + dashed(name) + didYouMean(name, names, dashed)
		if name == versionFlag.Name {
			msg = "unknown flag --version: docidx's own version is 'docidx --version'; a package's version is written PACKAGE@VERSION (npm:zod@4)"
		}
	}
	return cli.Exit(fmt.Sprintf("%s\nrun '%s --help' for usage", msg, c.Command.HelpName), exitUsage)
}

// unknownCommand is the usage error for a command name that names no command of the app, with
// the commands closest to it as a did-you-mean.
func unknownCommand(c *cli.Context, name string) error {
	return usagef("unknown command %q%s\nrun 'docidx help' for the list of commands", name, didYouMean(name, commandNames(c.App.VisibleCommands()), nil))
}

// dashed writes a flag name as it is typed: -q for one letter, --index for more.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandNames lists the names and aliases of cmds.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Names()...)
	}
	return names
}

// didYouMean is "; did you mean X or Y?" naming the (at most three) of names closest to want by
// index.Closest, docidx's one did-you-mean, each written by show (nil: as it is), or "" when
// none is close. urfave/cli's own suggestion (App.Suggest, Jaro-Winkler) names the best-scored
// name however far it is, so "docidx xyz" would be asked whether it meant some command.
func didYouMean(want string, names []string, show func(string) string) string {
	close := index.Closest(want, names, 3)
	if len(close) == 0 {
		return ""
	}
	if show != nil {
		for i, n := range close {
			close[i] = show(n)
		}
	}
	return "; did you mean " + orList(close) + "?"
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// usagef reports a usage error (exit status 2).
func usagef(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), exitUsage)
}

// failf reports a failure (exit status 1).
func failf(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), exitFailure)
}

var indexFlag = &cli.StringFlag{
	Name:    "index",
	Usage:   "index `DIR` (or, to read from, a snapshot archive made by docidx pack)",
	EnvVars: []string{"DOCIDX_INDEX"},
	Value:   defaultIndexDir(),
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print stable JSON instead of text", EnvVars: []string{"DOCIDX_JSON"}}

var logLevelFlag = &cli.StringFlag{
	Name:    "log-level",
	Usage:   "stderr log level: debug, info, warn, error",
	EnvVars: []string{"DOCIDX_LOG_LEVEL"},
	Value:   "warn",
}

// defaultIndexDir is the platform's per-user data directory plus "docidx": $XDG_DATA_HOME/docidx
// (default ~/.local/share/docidx) on Linux and BSDs, ~/Library/Application Support/docidx on
// macOS, %LocalAppData%\docidx on Windows.
func defaultIndexDir() string {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "docidx")
		}
	case "darwin":
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, "Library", "Application Support", "docidx")
		}
	default:
		if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "docidx")
		}
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, ".local", "share", "docidx")
		}
	}
	return "docidx-index"
}

// newLogger returns a text logger on stderr at the level the flag names.
func newLogger(c *cli.Context) (*slog.Logger, error) { return newLoggerTo(c, c.App.ErrWriter) }

// newLoggerTo returns a text logger on w at the level the flag names. Each record is one Write.
func newLoggerTo(c *cli.Context, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.String("log-level"))); err != nil {
		return nil, usagef("--log-level %q: want debug, info, warn or error", c.String("log-level"))
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), nil
}

// resolveIndex returns the directory to open for the --index flag: the flag's value, or for a
// snapshot archive (docidx pack) the directory it was unpacked into, once, under $DOCIDX_CACHE or
// the user's cache directory ($XDG_CACHE_HOME/docidx/<sha256 of the archive>). A damaged archive
// or one from a newer docidx gives an error that says so (exit status 1). serve passes the
// result to index.Watch, which follows new generations of an index directory and treats an
// unpacked archive as a snapshot that never changes.
func resolveIndex(c *cli.Context) (string, error) {
	dir := c.String("index")
	if !index.IsArchive(dir) {
		return dir, nil
	}
	snap, err := index.Resolve(dir, "")
	if err != nil {
		return "", archiveError("opening archive", dir, err)
	}
	return snap, nil
}

// openIndex opens the snapshot the --index flag names (see resolveIndex), with an error that
// says what to do.
func openIndex(c *cli.Context) (*index.Reader, error) {
	dir, err := resolveIndex(c)
	if err != nil {
		return nil, err
	}
	r, err := index.Open(dir)
	if err != nil {
		return nil, openError(dir, err)
	}
	return r, nil
}

// openError turns an error opening the snapshot in dir into one that says what to do.
func openError(dir string, err error) error {
	switch {
	case errors.Is(err, docidx.ErrNoSnapshot):
		return failf("no snapshot in %s yet: run 'docidx crawl --index %s SPEC…' first", dir, dir)
	case errors.Is(err, docidx.ErrFormat):
		return failf("%v\ncheck the snapshot with 'docidx verify --index %s'; a damaged one is replaced by crawling again or by 'docidx unpack' of an archive", err, dir)
	}
	return cli.Exit(err.Error(), exitFailure)
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print docidx's version, snapshot format and commit",
		Action: func(c *cli.Context) error {
			return printVersion(c.App.Writer)
		},
	}
}

// printVersion writes docidx's version line, which docidx version and docidx --version print:
// the release, the snapshot format it reads and writes, the Go toolchain and platform, and the
// commit it was built from (see buildCommit):
//
//	docidx v1.2.3 (snapshot format 6, go1.26.8 linux/amd64, commit 0123…cdef)
func printVersion(w io.Writer) error {
	info, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintf(w, "docidx %s (snapshot format %d, %s %s/%s, commit %s)\n", docidx.Version, index.FormatVersion,
		runtime.Version(), runtime.GOOS, runtime.GOARCH, buildCommit(docidx.Commit, info))
	return err
}

// buildCommit returns the commit a binary was built from: commit (docidx.Commit, which release
// builds set with -ldflags) when set; else the vcs.revision that go build records in info for a
// build inside a git checkout, with "-dirty" when its vcs.modified says the tree had changes
// not committed; else, for go install of a module version, the revision a pseudo-version
// (v0.0.0-20261129120000-0123456789ab) carries; else "unknown" (go run, go test, -buildvcs=false).
// info may be nil.
func buildCommit(commit string, info *debug.BuildInfo) string {
	if commit != "" {
		return commit
	}
	if info == nil {
		return "unknown"
	}
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case rev != "" && modified:
		return rev + "-dirty"
	case rev != "":
		return rev
	}
	if v := info.Main.Version; module.IsPseudoVersion(v) {
		if r, err := module.PseudoVersionRev(v); err == nil {
			return r
		}
	}
	return "unknown"
}
