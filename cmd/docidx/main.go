// Command docidx crawls package documentation into an offline snapshot and serves it to AI
// coding assistants over the Model Context Protocol.
//
//	docidx crawl   [--index DIR] [--from FILE]... [--go-modcache [DIR]] [--node-modules DIR]... [--site-packages DIR]...
//	               [--cargo-home DIR] [--swift-checkouts DIR] [--offline] [--shard K/N] [SPEC...]
//	docidx serve   [--index DIR|ARCHIVE] (--stdio | --http ADDR [--stateless] [--json-response])
//	docidx browse  [--index DIR|ARCHIVE] [--addr ADDR] [--no-open]
//	docidx search  [--index DIR] [--ecosystem E] [--package P] [--kind K] [--limit N] [--json] QUERY...
//	docidx show    [--index DIR] [--json] [ECOSYSTEM:]PACKAGE[@VERSION] [SYMBOL] | PURL [SYMBOL] | URI
//	docidx read    [--index DIR] [--json] URI
//	docidx list    [--index DIR] [--ecosystem E] [--json]
//	docidx stats   [--index DIR] [--json]
//	docidx verify  [--index DIR] [ARCHIVE|DIR]
//	docidx pack    [--index DIR] -o FILE
//	docidx unpack  [--index DIR] FILE
//	docidx prune   [--index DIR] [--keep-latest N] [--ecosystem E] [--dry-run] [PACKAGE[@VERSION]...]
//	docidx merge   [--index DIR] SNAPSHOT...
//	docidx compact [--index DIR]
//	docidx version
//	docidx completion SHELL
//	docidx man
//
// Each command's --help has all its flags; TestPackageDocNamesEveryCommand keeps this list whole.
//
// Exit status: 0 success, 1 failure (a package failed, nothing found), 2 usage error.
// main stays thin: it builds the app and runs it with a context that SIGINT and SIGTERM cancel.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx/internal/safetext"
)

func main() { os.Exit(run()) }

// run runs the command line in os.Args and returns the exit status.
func run() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return exitCode(os.Stderr, newApp().RunContext(ctx, rewriteArgs(os.Args)))
}

// exitCode maps an error from the app to the process exit status, printing it to stderr. An
// error may quote package content (a did-you-mean names symbols, a registry's answer), so it
// is printed as text for people (safetext.Text).
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "docidx:", safetext.Text(msg))
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "docidx:", safetext.Text(err.Error()))
	return 1
}
