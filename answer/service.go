package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// Options configure a Service. Words should be set; the zero value of the rest is usable.
type Options struct {
	// DefaultMaxTokens is the answer budget of a request that gives no max_tokens, in tokens
	// (counted as bytes/4). Zero means DefaultMaxTokens (4000).
	DefaultMaxTokens int
	// Words are how answers tell their reader to go on (see Words).
	Words Words
	// Progress, when set, is told what a long answer is doing ("searching", "rendering 10
	// hits"), with the context of the request.
	Progress func(ctx context.Context, message string)
}

// Service answers questions about a snapshot: search, describe, read, get a document, list,
// stats and API differences. Each answer comes twice, as markdown text and as structured
// content. It is safe for concurrent use.
type Service struct {
	current   func() *index.Reader
	opts      Options
	symbols   *versionCache[docidx.Symbol]   // the symbols of the package versions read last
	documents *versionCache[docidx.Document] // and their documents
}

// New returns a Service that answers from the reader current returns, asked anew for every
// answer, so that the Service follows a snapshot reload without being told (see the package
// doc). current must not return nil.
func New(current func() *index.Reader, opts Options) *Service {
	if opts.DefaultMaxTokens <= 0 {
		opts.DefaultMaxTokens = DefaultMaxTokens
	}
	return &Service{
		current:   current,
		opts:      opts,
		symbols:   &versionCache[docidx.Symbol]{budget: symbolCacheSize, size: func(syms []docidx.Symbol) int { return len(syms) }},
		documents: &versionCache[docidx.Document]{budget: documentCacheSize, size: documentText},
	}
}

// WithWords returns a Service that answers as s does, from the same reader and caches, in the
// words w: for a second caller of one server's answers (the web pages beside MCP).
func (s *Service) WithWords(w Words) *Service {
	c := *s
	c.opts.Words = w
	return &c
}

// Reader returns the snapshot reader the Service answers from now.
func (s *Service) Reader() *index.Reader { return s.current() }

func (s *Service) reader() *index.Reader { return s.current() }

// progress tells Options.Progress what the request of ctx is doing.
func (s *Service) progress(ctx context.Context, message string) {
	if s.opts.Progress != nil {
		s.opts.Progress(ctx, message)
	}
}

// ArgumentError is returned for arguments no snapshot could answer: a missing query, an
// unknown ecosystem, a bad cursor. It wraps docidx.ErrUsage.
type ArgumentError struct {
	Argument string // the argument at fault: "query", "cursor", "ecosystem", "uri" …
	Missing  bool   // the argument was not given
	msg      string
}

// Error says what is wrong with the argument and what it accepts.
func (e *ArgumentError) Error() string { return e.msg }

// Unwrap returns docidx.ErrUsage.
func (e *ArgumentError) Unwrap() error { return docidx.ErrUsage }

// badArgument is the *ArgumentError for argument arg, with a message saying what it accepts.
func badArgument(arg, format string, args ...any) error {
	return &ArgumentError{Argument: arg, msg: fmt.Sprintf(format, args...)}
}

// missingArgument is the *ArgumentError for argument arg not given.
func missingArgument(arg, format string, args ...any) error {
	return &ArgumentError{Argument: arg, Missing: true, msg: fmt.Sprintf(format, args...)}
}

// InternalError is returned when reading the snapshot failed for another reason than what it
// holds (a damaged file, a closed reader): What says what was being done, Err why.
type InternalError struct {
	What string
	Err  error
}

// Error says what was being done and why it failed.
func (e *InternalError) Error() string { return e.What + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *InternalError) Unwrap() error { return e.Err }

func internalError(what string, err error) error { return &InternalError{What: what, Err: err} }

// failure is an answer that could not be given because of what the snapshot holds (an unknown
// package, version, document, symbol or anchor, no hits, an ambiguous name) or because it took
// too long. Its message says what to do next; it wraps docidx.ErrNotFound, or
// context.DeadlineExceeded for a search that timed out.
type failure struct {
	msg  string
	kind error
}

func (e *failure) Error() string { return e.msg }
func (e *failure) Unwrap() error { return e.kind }

// notFoundf is a failure wrapping docidx.ErrNotFound.
func notFoundf(format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...), kind: docidx.ErrNotFound}
}

// readerError turns an error from the index reader into what an answer returns: the failure
// notFound for docidx.ErrNotFound, an *InternalError otherwise.
func readerError(what string, err error, notFound func() error) error {
	if errors.Is(err, docidx.ErrNotFound) {
		return notFound()
	}
	return internalError(what, err)
}

// parseEcosystem parses an ecosystem argument; empty is allowed unless required. A bad value
// is an *ArgumentError.
func parseEcosystem(s string, required bool) (docidx.Ecosystem, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			return "", missingArgument("ecosystem", "ecosystem is required: %s", ecosystemDoc)
		}
		return "", nil
	}
	eco, err := docidx.ParseEcosystem(s)
	if err != nil {
		return "", badArgument("ecosystem", "unknown ecosystem %s; want %s", docidx.Quote(s), ecosystemDoc)
	}
	return eco, nil
}

// SplitVersion splits "name@version" (npm scopes keep their leading "@") when version is empty,
// and maps the version "latest" to "".
func SplitVersion(name, version string) (string, string) {
	name, version = strings.TrimSpace(name), strings.TrimSpace(version)
	if version == "" {
		if i := strings.LastIndexByte(name, '@'); i > 0 {
			name, version = name[:i], name[i+1:]
		}
	}
	if strings.EqualFold(version, "latest") {
		version = ""
	}
	return name, version
}

const ecosystemDoc = "ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"

// Limits of the answers' arguments and work.
const (
	searchTimeout      = 10 * time.Second // deadline of one Search
	DefaultSearchLimit = 10               // hits per page of Search without a limit
	MaxSearchLimit     = 50               // most hits per page of Search
	maxSearchDepth     = 500              // deduplicated results reachable by paging one query
	rawSearchPage      = 100              // most hits fetched per index.Reader.Search call while deduplicating
	DefaultListLimit   = 50               // packages per page of List without a limit
	MaxListLimit       = 200              // most packages per page of List
)

// ResolvePackage returns the package version that ecosystem (required: golang, npm, pypi, cargo,
// swift or an alias), name (a package name, Go import path or bare name; "name@version" is
// accepted) and version (exact, partial or a range; "" or "latest" the latest) name, as Describe
// and GetDoc resolve them. A bad ecosystem is an *ArgumentError; an unknown or ambiguous name
// an error wrapping docidx.ErrNotFound that says what is indexed instead.
func (s *Service) ResolvePackage(ecosystem, name, version string) (*docidx.Package, error) {
	eco, err := parseEcosystem(ecosystem, true)
	if err != nil {
		return nil, err
	}
	name, version = SplitVersion(name, version)
	pkg, _, err := s.resolvePackage(eco, name, version)
	return pkg, err
}
