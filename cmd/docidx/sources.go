package main

import (
	"log/slog"

	"github.com/urfave/cli/v2"
)

// buildSources is filled in when the registries land.
func buildSources(c *cli.Context, log *slog.Logger, projectDir string) (*sources, error) {
	return &sources{retries: func() int64 { return 0 }}, nil
}
