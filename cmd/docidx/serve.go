package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/serve"
	"github.com/docidx/docidx/web"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve the snapshot to MCP clients (read-only, no network)",
		UsageText: "docidx serve [--index DIR] (--stdio | --http ADDR [--stateless] [--json-response] [--token T])",
		Description: `With --stdio, docidx speaks MCP as newline-delimited JSON-RPC on stdin and stdout,
the way editors launch local servers; logs go to stderr. When stdin closes, every request
already read is answered before docidx exits.

With --http ADDR, docidx serves MCP over Streamable HTTP on http://ADDR/mcp, and a health
check on /healthz. ADDR without a host (":8080", "8080") binds 127.0.0.1; give a host
("0.0.0.0:8080") to listen elsewhere, with --token and --allowed-host. Sessions are stateful
unless --stateless (for replicas behind a load balancer); --json-response answers with plain
JSON instead of SSE streams. Requests from a foreign Host or Origin get 403, without the token
401, over the rate limit 429, with a body over the limit 413, sent slower than --read-timeout
408. On SIGINT or SIGTERM, /healthz answers 503 while requests are still served for --drain,
then docidx stops accepting connections and answers the requests in flight before it exits.

With --require-signed --allowed-signers FILE, --index must be an archive whose signature
(ARCHIVE.sig, see 'docidx pack --sign') verifies, at every start, by a key that FILE trusts;
an unsigned or untrusted archive, or an index directory, is refused.`,
		Flags: append([]cli.Flag{
			indexFlag, logLevelFlag,
			&cli.BoolFlag{Name: "stdio", Usage: "serve MCP over stdin/stdout", EnvVars: []string{"DOCIDX_STDIO"}},
			&cli.StringFlag{Name: "http", Usage: "serve MCP over Streamable HTTP on `ADDR` (host:port; no host means 127.0.0.1)", EnvVars: []string{"DOCIDX_HTTP"}},
			&cli.BoolFlag{Name: "stateless", Usage: "HTTP: no sessions, every request on its own (replicas behind a load balancer)", EnvVars: []string{"DOCIDX_STATELESS"}},
			&cli.BoolFlag{Name: "json-response", Usage: "HTTP: answer with application/json instead of SSE streams", EnvVars: []string{"DOCIDX_JSON_RESPONSE"}},
			&cli.StringFlag{Name: "token", Usage: "HTTP: require `TOKEN` as a bearer token on /mcp", EnvVars: []string{"DOCIDX_TOKEN"}},
			&cli.StringSliceFlag{Name: "allowed-host", Usage: "HTTP: also accept this Host `NAME` (repeatable; needed when clients reach the server by name)", EnvVars: []string{"DOCIDX_ALLOWED_HOSTS"}},
			&cli.StringSliceFlag{Name: "allowed-origin", Usage: "HTTP: trust this browser `ORIGIN`, e.g. https://app.example (repeatable)", EnvVars: []string{"DOCIDX_ALLOWED_ORIGINS"}},
			&cli.Float64Flag{Name: "rate-limit", Usage: "HTTP: requests per second per client address, whatever its sessions; 0 turns the limit off", EnvVars: []string{"DOCIDX_RATE_LIMIT"}, Value: serve.DefaultRateLimit},
			&cli.StringSliceFlag{Name: "trust-proxy", Usage: "HTTP: a reverse proxy's `CIDR` or address (repeatable): requests from it are rate-limited by the rightmost X-Forwarded-For address that is not a trusted proxy", EnvVars: []string{"DOCIDX_TRUST_PROXY"}},
			&cli.Int64Flag{Name: "max-body", Usage: "HTTP: largest request body in `BYTES`", EnvVars: []string{"DOCIDX_MAX_BODY"}, Value: serve.DefaultMaxBodyBytes},
			&cli.DurationFlag{Name: "read-timeout", Usage: "HTTP: time to send a request's headers, and then its body; slower clients get 408 and are disconnected", EnvVars: []string{"DOCIDX_READ_TIMEOUT"}, Value: serve.DefaultReadTimeout},
			&cli.StringFlag{Name: "max-heap", Value: "64MiB", Usage: "memory the server's heap aims to stay within (`SIZE`, such as 64MiB; the snapshot's files, mapped, are not counted): it collects sooner as the heap nears it, and allows more when what the snapshot keeps needs it", EnvVars: []string{"DOCIDX_MAX_HEAP"}},
			&cli.DurationFlag{Name: "drain", Usage: "HTTP: on SIGINT/SIGTERM, keep serving this long while /healthz answers 503, before closing the listener", EnvVars: []string{"DOCIDX_DRAIN"}, Value: serve.DefaultDrainWindow},
		}, signingFlags("DOCIDX_")...),
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	return serveSnapshot(c, c.Bool("stdio"), c.String("http"), false)
}

// serveSnapshot serves the snapshot over stdio, or over HTTP on addr — MCP on /mcp and the
// HTML pages of package web on every other path. With browse it prints the pages' URL and
// opens a browser on it (docidx browse).
func serveSnapshot(c *cli.Context, stdio bool, addr string, browse bool) error {
	switch {
	case !stdio && addr == "":
		return usagef("serve: say how to serve: --stdio or --http ADDR")
	case stdio && addr != "":
		return usagef("serve: --stdio and --http are exclusive: pick one")
	case c.NArg() > 0:
		return usagef("serve takes no arguments, got %q", c.Args().First())
	case c.Float64("rate-limit") < 0:
		return usagef("serve: --rate-limit must be 0 (off) or positive")
	case c.Int64("max-body") <= 0:
		return usagef("serve: --max-body must be positive")
	case c.Duration("read-timeout") <= 0:
		return usagef("serve: --read-timeout must be positive, e.g. 10s")
	case c.Duration("drain") < 0:
		return usagef("serve: --drain must be 0 (none) or positive, e.g. 5s")
	}
	maxHeap, err := parseByteSize(c.String("max-heap"))
	if err != nil || maxHeap < minMaxHeap {
		return usagef("serve: --max-heap %q: want a size of at least 16MiB, such as 64MiB or 1GiB", c.String("max-heap"))
	}
	proxies, err := trustedProxies(c.StringSlice("trust-proxy"))
	if err != nil {
		return err
	}
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	signer, err := checkServedSignature(c, log)
	if err != nil {
		return err
	}
	dir, err := resolveIndex(c) // an archive is unpacked here, on its first use
	if err != nil {
		return err
	}
	// The unpacked directory is named by the sha256 of the bytes unpacked: the ones verified.
	if signer != nil && filepath.Base(dir) != signer.ArchiveSHA256 {
		return failf("serve: %s changed between the check of its signature and its unpacking: run serve again once nothing writes to it", c.String("index"))
	}
	// A missing snapshot is reported before serving. Over stdio, opening it (the catalog and the
	// shape of the segments' files, about 2 ms) waits for the client's next message after
	// initialize (see serve.Options.OnSession): done while the answer to initialize was being
	// written, it made that answer 1.5 to 2 ms later, 12 against 14 ms (and the editor waits for
	// it). The server prepares the snapshot for searches then too.
	snap, err := index.Current(dir)
	if err != nil {
		return openError(dir, err)
	}
	// No garbage collection from here until the snapshot is open: what this allocates (a few MB)
	// is mostly kept, and a collection in the middle of it took 2 to 4 ms from the initialize
	// answer on two cores. gcPercent is what GOGC set, restored once the open is done (every
	// return below waits for that).
	gcPercent := debug.SetGCPercent(-1)
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	heapCtx, stopHeap := context.WithCancel(ctx)
	heapKept := make(chan struct{})
	go func() {
		defer close(heapKept)
		keepHeapLimit(heapCtx, maxHeap, heapCheckInterval, log)
	}()
	defer func() { stopHeap(); <-heapKept }()
	var (
		srv      *serve.Server
		w        *index.Watcher
		openErr  error
		openOnce sync.Once
		opened   = make(chan struct{}) // closed once the open is done, or once it will not be
	)
	// open opens the snapshot and hands it to srv, once; settle waits for that to be done, or,
	// if it has not started, makes sure that it never does.
	open := func() {
		openOnce.Do(func() {
			defer close(opened)
			defer debug.SetGCPercent(gcPercent)
			if w, openErr = index.Watch(dir); openErr != nil {
				srv.Unavailable(openError(dir, openErr)) // requests waiting for the snapshot fail
				stop()                                   // and the server ends
				return
			}
			r, release := w.Acquire()
			srv.SetReader(r, release)
			go followSnapshots(ctx, w, srv, log)
			if stdio && os.Getenv("GOMAXPROCS") == "" {
				oneProcessor()
			}
		})
	}
	settle := func() {
		openOnce.Do(func() { close(opened) })
		<-opened
	}
	srvOpts := serve.Options{Version: docidx.Version, Logger: log}
	if stdio {
		srvOpts.OnSession = open
	}
	srv = serve.New(nil, srvOpts)
	defer func() {
		settle()
		if w != nil {
			w.Close()
		}
	}()
	failed := func() error {
		settle()
		if openErr != nil {
			return openError(dir, openErr)
		}
		return nil
	}

	if stdio {
		// The HTTP options are ignored: their environment twins (DOCIDX_TOKEN …) may be set for
		// an HTTP server while an editor launches this one.
		log.Info("serving over stdio", "snapshot", filepath.Join(dir, snap))
		in, restore := pollableStdin()
		err := srv.RunStdio(ctx, in, os.Stdout)
		restore()
		if ferr := failed(); ferr != nil {
			return ferr
		}
		if err != nil && ctx.Err() == nil && err != context.Canceled {
			return failf("serve: %v", err)
		}
		return nil
	}
	open()                           // an HTTP server starts with its snapshot open
	if err := failed(); err != nil { // or not at all
		return err
	}

	listen := listenAddr(addr)
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return failf("serve: listen on %s: %v", listen, err)
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && c.String("token") == "" {
		log.Warn("serving beyond loopback without --token: anyone who can reach " + ln.Addr().String() + " can read the snapshot")
	}
	rateLimit := c.Float64("rate-limit")
	if rateLimit == 0 {
		rateLimit = -1 // off
	}
	// The drain window is for load balancers in front of serve --http; a person's Ctrl-C on
	// browse, which has no --drain, ends it without one.
	drain := time.Duration(-1) // none
	if d := c.Duration("drain"); !browse && d > 0 {
		drain = d
	}
	opts := serve.HTTPOptions{
		Stateless:      c.Bool("stateless"),
		JSONResponse:   c.Bool("json-response"),
		Token:          c.String("token"),
		MaxBodyBytes:   c.Int64("max-body"),
		RateLimit:      rateLimit,
		TrustedProxies: proxies,
		ReadTimeout:    c.Duration("read-timeout"),
		DrainWindow:    drain,
		AllowedHosts:   c.StringSlice("allowed-host"),
		AllowedOrigins: c.StringSlice("allowed-origin"),
		Pages:          web.New(srv.Answers(), web.Options{Logger: log}),
	}
	mode := "stateful"
	if opts.Stateless {
		mode = "stateless"
	}
	fmt.Fprintf(c.App.ErrWriter, "docidx: serving MCP (%s) on http://%s%s, health on %s, pages on http://%s/; snapshot %s\n",
		mode, ln.Addr(), serve.MCPPath, serve.HealthPath, ln.Addr(), w.Reader().Dir())
	if browse {
		openBrowser(c, pagesURL(ln.Addr(), opts.Token), log)
	}
	if err := srv.RunHTTP(ctx, ln, opts); err != nil {
		return failf("serve: %v", err)
	}
	return nil
}

// oneProcessor runs the rest of a stdio session on one processor (GOMAXPROCS 1), once start-up,
// which uses both cores of a laptop to open the snapshot while it answers initialize, is done.
// A stdio server has one client, whose requests mostly come one at a time. With more than one
// processor each message crossed between threads on its way through the SDK (the goroutine that
// reads stdin, the one that reads messages, one per request), waking idle threads each time, and
// a request could move to another core half-way. Measured over the corpus (6 alternating runs of
// 1,500 searches): p50 0.63 -> 0.60 ms, p99 2.0 -> 1.3 ms. A GOMAXPROCS set in the environment is
// left as it is.
func oneProcessor() { runtime.GOMAXPROCS(1) }

// followSnapshots switches srv to each new generation that a crawl publishes in the index
// directory, between requests and without restart; SetReader tells clients the resource list
// changed. srv releases its hold on the replaced snapshot when the last request that may read
// it ends, and the watcher then closes it, so that its files, and the disk space of an unpacked
// one, are freed at once.
func followSnapshots(ctx context.Context, w *index.Watcher, srv *serve.Server, log *slog.Logger) {
	w.Run(ctx, time.Second, func(*index.Reader) {
		r, release := w.Acquire()
		srv.SetReader(r, release)
		log.Info("switched to a new snapshot", "snapshot", r.Dir())
	}, func(err error) {
		log.Warn("following the snapshot", "err", err)
	})
}

// trustedProxies parses the --trust-proxy values: CIDR prefixes or single addresses, a list
// may be comma-separated (as DOCIDX_TRUST_PROXY gives it).
func trustedProxies(values []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range values {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if p, err := netip.ParsePrefix(f); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, usagef("serve: --trust-proxy %q is neither an address nor a CIDR prefix (e.g. 10.0.0.0/8 or 192.0.2.10)", f)
			}
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out, nil
}

// listenAddr is the address to listen on for --http ADDR: ADDR itself when it names a host,
// else the loopback address with ADDR's port (":8080" and "8080" mean 127.0.0.1:8080).
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		return net.JoinHostPort("127.0.0.1", addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// checkServedSignature checks, when serve was given --allowed-signers (or --require-signed),
// that --index is an archive with a good signature by a trusted key, and returns who signed it
// (nil when no check was asked for). An index directory is refused: it keeps no signature, and
// crawls write to it.
func checkServedSignature(c *cli.Context, log *slog.Logger) (*signedBy, error) {
	allowed, err := allowedSigners(c)
	if err != nil || allowed == "" {
		return nil, err
	}
	path := c.String("index")
	if !index.IsArchive(path) {
		return nil, failf("serve --require-signed: %s is not an archive: an index directory keeps no signature, and crawls write to it\nserve the signed archive itself: docidx serve --index ARCHIVE --require-signed --allowed-signers %s (with ARCHIVE.sig beside it)", path, allowed)
	}
	s, err := checkArchiveFile(path, allowed)
	if err != nil {
		return nil, failf("serve: %v", err)
	}
	log.Info("archive signature verified", "archive", path, "principals", s.Principals, "key", s.Fingerprint, "allowedSignersLine", s.Line)
	return s, nil
}

// minMaxHeap is the smallest --max-heap accepted, in bytes.
const minMaxHeap = 16 << 20

// heapCheckInterval is how often a server's keepHeapLimit reads the live heap.
const heapCheckInterval = 2 * time.Second

// keepHeapLimit keeps the Go runtime's memory limit (runtime/debug.SetMemoryLimit) at the
// server's heap budget, in bytes, or above it as heapLimit says once the live heap (the least
// of its last heapWindow readings, one every every) has grown, until ctx is done, and then
// restores the limit it found. A limit as low or lower (GOMEMLIMIT) is left as it is, not
// raised. A search's garbage (accumulators, passages, results of some MB on a large snapshot)
// let the heap grow to twice the live heap before each collection (GOGC=100): a serve of a
// 16N snapshot held 97 MB of anonymous memory after 1,000 searches where its live heap was
// under 48 MB. With the limit the collector runs as the heap nears it, as "A Guide to the Go
// Garbage Collector" (go.dev/doc/gc-guide, "Memory limit") describes for a program given a
// memory budget; the budget is raised rather than collected at, over and over, when the
// snapshot's live data outgrows it.
func keepHeapLimit(ctx context.Context, budget int64, every time.Duration, log *slog.Logger) {
	found := debug.SetMemoryLimit(-1)
	if found <= budget {
		return // a limit as low was set (GOMEMLIMIT): it is the user's, and stays as it is
	}
	defer debug.SetMemoryLimit(found)
	limit := budget
	debug.SetMemoryLimit(limit)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var window [heapWindow]int64 // the latest live heaps read, in a ring
	t := time.NewTicker(every)
	defer t.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return // not a metric of this runtime: the limit stays
		}
		window[n%heapWindow] = int64(sample[0].Value.Uint64())
		if n+1 < heapWindow {
			continue
		}
		// What stays live between searches: the least of the window. A search's tables are
		// live at a collection during it, and say nothing of what the snapshot keeps.
		if l := heapLimit(limit, slices.Min(window[:])); l > limit {
			limit = l
			debug.SetMemoryLimit(limit)
			log.Info("serve: the live heap outgrew --max-heap; the heap may grow to a larger limit",
				"live_bytes", slices.Min(window[:]), "max_heap_bytes", budget, "limit_bytes", limit)
		}
	}
}

// heapWindow is how many of keepHeapLimit's readings of the live heap it takes the least of.
const heapWindow = 8

// heapLimit returns the memory limit, in bytes, for a server whose limit is limit and whose
// live heap (what the last collection kept) is live: limit while live is at most two thirds of
// it, else one and a half times live, so that a collection always frees a third of the heap
// it starts at and the collector does not run back to back.
func heapLimit(limit, live int64) int64 {
	if 3*live <= 2*limit {
		return limit
	}
	return live + live/2
}
