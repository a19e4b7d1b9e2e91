package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// Exit statuses.
const (
	exitFailure = 1 // a package failed, nothing found
	exitUsage   = 2 // bad flags or arguments
)

func newApp() *cli.App {
	app := &cli.App{
		Name:                 "docidx",
		Usage:                "offline package documentation for AI coding assistants",
		Version:              docidx.Version,
		EnableBashCompletion: true,
		HideVersion:          true,
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
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(c.App.ErrWriter, "docidx: unknown command %q; run 'docidx help'\n", name)
			os.Exit(exitUsage)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}

func usageError(c *cli.Context, err error, _ bool) error {
	return cli.Exit(fmt.Sprintf("%v\nrun 'docidx %s --help' for usage", err, c.Command.Name), exitUsage)
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
		Usage: "print docidx's version and snapshot format",
		Action: func(c *cli.Context) error {
			return printVersion(c.App.Writer)
		},
	}
}

// printVersion writes docidx's version line: the release, the snapshot format it reads and writes,
// the Go toolchain and platform, and for release builds the commit they were built from.
func printVersion(w io.Writer) error {
	commit := ""
	if docidx.Commit != "" {
		commit = ", commit " + docidx.Commit
	}
	_, err := fmt.Fprintf(w, "docidx %s (snapshot format %d, %s %s/%s%s)\n", docidx.Version, index.FormatVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH, commit)
	return err
}
