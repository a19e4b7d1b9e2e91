package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the snapshot to MCP clients (read-only, no network)",
		Description: `With --stdio, docidx speaks MCP as newline-delimited JSON-RPC on stdin and stdout,
the way editors launch local servers; logs go to stderr. When stdin closes, every request
already read is answered before docidx exits.`,
		Flags: []cli.Flag{
			indexFlag, logLevelFlag,
			&cli.BoolFlag{Name: "stdio", Usage: "serve MCP over stdin/stdout", EnvVars: []string{"DOCIDX_STDIO"}},
		},
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	if !c.Bool("stdio") {
		return usagef("serve: say how to serve: --stdio")
	}
	if c.NArg() > 0 {
		return usagef("serve takes no arguments, got %q", c.Args().First())
	}
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	r, err := openIndex(c)
	if err != nil {
		return err
	}
	defer r.Close()
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := serve.New(r, serve.Options{Version: docidx.Version, Logger: log})
	log.Info("serving over stdio", "snapshot", r.Dir())
	if err := srv.RunStdio(ctx, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil && err != context.Canceled {
		return failf("serve: %v", err)
	}
	return nil
}
