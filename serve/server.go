package serve

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Name and Version are the server's implementation info in the initialize (or
	// server/discover) result; they default to "docidx" and docidx.Version.
	Name    string
	Version string
	// Logger receives the server's and the SDK's logs. It must not write to stdout when serving
	// over stdio. Nil means warnings and errors as text on stderr.
	Logger *slog.Logger
	// DefaultMaxTokens is the answer budget of a tool call that gives no max_tokens, in tokens
	// (counted as bytes/4). Zero means answer.DefaultMaxTokens (4000).
	DefaultMaxTokens int
	// OnSession, when not nil, is called once, in a goroutine of its own, at the first message
	// after the one that opens a session (initialize, or server/discover): the client has that
	// answer by then. A server made without a reader may open its snapshot from it (and call
	// SetReader or Unavailable), so that opening does not slow the answer an editor waits for.
	OnSession func()
}

// Server is docidx's MCP server over one snapshot. It is safe for concurrent use, and one Server
// may serve many sessions (over stdio, in-memory or Streamable HTTP transports) at once.
type Server struct {
	opts      Options
	log       *slog.Logger
	rd        atomic.Pointer[index.Reader]
	gens      generations  // rd's generations with the requests that may read them
	sdkLog    *onceHandler // the SDK's logger, which warns once per reload (see SetReader)
	mcp       *mcp.Server
	answers   *answer.Service // what the tools, resources and prompts answer with, from rd
	ready     chan struct{}   // closed once rd holds a reader, or openErr says none will come
	readyOnce sync.Once       // closes ready
	openErr   error           // why no reader will come (Unavailable); read after ready is closed
	tools     sync.Once       // registers the tools with mcp (registerTools)
	prepared  atomic.Bool     // set at the first message after a session's first (prepare)

	// sessionKey signs the Streamable HTTP session IDs this server issues (see issuedSession).
	sessionKey [32]byte
}

// New returns a Server answering from r, which it does not close. r may be nil when the snapshot
// is still being opened: the server then answers initialize, lists and pings at once, and
// requests that read the snapshot wait for the first SetReader. The tools are registered when
// first needed (see registerTools); a programming error in a tool's schema panics then.
func New(r *index.Reader, opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "docidx"
	}
	if opts.Version == "" {
		opts.Version = docidx.Version
	}
	if opts.DefaultMaxTokens <= 0 {
		opts.DefaultMaxTokens = answer.DefaultMaxTokens
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	s := &Server{opts: opts, log: log, ready: make(chan struct{}), sdkLog: newOnceHandler(log.Handler())}
	s.gens.cur = &generation{}
	s.answers = answer.New(s.reader, answer.Options{DefaultMaxTokens: opts.DefaultMaxTokens, Words: mcpWords, Progress: reportProgress})
	if r != nil {
		s.rd.Store(r)
		s.readyOnce.Do(func() { close(s.ready) })
	}
	rand.Read(s.sessionKey[:]) // never fails (crypto/rand)
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "docidx", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(s.sdkLog),
		// The tool and prompt sets never change while serving; the resources do when the
		// snapshot is replaced (SetReader).
		Capabilities: &mcp.ServerCapabilities{
			Tools:       &mcp.ToolCapabilities{},
			Prompts:     &mcp.PromptCapabilities{},
			Resources:   &mcp.ResourceCapabilities{ListChanged: true},
			Completions: &mcp.CompletionCapabilities{},
			//lint:ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves
			Logging: &mcp.LoggingCapabilities{},
		},
		CompletionHandler: s.complete,
		PageSize:          ResourcePageSize,
		GetSessionID:      s.newSessionID,
	})
	s.mcp.AddReceivingMiddleware(s.guard, s.pin, checkLifecycle, s.prepare, s.await, s.registerTools, s.notify, s.answer)
	s.addResources()
	s.addPrompts()
	return s
}

// SetReader makes the server answer from r from now on — a new snapshot generation — and tells
// connected clients that the resource list changed. release (which may be nil) is called once r
// has been replaced by a later SetReader and the last request that may read r has ended: the
// caller closes r then. The reader given to New is never released: its caller closes it.
func (s *Server) SetReader(r *index.Reader, release func()) {
	// rd first: a request that begins from now on is counted against r's generation or an
	// older one, so none reads a generation released under it.
	old := s.rd.Swap(r)
	s.gens.replace(release)
	if old == nil {
		// The first reader of a server made without one: nothing was listed from another.
		s.readyOnce.Do(func() { close(s.ready) })
		return
	}
	// Re-adding a template is how the SDK sends notifications/resources/list_changed; a session
	// that cannot take it is logged once per reload, not once per session.
	s.sdkLog.reset()
	s.addResources()
}

// Unavailable tells a server made without a reader that none will come: its snapshot could not
// be opened, and err says why and what to do. Requests that read the snapshot, those waiting for
// it and any later ones, then fail with JSON-RPC error -32603 carrying err's message, instead of
// waiting for ever; initialize, ping and the lists that need no snapshot are still answered. It
// does nothing once the server has a reader.
func (s *Server) Unavailable(err error) {
	if s.rd.Load() != nil {
		return
	}
	s.readyOnce.Do(func() {
		s.openErr = err
		close(s.ready)
	})
}

// instructions is the server's advice to clients, sent at initialization.
const instructions = `docidx answers from an offline snapshot of package documentation (READMEs, docs, API symbols) for Go modules, npm, PyPI, crates and Swift packages. ` +
	`Use search_package_docs to find where something is documented, describe_go_package, describe_npm_package, describe_python_package, describe_rust_package or describe_swift_package ` +
	`for a package's metadata and API outline (or one symbol with its members), read_package_doc to read any docidx:// URI a search hit or outline gives (a section, a symbol, a document), ` +
	`get_package_doc to read a README or docs file, and list_packages to see what is indexed. ` +
	`Long answers are paged: pass nextCursor back as cursor. Every page is also a docidx:// resource (see the resource templates); docidx://snapshot tells what is indexed.`

// MCP returns the underlying SDK server, to connect transports to it (Run, Connect,
// mcp.NewStreamableHTTPHandler) or to add features.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// reader returns the snapshot reader currently served, waiting for the first one if New had
// none; nil once Unavailable said none will come (await keeps the MCP methods from asking then).
func (s *Server) reader() *index.Reader {
	if r := s.rd.Load(); r != nil {
		return r
	}
	<-s.ready
	return s.rd.Load()
}

// await is the receiving middleware that holds the requests that read the snapshot until the
// first reader is set (see New), and fails them with -32603 when Unavailable says it will not
// come, or when the request is cancelled first.
func (s *Server) await(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if s.rd.Load() == nil && readsSnapshot(method) {
			select {
			case <-s.ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if s.rd.Load() == nil {
				return nil, &jsonrpc.Error{Code: codeInternalError, Message: "the snapshot could not be opened: " + s.openErr.Error()}
			}
		}
		return next(ctx, method, req)
	}
}

// readsSnapshot reports whether answering method reads the snapshot. Tools and prompts are
// listed, and resource templates too, from what is registered in memory.
func readsSnapshot(method string) bool {
	switch method {
	case "tools/call", "prompts/get", "resources/read", "resources/list", "completion/complete":
		return true
	}
	return false
}

// guard is the receiving middleware in front of every method: it turns a panic anywhere below it
// into a -32603 error (logged with its stack), gives errors their protocol form (clientError:
// JSON-RPC codes, no Go types or host paths, no control characters), gives tools/call results
// their one-pass wire form (see toolResult), and takes the control characters out of every
// answer from the snapshot (withoutControls). The CLI and the pages ask package answer
// without this middleware and escape for people at their own edges.
func (s *Server) guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("serve: panic in handler", "method", method, "panic", p, "stack", string(debug.Stack()))
				res, err = nil, &jsonrpc.Error{Code: codeInternalError, Message: "internal error (see the server log)"}
			}
		}()
		res, err = next(ctx, method, req)
		if err != nil {
			return nil, clientError(method, nil, err)
		}
		if r, ok := res.(*mcp.CallToolResult); ok {
			res = wireToolResult(req, r)
		}
		if readsSnapshot(method) {
			if res, err = withoutControls(res); err != nil {
				s.log.Error("serve: cleaning a result", "method", method, "error", err)
				return nil, &jsonrpc.Error{Code: codeInternalError, Message: "internal error (see the server log)"}
			}
		}
		return res, nil
	}
}

// withoutControls returns res, or a copy of it of the same type, in which no string holds a C0
// or C1 control but tab and newline: the rule for text sent to an AI client
// (safetext.JSONControls). Only the results of the methods that read the snapshot can carry
// package content (readsSnapshot). Bidi, zero-width and tag characters are printable Unicode
// to a client and stay; the CLI and the pages escape them for people.
//
// The strings of res are looked at where they are (mayHoldControls), not in a marshaled copy:
// a search page's result is some 12 KB of JSON, which the SDK marshals again to send it. Only
// when one holds a control, or res holds JSON already encoded, is res marshaled, cleaned and
// decoded again into a value of its own type, so that the SDK still sees the type it knows (it
// marks results of newer protocol revisions by their type).
func withoutControls(res mcp.Result) (mcp.Result, error) {
	t := reflect.TypeOf(res)
	if res == nil || t.Kind() != reflect.Pointer {
		return res, nil
	}
	if !mayHoldControls(reflect.ValueOf(res), 0) {
		return res, nil
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	clean, err := safetext.JSONControls(data)
	if err != nil || len(data) > 0 && &clean[0] == &data[0] { // nothing to clean
		return res, err
	}
	v := reflect.New(t.Elem())
	if err := json.Unmarshal(clean, v.Interface()); err != nil {
		return nil, err
	}
	return v.Interface().(mcp.Result), nil
}

// mayHoldControls reports whether v may hold a string that withoutControls must clean: one in
// which safetext.IndexControl finds a control or tag character, as a string, a map key or a
// field, exported or not, at any depth. Bytes ([]byte, json.RawMessage: JSON encoded already,
// whose escapes a scan of its runes would not see), and values nested deeper than
// maxControlDepth, may: withoutControls then marshals res and looks at the JSON.
func mayHoldControls(v reflect.Value, depth int) bool {
	if depth > maxControlDepth {
		return true
	}
	switch v.Kind() {
	case reflect.String:
		return safetext.IndexControl(v.String()) >= 0
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && mayHoldControls(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if mayHoldControls(v.Field(i), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Len() > 0
		}
		for i := range v.Len() {
			if mayHoldControls(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if mayHoldControls(it.Key(), depth+1) || mayHoldControls(it.Value(), depth+1) {
				return true
			}
		}
	}
	return false
}

// maxControlDepth bounds how deep mayHoldControls looks before it leaves the question to the
// marshaled JSON: results are a few levels deep; a cycle would not end.
const maxControlDepth = 32

// checkLifecycle is the receiving middleware that refuses what the SDK would accept or answer
// with error code 0: a second initialize in a session (-32600, as MCP's lifecycle has one), and
// logging/setLevel with a level that is none of RFC 5424's eight (-32602 naming them,
// https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging).
func checkLifecycle(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss.InitializeParams() != nil {
				return nil, errAlreadyInitialized
			}
		case "logging/setLevel":
			//lint:ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves
			p, _ := req.GetParams().(*mcp.SetLoggingLevelParams)
			if p == nil || !slices.Contains(logLevels, string(p.Level)) {
				var level string
				if p != nil {
					level = string(p.Level)
				}
				return nil, invalidParams(map[string]any{"level": level, "valid": logLevels},
					"invalid params for logging/setLevel: level %s is not one of %s", docidx.Quote(level), strings.Join(logLevels, ", "))
			}
		}
		return next(ctx, method, req)
	}
}

// logLevels are MCP's log levels, the syslog severities of RFC 5424, from the least severe.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// prepare is the receiving middleware that, once, at the first message after the one that opens
// a session (initialize, or server/discover in the revisions without initialization), calls
// Options.OnSession and prepares the snapshot served for searches (see index.Reader.Prepare: its
// Bleve indexes opened, every rank.idx read whole to check its checksum), in the background, so
// that a search does not wait for it. index.Open leaves that to the first search, and a server started by an
// editor answers initialize while it opens the snapshot: prepared then too, on two busy cores,
// the answer to initialize came 9 ms later (37 ms against 28). A reader that a reload brings
// (SetReader) is prepared by whoever opened it, or by its first search; a damaged file is logged
// here, and is the error of every search, naming it.
func (s *Server) prepare(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "initialize" && method != "server/discover" && !s.prepared.Swap(true) {
			if s.opts.OnSession != nil {
				go s.opts.OnSession()
			}
			go func() {
				r := s.reader()
				if r == nil {
					return // the snapshot could not be opened: requests say why
				}
				if err := r.Prepare(); err != nil && !errors.Is(err, index.ErrClosed) {
					s.log.Warn("serve: the snapshot is damaged: searches will fail", "err", err)
				}
			}()
		}
		return next(ctx, method, req)
	}
}

// registerTools is the receiving middleware that registers the tools with the SDK once, before
// the first tools/list or tools/call goes on. Registering them takes about 2 ms (inferring nine
// pairs of schemas, and the SDK marshaling each input schema again to look for header
// annotations): done in New, it was an eighth of the time from process start to the initialize
// answer. notifications/initialized, which a client sends as soon as it has that answer, starts
// the registration on the side, so that it is mostly done by the client's first tools/list.
// The tool capability is declared in New without listChanged, so the SDK sends no
// notifications/tools/list_changed for these registrations.
func (s *Server) registerTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "notifications/initialized":
			go s.tools.Do(s.addTools)
		case "tools/list", "tools/call":
			s.tools.Do(s.addTools)
		}
		return next(ctx, method, req)
	}
}

// notify is the receiving middleware that sends the notifications of a request: progress
// stages when the request carries a progress token (the handlers add their own stages through
// reportProgress), and a log message once it is answered (see logRequest).
func (s *Server) notify(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !readsSnapshot(method) { // the others are answered from memory, at once
			return next(ctx, method, req)
		}
		growStack()
		start := time.Now()
		ctx, pr := withProgress(ctx, req)
		if pr != nil {
			pr.step(ctx, "started "+method, 0)
		}
		res, err := next(ctx, method, req)
		if pr != nil {
			msg := "done"
			if err != nil {
				msg = "failed"
			}
			pr.step(ctx, msg, 1)
		}
		logRequest(ctx, method, req, res, err, time.Since(start))
		return res, err
	}
}

// growStack grows the calling goroutine's stack to 32 KB in one step, while the stack is still
// shallow. go-sdk runs each request in a new goroutine, whose stack starts small; a tool call
// then doubled it two or three times as it went deeper (checking arguments against the schema
// goes deep), copying every frame above each time: runtime.newstack was 5% of a search's CPU.
// Measured over the corpus: a search's argument check 0.067 -> 0.037 ms at the median, and the
// whole request 0.03-0.05 ms less.
//
//go:noinline
func growStack() byte {
	var frame [20 << 10]byte // with what is below it, more than 16 KB: the stack doubles to 32 KB
	return frameByte(frame[:])
}

// frameByte reads b, so that growStack's frame cannot be optimized away.
//
//go:noinline
func frameByte(b []byte) byte { return b[len(b)-1] }

// answer is the receiving middleware that answers the methods docidx serves from the store
// itself rather than from what is registered with the SDK: resources/list (paged over the
// whole snapshot) and resources/read (with the protocol-dependent not-found error).
func (s *Server) answer(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListResourcesRequest:
			return s.listResources(ctx, r)
		case *mcp.ReadResourceRequest:
			return s.readResource(ctx, r)
		}
		return next(ctx, method, req)
	}
}

// checkArguments validates the raw arguments of a call to the tool named name against its input
// schema and returns them as a JSON object, or a -32602 error: the SDK itself would report bad
// arguments as a tool result with isError, while docidx answers them with a JSON-RPC error (docs/ARCHITECTURE.md §6).
func checkArguments(name string, schema *jsonschema.Resolved, raw json.RawMessage) (map[string]any, error) {
	var args any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		args = nil
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, invalidParams(nil, "invalid arguments for %s: %v", name, err)
		}
	}
	m, ok := args.(map[string]any)
	if !ok {
		return nil, invalidParams(nil, "invalid arguments for %s: arguments must be a JSON object", name)
	}
	var missing []string
	for _, p := range schema.Schema().Required {
		if _, ok := m[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return nil, invalidParams(map[string]any{"missing": missing}, "invalid arguments for %s: missing required %v", name, missing)
	}
	if err := schema.Validate(m); err != nil {
		return nil, invalidParams(nil, "invalid arguments for %s: %v", name, err)
	}
	return m, nil
}

// addTool registers a typed tool: input and output schemas inferred from In and Out (with
// strict-client fixes, see schemaFor; the output schema is the published one, see
// outputSchemaFor), tuned by tune, read-only annotations, and the argument
// check (checkArguments).
func addTool[In, Out any](s *Server, t *mcp.Tool, tune func(in *jsonschema.Schema), h mcp.ToolHandlerFor[In, Out]) {
	in := schemaFor[In]()
	if tune != nil {
		tune(in)
	}
	// Resolving a schema (checking it, resolving its references) costs about half a millisecond:
	// done on a tool's first call rather than for every tool before the server can answer
	// initialize. A schema that does not resolve is a bug every call of the tool reports (guard
	// answers the panic with an internal error); the tests call every tool.
	resolved := sync.OnceValue(func() *jsonschema.Resolved {
		r, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			panic("serve: input schema of " + t.Name + ": " + err.Error())
		}
		return r
	})
	out := outputSchemaFor[Out]()
	t.InputSchema = in
	t.OutputSchema = out
	no := false
	t.Annotations = &mcp.ToolAnnotations{
		Title:           t.Title,
		ReadOnlyHint:    true,
		IdempotentHint:  true,
		DestructiveHint: &no,
		OpenWorldHint:   &no,
	}
	s.mcp.AddTool(t, typedHandler(t.Name, resolved, h))
}

// typedHandler adapts h to the SDK's raw tool handler, doing what mcp.AddTool's adapter does
// (schema defaults applied to the arguments, errors as tool errors unless they are JSON-RPC
// errors, the output as structuredContent and as JSON text when h gives no content) except
// validating the output against its schema on every call: that re-decodes the whole answer,
// about a third of a search's time, to check what the Out type guarantees. The tests' client
// validates every output it receives against the schema tools/list gives.
func typedHandler[In, Out any](name string, in func() *jsonschema.Resolved, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		toolErr := func(err error) (*mcp.CallToolResult, error) {
			var res mcp.CallToolResult
			res.SetError(err)
			return &res, nil
		}
		args, err := checkArguments(name, in(), req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		if err := in().ApplyDefaults(&args); err != nil {
			return toolErr(fmt.Errorf("applying schema defaults: %w", err))
		}
		withDefaults, err := json.Marshal(args)
		if err != nil {
			return toolErr(err)
		}
		var v In
		if err := json.Unmarshal(withDefaults, &v); err != nil { // what the schema cannot say: a number too big for an int
			return nil, invalidParams(nil, "invalid arguments for %s: %v", name, err)
		}
		res, out, err := h(ctx, req, v)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			return toolErr(err)
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		// The output goes out as the value itself, for the encoder to write in one pass (see
		// toolResult); it is marshaled here only to be the text.
		res.StructuredContent = out
		if res.Content == nil {
			data, err := json.Marshal(out)
			if err != nil {
				return nil, fmt.Errorf("marshaling output: %w", err)
			}
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		}
		return res, nil
	}
}
