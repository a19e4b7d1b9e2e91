package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
// (file paths, store internals); the cause goes to the server log.
func (s *Server) internalError(what string, err error) error {
	s.log.Error("serve: "+what, "error", err)
	return &jsonrpc.Error{Code: codeInternalError, Message: what + ": internal error (see the server log)"}
}

// toolError is an error a tool reports to the model as a result with isError set: the tool ran
// and failed (unknown package, no such document), and the message says what to do next.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

func toolErrorf(format string, args ...any) error {
	return &toolError{msg: fmt.Sprintf(format, args...)}
}

// readerError turns an error from the index reader into what the tool should return: the tool
// error notFound for docidx.ErrNotFound, an internal error otherwise.
func (s *Server) readerError(what string, err error, notFound func() error) error {
	if errors.Is(err, docidx.ErrNotFound) {
		return notFound()
	}
	return s.internalError(what, err)
}

// unknownPackage is the tool error for a package the snapshot does not hold: it suggests close
// indexed names and says how to crawl the package.
func (s *Server) unknownPackage(eco docidx.Ecosystem, name, version string) error {
	what := name
	if version != "" {
		what = name + "@" + version
	}
	var b strings.Builder
	if eco == "" {
		fmt.Fprintf(&b, "package %s is not indexed", what)
	} else {
		fmt.Fprintf(&b, "package %s (%s) is not indexed", what, eco)
	}
	if version != "" {
		if vs, err := s.reader().Versions(eco, name); err == nil && len(vs) > 0 {
			fmt.Fprintf(&b, "; indexed versions: %s", strings.Join(vs, ", "))
			fmt.Fprintf(&b, ". To add it, run: docidx crawl %s:%s@%s", crawlPrefix(eco), name, version)
			return &toolError{msg: b.String()}
		}
	}
	var names []string
	for _, ref := range s.reader().Suggest(eco, name, 5) {
		names = append(names, ref.Name)
	}
	if len(names) > 0 {
		fmt.Fprintf(&b, "; did you mean: %s?", strings.Join(names, ", "))
	} else {
		b.WriteByte('.')
	}
	spec := crawlPrefix(eco) + ":" + name
	if version != "" {
		spec += "@" + version
	}
	fmt.Fprintf(&b, " To add it, run: docidx crawl %s", spec)
	return &toolError{msg: b.String()}
}

// crawlPrefix is the spec prefix docidx crawl accepts for eco ("go:", "npm:", …).
func crawlPrefix(eco docidx.Ecosystem) string {
	switch eco {
	case docidx.Go:
		return "go"
	case "":
		return "ECOSYSTEM"
	}
	return string(eco)
}
