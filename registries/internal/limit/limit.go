// Package limit holds what the registries' Limits structs share: the defaults every ecosystem
// applies alike (File, Symbols, Documents, Doc); Fill, which gives each zero field of a Limits its
// value in the package's DefaultLimits, so that every ecosystem treats a zero or negative limit
// the same way, as "use the default", and declares each default once; Default, the same for one
// option of an extractor; and Cut, which holds a text to a limit in bytes without splitting a
// character.
package limit

import "reflect"

// The limits on one package version that the ecosystems share; each package's DefaultLimits
// field of the same name (MaxFile, MaxSymbols, MaxDocuments) is one of them.
const (
	// File is the largest source or documentation file read, in bytes (1 MiB); larger files,
	// typically generated tables, are skipped. npm, whose packages ship bundled declaration
	// files, reads up to its own npm.DefaultMaxFile.
	File = 1 << 20
	// Symbols is the most symbols kept for one package version; later ones are dropped.
	Symbols = 20000
	// Documents is the most documents (README, guides, examples) kept for one package version.
	Documents = 200
	// Doc is the most bytes kept of one symbol's doc comment or docstring (64 KiB); a longer
	// one is cut at a line break and marked "…". The long ones are the pages questions are
	// asked of: loguru's logger.add (30 KB, its file rotation and retention after the first
	// 8 KB), pandas' read_csv (22 KB), pymongo's MongoClient (32 KB of connection options),
	// date-fns' format (20 KB, its notes on YYYY after the token table). Go's package docs, which
	// go/doc keeps whole, run as long (go-playground/validator's, 45 KB).
	Doc = 64 << 10
)

// Fill returns l with each field that is zero or negative set to the same field of defaults.
// T is a registry's Limits: a struct whose fields are all signed integers (bytes or counts);
// Fill panics on any other field, a programming error that every registry's tests reach.
func Fill[T any](l, defaults T) T {
	v, d := reflect.ValueOf(&l).Elem(), reflect.ValueOf(defaults)
	for i := range v.NumField() {
		if f := v.Field(i); f.Int() <= 0 {
			f.SetInt(d.Field(i).Int())
		}
	}
	return l
}

// Default sets *v to d when *v is zero or negative.
func Default[T ~int | ~int64](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Cut returns s when it holds at most n bytes, else s cut at the greatest offset i <= n where
// s[i] is not a UTF-8 continuation byte (0 when there is none), so that no character is split.
// n must not be negative. Callers mark a cut text themselves (" …").
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // a continuation byte: s[n] does not start a character
		n--
	}
	return s[:n]
}
