package main

import "github.com/urfave/cli/v2"

func serveCommand() *cli.Command {
	return &cli.Command{Name: "serve", Usage: "serve the snapshot over MCP"}
}
