// Package extracted holds what the registries' source-reading API extractors return in common:
// npm's jsapi and dts and cargo's rustapi read many files of one package version and return
// its symbols with the files read, whether a limit cut them short, and the files they could
// not use; and the bounds every extractor keeps to: how many errors of a function's code it
// names (MaxErrors), how long their literals are (MaxErrorLiteral) and how many constants a
// symbol's Values link (MaxLinkedValues). It
// imports the root package docidx and the standard library.
package extracted

import (
	"github.com/docidx/docidx"
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

// MaxErrors is the most errors (docidx.Symbol.Errors) an extractor names from a function's
// code: more made answers longer without saying more (golang-jwt's Valid lost its first-2-KB
// place at six).
const MaxErrors = 4

// MaxErrorLiteral bounds, in bytes, the string literal of an error an extractor names from a
// function's code (Go's bodyError, Rust's bodyErrors): a message a user pastes is a line, not
// a paragraph.
const MaxErrorLiteral = 120

// MaxLinkedValues is the most declarations of constants one symbol is given as its
// docidx.Symbol.Values (Go's linkValues, Python's constantValues, JavaScript's linkedValues).
const MaxLinkedValues = 3

// MaxLinkedValue is the longest declaration linked as a Value, in bytes: a default is a literal
// or a short expression, not a table.
const MaxLinkedValue = 200
