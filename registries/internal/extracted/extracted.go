// Package extracted holds what the registries' source-reading API extractors return in common:
// npm's jsapi and dts and cargo's rustapi read many files of one package version and return
// its symbols with the files read, whether a limit cut them short, and the files they could
// not use; and the paragraph every extractor adds for the errors a function's code makes
// (WithErrors). It imports the root package docidx, registries/internal/codespan and the
// standard library.
package extracted

import (
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/codespan"
)

// MaxProblems is the most problems a Result keeps; later ones are dropped.
const MaxProblems = 100

// Result is what an extractor found in one package version's sources.
type Result struct {
	// Symbols are the public API, in the order the extractor documents; QualifiedName is
	// unique unless the extractor says otherwise (TypeScript overloads share theirs).
	Symbols   []docidx.Symbol
	Files     []string // source files read, slash paths in visiting order
	Truncated bool     // a limit stopped the extraction early
	Problems  []string // "file: reason" for files that could not be read or were skipped, at most MaxProblems
}

// Problem records that file could not be read or was skipped, and why; past MaxProblems
// problems it is dropped.
func (r *Result) Problem(file, reason string) {
	if len(r.Problems) < MaxProblems {
		r.Problems = append(r.Problems, file+": "+reason)
	}
}

// MaxErrors is the most errors a function's doc names from its code (WithErrors): more made
// answers longer without saying more (golang-jwt's Valid lost its first-2-KB place at six).
const MaxErrors = 4

// WithErrors returns doc, a documented function's doc, followed by the paragraph that names
// the errors its code makes, each a call as the source writes it ("errors.New(\"not found\")",
// "throw new TypeError('…')", "raise ValueError(\"…\")"), as code spans: "Errors in its code:
// `…`, `…`." The Go, JavaScript and Python extractors write it alike; doc is returned as it is
// when calls is empty.
func WithErrors(doc string, calls []string) string {
	if len(calls) == 0 {
		return doc
	}
	spans := make([]string, len(calls))
	for i, c := range calls {
		spans[i] = codespan.Of(c)
	}
	return strings.TrimRight(doc, " \t\n") + "\n\nErrors in its code: " + strings.Join(spans, ", ") + "."
}
