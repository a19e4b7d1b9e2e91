package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
	"github.com/docidx/docidx/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC error codes used by serve (https://www.jsonrpc.org/specification#error_object).
const (
	codeInvalidParams = jsonrpc.CodeInvalidParams // -32602: bad arguments, bad cursor, unknown tool
	codeInternalError = jsonrpc.CodeInternalError // -32603: internal error, details only in the log
)

// invalidParams returns a JSON-RPC -32602 error. Tool handlers return it (as a *jsonrpc.Error,
// which the SDK passes through as a protocol error) for arguments that no call could satisfy:
// a bad cursor, an unknown ecosystem. data, when non-nil, is marshalled into the error's data.
func invalidParams(data any, format string, args ...any) error {
	e := &jsonrpc.Error{Code: codeInvalidParams, Message: fmt.Sprintf(format, args...)}
	if data != nil {
		if b, err := json.Marshal(data); err == nil {
			e.Data = b
		}
	}
	return e
}

// internalError returns a JSON-RPC -32603 error that says what failed without leaking the cause
// (file paths, store internals); the cause goes to the server log. A damaged file of the snapshot
// (an error wrapping index.ErrCorrupt, such as a rank.idx whose checksum a search finds wrong) is
// told as the CLI tells it: which file and what to do, its path cut to the file's name by
// clientError.
func (s *Server) internalError(what string, err error) error {
	s.log.Error("serve: "+what, "error", err)
	if errors.Is(err, index.ErrCorrupt) {
		return &jsonrpc.Error{Code: codeInternalError, Message: what + ": " + err.Error()}
	}
	return &jsonrpc.Error{Code: codeInternalError, Message: what + ": internal error (see the server log)"}
}

// clientError returns err as a client is sent it, in protocol terms: the one place where errors
// from the SDK and from docidx's handlers get their wire form. method and params are those of
// the request answered (params may be nil when unknown). It
//
//   - turns the SDK's failure to decode params ("unmarshaling … into a *mcp.ReadResourceParams:
//     … Go struct field …") into -32602 naming the member and the JSON type wanted
//     ("params.uri: want a string, got a number");
//   - gives the SDK's errors without a JSON-RPC code (code 0) one: -32600 for a request before
//     initialize and for a second initialize, -32603 otherwise;
//   - cuts absolute file paths down to their last element, so that no host path leaves the
//     server;
//   - cuts a message longer than maxErrorMessage bytes.
//
// The result is a new *jsonrpc.Error; err is not changed.
func clientError(method string, params json.RawMessage, err error) *jsonrpc.Error {
	var in *jsonrpc.Error
	if !errors.As(err, &in) || in.Message != err.Error() {
		// A wrapped error: the SDK sends the outer message with the inner code.
		in = &jsonrpc.Error{Code: codeOf(err), Message: err.Error()}
	}
	out := &jsonrpc.Error{Code: in.Code, Message: in.Message, Data: in.Data}
	switch msg := in.Message; {
	case strings.Contains(msg, "invalid params: unmarshaling "):
		out.Code, out.Message, out.Data = codeInvalidParams, paramsProblem(method, params), nil
	case in.Code == 0 && strings.Contains(msg, "is invalid during session initialization"):
		out.Code, out.Message = jsonrpc.CodeInvalidRequest, notInitialized(method).Message
	case in.Code == 0 && strings.HasPrefix(msg, `duplicate "initialize"`):
		out.Code, out.Message = jsonrpc.CodeInvalidRequest, errAlreadyInitialized.Message
	case in.Code == 0 && (errors.Is(err, context.Canceled) || msg == context.Canceled.Error()):
		out.Code, out.Message = codeInternalError, "request cancelled"
	case in.Code == 0:
		out.Code = codeInternalError
	}
	// A message may quote package content (a did-you-mean names symbols and anchors) and what a
	// client sent (clipped, so a 1 MB URI is not echoed back whole).
	out.Message = safetext.Controls(docidx.ClipTo(hidePaths(out.Message), maxErrorMessage))
	if len(out.Data) > 0 {
		if data, err := safetext.JSONControls(out.Data); err == nil {
			out.Data = data
		} else {
			out.Data = nil // not JSON: the SDK would not send it either
		}
	}
	return out
}

// maxErrorMessage bounds the message of an error sent to a client, in bytes. docidx's own
// messages quote what a client sent through docidx.Quote; the SDK's quote it whole ("unknown
// tool %q"), and this keeps them from echoing a megabyte back.
const maxErrorMessage = 4096

// codeOf is the JSON-RPC code the SDK sends for err: that of the *jsonrpc.Error it wraps, or 0.
func codeOf(err error) int64 {
	var e *jsonrpc.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// errAlreadyInitialized answers a second initialize in a session: JSON-RPC's invalid request,
// as MCP's lifecycle has one initialization per session
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle).
var errAlreadyInitialized = &jsonrpc.Error{
	Code:    jsonrpc.CodeInvalidRequest,
	Message: "Invalid Request: this session is already initialized; initialize is sent once per session",
}

// notInitialized answers a request other than initialize or ping sent before initialize: the
// same -32600 that docidx gives every request that is not valid at its point in the session.
func notInitialized(method string) *jsonrpc.Error {
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("Invalid Request: %s before initialize; send initialize first and wait for its answer", docidx.Quote(method)),
	}
}

// paramsTypes are the params of the requests a server receives, by method, as the SDK decodes
// them: paramsProblem decodes them again to say what is wrong.
var paramsTypes = map[string]func() any{
	"initialize":               func() any { return new(mcp.InitializeParams) },
	"ping":                     func() any { return new(mcp.PingParams) },
	"tools/list":               func() any { return new(mcp.ListToolsParams) },
	"tools/call":               func() any { return new(mcp.CallToolParamsRaw) },
	"prompts/list":             func() any { return new(mcp.ListPromptsParams) },
	"prompts/get":              func() any { return new(mcp.GetPromptParams) },
	"resources/list":           func() any { return new(mcp.ListResourcesParams) },
	"resources/templates/list": func() any { return new(mcp.ListResourceTemplatesParams) },
	"resources/read":           func() any { return new(mcp.ReadResourceParams) },
	"resources/subscribe":      func() any { return new(mcp.SubscribeParams) },
	"resources/unsubscribe":    func() any { return new(mcp.UnsubscribeParams) },
	"completion/complete":      func() any { return new(mcp.CompleteParams) },
	//lint:ignore SA1019 logging is deprecated from 2026-07-28 on, still part of every revision docidx serves
	"logging/setLevel": func() any { return new(mcp.SetLoggingLevelParams) },
}

// checkParams returns the -32602 error for params of method that the SDK will fail to decode,
// in protocol terms (as clientError gives it), or nil when they decode or method is not one
// paramsTypes knows. A transport that cannot reach the SDK's answers to rewrite them (the
// Streamable HTTP handler writes its own) can call it before passing a request on.
func checkParams(method string, params json.RawMessage) *jsonrpc.Error {
	te := paramsTypeError(method, params)
	if te == nil {
		return nil
	}
	return &jsonrpc.Error{Code: codeInvalidParams, Message: typeProblem(method, te)}
}

// paramsTypeError decodes params as the SDK does for method and returns the type mismatch that
// makes it fail, or nil when they decode, are absent, or method is not one paramsTypes knows.
func paramsTypeError(method string, params json.RawMessage) *json.UnmarshalTypeError {
	newParams, ok := paramsTypes[method]
	if !ok || len(params) == 0 || string(params) == "null" {
		return nil
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(params, newParams()); errors.As(err, &te) {
		return te
	}
	return nil
}

// paramsProblem says what is wrong with the params of a method call the SDK could not decode,
// naming the member and the JSON type it wants, never a Go type.
func paramsProblem(method string, params json.RawMessage) string {
	return typeProblem(method, paramsTypeError(method, params))
}

// typeProblem words te, the type mismatch in the params of method, for a client: the member
// and the JSON type it wants, never a Go type. A nil te gives a message that names no member.
func typeProblem(method string, te *json.UnmarshalTypeError) string {
	prefix := "invalid params"
	if method != "" {
		prefix = "invalid params for " + method
	}
	if te == nil {
		return prefix + ": params do not have the members and types the method takes (see the MCP specification)"
	}
	where := "params"
	if te.Field != "" {
		where += "." + te.Field
	}
	got := te.Value
	if i := strings.IndexByte(got, ' '); i > 0 {
		got = got[:i] // "number 1e+30"
	}
	if got == "bool" {
		got = "boolean"
	}
	return fmt.Sprintf("%s: %s: want %s, got %s", prefix, where, jsonType(te.Type), article(got))
}

// jsonType names the JSON type that values of Go type t are written as.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another JSON value"
}

// article puts "a" or "an" before a JSON type name ("number", "object"…).
func article(s string) string {
	if s == "" {
		return "another value"
	}
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// absPath matches an absolute file path of two or more elements, where one starts: at the start
// of a message or after a space, quote, parenthesis, colon-space or equals sign. URIs
// (docidx://…) do not match: their slashes follow a colon.
var absPath = regexp.MustCompile(`(^|[\s"'(=\[])((?:[A-Za-z]:)?(?:[/\\][^\s/\\"'()\[\]:,;]+){2,})`)

// hidePaths replaces each absolute file path in msg by its last element: what the file is, not
// where it lives on the host. A slash-separated path counts as a file path when its first
// element is a directory at the file system's root (/home, /tmp…), so that JSON pointers in
// schema errors (/properties/limit) are left alone.
func hidePaths(msg string) string {
	if !strings.ContainsAny(msg, `/\`) {
		return msg
	}
	return absPath.ReplaceAllStringFunc(msg, func(m string) string {
		sub := absPath.FindStringSubmatch(m)
		p := sub[2]
		if p[0] == '\\' {
			return m // a run of backslashes and words, not a path: Windows paths start with a drive
		}
		if p[0] == '/' {
			first, _, _ := strings.Cut(p[1:], "/")
			if fi, err := os.Stat("/" + first); err != nil || !fi.IsDir() {
				return m
			}
		}
		i := strings.LastIndexAny(p, `/\`)
		return sub[1] + p[i+1:]
	})
}
