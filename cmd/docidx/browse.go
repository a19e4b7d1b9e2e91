package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os/exec"
	"runtime"
	"slices"

	"github.com/urfave/cli/v2"
)

// browseCommand is `docidx browse`: serve --http on a free loopback port, for a person.
func browseCommand() *cli.Command {
	// The HTTP flags of serve, but not those that choose the transport or suit replicas behind
	// a load balancer: browse stops at once on Ctrl-C, with no drain window (see serveSnapshot).
	var flags []cli.Flag
	for _, f := range serveCommand().Flags {
		if !slices.Contains([]string{"stdio", "http", "stateless", "json-response", "drain"}, f.Names()[0]) {
			flags = append(flags, f)
		}
	}
	flags = append(flags, &cli.StringFlag{Name: "addr", Usage: "listen on `ADDR` (host:port; port 0 picks a free one)", EnvVars: []string{"DOCIDX_BROWSE_ADDR"}, Value: "127.0.0.1:0"},
		&cli.BoolFlag{Name: "no-open", Usage: "only print the URL; do not start a browser"})
	return &cli.Command{
		Name:      "browse",
		Usage:     "browse the snapshot's documentation in a web browser, offline",
		UsageText: "docidx browse [--index DIR|ARCHIVE] [--addr 127.0.0.1:0]",
		Description: "Serves the HTML pages of serve --http (search, package overviews, READMEs and docs, API outlines,\n" +
			"symbols, API differences between versions) on a loopback port, prints their URL and opens a browser\n" +
			"when one is there (xdg-open, open or rundll32). MCP is served on /mcp too. Ctrl-C stops it at once:\n" +
			"unlike serve --http, it keeps no drain window for load balancers.",
		Flags:  flags,
		Action: func(c *cli.Context) error { return serveSnapshot(c, false, c.String("addr"), true) },
	}
}

// pagesURL is the URL of the start page of a server listening on addr; with a token it carries
// it once, for the page to set its cookie.
func pagesURL(addr net.Addr, token string) string {
	u := url.URL{Scheme: "http", Host: addr.String(), Path: "/"}
	if token != "" {
		u.RawQuery = url.Values{"token": {token}}.Encode()
	}
	return u.String()
}

// openBrowser prints u on stdout and, unless --no-open, starts the system's browser opener on
// it when there is one on PATH; without one, or when it fails, the printed URL is enough.
func openBrowser(c *cli.Context, u string, log *slog.Logger) {
	fmt.Fprintln(c.App.Writer, u)
	if c.Bool("no-open") {
		return
	}
	var cmd []string
	switch runtime.GOOS {
	case "darwin":
		cmd = []string{"open", u}
	case "windows":
		cmd = []string{"rundll32", "url.dll,FileProtocolHandler", u}
	default:
		cmd = []string{"xdg-open", u}
	}
	bin, err := exec.LookPath(cmd[0])
	if err != nil {
		log.Info("no browser opener found; open the URL yourself", "opener", cmd[0])
		return
	}
	p := exec.Command(bin, cmd[1:]...)
	if err := p.Start(); err != nil {
		log.Info("could not start the browser opener", "opener", bin, "err", err)
		return
	}
	go p.Wait() // reaps it; its exit status does not matter
}
