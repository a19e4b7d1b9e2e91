package serve

import (
	"context"
	"reflect"
	"sync"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// docidx sends notifications/message logging (docs/ARCHITECTURE.md §6), which protocol 2026-07-28 deprecates
// (SEP-2577) but keeps working for at least twelve months and every older revision has: the
// SDK's logging API is used knowingly.
//
//lint:file-ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves

// Notifications to the client (docs/ARCHITECTURE.md §6): progress for the requests that carry a progress
// token, and log messages (notifications/message) at or above the level the client set with
// logging/setLevel (or, from protocol 2026-07-28 on, sent in the request's _meta). Both are
// sent in the context of the request, so over Streamable HTTP they travel on that request's
// SSE stream; over stdio they are JSON-RPC notifications on stdout like any other message.

// progressKey is the context key of a request's *progress.
type progressKey struct{}

// progress reports the stages of one request to its client: notifications/progress with the
// request's token, the progress counting the stages reported so far.
type progress struct {
	ss    *mcp.ServerSession
	token any
	mu    sync.Mutex
	n     float64
}

// withProgress returns ctx carrying a progress reporter when req has a progress token.
func withProgress(ctx context.Context, req mcp.Request) (context.Context, *progress) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return ctx, nil
	}
	p, ok := req.GetParams().(interface{ GetProgressToken() any })
	if !ok || isNilParams(p) {
		return ctx, nil
	}
	token := p.GetProgressToken()
	if token == nil {
		return ctx, nil
	}
	pr := &progress{ss: ss, token: token}
	return context.WithValue(ctx, progressKey{}, pr), pr
}

// step sends one progress notification; total, when positive, says the request is done.
func (p *progress) step(ctx context.Context, message string, total float64) {
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	// A message may name a package version, which is package content (see safetext).
	params := &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: n, Message: safetext.Controls(message)}
	if total > 0 {
		params.Total = n
	}
	// A client gone away is not the request's failure.
	_ = p.ss.NotifyProgress(ctx, params)
}

// reportProgress reports a stage of the current request, if its client asked for progress.
func reportProgress(ctx context.Context, message string) {
	if p, ok := ctx.Value(progressKey{}).(*progress); ok {
		p.step(ctx, message, 0)
	}
}

// logToClient sends a notifications/message to the session of req when the client's log level
// lets it through (the SDK filters by level). Failures to deliver are ignored.
func logToClient(ctx context.Context, req mcp.Request, level mcp.LoggingLevel, data any) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return
	}
	_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "docidx", Data: data})
}

// requestLog is the data of the log message sent after a request.
type requestLog struct {
	Method  string  `json:"method"`
	Name    string  `json:"name,omitempty"` // tool or prompt
	URI     string  `json:"uri,omitempty"`  // resource
	Millis  float64 `json:"ms"`
	IsError bool    `json:"isError,omitempty"`
	Error   string  `json:"error,omitempty"`
}

// logRequest tells the client what one request did: at info level for tool calls, prompts and
// resource reads, at warning level when they failed, at debug level for the rest.
func logRequest(ctx context.Context, method string, req mcp.Request, res mcp.Result, err error, took time.Duration) {
	l := requestLog{Method: method, Millis: float64(took.Microseconds()) / 1000}
	level := mcp.LoggingLevel("debug")
	if p := req.GetParams(); !isNilParams(p) {
		switch p := p.(type) {
		case *mcp.CallToolParamsRaw:
			l.Name, level = docidx.Clip(p.Name), "info"
		case *mcp.GetPromptParams:
			l.Name, level = docidx.Clip(p.Name), "info"
		case *mcp.ReadResourceParams:
			l.URI, level = docidx.Clip(p.URI), "info"
		}
	}
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
		l.IsError, level = true, "warning"
		for _, c := range r.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				l.Error = answer.Clip(tc.Text, 500)
				break
			}
		}
	}
	if err != nil {
		l.IsError, l.Error, level = true, answer.Clip(err.Error(), 500), "warning"
	}
	// An error may quote package content, and the client chose the name and URI: the log holds
	// no control but tab and newline either (see safetext).
	l.Name, l.URI, l.Error = safetext.Controls(l.Name), safetext.Controls(l.URI), safetext.Controls(l.Error)
	logToClient(ctx, req, level, l)
}

// isNilParams reports whether p is nil or a nil pointer: a request without params.
func isNilParams(p any) bool {
	if p == nil {
		return true
	}
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
