// Package gomod is docidx's Go ecosystem: a [Proxy] that speaks the module proxy protocol, a
// [ModCache] that reads an extracted module cache (GOMODCACHE), and the API extraction both share.
//
// The proxy protocol is the one cmd/go documents in "go help goproxy"
// (https://go.dev/ref/mod#goproxy-protocol): GET $GOPROXY/<module>/@v/list, @v/<version>.info,
// @v/<version>.mod, @v/<version>.zip and @latest, with module paths and versions case-encoded
// (module.EscapePath). GOPROXY list semantics, GOPRIVATE and GONOPROXY follow cmd/go
// (https://go.dev/ref/mod#environment-variables). The proxy base URL always comes from the user's
// configuration (GOPROXY in the environment, `go env GOPROXY`, or a flag, which [LoadConfig] reads
// into a [Config]); this package names none.
//
// Extraction works the way pkgsite does, without building and without the go tool: every package
// directory of the module is parsed with go/parser, files are chosen with go/build's build-constraint
// matching for a few common platforms (the union of what each of them builds), and go/doc turns the
// files into documentation. Exported declarations become docidx symbols whose signatures are the
// declarations printed by go/printer without bodies and without unexported fields; Example functions
// from _test.go files are attached to what they exemplify. The members of a type are symbols of
// their own, each with its own doc comment and a qualified name such as "redis.Options.PoolSize":
// exported struct fields (docidx.KindField), interface methods (docidx.KindMethod) and embedded
// interfaces (docidx.KindInterface), while the type keeps a compact signature that lists its
// members without their comments and tags, cut at a named size. Each exported name of a const or
// var declaration is a symbol whose signature is its own declaration with its value, an iota
// entry's computed value in a trailing comment. The module's README, the other markdown files at
// its root that document its use (FAQ.md, not CONTRIBUTING.md), and the markdown of docs/, doc/,
// site/, website/ and examples/ become documents (through package readme), and the root
// package's synopsis, the LICENSE file and go.mod give the package metadata. Module contents are read through io/fs, so a module zip held in
// memory and an extracted directory go through the same code.
//
// Every limit (download size, file size, files per package, symbols and documents per module) is a
// named constant; exceeding a download or archive limit returns an error wrapping
// docidx.ErrTooLarge, and an archive path that escapes the module root returns one wrapping
// docidx.ErrUnsafePath. A module whose go.mod declares another module path than the one asked
// for is refused with ErrModulePath, as the go command refuses it, whether it comes from a proxy
// or the module cache.
//
// Import rule (docs/ARCHITECTURE.md §1): gomod may import the root package docidx, readme,
// registries/internal/fetch, golang.org/x/mod and the standard library; never crawl, index or serve.
// Package gomodtest fakes a module proxy and lays out module caches for tests.
package gomod
