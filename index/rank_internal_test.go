package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/docidx/docidx"
)

// openRankFixture commits docs to a new index and opens it.
func openRankFixture(t testing.TB, docs ...*docidx.PackageDocs) *Reader {
	t.Helper()
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := w.Put(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := r.r.ranked(); err != nil {
		t.Fatalf("no rank index: %v", err)
	}
	return r
}

// A symbol named as the question's identifier comes before one that mentions it with more of
// the question's words.
func TestRankSymbolName(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "@types/react", Version: "19.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindFunc, Name: "useState", QualifiedName: "react.useState", Signature: "function useState<S>(initialState: S): [S, Dispatch<S>]", Doc: "Returns a stateful value, and a function to update it."},
			{Kind: docidx.KindType, Name: "Dispatch", QualifiedName: "react.Dispatch", Signature: "type Dispatch<A> = (value: A) => void", Doc: "A function that can be used to update the state of a useState or useReducer hook."},
		},
	})
	rankedFirst(t, r, "useState hook", "docidx://npm/@types/react@19.0.0/symbol/react.useState")
}

// A name the question writes with its owner's path ("validator.New()") names the symbols of that
// name the owner holds, not every symbol of that name: another package's New that shares more
// of the question's words comes after.
func TestRankQualifiedName(t *testing.T) {
	newIn := func(pkg, doc string) *docidx.PackageDocs {
		return &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/" + pkg, Version: "v1.0.0"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "New", Package: pkg, QualifiedName: pkg + ".New", Signature: "func New() *T", Doc: doc}},
		}
	}
	r := openRankFixture(t,
		newIn("pool", "New starts a pool: call it once and share it between handlers."),
		newIn("validator", "New returns a Validate with sane defaults."),
		newIn("cache", "New makes a cache; share one between handlers."))
	rankedFirst(t, r, "should I call validator.New() once and share it between handlers?", "docidx://golang/example.com/validator@v1.0.0/symbol/validator.New")
	// Without a symbol of that owner, the name alone names every symbol so called.
	rankedFirst(t, r, "should I call np.New() once and share it between handlers?", "docidx://golang/example.com/pool@v1.0.0/symbol/pool.New")
}

// A question that names a package by its path ("example.com/mod") is asked in that package's
// ecosystem: a plain name it also writes ("semver") does not name another ecosystem's package
// of that name. A name only compound ("content-type") places nothing.
func TestPathEcosystem(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.NPM, "semver", "7.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "valid", QualifiedName: "semver.valid", Signature: "function valid(v: string): string | null", Doc: "Return the parsed semver version string, or null if it is not valid."}),
		fixturePackage(docidx.NPM, "content-type", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "contentType.parse", Signature: "function parse(header: string): ContentType", Doc: "Parse a Content-Type header."}),
		fixturePackage(docidx.Go, "example.com/mod", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Check", Package: "version", QualifiedName: "version.Check", Signature: "func Check(v string) bool", Doc: "Check reports whether v is a valid version."}))
	checkNamed(t, r, map[string][]string{
		"why is my semver version not valid in example.com/mod?": {"golang\x00example.com/mod"},
		"why is my semver version not valid?":                    {"npm\x00semver"},
		"semver version in a content-type header":                {"npm\x00content-type", "npm\x00semver"},
	})
}

// A name that names packages of several ecosystems ("idna") names only those of the ecosystem
// whose package has a symbol the question names ("domain_to_ascii_cow"); without such a symbol,
// or with one that packages of both ecosystems have, it names them all.
func TestSymbolEcosystem(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "idna", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "domain_to_ascii_cow", QualifiedName: "idna::domain_to_ascii_cow", Signature: "pub fn domain_to_ascii_cow(domain: &[u8]) -> Result<Cow<'_, str>, Errors>", Doc: "The domain to ASCII algorithm; rejects IPv6 addresses."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "encode", QualifiedName: "idna::encode", Signature: "pub fn encode(s: &str) -> String", Doc: "Encode a domain name."}),
		fixturePackage(docidx.PyPI, "idna", "3.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "encode", QualifiedName: "idna.encode", Signature: "def encode(s, strict=False)", Doc: "Encode a domain name to IDNA."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "decode", QualifiedName: "idna.decode", Signature: "def decode(s, strict=False)", Doc: "Decode an IDNA domain name."}))
	checkNamed(t, r, map[string][]string{
		"does idna's domain_to_ascii_cow take an IPv6 literal?": {"cargo\x00idna"},
		"can idna.decode() take an IPv6 literal?":               {"pypi\x00idna"},
		"does idna handle an IPv6 literal?":                     {"cargo\x00idna", "pypi\x00idna"},
		"does idna's encode() take an IPv6 literal?":            {"cargo\x00idna", "pypi\x00idna"},
	})
}

// The owner of a dotted word names a package only when the package holds the member:
// "time.Duration" is Go's time package, not golang.org/x/time, which has no Duration, though
// "time" is that module's name and most documents holding it are its own.
func TestDottedOwner(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Go, "golang.org/x/time", "v0.5.0",
			docidx.Symbol{Kind: docidx.KindType, Name: "Limiter", Package: "golang.org/x/time/rate", QualifiedName: "rate.Limiter", Signature: "type Limiter struct", Doc: "A Limiter controls how frequently events happen over time."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Every", Package: "golang.org/x/time/rate", QualifiedName: "rate.Every", Signature: "func Every(interval time.Duration) Limit", Doc: "Every converts a minimum time interval between events to a Limit."}),
		fixturePackage(docidx.Go, "example.com/toml", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Decode", QualifiedName: "toml.Decode", Signature: "func Decode(data string, v any) (MetaData, error)", Doc: "Decode reads TOML into v."}))
	checkNamed(t, r, map[string][]string{
		"does toml read a time.Duration from an integer?": {"golang\x00example.com/toml"},
		"does time.Every take a time.Duration?":           {"golang\x00golang.org/x/time"},
		// "time" written alone is still a name, as before.
		"how often does the time limiter allow events?": {"golang\x00golang.org/x/time"},
	})
}

// A question is asked in one ecosystem: the name most its package's own places it, and a name of
// another ecosystem's package that other documents use as well is a word of the question
// ("marked" beside thiserror); alone, it names its package.
func TestSubjectEcosystem(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "thiserror", "2.0.0",
			docidx.Symbol{Kind: docidx.KindMacro, Name: "Error", QualifiedName: "thiserror::Error", Signature: "derive(Error)", Doc: "A variant marked #[from] holds only its source."}),
		fixturePackage(docidx.NPM, "marked", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "marked.parse", Signature: "function parse(src: string): string", Doc: "marked compiles markdown to HTML."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "lexer", QualifiedName: "marked.lexer", Signature: "function lexer(src: string): Token[]", Doc: "marked splits markdown into tokens."}))
	checkNamed(t, r, map[string][]string{
		"can a thiserror variant marked #[from] also hold a path?": {"cargo\x00thiserror"},
		"how does marked split markdown?":                          {"npm\x00marked"},
	})
}

// A Go module's package below its root names the module when the question writes it as code
// does: the owner of a call, or a possessive; a standard library package's name does not.
func TestGoPackageNames(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Go, "example.com/internals", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "testscript", Package: "example.com/internals/testscript", QualifiedName: "example.com/internals/testscript", Signature: "package testscript", Doc: "Package testscript runs scripts in a work directory."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Run", Package: "example.com/internals/testscript", QualifiedName: "testscript.Run", Signature: "func Run(t *testing.T, p Params)", Doc: "Run runs the scripts."},
			docidx.Symbol{Kind: docidx.KindPackage, Name: "errors", Package: "example.com/internals/errors", QualifiedName: "example.com/internals/errors", Signature: "package errors", Doc: "Package errors wraps errors."},
			docidx.Symbol{Kind: docidx.KindPackage, Name: "server", Package: "example.com/internals/server", QualifiedName: "example.com/internals/server", Signature: "package server", Doc: "Package server serves scripts."}),
		fixturePackage(docidx.NPM, "web", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "listen", QualifiedName: "web.listen", Signature: "function listen(): void", Doc: "Starts the server."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "close", QualifiedName: "web.close", Signature: "function close(): void", Doc: "Stops the server."}))
	checkNamed(t, r, map[string][]string{
		"can testscript.Run keep the work directory?":       {"golang\x00example.com/internals"},
		"how do I keep testscript's work directory around?": {"golang\x00example.com/internals"},
		"does errors.Is see wrapped errors?":                nil,
		// As a plain word, when most documents holding the word are the module's.
		"does testscript keep the work directory?": {"golang\x00example.com/internals"},
		"does the server keep the work directory?": nil,
	})
}

// A name the question writes in the possessive says what it is: it places the question in its
// package's ecosystem though other documents use the word ("subtle's constant-time behaviour").
func TestPossessiveSubject(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "subtle", "2.6.1",
			docidx.Symbol{Kind: docidx.KindTrait, Name: "ConstantTimeEq", QualifiedName: "subtle::ConstantTimeEq", Signature: "pub trait ConstantTimeEq", Doc: "subtle compares crypto secrets in constant time."}),
		fixturePackage(docidx.Go, "example.com/crypto", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "crypto", Package: "example.com/crypto", QualifiedName: "example.com/crypto", Signature: "package crypto", Doc: "Package crypto hashes; a subtle bug is fixed."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Sum", Package: "example.com/crypto", QualifiedName: "crypto.Sum", Signature: "func Sum(b []byte) []byte", Doc: "Sum hashes b; note the subtle padding."}))
	checkNamed(t, r, map[string][]string{
		"can I rely on subtle's constant-time behaviour in my crypto code?": {"cargo\x00subtle"},
	})
}

// A call without an owner calls the package its docs bind that name to: a package whose export
// is a function ("createError(503, …)" of http-errors).
func TestCalledAlias(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "http-errors", Version: "2.0.1"},
		Documents: []docidx.Document{{Kind: docidx.DocReadme, Path: "README.md", Title: "http-errors", Sections: []docidx.Section{{
			Heading: []string{"Usage"}, Text: "Create HTTP errors.",
			Code: []docidx.CodeBlock{{Lang: "js", Code: "var createError = require('http-errors')\nthrow createError(404)"}},
		}}}},
	})
	checkNamed(t, r, map[string][]string{
		"is the message of createError(503, 'db down') sent to the client?": {"npm\x00http-errors"},
		"is the message of an error sent to the client?":                    nil,
	})
}

// A command a package installs names the package when the question calls it a command, and
// as a plain word only when most documents holding the word are the package's: "the
// normalizer command" is charset-normalizer's, "the bundle command" x/tools', but "bundle"
// alone, which other documents say, names nothing.
func TestCommandNames(t *testing.T) {
	normalizer := fixturePackage(docidx.PyPI, "charset-normalizer", "3.4.0",
		docidx.Symbol{Kind: docidx.KindFunc, Name: "from_bytes", QualifiedName: "charset_normalizer.from_bytes", Signature: "def from_bytes(sequences)", Doc: "Detect the encoding of bytes; the normalizer prints a JSON report."})
	normalizer.Package.Commands = []string{"normalizer"}
	tools := fixturePackage(docidx.Go, "golang.org/x/tools", "v0.1.0",
		docidx.Symbol{Kind: docidx.KindPackage, Name: "main", Package: "golang.org/x/tools/cmd/bundle", QualifiedName: "golang.org/x/tools/cmd/bundle", Signature: "package main", Doc: "Bundle creates a single-source-file version of a source package."})
	tools.Package.Commands = []string{"bundle"}
	r := openRankFixture(t, normalizer, tools,
		fixturePackage(docidx.NPM, "webpack", "5.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "webpack", QualifiedName: "webpack", Signature: "function webpack(config: Configuration): Compiler", Doc: "Builds a bundle of modules; each bundle has a hash."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "watch", QualifiedName: "webpack.watch", Signature: "function watch(): void", Doc: "Rebuilds the bundle on change."}))
	checkNamed(t, r, map[string][]string{
		"how do I get the normalizer command to print only the encoding?": {"pypi\x00charset-normalizer"},
		"can normalizer print only the encoding?":                         {"pypi\x00charset-normalizer"},
		"what does the bundle command write?":                             {"golang\x00golang.org/x/tools"},
		"how big is the bundle?":                                          nil,
	})
}

// A bare name goes to the free function of that name before the methods so called: code calls
// a method with its receiver. Written with its owner, the name is the owner's method.
func TestRankFreeFunctionFirst(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "tokio", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "spawn_blocking", QualifiedName: "tokio::task::spawn_blocking", Signature: "pub fn spawn_blocking<F, R>(f: F) -> JoinHandle<R>", Doc: "Runs the provided closure on a thread where blocking is acceptable. In general, issuing a blocking call or performing a lot of compute in a future without yielding is problematic, as it may prevent the executor from driving other futures forward."},
			docidx.Symbol{Kind: docidx.KindType, Name: "Runtime", QualifiedName: "tokio::runtime::Runtime", Signature: "pub struct Runtime", Doc: "The Tokio runtime."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "spawn_blocking", Parent: "Runtime", QualifiedName: "tokio::runtime::Runtime::spawn_blocking", Signature: "pub fn spawn_blocking<F, R>(&self, func: F) -> JoinHandle<R>", Doc: "Spawns blocking work on the tokio runtime: spawn_blocking for tokio."}))
	rankedFirst(t, r, "tokio spawn_blocking", "docidx://cargo/tokio@1.0.0/symbol/tokio::task::spawn_blocking")
	rankedFirst(t, r, "tokio Runtime::spawn_blocking", "docidx://cargo/tokio@1.0.0/symbol/tokio::runtime::Runtime::spawn_blocking")
}

// A Rust macro's invocation names the macro as a call names a function: "select! cancel
// safety" finds the select macro before a method whose doc says more of the question's words.
func TestRankMacroCall(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "tokio", "1.0.0",
			docidx.Symbol{Kind: docidx.KindMacro, Name: "select", QualifiedName: "tokio::select", Signature: "macro_rules! select", Doc: "Waits on multiple concurrent branches. Each branch's future is dropped when another completes first."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "accept", QualifiedName: "tokio::net::TcpListener::accept", Signature: "pub async fn accept(&self) -> io::Result<TcpStream>", Doc: "Accepts a connection. Cancel safety: this method is cancel safe; used in select!, no connection is lost."}))
	rankedFirst(t, r, "select! cancel safety", "docidx://cargo/tokio@1.0.0/symbol/tokio::select")
}

// A Rust path starts with its crate: "log::info!" names the log crate, though "log" is a word
// too common to name it alone, and names no package of another ecosystem called log.
func TestPathCrates(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "log", "0.4.0",
			docidx.Symbol{Kind: docidx.KindMacro, Name: "info", QualifiedName: "log::info", Signature: "macro_rules! info", Doc: "Logs a message at the info level."}),
		fixturePackage(docidx.NPM, "log", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "info", QualifiedName: "log.info", Signature: "function info(msg: string): void", Doc: "Writes msg to the log."}),
		fixturePackage(docidx.Go, "example.com/logging", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Print", Package: "logging", QualifiedName: "logging.Print", Signature: "func Print(v ...any)", Doc: "Print writes to the log; every log line has a time."}))
	ri := r.r.rank
	text := "what happens to log::info! calls before the logger is set?"
	_, words := ecosystemsNamed(text)
	got := ri.pathCrates(words, nil)
	if len(got) != 1 || ri.pkgKey(got[0]) != "cargo\x00log" {
		var keys []string
		for _, p := range got {
			keys = append(keys, ri.pkgKey(p))
		}
		t.Errorf("%s: crates %q, want cargo's log", text, keys)
	}
	if got := ri.pathCrates("what does log.info do", nil); len(got) != 0 {
		t.Errorf("log.info named crates %v: a dotted path is not Rust's", got)
	}
	if got := ri.pathCrates(words, map[docidx.Ecosystem]bool{docidx.NPM: true}); len(got) != 0 {
		t.Errorf("a question about npm named crates %v", got)
	}
}

// A member named with its owner's path is the owner's own member, not one of that name nested
// deeper: "shlex::split" is the crate's split, though shlex::bytes::split holds more of the
// question's words, and "term.ReadPassword" the package's function, not Terminal's method.
func TestRankDirectMember(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "shlex", "1.3.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "split", QualifiedName: "shlex::split", Signature: "pub fn split(in_str: &str) -> Option<Vec<String>>", Doc: "Convenience function that consumes the whole string at once. Returns None if the input was erroneous."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "split", QualifiedName: "shlex::bytes::split", Signature: "pub fn split(in_bytes: &[u8]) -> Option<Vec<Vec<u8>>>", Doc: "Convenience function that consumes the whole byte string at once. Returns None if the input was erroneous, so that you get no words instead of a partial Vec."}),
		fixturePackage(docidx.Go, "golang.org/x/term", "v0.30.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "ReadPassword", Package: "golang.org/x/term", QualifiedName: "term.ReadPassword", Signature: "func ReadPassword(fd int) ([]byte, error)", Doc: "ReadPassword reads a line of input from a terminal without local echo. The slice returned does not include the newline."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "ReadPassword", Parent: "Terminal", Package: "golang.org/x/term", QualifiedName: "term.Terminal.ReadPassword", Signature: "func (t *Terminal) ReadPassword(prompt string) (line string, err error)", Doc: "ReadPassword temporarily changes the prompt and reads a password, without echo, from the terminal. The password I get back has its newline cut."}))
	rankedFirst(t, r, "when does shlex::split give me None instead of a Vec?", "docidx://cargo/shlex@1.3.0/symbol/shlex::split")
	rankedFirst(t, r, "does the password I get back from term.ReadPassword still have the newline?", "docidx://golang/golang.org/x/term@v0.30.0/symbol/term.ReadPassword")
}

// A bare name goes to the symbols of that name whose owner is a word of the question: the
// Options' MaxRetries for "MaxRetries in the client options", not ClusterOptions', whose doc holds
// more of the question's words; the root of a package of that name keeps its bonus.
func TestRankMemberOfQuestionWord(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Go, "github.com/redis/go-redis/v9", "v9.7.0",
			docidx.Symbol{Kind: docidx.KindField, Name: "MaxRetries", Parent: "Options", Package: "github.com/redis/go-redis/v9", QualifiedName: "redis.Options.MaxRetries", Signature: "MaxRetries int", Doc: "Maximum number of retries before giving up. -1 (not 0) disables retries."},
			docidx.Symbol{Kind: docidx.KindField, Name: "MaxRetries", Parent: "ClusterOptions", Package: "github.com/redis/go-redis/v9", QualifiedName: "redis.ClusterOptions.MaxRetries", Signature: "MaxRetries int", Doc: "The maximum number of retries before giving up. Commands are still retried on network errors; set it to turn retries off."}),
		fixturePackage(docidx.Cargo, "indexmap", "2.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "indexmap", QualifiedName: "indexmap", Signature: "crate indexmap", Doc: "IndexMap is a hash table; serde_seq serializes it as a sequence."},
			docidx.Symbol{Kind: docidx.KindStruct, Name: "IndexMap", QualifiedName: "indexmap::IndexMap", Signature: "pub struct IndexMap<K, V>", Doc: "A hash table."}))
	rankedFirst(t, r, "I set MaxRetries to 0 in the client options but commands still get retried; how do I turn retries off?", "docidx://golang/github.com/redis/go-redis/v9@v9.7.0/symbol/redis.Options.MaxRetries")
	rankedFirst(t, r, "can I serialize an IndexMap in the indexmap crate as a sequence?", "docidx://cargo/indexmap@2.0.0/symbol/indexmap")
}

// The parts of a path that names a package whole name no package of their own: "mattn" of
// "mattn/go-sqlite3" is the owner of every module of mattn's, and names one only alone.
func TestPathPartsNameNothing(t *testing.T) {
	mod := func(path, doc string) *docidx.PackageDocs {
		return &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.Go, Name: path, Version: "v1.0.0"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindPackage, Name: "p", Package: path, QualifiedName: path, Signature: "package p", Doc: doc}},
		}
	}
	r := openRankFixture(t,
		mod("github.com/mattn/go-sqlite3", "Package sqlite3 needs cgo."),
		mod("github.com/mattn/go-isatty", "Package isatty tells terminals apart."))
	checkNamed(t, r, map[string][]string{
		"does mattn/go-sqlite3 build without cgo?": {"golang\x00github.com/mattn/go-sqlite3"},
		"which mattn packages need cgo?":           {"golang\x00github.com/mattn/go-isatty", "golang\x00github.com/mattn/go-sqlite3"},
	})
}

// A member the question names with its owner's path ("IndexMap::remove") comes before a sibling
// whose doc holds more of the question's words: the path says which member is meant.
func TestRankOwnedName(t *testing.T) {
	r := openRankFixture(t, fixturePackage(docidx.Cargo, "indexmap", "2.0.0",
		docidx.Symbol{Kind: docidx.KindStruct, Name: "IndexMap", QualifiedName: "indexmap::IndexMap", Signature: "pub struct IndexMap<K, V>", Doc: "A hash table."},
		docidx.Symbol{Kind: docidx.KindMethod, Name: "remove", Parent: "IndexMap", QualifiedName: "indexmap::IndexMap::remove", Signature: "pub fn remove(&mut self, key: &K) -> Option<V>", Doc: "Remove the key, swapping the last entry into its place."},
		docidx.Symbol{Kind: docidx.KindMethod, Name: "insert", Parent: "IndexMap", QualifiedName: "indexmap::IndexMap::insert", Signature: "pub fn insert(&mut self, key: K, value: V) -> Option<V>", Doc: "Insert a key; the entries keep their insertion order, which only removing scrambles."}))
	rankedFirst(t, r, "IndexMap::remove scrambles the order of my entries; what keeps their insertion order?", "docidx://cargo/indexmap@2.0.0/symbol/indexmap::IndexMap::remove")
}

// searchReads returns the stored-field reads of a search over r, closed when t ends.
func searchReads(t testing.TB, r *Reader) *storedReads {
	ri := r.r.rank
	reads := &storedReads{r: r.r, ri: ri, readers: make([]index.IndexReader, len(ri.segs))}
	t.Cleanup(func() { reads.close() })
	return reads
}

// fixturePackage returns the documentation of package version name@version of eco holding syms.
func fixturePackage(eco docidx.Ecosystem, name, version string, syms ...docidx.Symbol) *docidx.PackageDocs {
	return &docidx.PackageDocs{Package: docidx.Package{Ecosystem: eco, Name: name, Version: version}, Symbols: syms}
}

// checkNamed checks the packages (ecosystem\x00name, sorted) that each question names
// (questionPackages) over r.
func checkNamed(t *testing.T, r *Reader, want map[string][]string) {
	t.Helper()
	ri := r.r.rank
	for text, want := range want {
		_, words := ecosystemsNamed(text)
		_, pkgs, _ := ri.questionPackages(r.r, text, words, nil, ri.ownedByName(words, r.r.wholeTerm), ri.filter(Query{}))
		var got []string
		for _, p := range pkgs {
			got = append(got, ri.pkgKey(p))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: packages named %q, want %q", text, got, want)
		}
	}
}

// TestIdentifierOwners checks the owners a question writes its identifiers with.
func TestIdentifierOwners(t *testing.T) {
	for text, want := range map[string]map[string][]string{
		"should I share validator.New() or not": {"new": {"validator"}},
		"IndexMap::remove scrambles the order":  {"remove": {"indexmap"}},
		"yaml.safe_load vs yaml.load":           {"safe_load": {"yaml"}, "load": {"yaml"}},
		"what does np.round() do":               {"round": {"np"}},
		"does a.B work":                         nil, // an owner of one letter
		"useState hook":                         nil,
		"see foo. Then bar":                     nil,
		// A call's arguments are not its path.
		`why does semver.IsValid("1.2.3") return false`: {"isvalid": {"semver"}},
		"pd.merge(df, other, how='outer')":              {"merge": {"pd"}},
		`cfg.Section("db").Key("host") is empty`:        {"key": {"section"}},
		// A struct tag and a JSONPath are not paths of identifiers.
		"with `validate:\"required\"` on the field": nil,
		"what does $.items[?(@.price < 10)] select": nil,
		"is std::sync::Mutex's lock fair":           {"mutex": {"sync"}},
		// A possessive before code is its owner.
		"does BeautifulSoup's get_text() drop comments": {"get_text": {"beautifulsoup"}},
	} {
		if got := identifierOwners(text); !reflect.DeepEqual(got, want) {
			t.Errorf("identifierOwners(%q) = %q, want %q", text, got, want)
		}
	}
}

// rankedIDs returns the IDs of the first ten documents the rank index ranks for question.
func rankedIDs(r *Reader, question string) []string {
	hits, _, _ := r.r.rankSearch(r.r.rank, question, Query{}, 100, 10, firstRecords(10))
	ids := make([]string, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.rec.id)
	}
	return ids
}

// rankedFirst checks that the rank index ranks the document id first for question.
func rankedFirst(t *testing.T, r *Reader, question, id string) {
	t.Helper()
	if ids := rankedIDs(r, question); len(ids) == 0 || ids[0] != id {
		t.Errorf("%s: %v, want %s first", question, ids, id)
	}
}

// A member that the question names by a plain word beside its owner's identifier ("call
// reserve on a BytesMut") comes before the owner, whose name alone the question spells, and
// before a member of that name of another owner.
func TestRankMemberBesideOwner(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Cargo, Name: "bytes", Version: "1.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindType, Name: "BytesMut", QualifiedName: "bytes::BytesMut", Signature: "pub struct BytesMut", Doc: "A unique reference to a contiguous slice of memory that grows its buffer as needed."},
			{Kind: docidx.KindMethod, Name: "reserve", QualifiedName: "bytes::BytesMut::reserve", Signature: "pub fn reserve(&mut self, additional: usize)", Doc: "Reserves capacity for at least additional more bytes. Before it allocates a new buffer, it reclaims the space in front of the view when no other handle shares it."},
			{Kind: docidx.KindMethod, Name: "reserve", QualifiedName: "bytes::Vec::reserve", Signature: "pub fn reserve(&mut self, additional: usize)", Doc: "Reserves capacity for at least additional more elements, as a BytesMut does."},
			// An owner whose name the index holds by its stem ("envfilt").
			{Kind: docidx.KindType, Name: "EnvFilter", QualifiedName: "bytes::EnvFilter", Signature: "pub struct EnvFilter", Doc: "A layer of the subscriber."},
			{Kind: docidx.KindMethod, Name: "parse", QualifiedName: "bytes::EnvFilter::parse", Signature: "pub fn parse(dirs: &str) -> Result<Self>", Doc: "Builds a new filter from the directives read from an environment variable."},
		},
	})
	rankedFirst(t, r, "if I split the front off a BytesMut and later call reserve, will it allocate a fresh buffer?",
		"docidx://cargo/bytes@1.0.0/symbol/bytes::BytesMut::reserve")
	rankedFirst(t, r, "does an EnvFilter parse directives from the environment variable?",
		"docidx://cargo/bytes@1.0.0/symbol/bytes::EnvFilter::parse")
}

// A function the question names ("yaml.dump()") owns no members: the plain words beside it
// ("my dict keys") name no symbol of another package whose doc says "dump" (pyparsing's Dict).
func TestMemberNeedsTypeOrPackageOwner(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.PyPI, "yaml", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "dump", QualifiedName: "yaml.dump", Signature: "def dump(data, stream=None, sort_keys=True)", Doc: "Serialize a Python object into a YAML stream."}),
		fixturePackage(docidx.PyPI, "parsekit", "1.0.0",
			docidx.Symbol{Kind: docidx.KindClass, Name: "Dict", QualifiedName: "parsekit.Dict", Signature: "class Dict", Doc: "Converts a list of tokens into a mapping; call dump() to print its contents."}),
		fixturePackage(docidx.PyPI, "sorter", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "order", QualifiedName: "sorter.order", Signature: "def order(keys)", Doc: "Returns the keys of a mapping in alphabetical order, the order of insertion kept for ties."}),
	)
	ids := rankedIDs(r, "why does yaml.dump() write my dict keys in alphabetical order instead of insertion order?")
	for i, id := range ids {
		if id == "docidx://pypi/parsekit@1.0.0/symbol/parsekit.Dict" && i < 2 {
			t.Errorf("%v: parsekit.Dict ranks %d, as a member of yaml.dump", ids, i+1)
		}
	}
}

// A capitalized word after a package's possessive names that package's type ("bodykit's
// Limited"), though other symbols hold more of the question's words; it owns no members by its
// plain word ("send" beside it), which the docs of other types' members use too.
func TestPossessedTypeName(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "bodykit", "1.0.0",
			docidx.Symbol{Kind: docidx.KindStruct, Name: "Limited", QualifiedName: "bodykit::Limited", Signature: "pub struct Limited<B>", Doc: "A length limited body."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "capacity", QualifiedName: "bodykit::Sender::capacity", Signature: "pub fn capacity(&self) -> usize", Doc: "How much more the client sends before the channel waits: its capacity, limited to the size given to new."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "send", QualifiedName: "bodykit::Sender::send", Signature: "pub fn send(&self, b: Bytes)", Doc: "Sends a request body frame; the body is limited by the channel's size."}),
	)
	rankedFirst(t, r, "I wrap a request body in bodykit's Limited to cap the upload size. What happens when the client calls send with more?",
		"docidx://cargo/bodykit@1.0.0/symbol/bodykit::Limited")
}

// A name written in the possessive names its package though most documents holding its word
// are others' ("flatted" is the stem "flat" of flat-cache's pages): the question says what it
// is. Written plainly, it does not.
func TestPossessiveNamesPackage(t *testing.T) {
	var cache []docidx.Symbol
	for i := range 100 { // flatted's 2 documents of the 102 that hold "flat": under namedShare
		cache = append(cache, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("toFlatted%d", i), QualifiedName: fmt.Sprintf("flat-cache.toFlatted%d", i),
			Signature: fmt.Sprintf("toFlatted%d(): string", i), Doc: "Pass it the flatted JSON output of a flat file cache to parse it as a string."})
	}
	r := openRankFixture(t,
		fixturePackage(docidx.NPM, "flat-cache", "1.0.0", cache...),
		fixturePackage(docidx.NPM, "flatted", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "flatted.parse", Signature: "parse(text: string): any", Doc: "Revives what stringify made; plain JSON is not its format."}),
	)
	ri := r.r.rank
	for _, q := range []string{"Can I pass JSON output to flatted's parse as a string?", "Can I pass JSON output to flatted as a string?"} {
		_, words := ecosystemsNamed(q)
		_, named, _ := ri.questionPackages(r.r, q, words, nil, ri.ownedByName(words, r.r.wholeTerm), nil)
		var names []string
		for _, p := range named {
			names = append(names, ri.pkgKey(p))
		}
		if possessive := strings.Contains(q, "'s"); slices.Contains(names, "npm\x00flatted") != possessive {
			t.Errorf("%q names %q", q, names)
		}
	}
}

// A package's root is no one's member: "Cargo.toml" does not name the crate toml, whose doc
// says "Cargo", as "IndexMap::remove" names indexmap's remove.
func TestPackageRootIsNoMember(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "toml", "1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "toml", QualifiedName: "toml", Signature: "crate toml", Doc: "A parser of TOML, the format of Cargo's manifests."}),
		fixturePackage(docidx.Cargo, "serde", "1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "serde", QualifiedName: "serde", Signature: "crate serde", Doc: "A framework for serializing data."},
			docidx.Symbol{Kind: docidx.KindMacro, Name: "Serialize", QualifiedName: "serde::Serialize", Signature: "derive Serialize", Doc: "Derive macro: put features = [\"derive\"] on the serde dependency."}),
	)
	for _, id := range rankedIDs(r, "I get 'cannot find derive macro Serialize' from serde; what do I need to put in Cargo.toml?")[:1] {
		if strings.Contains(id, "/toml@") {
			t.Errorf("%s first: the crate toml taken for the member of Cargo", id)
		}
	}
}

// A symbol the question names by a bare identifier is the named package's when it has one of
// that name, though another package's symbol of that name holds more of the question's words.
func TestRankSymbolOfNamedPackage(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.NPM, "dayjs", "1.0.0",
			docidx.Symbol{Kind: docidx.KindMethod, Name: "month", QualifiedName: "dayjs.Dayjs.month", Signature: "month(value: number): Dayjs", Doc: "Get or set the month. Accepts numbers from 0 to 11; a larger one bubbles up to the year."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "year", QualifiedName: "dayjs.Dayjs.year", Signature: "year(value: number): Dayjs", Doc: "Get or set the year."}),
		fixturePackage(docidx.Cargo, "calendar", "1.0.0",
			docidx.Symbol{Kind: docidx.KindMethod, Name: "month", QualifiedName: "calendar::Date::month", Signature: "pub fn month(&self) -> u8", Doc: "Returns the month. What happens when a month is set past twelve: it rolls over into the next year, and the call never raises an error."}),
		fixturePackage(docidx.Cargo, "clock", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "tick", QualifiedName: "clock::tick", Signature: "pub fn tick()", Doc: "Ticks the clock once."}),
	)
	rankedFirst(t, r, "In dayjs, what happens if I call .month(12): does it roll over or raise an error?",
		"docidx://npm/dayjs@1.0.0/symbol/dayjs.Dayjs.month")
}

// A search for nothing but a package's name finds that package, its overview first: the
// words that name a package do not order its pages (withinPackage), but when they are all the
// question has, its pages keep the scores they ranked with, and another package's pages that
// hold those words do not come first.
func TestRankBareName(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.PyPI, "rfc-check", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "validate", QualifiedName: "rfc_check.validate", Signature: "def validate(s)", Doc: "Validates a date string against the RFC format."}),
		fixturePackage(docidx.Cargo, "form_codec", "1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "form_codec", QualifiedName: "form_codec", Signature: "crate form_codec", Doc: "Encodes and decodes web forms."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "serialize_map", QualifiedName: "form_codec::Serializer::serialize_map", Signature: "fn serialize_map(self)", Doc: "Serializes a map."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "serialize_seq", QualifiedName: "form_codec::Serializer::serialize_seq", Signature: "fn serialize_seq(self)", Doc: "Serializes a sequence."}),
		fixturePackage(docidx.Cargo, "timefmt", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "rfc", QualifiedName: "timefmt::rfc", Signature: "pub fn rfc(s: &str) -> bool", Doc: "Checks an RFC date: the check an rfc validator makes."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "timefmt::parse", Signature: "pub fn parse(s: &str) -> Time", Doc: "Parses a time. Leap seconds are accepted."}),
		fixturePackage(docidx.NPM, "codecs", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "form", QualifiedName: "codecs.form", Signature: "form(s: string): object", Doc: "A form codec: decodes a form."}),
	)
	// A name whose word most documents hold ("time" of web-time: the 1,100 functions of clocks
	// hold it too) is not counted among the words that name the package (withinPackage does
	// not walk a dense list); when every word of the question names it, its pages still keep
	// their scores.
	var clocks []docidx.Symbol
	for i := range 1100 {
		clocks = append(clocks, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("at%d", i), QualifiedName: fmt.Sprintf("clocks::at%d", i),
			Signature: fmt.Sprintf("pub fn at%d()", i), Doc: "Returns the time."})
	}
	r2 := openRankFixture(t, fixturePackage(docidx.Cargo, "clocks", "1.0.0", clocks...),
		fixturePackage(docidx.Cargo, "web-time", "1.0.0",
			docidx.Symbol{Kind: docidx.KindMethod, Name: "now", QualifiedName: "web_time::Instant::now", Signature: "pub fn now() -> Instant", Doc: "Returns an instant for now."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "elapsed", QualifiedName: "web_time::Instant::elapsed", Signature: "pub fn elapsed(&self) -> Duration", Doc: "Returns the time elapsed since this instant."}))
	ri := r2.r.rank
	a := ri.acquire()
	defer ri.release(a)
	_, words := ecosystemsNamed("web-time")
	lists := ri.termLists(r2.r.searchTerms(words))
	ri.accumulate(a, lists, ri.filter(Query{}))
	owned := ri.ownedByName(words, r2.r.wholeTerm)
	_, namedPkgs, _ := ri.questionPackages(r2.r, "web-time", words, nil, owned, ri.filter(Query{}))
	prior, named := ri.packagePriors(nil, namedPkgs, nil, askedMajors(words))
	top, _ := ri.best(a, ri.nameBonuses(searchReads(t, r2), "web-time", words, owned, namedPkgs, ri.filter(Query{})), len(lists), prior, named, 100)
	before := slices.Clone(top)
	ri.withinPackage(r2.r, a, top, lists, words, questionNames(words))
	if !slices.Equal(top, before) {
		t.Errorf("web-time: withinPackage changed the scores of a question of nothing but the package's name")
	}
	for name, want := range map[string]string{
		// The package named, though none of its pages holds the question's other words.
		"rfc-check leap seconds": "docidx://pypi/rfc-check@1.0.0/overview",
		"rfc-check":              "docidx://pypi/rfc-check@1.0.0/overview",
		"rfc_check":              "docidx://pypi/rfc-check@1.0.0/overview",
		"form_codec":             "docidx://cargo/form_codec@1.0.0/overview",
	} {
		if ids := rankedIDs(r, name); len(ids) == 0 || ids[0] != want {
			t.Errorf("%s: %v, want %s first", name, ids, want)
		}
	}
}

// A search for a package's name finds the package of that name before the one whose name it
// is the last part of (@types/express for "express"), and that one when no package has the name.
func TestRankExactNameWholeFirst(t *testing.T) {
	types := fixturePackage(docidx.NPM, "@types/express", "5.0.0",
		docidx.Symbol{Kind: docidx.KindFunc, Name: "express", QualifiedName: "express", Signature: "declare function express(): core.Express", Doc: "Creates an Express application. The express() function is a top-level function exported by the express module."})
	types.Package.Description = "TypeScript definitions for express, the express web framework"
	types.Package.Keywords = []string{"express", "types"}
	r := openRankFixture(t, fixturePackage(docidx.NPM, "express", "5.0.0",
		docidx.Symbol{Kind: docidx.KindFunc, Name: "createApplication", QualifiedName: "createApplication", Signature: "function createApplication()", Doc: "Create an application."}),
		types, fixturePackage(docidx.NPM, "@types/node", "20.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "spawn", QualifiedName: "child_process.spawn", Signature: "function spawn(command: string)", Doc: "Spawns a new process."}))
	rankedFirst(t, r, "express", "docidx://npm/express@5.0.0/overview")
	rankedFirst(t, r, "node", "docidx://npm/@types/node@20.0.0/overview")
	ri := r.r.rank
	for q, want := range map[string]string{"express": "npm\x00express", "node": "npm\x00@types/node"} {
		var got []string
		for doc, b := range ri.nameBonuses(searchReads(t, r), q, q, nil, nil, ri.filter(Query{})) {
			if b == exactBonus {
				got = append(got, ri.pkgKey(ri.pkgOf(doc)))
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: the exact name's bonus for %q, want %q", q, got, want)
		}
	}
}

// A question that is a symbol's name finds that symbol first, though its doc does not repeat
// its name and a sibling's doc does: the words of a hit's title are words it holds when they
// are all the question has (byProximity, titleHoldsAll).
func TestSearchSymbolByItsName(t *testing.T) {
	// Other pages, so that "buffer" is a rare word and a page that repeats it scores high.
	var other []docidx.Symbol
	for i := range 200 {
		other = append(other, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("f%d", i), QualifiedName: fmt.Sprintf("other::f%d", i), Signature: fmt.Sprintf("pub fn f%d()", i), Doc: "Formats a number."})
	}
	r := openRankFixture(t, fixturePackage(docidx.Cargo, "other", "1.0.0", other...), fixturePackage(docidx.Cargo, "ryu", "1.0.0",
		docidx.Symbol{Kind: docidx.KindStruct, Name: "Buffer", QualifiedName: "ryu::Buffer", Signature: "pub struct Buffer", Doc: "Safe API for formatting floating point numbers to text."},
		docidx.Symbol{Kind: docidx.KindTrait, Name: "Float", QualifiedName: "ryu::Float", Signature: "pub trait Float", Doc: "A floating point number, f32 or f64, that can be written into a ryu::Buffer: the Buffer holds the text that Buffer::format writes."},
		docidx.Symbol{Kind: docidx.KindMethod, Name: "format", QualifiedName: "ryu::Buffer::format", Signature: "pub fn format<F: Float>(&mut self, f: F) -> &str", Doc: "Print a floating point number into this buffer and return a reference to its string representation within the buffer."}))
	for _, q := range []string{"ryu::Buffer", "Buffer"} {
		res, err := r.Search(context.Background(), Query{Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].URI != "docidx://cargo/ryu@1.0.0/symbol/ryu::Buffer" {
			var got []string
			for _, h := range res.Hits {
				got = append(got, h.URI)
			}
			t.Errorf("%s: %v, want ryu::Buffer first", q, got)
		}
	}
	one := func(string) float64 { return 1 }
	for q, want := range map[string]bool{
		"ryu::Buffer":               true,
		"Buffer":                    true,
		"buffers in ryu":            true, // a form of the title's word, the package's name
		"ryu::Buffer format":        false,
		"how big is a ryu::Buffer?": false,
		"ryu":                       false, // the package's name only: no title word
	} {
		hq := newPassageQuery(q, one).forHit("ryu", "ryu::Buffer", "", nil)
		if got := hq.titleHoldsAll(); got != want {
			t.Errorf("titleHoldsAll(%q) = %v, want %v", q, got, want)
		}
	}
}

// A Rust macro is named without its "!", as rustdoc's search names it: "tokio::pin!" and
// "the pin macro" find the macro before the methods whose names hold the word.
func TestRankMacroByName(t *testing.T) {
	r := openRankFixture(t, fixturePackage(docidx.Cargo, "tokio", "1.0.0",
		docidx.Symbol{Kind: docidx.KindMacro, Name: "pin!", QualifiedName: "tokio::pin!", Signature: "macro_rules! pin { ... }", Doc: "Fixes a value on the stack, so that it cannot move."},
		docidx.Symbol{Kind: docidx.KindMethod, Name: "get_pin_mut", QualifiedName: "tokio::io::BufReader::get_pin_mut", Signature: "pub fn get_pin_mut(self: Pin<&mut Self>) -> Pin<&mut R>", Doc: "Gets a pinned mutable reference to the underlying reader. Pin it to read."},
		docidx.Symbol{Kind: docidx.KindMethod, Name: "reader_pin_mut", QualifiedName: "tokio::io::Join::reader_pin_mut", Signature: "pub fn reader_pin_mut(self: Pin<&mut Self>) -> Pin<&mut R>", Doc: "Gets a pinned mutable reference to the inner reader, as pin does."}))
	rankedFirst(t, r, "tokio::pin!", "docidx://cargo/tokio@1.0.0/symbol/tokio::pin%21")
	rankedFirst(t, r, "what does pin! do in tokio?", "docidx://cargo/tokio@1.0.0/symbol/tokio::pin%21")
	// The name the question spells with its owner's path is the macro's (ownedBonus).
	ri := r.r.rank
	_, words := ecosystemsNamed("tokio::pin!")
	owned := ri.ownedByName(words, r.r.wholeTerm)
	if len(owned["pin"]) != 1 {
		t.Errorf("tokio::pin!: owned %v, want the macro", owned)
	}
}

// A name written with capitals gets its bonus for the symbols that write it so, when there
// are such, and for the root of a package named so as well; a name in lower case for every
// symbol of that name.
func TestNameBonusCase(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "tower", "1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "layer", QualifiedName: "tower::layer", Signature: "pub mod layer", Doc: "Layer traits and extensions."},
			docidx.Symbol{Kind: docidx.KindTrait, Name: "Layer", QualifiedName: "tower::layer::Layer", Signature: "pub trait Layer<S>", Doc: "Decorates a service."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "layer", QualifiedName: "tower::ServiceBuilder::layer", Signature: "pub fn layer<T>(self, layer: T)", Doc: "Adds a layer."}),
		fixturePackage(docidx.Cargo, "indexmap", "1.0.0",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "indexmap", QualifiedName: "indexmap", Signature: "crate indexmap", Doc: "An ordered hash map."},
			docidx.Symbol{Kind: docidx.KindStruct, Name: "IndexMap", QualifiedName: "indexmap::IndexMap", Signature: "pub struct IndexMap<K, V>", Doc: "A hash table that keeps its insertion order."},
			docidx.Symbol{Kind: docidx.KindMacro, Name: "indexmap!", QualifiedName: "indexmap::indexmap!", Signature: "macro_rules! indexmap", Doc: "Creates an IndexMap from key-value pairs."}),
		fixturePackage(docidx.PyPI, "yaml", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "dump", QualifiedName: "yaml.dump", Signature: "def dump(data, stream=None)", Doc: "Serialize a Python object into a YAML stream."}),
		fixturePackage(docidx.Go, "github.com/goccy/go-yaml", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindMethod, Name: "Dump", QualifiedName: "token.Token.Dump", Signature: "func (t *Token) Dump()", Doc: "Dump outputs the token's details for debugging."}),
	)
	ri := r.r.rank
	bonused := func(q string) []string {
		_, words := ecosystemsNamed(q)
		keep := ri.filter(Query{})
		owned := ri.ownedByName(words, r.r.wholeTerm)
		_, named, _ := ri.questionPackages(r.r, q, words, nil, owned, keep)
		var got []string
		for doc := range ri.nameBonuses(searchReads(t, r), q, words, owned, named, keep) {
			if ri.isSymbol(doc) {
				h := rankHit{doc: doc}
				if err := r.r.storedFields(ri, &h); err != nil {
					t.Fatal(err)
				}
				got = append(got, h.rec.title)
			}
		}
		slices.Sort(got)
		return got
	}
	for q, want := range map[string][]string{
		"tower::Layer": {"tower::layer::Layer"},
		// Written in lower case: the symbols written so, not the trait Layer.
		"tower::layer": {"tower::ServiceBuilder::layer", "tower::layer"},
		// go-yaml is named "yaml" too, but its Dump is not what "yaml.dump()" writes.
		"why does yaml.dump() sort my keys": {"yaml.dump"},
		"IndexMap":                          {"indexmap", "indexmap::IndexMap"},
		"indexmap":                          {"indexmap", "indexmap::IndexMap", "indexmap::indexmap!"},
	} {
		if got := bonused(q); !slices.Equal(got, want) {
			t.Errorf("%s: bonus for %q, want %q", q, got, want)
		}
	}
	// A segment whose rank.idx has no cased section (written before it existed) does not say
	// how its symbols write their names: each symbol of the name keeps the bonus.
	for _, seg := range ri.segs {
		seg.cased = false
	}
	if got, want := bonused("tower::Layer"), []string{"tower::ServiceBuilder::layer", "tower::layer", "tower::layer::Layer"}; !slices.Equal(got, want) {
		t.Errorf("tower::Layer over a segment without names as written: bonus for %q, want %q", got, want)
	}
}

// A question that names a package means another package's symbol by a bare name only when few
// packages have a symbol of that name: "camelCase keys" beside protojson.Marshal is a word, not
// one of the many camelCase helpers of other ecosystems.
func TestRankCommonNameBesideNamedPackage(t *testing.T) {
	camel := func(eco docidx.Ecosystem, name, qualified string) *docidx.PackageDocs {
		return fixturePackage(eco, name, "1.0.0", docidx.Symbol{Kind: docidx.KindFunc, Name: "camelCase", QualifiedName: qualified,
			Signature: "camelCase(s: string): string", Doc: "Converts a string to camel case."})
	}
	r := openRankFixture(t,
		fixturePackage(docidx.Go, "example.com/protobuf", "v1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Marshal", QualifiedName: "protojson.Marshal", Signature: "func Marshal(m Message) ([]byte, error)", Doc: "Marshal writes the message in JSON format using default options."},
			docidx.Symbol{Kind: docidx.KindField, Name: "UseProtoNames", QualifiedName: "protojson.MarshalOptions.UseProtoNames", Signature: "field UseProtoNames bool", Doc: "UseProtoNames uses the proto field name instead of the lowerCamelCase name in JSON field names."}),
		camel(docidx.NPM, "case-kit", "caseKit.camelCase"),
		camel(docidx.NPM, "strings-plus", "stringsPlus.camelCase"),
		camel(docidx.PyPI, "casefold", "casefold.camelCase"),
	)
	const q = "protojson.Marshal() gives me camelCase keys; how do I get the original field names?"
	ids := rankedIDs(r, q)
	if len(ids) < 2 || !strings.HasPrefix(ids[0], "docidx://golang/") || !strings.HasPrefix(ids[1], "docidx://golang/") {
		t.Errorf("%s: %v, want the two protojson symbols first", q, ids)
	}
}

// An owner the question writes as code in the possessive that no package is named by is a
// type of few packages: it names them ("BeautifulSoup's get_text()": beautifulsoup4's class).
func TestRankPossessiveTypeNamesPackage(t *testing.T) {
	getText := func(name, qualified, doc string) *docidx.PackageDocs {
		return fixturePackage(docidx.PyPI, name, "1.0.0", docidx.Symbol{Kind: docidx.KindMethod, Name: "get_text", QualifiedName: qualified,
			Signature: "def get_text(self) -> str", Doc: doc})
	}
	r := openRankFixture(t,
		fixturePackage(docidx.PyPI, "beautifulsoup4", "4.0.0",
			docidx.Symbol{Kind: docidx.KindClass, Name: "BeautifulSoup", QualifiedName: "bs4.BeautifulSoup", Signature: "class BeautifulSoup(Tag)", Doc: "A data structure representing a parsed document."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "get_text", QualifiedName: "bs4.Tag.get_text", Signature: "def get_text(self, separator='') -> str", Doc: "Get all child strings of this element, concatenated. That means no comments."}),
		getText("mailparse", "mailparse.Message.get_text", "Returns the text of the message, with its HTML comments kept in the text."),
		getText("docscan", "docscan.Page.get_text", "Returns the text of the page, HTML comments included in the text."),
		getText("wiretext", "wiretext.Frame.get_text", "Returns the frame's text and comments."),
	)
	rankedFirst(t, r, "Does BeautifulSoup's get_text() include the text of HTML comments?",
		"docidx://pypi/beautifulsoup4@4.0.0/symbol/bs4.Tag.get_text")
	// A type's name written as a variable is, and a type that is not code's owner is not.
	checkNamed(t, r, map[string][]string{
		"what does BeautifulSoup.get_text() return?":     {"pypi\x00beautifulsoup4"},
		"what does beautifulsoup.get_text() return?":     nil,
		"is BeautifulSoup's parser faster than regexes?": nil,
	})
}

func TestRankSearchFilters(t *testing.T) {
	r := openRankFixture(t,
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0", Description: "worker pool"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "NewPool", Package: "example.com/pool", QualifiedName: "pool.NewPool", Doc: "NewPool starts a worker pool."}}},
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "pool", Version: "1.0.0", Description: "worker pool for node"},
			Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "pool",
				Sections: []docidx.Section{{Heading: []string{"pool", "Workers"}, Anchor: "workers", Plain: "Each worker of the pool runs one job."}}}}},
	)
	for _, c := range []struct {
		q    Query
		want []string
	}{
		{Query{}, []string{"docidx://golang/example.com/pool@v1.0.0/overview", "docidx://golang/example.com/pool@v1.0.0/symbol/pool.NewPool",
			"docidx://npm/pool@1.0.0/overview", "docidx://npm/pool@1.0.0/readme#0"}},
		{Query{Ecosystem: docidx.NPM}, []string{"docidx://npm/pool@1.0.0/overview", "docidx://npm/pool@1.0.0/readme#0"}},
		{Query{Package: "example.com/pool"}, []string{"docidx://golang/example.com/pool@v1.0.0/overview", "docidx://golang/example.com/pool@v1.0.0/symbol/pool.NewPool"}},
		{Query{Kind: "symbol"}, []string{"docidx://golang/example.com/pool@v1.0.0/symbol/pool.NewPool"}},
		{Query{Kind: "section", Ecosystem: docidx.Go}, []string{"docidx://golang/example.com/pool@v1.0.0/overview"}},
		{Query{Kind: "func"}, []string{"docidx://golang/example.com/pool@v1.0.0/symbol/pool.NewPool"}},
		{Query{Kind: "readme"}, []string{"docidx://npm/pool@1.0.0/readme#0"}},
		{Query{Kind: "class"}, nil},
	} {
		hits, total, _ := r.r.rankSearch(r.r.rank, "worker pool", c.q, 100, 100, firstRecords(100))
		var got []string
		for _, h := range hits {
			got = append(got, h.rec.id)
		}
		if total != len(c.want) || !sameSet(got, c.want) {
			t.Errorf("%+v: got %v (total %d), want %v", c.q, got, total, c.want)
		}
	}
}

// A question whose only word besides stop words names an ecosystem ("python", "in python") is
// about that ecosystem's name: it is searched for that name, not for nothing.
func TestRankEcosystemNameOnly(t *testing.T) {
	r := openRankFixture(t,
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "python-dateutil", Version: "2.9.0", Description: "Extensions to the standard Python datetime module"}},
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "dayjs", Version: "1.11.0", Description: "2KB immutable date time library"}},
	)
	for _, text := range []string{"python", "in python", "python and a"} {
		hits, total, _ := r.r.rankSearch(r.r.rank, text, Query{}, 100, 10, firstRecords(10))
		if total == 0 || len(hits) == 0 || hits[0].rec.id != "docidx://pypi/python-dateutil@2.9.0/overview" {
			t.Errorf("%q: %d hits (total %d), want python-dateutil's overview first", text, len(hits), total)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		if m[s]--; m[s] < 0 {
			return false
		}
	}
	return true
}

func TestSplitMajor(t *testing.T) {
	for in, want := range map[string]struct {
		base  string
		major int
	}{
		"github.com/go-chi/chi/v5":    {"github.com/go-chi/chi", 5},
		"github.com/go-chi/chi":       {"github.com/go-chi/chi", 1},
		"gopkg.in/yaml.v3":            {"gopkg.in/yaml", 3},
		"example.com/app.v2":          {"example.com/app.v2", 1}, // dotted majors are gopkg.in's only
		"example.com/v1":              {"example.com/v1", 1},
		"example.com/v0":              {"example.com/v0", 1},
		"example.com/x/v10":           {"example.com/x", 10},
		"example.com/v2x":             {"example.com/v2x", 1},
		"v2":                          {"v2", 1},
		"github.com/jackc/pgx/v5":     {"github.com/jackc/pgx", 5},
		"github.com/cenkalti/backoff": {"github.com/cenkalti/backoff", 1},
	} {
		base, major := splitMajor(in)
		if base != want.base || major != want.major {
			t.Errorf("splitMajor(%q) = %q, %d; want %q, %d", in, base, major, want.base, want.major)
		}
	}
}

func TestEcosystemsNamed(t *testing.T) {
	for text, want := range map[string]struct {
		ecos []docidx.Ecosystem
		rest string
	}{
		"parse yaml in python":               {[]docidx.Ecosystem{docidx.PyPI}, "parse yaml in"},
		"go to definition":                   {nil, "go to definition"},
		"http router in go":                  {[]docidx.Ecosystem{docidx.Go}, "http router in"},
		"color terminal output go":           {[]docidx.Ecosystem{docidx.Go}, "color terminal output"},
		"is stdout a tty in a Go CLI":        {[]docidx.Ecosystem{docidx.Go}, "is stdout a tty in a CLI"},
		"how to go back a page":              {nil, "how to go back a page"},
		"pool size of the MongoDB Go driver": {[]docidx.Ecosystem{docidx.Go}, "pool size of the MongoDB driver"},
		"Go back to the start":               {nil, "Go back to the start"},
		"cli framework for Node.js":          {[]docidx.Ecosystem{docidx.NPM}, "cli framework for"},
		"relative time in JavaScript":        {[]docidx.Ecosystem{docidx.NPM}, "relative time in"},
		"run goroutines":                     {nil, "run goroutines"},
		"golang or rust or python":           {[]docidx.Ecosystem{docidx.Go, docidx.Cargo, docidx.PyPI}, "or or"},
		"pip-installable package":            {nil, "pip-installable package"},
		"parse a URL with Node's url module": {[]docidx.Ecosystem{docidx.NPM}, "parse a URL with url module"},
		"is Go's map ordered?":               {[]docidx.Ecosystem{docidx.Go}, "is map ordered?"},
		"a yaml node's children":             {nil, "a yaml node's children"},
	} {
		ecos, rest := ecosystemsNamed(text)
		var got []docidx.Ecosystem
		for _, e := range docidx.Ecosystems {
			if ecos[e] {
				got = append(got, e)
			}
		}
		var wantSorted []docidx.Ecosystem
		for _, e := range docidx.Ecosystems {
			if slices.Contains(want.ecos, e) {
				wantSorted = append(wantSorted, e)
			}
		}
		if !slices.Equal(got, wantSorted) || rest != want.rest {
			t.Errorf("ecosystemsNamed(%q) = %v, %q; want %v, %q", text, got, rest, wantSorted, want.rest)
		}
	}
}

// TestNamesAsWritten: a capital after a possessive is a name but owns no members (memberBonuses
// would find them by "limit", a word of every third doc); beside an identifier it is one.
func TestNamesAsWritten(t *testing.T) {
	for text, want := range map[string]struct {
		names     []string
		possessed []bool
	}{
		"wrap it in http-body-util's Limited": {[]string{"Limited"}, []bool{true}},
		"is parking_lot's Condvar fair":       {[]string{"parking_lot", "Condvar"}, []bool{false, false}},
		"tower Layer":                         {[]string{"Layer"}, []bool{false}},
	} {
		names, possessed := namesAsWritten(text)
		if !slices.Equal(names, want.names) || !slices.Equal(possessed, want.possessed) {
			t.Errorf("namesAsWritten(%q) = %q, %v, want %q, %v", text, names, possessed, want.names, want.possessed)
		}
	}
}

func TestIdentifierWords(t *testing.T) {
	for text, want := range map[string][]string{
		"useState hook":             {"usestate"},
		"yaml.safe_load":            {"safe_load"},
		"HandleFunc Methods":        {"handlefunc", "methods"},
		"errgroup WithContext":      {"withcontext"},
		"run goroutines":            nil,
		"Parse command line flags":  nil,
		"uuid":                      {"uuid"},
		"acme_ring::Ring::push":     {"push"},
		"(readFileSync) in node.js": {"readfilesync"},
		// Only beside an identifier, and not one letter: "I" named every symbol called I.
		"If I call limit.clearQueue(), do the tasks that are already in flight get aborted?": {"clearqueue"},
		"Use Router HandleFunc": {"handlefunc", "router"},
		// A search of two words is a lookup: its capitalized word is a name.
		"tower Layer":   {"layer"},
		"Layer tower":   {"layer"},
		"tower layer":   nil,
		"A tower Layer": nil,
		// A member spelled with its owner's path, or called.
		"IndexMap::remove scrambles the order":    {"remove"},
		"does Request.args hold the form too":     {"args"},
		"what does np.round() do with halves":     {"round"},
		"edit README.md and package.json, e.g. x": nil,
		"in node.js or socket.io":                 nil,
		`semver.IsValid("1.2.3") is false`:        {"isvalid"},
		"lo.Ternary(p != nil, a, b)":              {"ternary"},
		// Generic arguments, a value given to a name and a possessive are not the name.
		"does SmallVec<[u8; 4]> spill":                   {"smallvec"},
		"fields.Str(load_default=None, allow_none=True)": {"str", "load_default", "allow_none"},
		"is parking_lot's Condvar fair":                  {"parking_lot", "condvar"},
		// After a possessive, a capitalized identifier is the owner's name, not a sentence's
		// first word; a header's name is not an identifier.
		"what does chi's Timeout do":               {"timeout"},
		"the server's Content-Type has no charset": nil,
		// A Rust macro's invocation is a call, as a call with parentheses is; a capitalized
		// word's "!" is an exclamation (a lower-case one reads as a macro's: "it broke!").
		"is select! cancel safe":              {"select"},
		"strip debug! calls from release":     {"debug"},
		"what does serde_json::json!({ build": {"json"},
		"my info!, warn! lines":               {"info", "warn"},
		"Help! it fails":                      nil,
	} {
		if got := identifierWords(text); !slices.Equal(got, want) {
			t.Errorf("identifierWords(%q) = %q, want %q", text, got, want)
		}
	}
}

// rank.idx reads its hits' text from search.bleve by document number: when Bleve's numbers are
// not rank.idx's (a document deleted from an unmerged index leaves a gap), its table of them
// leads each hit to its own document, never to a neighbour's.
func TestRankHitsByBleveNumber(t *testing.T) {
	dir := t.TempDir()
	im, sm := testMappings(t)
	// In memory: scorch then neither persists nor merges, which would close the gap.
	idx, err := bleve.NewUsing("", sm, scorch.Name, scorch.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	p := &docidx.Package{Ecosystem: docidx.Go, Name: "example.com/gap", Version: "v1.0.0", Description: "gaps"}
	var syms []docidx.Symbol
	for _, name := range []string{"Alpha", "Beta", "Gamma", "Delta"} {
		syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: name, QualifiedName: "gap." + name, Signature: "func " + name + "()", Doc: name + " does one thing."})
	}
	b := idx.NewBatch()
	for d := range searchDocs(p, nil, syms) {
		if err := b.Index(d.id, storedValuesOf(d.fields)); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	// Document 0 goes: the others keep their numbers, 1 to 4. (Scorch numbers a batch's
	// documents in the order their analysis ends.)
	first, err := idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	fr, err := first.Reader()
	if err != nil {
		t.Fatal(err)
	}
	gone, err := fr.ExternalID(index.IndexInternalID{0, 0, 0, 0, 0, 0, 0, 0})
	fr.Close()
	if err != nil || gone == "" {
		t.Fatalf("no document 0: %q, %v", gone, err)
	}
	if err := idx.Delete(gone); err != nil {
		t.Fatal(err)
	}
	acc, err := newRankAcc(im)
	if err != nil {
		t.Fatal(err)
	}
	sds := slices.Collect(searchDocs(p, nil, syms))
	for i := range sds {
		if sds[i].id != gone {
			if err := acc.add(&sds[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	nums := map[string]uint32{}
	if err := eachBleveNumber(idx, func(id string, num uint32) { nums[id] = num }); err != nil {
		t.Fatal(err)
	}
	rb, err := acc.build(nums)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, RankFile)
	if err := rb.write(path); err != nil {
		t.Fatal(err)
	}
	ri, err := openRankSegment(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ri.close()
	if ri.docNums == nil {
		t.Fatal("no table of Bleve numbers for an index with a gap in them")
	}
	adv, err := idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	ir, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer ir.Close()
	var got []string
	for doc := range uint32(ri.docs) {
		var rec hitRecord
		if _, err := ri.storedHit(ir, doc, &rec, nil); err != nil {
			t.Fatalf("document %d: %v", doc, err)
		}
		if rec.id != rec.uri {
			t.Errorf("document %d: ID %s, URI %s", doc, rec.id, rec.uri)
		}
		got = append(got, rec.title)
	}
	var want []string
	for d := range searchDocs(p, nil, syms) {
		if d.id != gone {
			want = append(want, d.fields[fSTitle].(string))
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("titles %v, want %v", got, want)
	}
}

// FuzzLoadRank opens mutated rank indexes whose checksum is made to match, so that the mutation
// reaches the parser: every input is a segment that opens and reads without a panic, or an
// error wrapping errRankFormat. (A mutation the checksum catches never gets this far.)
func FuzzLoadRank(f *testing.F) {
	r := openRankFixture(f, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "fuzz", Version: "1.0.0", Description: "fuzzing the rank index"},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "parse", Signature: "parse(s: string): Tree", Doc: "Parses s."}},
	})
	good, err := os.ReadFile(r.r.rank.segs[0].f.Name())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), []byte{})
	for _, off := range []uint32{8, 12, 36, 40, 60, 100, 200, uint32(len(good) / 2)} {
		f.Add(off, []byte{0xff, 0x00, 0x7f})
	}
	path := filepath.Join(f.TempDir(), RankFile)
	f.Fuzz(func(t *testing.T, off uint32, patch []byte) {
		data := slices.Clone(good[:len(good)-4])
		if len(data) > 0 {
			at := int(off) % len(data)
			data = append(data[:at], append(slices.Clone(patch), data[min(len(data), at+len(patch)):]...)...)
		}
		data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, castagnoli))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if shape, err := openRank(path, true); err == nil {
			shape.close()
		} else if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("openRank(shape only): %v, want ErrCorrupt", err)
		}
		seg, err := openRankSegment(path)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("openRankSegment: %v, want ErrCorrupt", err)
			}
			return
		}
		defer seg.close()
		for _, term := range []string{"pars", "fuzz", "\x01parse", "tree", "zzz"} {
			if _, list, ok, _ := seg.find(term); ok {
				seg.read(list)
			}
		}
		for p := range seg.npkgs {
			seg.pkgTerms(p, func(uint32, uint32) {})
		}
		for i := range seg.nexact {
			seg.exactPostings(i)
		}
	})
}

// withDocs gives ri, of ri.npkgs package versions, one segment of len(docPkg) documents of these
// package versions and kind bytes (the snapshot's kind ordinals, bit 7 for symbols), of which
// the documents undoc are symbols without a doc comment, as newRankIndex numbers a snapshot.
func withDocs(ri *rankIndex, docPkg []uint32, docKind []uint8, undoc ...int) *rankIndex {
	seg := &rankSegment{docs: len(docPkg), npkgs: ri.npkgs, docPkg: make([]byte, 4*len(docPkg)), docKind: docKind}
	for d, p := range docPkg {
		binary.LittleEndian.PutUint32(seg.docPkg[4*d:], p)
	}
	if undoc != nil {
		seg.docFlags = make([]byte, 8*((len(docPkg)+63)/64))
		for _, d := range undoc {
			seg.docFlags[d/8] |= 1 << (d % 8)
		}
	}
	var kindMap [128]uint8
	for k := range kindMap {
		kindMap[k] = uint8(k)
	}
	ri.docs, ri.segs, ri.kindMap = len(docPkg), []*rankSegment{seg}, [][128]uint8{kindMap}
	ri.docBase, ri.pkgBase = []uint32{0, uint32(len(docPkg))}, []uint32{0, uint32(ri.npkgs)}
	ri.numberRuns()
	return ri
}

// TestDocsOf checks the filter table of documents (docsOf) against each document's package
// version and kind, with each version's documents numbered together (set a word of bits at a
// time) and not (tested one by one through the runs).
func TestDocsOf(t *testing.T) {
	const docs = 1000
	kinds := []string{"readme", "func", "type"}
	for _, together := range []bool{true, false} {
		docPkg, docKind := make([]uint32, docs), make([]uint8, docs)
		for doc := range uint32(docs) {
			p := doc * 7 / docs // runs of 142 or 143 documents
			if !together {
				p = doc % 7
			}
			docPkg[doc] = p
			docKind[doc] = uint8(doc % 3)
			if doc%3 != 0 {
				docKind[doc] |= 0x80 // func and type are symbols
			}
		}
		ri := withDocs(&rankIndex{npkgs: 7, kinds: kinds}, docPkg, docKind)
		if _, ok := ri.pkgDocs(); ok != together {
			t.Fatalf("together %v: pkgDocs ok %v", together, ok)
		}
		pkgOK := []bool{true, false, true, true, false, false, true}
		for _, kind := range []string{"", "symbol", "section", "func", "type", "readme"} {
			got := ri.docsOf(pkgOK, kind)
			f := &docFilter{docOK: got}
			for doc := range uint32(docs) {
				k := kinds[docKind[doc]&0x7f]
				want := pkgOK[docPkg[doc]] && (kind == "" || kind == k ||
					kind == "symbol" && k != "readme" || kind == "section" && k == "readme")
				if f.keep(doc) != want {
					t.Fatalf("together %v, kind %q: document %d (package %d, %s) kept %v, want %v",
						together, kind, doc, docPkg[doc], k, !want, want)
				}
			}
		}
	}
}

// TestDiversifyBest checks diversify, which selects the best need documents after the package
// decay, against sorting the whole window again: on windows with equal scores, documents of
// few and of many packages, and named packages.
func TestDiversifyBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 14))
	for trial := range 300 {
		npkgs := 1 + rng.IntN(12)
		docs := 400
		docPkg := make([]uint32, docs)
		for d := range docPkg {
			docPkg[d] = uint32(rng.IntN(npkgs))
		}
		ri := withDocs(&rankIndex{npkgs: npkgs}, docPkg, make([]uint8, docs))
		var named []bool
		if trial%3 == 0 {
			named = make([]bool, npkgs)
			named[rng.IntN(npkgs)] = true
		}
		window := 1 + rng.IntN(120)
		var top scoreHeap
		for _, d := range rng.Perm(docs)[:rng.IntN(docs)] {
			top.offer(scored{doc: uint32(d), ord: uint32(docs - d), score: float64(rng.IntN(20))}, window)
		}
		// The reference: the window sorted, decayed, sorted again.
		want := slices.Clone([]scored(top))
		slices.SortFunc(want, func(a, b scored) int { return cmpScored(b, a) })
		seen := make([]int, npkgs)
		for i := range want {
			p := docPkg[want[i].doc]
			if named != nil && named[p] {
				continue
			}
			want[i].score *= packageDecayPow(seen[p])
			seen[p]++
		}
		slices.SortFunc(want, func(a, b scored) int { return cmpScored(b, a) })
		need := []int{0, 1, 3, 13, 60, 200}[trial%6]
		want = want[:min(need, len(want))]
		if got := ri.diversify(top, named, need); !slices.Equal(got, want) {
			t.Fatalf("trial %d, need %d:\n got %v\nwant %v", trial, need, got, want)
		}
	}
}

// TestQueryPriors checks queryPriors against prior: for questions naming random ecosystems and
// package versions (through packagePriors), every document outside the named versions' ranges
// has its class's prior, to the bit, and the ranges hold exactly the named versions' documents.
func TestQueryPriors(t *testing.T) {
	kinds := []string{"overview", "readme", "func", "field", "doc"}
	ecos := []docidx.Ecosystem{docidx.Go, docidx.NPM, docidx.PyPI}
	const docs, npkgs = 600, 12
	ri := &rankIndex{npkgs: npkgs, kinds: kinds, overviewKind: 0, pkgPrior: make([]float32, npkgs)}
	for k, name := range kinds {
		ri.kindPrior[k] = float32(kindPriorOf(name))
	}
	for p := range npkgs {
		ri.pkgs = append(ri.pkgs, string(ecos[p%len(ecos)])+"\x00pkg"+strconv.Itoa(p))
		ri.pkgPrior[p] = 1
		if p%4 == 1 {
			ri.pkgPrior[p] = priorSuperseded
		}
	}
	docPkg, docKind := make([]uint32, docs), make([]uint8, docs)
	for doc := range docs {
		docKind[doc] = uint8(doc % len(kinds))
		if doc%len(kinds) >= 2 && doc%len(kinds) <= 3 {
			docKind[doc] |= 0x80
		}
		docPkg[doc] = uint32(doc / (docs / npkgs))
	}
	var undoc []int
	for doc := 0; doc < docs; doc += 7 { // symbols without a doc comment, of every kind
		undoc = append(undoc, doc)
	}
	withDocs(ri, docPkg, docKind, undoc...)
	rng := rand.New(rand.NewPCG(28, 4))
	for trial := range 200 {
		named := map[docidx.Ecosystem]bool{}
		for _, e := range ecos {
			if rng.IntN(3) == 0 {
				named[e] = true
			}
		}
		var namedPkgs []uint32
		for p := range uint32(npkgs) {
			if rng.IntN(5) == 0 {
				namedPkgs = append(namedPkgs, p)
			}
		}
		pkgPrior, namedPkg := ri.packagePriors(named, namedPkgs, nil, nil)
		table, ranges, ok := ri.queryPriors(pkgPrior, namedPkg)
		if !ok {
			t.Fatal("no classes")
		}
		inRange := func(doc uint32) bool {
			return slices.ContainsFunc(ranges, func(r [2]uint32) bool { return r[0] <= doc && doc < r[1] })
		}
		for doc := range uint32(docs) {
			p := docPkg[doc]
			if got := inRange(doc); got != slices.Contains(namedPkgs, p) {
				t.Fatalf("trial %d: document %d of package %d in the named ranges %v: %v", trial, doc, p, ranges, got)
			}
			if inRange(doc) {
				continue
			}
			if got, want := table[ri.classes.class[doc]], ri.prior(doc, pkgPrior, namedPkg); got != want {
				t.Fatalf("trial %d: document %d (%s, package %d, prior %v): class prior %v, want %v", trial, doc, kinds[doc%5], p, pkgPrior[p], got, want)
			}
		}
	}
}

// TestPriorClassesBounded checks that no classes are made when the package versions fall into
// more than 256 groups of an ecosystem and a prior.
func TestPriorClassesBounded(t *testing.T) {
	const npkgs = 300
	ri := &rankIndex{npkgs: npkgs, pkgPrior: make([]float32, npkgs)}
	docPkg := make([]uint32, npkgs)
	for p := range npkgs {
		ri.pkgs = append(ri.pkgs, "golang\x00m"+strconv.Itoa(p))
		ri.pkgPrior[p] = 1 + float32(p)/1000
		docPkg[p] = uint32(p)
	}
	withDocs(ri, docPkg, make([]uint8, npkgs))
	if _, ok := ri.priorClasses(); ok {
		t.Error("classes made for 300 groups")
	}
	if _, _, ok := ri.queryPriors(ri.pkgPrior, nil); ok {
		t.Error("query priors made for 300 groups")
	}
}

// TestLookupRemembered checks that a rank index remembers the lookup of a term, found or not,
// and answers it again the same, but not a lookup whose dictionary block could not be read.
func TestLookupRemembered(t *testing.T) {
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0", Description: "worker pool"},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "NewPool", Package: "example.com/pool", QualifiedName: "pool.NewPool", Doc: "NewPool starts a worker pool."}},
	})
	ri := r.r.rank
	first, ok := ri.lookup("pool")
	if !ok {
		t.Fatal("pool not found")
	}
	if _, ok := ri.lookup("zzzabsent"); ok {
		t.Fatal("zzzabsent found")
	}
	if _, known := ri.terms["pool"]; !known {
		t.Error("the lookup of pool is not remembered")
	}
	if _, known := ri.terms["zzzabsent"]; !known {
		t.Error("the lookup of an absent term is not remembered")
	}
	again, ok := ri.lookup("pool")
	if !ok || !reflect.DeepEqual(again, first) {
		t.Errorf("pool again: %+v, %v; first %+v", again, ok, first)
	}
	// A block that cannot be read (outside what is mapped): not found, and not remembered.
	seg := ri.segs[0]
	data := seg.data
	seg.data = data[:seg.dictAt]
	_, ok = ri.lookup("worker")
	seg.data = data
	if ok {
		t.Error("worker found in a block outside the mapping")
	}
	if _, known := ri.terms["worker"]; known {
		t.Error("a lookup that could not read its block is remembered")
	}
}

// Of a package's first hits, the one whose passage holds the question's words together comes
// before one that holds them far apart, whatever their model scores; each package keeps its
// places, and scores stay in rank order.
func TestSearchByProximity(t *testing.T) {
	filler := strings.Repeat("This paragraph describes the module in general terms and says nothing of interest here. ", 6)
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindFunc, Name: "RetryJob", QualifiedName: "pool.RetryJob", Signature: "func RetryJob(job Job)", Doc: "RetryJob hands a job back.\n\n" + filler + "\n\nIt is for one that failed.\n\n" + filler + "\n\nThe pool counts the times."},
			{Kind: docidx.KindFunc, Name: "Run", QualifiedName: "pool.Run", Signature: "func Run(job Job)", Doc: "Run runs a job. When a job failed, Run will retry it three times before it gives up."},
		},
	})
	res, err := r.Search(context.Background(), Query{Text: "how many times does the pool retry a failed job"})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for i, h := range res.Hits {
		titles = append(titles, h.Title)
		if i > 0 && h.Score > res.Hits[i-1].Score {
			t.Errorf("hit %d scores %v, above hit %d's %v", i+1, h.Score, i, res.Hits[i-1].Score)
		}
	}
	if len(titles) < 2 || titles[0] != "pool.Run" {
		for _, h := range res.Hits {
			t.Log(h.Title, h.Score)
		}
		t.Errorf("got %v, want pool.Run first", titles)
	}
}

// Proximity orders again deeper than the first page: a package's page that holds the question's
// words together comes first though its model score puts it below a dozen siblings that hold
// them far apart (a long option list whose one item answers, as keyv's options.namespace).
func TestSearchByProximityDepth(t *testing.T) {
	filler := strings.Repeat("This paragraph describes the module in general terms and says nothing of interest here. ", 6)
	var syms []docidx.Symbol
	for i := range 12 {
		name := fmt.Sprintf("Step%02d", i)
		syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: name, QualifiedName: "pool." + name, Signature: "func " + name + "(job Job)",
			Doc: name + " hands a job back.\n\n" + filler + "\n\nIt is for one that failed.\n\n" + filler + "\n\nThe pool counts.\n\n" + filler + "\n\nIt may retry.\n\n" + filler + "\n\nIt notes the times.\n\n" + filler + "\n\nMany wait."})
	}
	syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: "Policy", QualifiedName: "pool.Policy", Signature: "func Policy() Options",
		Doc: "Policy configures a pool.\n\n" + filler + "\n\nWhen a job failed, the pool will retry it three times before it gives up."})
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0"},
		Symbols: syms,
	})
	res, err := r.Search(context.Background(), Query{Text: "how many times does the pool retry a failed job"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Title != "pool.Policy" {
		for _, h := range res.Hits {
			t.Log(h.Title, h.Score)
		}
		t.Error("want pool.Policy first")
	}
}

// A question with an answer cue puts first the hit of its package whose passage states what the
// cue asks for, over a sibling that repeats as many or more of the question's words: a number
// for "how long" (RTK Query's keepUnusedDataFor, whose endpoint override ranked first though the
// API-wide option gives the default), the word "default" for "unless I set one".
func TestSearchByProximityCues(t *testing.T) {
	option := func(parent, name, doc string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindProperty, Name: name, QualifiedName: parent + "." + name, Parent: parent,
			Signature: name + "?: number", Doc: doc}
	}
	for _, tc := range []struct {
		cue, question, want string
		options             []docidx.Symbol
	}{
		{"number", "how long does the cache hold cached query data once no component is subscribed anymore?", "ApiOptions.keepUnusedDataFor", []docidx.Symbol{
			option("EndpointOptions", "keepUnusedDataFor", "For this endpoint only: how long the cache holds cached query data once no component is subscribed anymore."),
			option("ApiOptions", "keepUnusedDataFor", "This is how long the cache holds query data once no component is subscribed anymore. Defaults to 60 seconds."),
		}},
		{"default", "what separator does format put between the number and its unit unless I set one?", "FormatOptions.unitSeparator", []docidx.Symbol{
			option("FormatOptions", "unitSeparator", "The separator format puts between the number and the unit; none by default."),
			option("ParseOptions", "unitSeparator", "The separator that format puts between the number and its unit, which parse reads back when it is set."),
		}},
	} {
		r := openRankFixture(t, &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.NPM, Name: "options", Version: "1.0.0"}, Symbols: tc.options})
		res, err := r.Search(context.Background(), Query{Text: tc.question})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) < 2 || res.Hits[0].Title != tc.want {
			for _, h := range res.Hits {
				t.Log(h.Title, h.Score)
			}
			t.Errorf("%s cue: want %s, which states it, first", tc.cue, tc.want)
		}
	}
}

// A member declared alike on two types (the same name, declaration and doc) shows one passage
// on both of its hits, whatever their ranks' budgets, so that callers show it once.
func TestSearchTwinsSharePassage(t *testing.T) {
	filler := strings.Repeat("The margin draws its column beside the text and keeps it in step with the lines. ", 30)
	doc := "Return the width that this margin is going to consume.\n\n" + filler + "\n\n:param get_ui_content: asks the control for its content, to count the lines."
	r := openRankFixture(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "margins", Version: "1.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindMethod, Name: "get_width", QualifiedName: "margins.Margin.get_width", Parent: "Margin", Signature: "def get_width(self, get_ui_content) -> int", Doc: doc},
			{Kind: docidx.KindMethod, Name: "get_width", QualifiedName: "margins.ScrollbarMargin.get_width", Parent: "ScrollbarMargin", Signature: "def get_width(self, get_ui_content) -> int", Doc: doc},
		},
	})
	res, err := r.Search(context.Background(), Query{Text: "how wide is the margin column"})
	if err != nil {
		t.Fatal(err)
	}
	var passages []string
	for _, h := range res.Hits {
		if strings.HasSuffix(h.Title, ".get_width") {
			passages = append(passages, h.Snippet)
		}
	}
	if len(passages) != 2 {
		t.Fatalf("%d get_width hits, want 2", len(passages))
	}
	if passages[0] != passages[1] {
		t.Errorf("twins show two passages:\n%q\n%q", passages[0], passages[1])
	}
}

// TestCallPackages: a call the question writes with its owner names the package whose symbol
// it calls so ("protojson.Marshal()" the module google.golang.org/protobuf, whose package
// protojson no package name says), and names none when the owned symbols are in more than
// maxCallPackages packages.
func TestCallPackages(t *testing.T) {
	sym := func(pkg, name, doc string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindFunc, Name: name, Package: pkg, QualifiedName: pkg[strings.LastIndexByte(pkg, '/')+1:] + "." + name,
			Signature: "func " + name + "()", Doc: doc}
	}
	mod := func(path string, syms ...docidx.Symbol) *docidx.PackageDocs {
		return &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: path, Version: "v1.0.0"}, Symbols: syms}
	}
	r := openRankFixture(t,
		mod("example.com/protobuf", sym("example.com/protobuf/encoding/protojson", "Marshal", "Marshal writes the message in protojson's JSON format.")),
		mod("example.com/yaml", sym("example.com/yaml", "Marshal", "Marshal serializes a value to YAML.")),
		mod("example.com/a", sym("example.com/a/util", "Get", "Get reads the value; see util.Get.")),
		mod("example.com/b", sym("example.com/b/util", "Get", "Get fetches the value, as util does.")),
		mod("example.com/c", sym("example.com/c/util", "Get", "Get returns the util's value.")),
	)
	ri, err := r.r.ranked()
	if err != nil {
		t.Fatal(err)
	}
	names := func(words string) []string {
		var out []string
		for _, p := range ri.callPackages(words, ri.ownedByName(words, r.r.wholeTerm), nil) {
			_, name, _ := strings.Cut(ri.pkgKey(p), "\x00")
			out = append(out, name)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if got := names("protojson.Marshal() gives me camelCase keys"); !slices.Equal(got, []string{"example.com/protobuf"}) {
		t.Errorf("protojson.Marshal names %q, want example.com/protobuf", got)
	}
	if got := names("what does util.Get() return"); len(got) != 0 {
		t.Errorf("util.Get names %q, want none: three packages write it", got)
	}
}

// TestAcronymNamesNoPackage: "a wrapper CLI" names no package, though urfave/cli's pages hold
// most of the documents that say "cli"; "in pflag" names pflag, whose answer then ranks first.
// Before, both were named, and urfave/cli's bash-completion page came first.
func TestAcronymNamesNoPackage(t *testing.T) {
	mod := func(path string, secs ...docidx.Section) *docidx.PackageDocs {
		return &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: path, Version: "v1.0.0"},
			Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: path, Sections: secs}}}
	}
	sec := func(path, heading, plain string) docidx.Section {
		return docidx.Section{Heading: []string{path, heading}, Anchor: strings.ToLower(strings.ReplaceAll(heading, " ", "-")), Plain: plain}
	}
	var cliSecs []docidx.Section
	for _, h := range []string{"Commands", "Flags", "Subcommands", "Help", "Version"} {
		cliSecs = append(cliSecs, sec("cli", h, "A cli app defines "+h+" with cli.Command and cli.Flag; the cli package parses them."))
	}
	cliSecs = append(cliSecs, sec("cli", "Bash Completion", "Your CLI app can complete the flags that come after a subcommand name: the cli package stops at the subcommand and completes its flags."))
	r := openRankFixture(t,
		mod("example.com/urfave/cli", cliSecs...),
		mod("example.com/spf13/pflag",
			sec("pflag", "Usage", "pflag is a drop-in replacement for Go's flag package."),
			sec("pflag", "Interspersed Arguments", "By default pflag parses flags after positional arguments too. Call SetInterspersed(false) to stop parsing at the first non-flag argument, such as a subcommand name, and leave the rest to it."),
		),
	)
	if got := acronyms("a Go CLI and HTTP2, not cli or Go"); !reflect.DeepEqual(got, map[string]bool{"cli": true, "http2": true}) {
		t.Errorf("acronyms = %v", got)
	}
	rankedFirst(t, r, "I'm writing a wrapper CLI in pflag; how do I stop it from eating flags that come after the subcommand name?",
		"docidx://golang/example.com/spf13/pflag@v1.0.0/readme#1")
}

// TestRankingKept: the page after a search's first comes from the ranking the first made, kept in
// the reader, and holds what a search of that page alone finds; the reader keeps at most
// maxRankings rankings, the most recent.
func TestRankingKept(t *testing.T) {
	var syms []docidx.Symbol
	for i := range 12 {
		name := fmt.Sprintf("Option%02d", i)
		syms = append(syms, docidx.Symbol{Kind: docidx.KindField, Name: name, QualifiedName: "pool.Config." + name, Parent: "Config",
			Signature: "field " + name + " int", Doc: fmt.Sprintf("%s sets how the pool retries a job, %d times at most.", name, i)})
	}
	docs := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: "example.com/pool", Version: "v1.0.0"}, Symbols: syms}
	r := openRankFixture(t, docs)
	fresh := openRankFixture(t, docs)
	q := Query{Text: "how does the pool retry a job", Limit: 4}
	if _, err := r.Search(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if n := len(r.r.rankings.keys); n != 1 {
		t.Fatalf("the reader keeps %d rankings after one search, want 1", n)
	}
	q.Offset = 4
	got, err := r.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the second page from the kept ranking:\n%+v\nwant, searched alone:\n%+v", got, want)
	}
	if n := len(r.r.rankings.keys); n != 1 {
		t.Errorf("the reader keeps %d rankings after two pages of one search, want 1", n)
	}
	for i := range maxRankings + 3 {
		if _, err := r.Search(context.Background(), Query{Text: fmt.Sprintf("retry a job %d times", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(r.r.rankings.keys); n != maxRankings {
		t.Errorf("the reader keeps %d rankings, want at most %d", n, maxRankings)
	}
}

// TestCodeHeading checks the names that headings written as code end with, and that headings of
// prose have none.
func TestCodeHeading(t *testing.T) {
	for path, want := range map[string]string{
		"keyv › API - Properties › .namespace":                 "namespace",
		"sonic-boom › API › SonicBoom(opts)":                   "sonicboom",
		"sonic-boom › API › SonicBoom#reopen([file])":          "reopen",
		"http-errors › API › createError([status], [message])": "createerror",
		"API › `timeout`":                                      "timeout",
		"lru cache › Options":                                  "",
		"Usage › Parsing Objects":                              "",
		"Overview":                                             "",
		"API › new createError[code || name]([msg]))":          "",
	} {
		if got := codeHeading(path); got != want {
			t.Errorf("codeHeading(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestAskedMajors checks the major versions a question writes as Go writes them.
func TestAskedMajors(t *testing.T) {
	for words, want := range map[string][]int{
		"which commands can't I run through the go-redis v6 client?": {6},
		"urfave/cli v2, or V3?": {2, 3},
		// v1 is a module path without a major suffix ("urfave/cli v1"); v0 makes no promise.
		"in urfave/cli v1, or v0 or v02, or v2.5 or av3": {1},
	} {
		got := slices.Sorted(maps.Keys(askedMajors(words)))
		if !slices.Equal(got, want) {
			t.Errorf("askedMajors(%q) = %v, want %v", words, got, want)
		}
	}
}

// TestPackagePriorsMajor: a question that names a Go module and writes one of its majors names
// that major's module only, which is then not superseded; without the major, both are named.
func TestPackagePriorsMajor(t *testing.T) {
	ri := &rankIndex{npkgs: 3,
		pkgs:     []string{"golang\x00github.com/x/redis", "golang\x00github.com/x/redis/v9", "npm\x00redis"},
		versions: []string{"v6.15.9+incompatible", "v9.2.0", "6.0.0"},
		pkgPrior: []float32{priorSuperseded, 1, 1}}
	all := []uint32{0, 1, 2}
	prior, named := ri.packagePriors(nil, all, nil, map[int]bool{6: true})
	if want := []float32{priorNamedPackage, 1, priorNamedPackage}; !slices.Equal(prior, want) || !slices.Equal(named, []bool{true, false, true}) {
		t.Errorf("v6: priors %v named %v, want %v and the v6 module and npm's redis", prior, named, want)
	}
	prior, named = ri.packagePriors(nil, all, nil, map[int]bool{9: true})
	if want := []float32{priorSuperseded, priorNamedPackage, priorNamedPackage}; !slices.Equal(prior, want) || !slices.Equal(named, []bool{false, true, true}) {
		t.Errorf("v9: priors %v named %v, want %v", prior, named, want)
	}
	prior, named = ri.packagePriors(nil, all, nil, map[int]bool{4: true})
	if want := []float32{priorSuperseded * priorNamedPackage, priorNamedPackage, priorNamedPackage}; !slices.Equal(prior, want) || !slices.Equal(named, []bool{true, true, true}) {
		t.Errorf("v4, which no module has: priors %v named %v, want %v", prior, named, want)
	}
	cli := &rankIndex{npkgs: 2,
		pkgs:     []string{"golang\x00github.com/x/cli", "golang\x00github.com/x/cli/v2"},
		versions: []string{"v1.22.17", "v2.27.7"},
		pkgPrior: []float32{priorSuperseded, 1}}
	prior, named = cli.packagePriors(nil, []uint32{0, 1}, nil, askedMajors("in cli v1, which env var wins?"))
	if want := []float32{priorNamedPackage, 1}; !slices.Equal(prior, want) || !slices.Equal(named, []bool{true, false}) {
		t.Errorf("v1: priors %v named %v, want %v and the module without a major suffix", prior, named, want)
	}
}

func TestFewPackages(t *testing.T) {
	for _, c := range []struct {
		keys []string
		more bool
	}{
		{nil, false},
		{[]string{"a", "a", "a"}, false},
		{[]string{"a", "b", "a", "b"}, false},
		{[]string{"a", "b", "c"}, true},
		{[]string{"a", "b", "a", "c", "a"}, true},
	} {
		var f fewPackages
		for _, k := range c.keys {
			f.add(k)
		}
		if f.more != c.more {
			t.Errorf("%q: more %v, want %v", c.keys, f.more, c.more)
		}
	}
}

// A pronoun's or question word's "'s" is a contraction, not a possessive: "it's" owns nothing.
func TestPossessives(t *testing.T) {
	for text, want := range map[string]map[string]bool{
		"can I resize a fastq queue's concurrency after it's created?": {"queue": true},
		"what's the default of BeautifulSoup’s parser?":                {"beautifulsoup": true},
		"there's no limit, is there? Let's see":                        nil,
	} {
		if got := possessives(text); !maps.Equal(got, want) {
			t.Errorf("possessives(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestExactNamed: the documents of a named package that accumulate did not score (here left
// out by its filter, as its bound leaves out those without the rarer words) take the scores an
// unbounded accumulate gives them, other forms of the words included; other documents keep
// theirs.
func TestExactNamed(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "wire", "1.0.0",
			docidx.Symbol{Kind: docidx.KindConst, Name: "LIMIT", QualifiedName: "wire::LIMIT", Signature: "pub const LIMIT: usize", Doc: "The maximum message size: four megabytes."},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "frame", QualifiedName: "wire::frame", Signature: "pub fn frame()", Doc: "Frames a message up to the max size: the maximum is LIMIT."}),
		fixturePackage(docidx.Cargo, "other", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "send", QualifiedName: "other::send", Signature: "pub fn send()", Doc: "Sends a message of max size."}),
	)
	ri := r.r.rank
	_, words := ecosystemsNamed("wire max message size")
	terms := r.r.searchTerms(words)
	lists := ri.termLists(terms)
	alts, groups := r.r.alternatives(words, terms)
	var wire uint32
	for p := range uint32(ri.npkgs) {
		if strings.HasSuffix(ri.pkgKey(p), "\x00wire") {
			wire = p
		}
	}
	ranges, _ := ri.pkgDocs()
	pkgOK := make([]bool, ri.npkgs)
	for p := range pkgOK {
		pkgOK[p] = uint32(p) != wire
	}
	without := &docFilter{docOK: ri.docsOf(pkgOK, "")}

	want := ri.acquire()
	defer ri.release(want)
	ri.accumulate(want, lists, nil)
	ri.accumulateAlternatives(want, ri.altLists(alts, groups, lists), groups, lists, nil)
	got := ri.acquire()
	defer ri.release(got)
	ri.accumulate(got, lists, without)
	ri.accumulateAlternatives(got, ri.altLists(alts, groups, lists), groups, lists, without)
	lo, hi := ranges[wire][0], ranges[wire][1]
	if got.matchedOf(lo) != 0 {
		t.Fatal("the filter did not leave wire out: the test tests nothing")
	}
	if !ri.exactNamed(got, lists, ri.altLists(alts, groups, lists), groups, []uint32{wire}, nil) {
		t.Fatal("exactNamed: unreadable list")
	}
	alt := false
	for doc := range uint32(ri.docs) {
		if got.scoreOf(doc) != want.scoreOf(doc) || got.matchedOf(doc) != want.matchedOf(doc) {
			t.Errorf("document %d (wire's: %v): score %v of %d words, want %v of %d", doc, doc >= lo && doc < hi,
				got.scoreOf(doc), got.matchedOf(doc), want.scoreOf(doc), want.matchedOf(doc))
		}
		alt = alt || doc >= lo && doc < hi && want.matchedOf(doc) >= 3
	}
	if !alt {
		t.Error("no wire document holds \"maximum\" for \"max\": the test does not test other forms")
	}
}

// TestKeepsIn: a filter keeps a range when it keeps one of its documents, whole words of the
// bitmap or single bits; nil keeps every non-empty range.
func TestKeepsIn(t *testing.T) {
	f := &docFilter{docOK: make([]uint64, 4)}
	f.docOK[1] = 1 << 5 // document 69
	f.docOK[3] = 1      // document 192
	for _, c := range []struct {
		lo, hi uint32
		want   bool
	}{{0, 69, false}, {0, 70, true}, {69, 70, true}, {70, 192, false}, {64, 128, true}, {128, 192, false}, {130, 256, true}, {5, 5, false}} {
		if got := f.keepsIn(c.lo, c.hi); got != c.want {
			t.Errorf("keepsIn(%d, %d) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
	var none *docFilter
	if !none.keepsIn(3, 4) || none.keepsIn(4, 4) {
		t.Error("a nil filter keeps every non-empty range and no empty one")
	}
}

// TestRestShare checks that the share of a score left to words other than a package's names is
// 0 when the two float32 sums differ only by rounding, and kept when a word adds to it.
func TestRestShare(t *testing.T) {
	raw := float64(float32(12.135) + float32(0.5) + float32(1.5))
	named := float64(float32(1.5) + float32(12.135) + float32(0.5))
	for _, c := range []struct {
		name       string
		raw, named float64
		want       float64
	}{
		{"rounding", raw, named + 2e-6, 0},
		{"rounding the other way", raw + 2e-6, named, 0},
		{"no names", 10, 0, 1},
		{"a word adds 1%", 10, 9.9, 0.01},
		{"names only", 10, 10, 0},
	} {
		if got := restShare(c.raw, c.named); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: restShare(%v, %v) = %v, want %v", c.name, c.raw, c.named, got, c.want)
		}
	}
}

// TestDottedOwners checks the owners of dotted words a question writes nowhere else.
func TestDottedOwners(t *testing.T) {
	for text, want := range map[string]map[string][]string{
		"does toml read a time.Duration?":                 {"time": {"duration"}},
		"does term.GetSize's height include scrollback?":  {"term": {"getsize"}},
		"yaml.dump() vs yaml.safe_dump()":                 {"yaml": {"dump", "safe_dump"}},
		"does yaml sort keys in yaml.dump()?":             nil, // "yaml" is written alone too
		"can qs.parse read a.b.c keys?":                   {"qs": {"parse"}, "a": {"c"}},
		"is socket.io's reconnect on by default?":         {"socket": {"io"}},
		"what does golang.org/x/mod's semver.Compare do?": {"semver": {"compare"}},
	} {
		got := dottedOwners(text)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("dottedOwners(%q) = %v, want %v", text, got, want)
		}
	}
}

// firstRecords is rankSearch's records for the first n hits.
func firstRecords(n int) func(int) bool { return func(rank int) bool { return rank < n } }

// A package version the question does not name takes at most a third of the window of
// documents ranked for diversity (crowdShare): 60 alike generated members that say "unit"
// twice leave room for the other packages' pages that say it once, which diversify then ranks
// above the crowded package's lower members, where before they were never in the window.
// Named, the crowded package keeps the whole window.
func TestCrowdedPackageLeavesRoom(t *testing.T) {
	var gen []docidx.Symbol
	for i := range 60 {
		gen = append(gen, docidx.Symbol{Kind: docidx.KindMethod, Name: "Unit", Parent: fmt.Sprintf("Gauge%d", i),
			QualifiedName: fmt.Sprintf("semconv.Gauge%d.Unit", i), Signature: "func Unit() string",
			Doc: "Unit returns the unit of the instrument, the unit of its measurements."})
	}
	other := func(name, doc string) *docidx.PackageDocs {
		return fixturePackage(docidx.Go, "example.com/"+name, "v1.0.0", docidx.Symbol{Kind: docidx.KindFunc,
			Name: "Convert", QualifiedName: name + ".Convert", Signature: "func Convert()", Doc: doc})
	}
	r := openRankFixture(t, fixturePackage(docidx.Go, "example.com/semconv", "v1.0.0", gen...),
		other("units", "Convert turns a value from one unit to another."),
		other("measure", "Convert parses a measurement unit."))
	window := 30
	packages := func(question string, q Query) map[string]int {
		hits, _, _ := r.r.rankSearch(r.r.rank, question, q, window, window, firstRecords(window))
		n := map[string]int{}
		for _, h := range hits {
			n[r.r.rank.pkgKey(r.r.rank.pkgOf(h.doc))]++
		}
		return n
	}
	got := packages("unit", Query{})
	others := 0
	for _, name := range []string{"example.com/units", "example.com/measure"} {
		if got["golang\x00"+name] == 0 {
			t.Errorf("unit: %v, want %s's pages among the %d ranked", got, name, window)
		}
		others += got["golang\x00"+name]
	}
	if n := got["golang\x00example.com/semconv"]; n != window-others {
		t.Errorf("unit: %d of the crowded package ranked, want the %d the others leave", n, window-others)
	}
	if n := packages("semconv unit", Query{})["golang\x00example.com/semconv"]; n != window {
		t.Errorf("semconv unit: %d of the named package ranked, want all %d", n, window)
	}
}

// A symbol of a package the question names whose name the question says as words ("a default
// value for an argument": Arg::default_value) comes before one whose doc holds those words more
// often, and before a symbol of that name of a package the question does not name.
func TestRankNameSaidAsWords(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "clap", "4.0.0",
			docidx.Symbol{Kind: docidx.KindMethod, Name: "default_value", QualifiedName: "clap::Arg::default_value", Signature: "pub fn default_value(self, val: impl IntoResettable<OsStr>) -> Arg", Doc: "Value for the argument when not present."},
			docidx.Symbol{Kind: docidx.KindConst, Name: "DefaultValue", QualifiedName: "clap::parser::ValueSource::DefaultValue", Signature: "DefaultValue", Doc: "Value came from the default value of an argument: no default value was overridden, so the default value applies."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "default_missing_value", QualifiedName: "clap::Arg::default_missing_value", Signature: "pub fn default_missing_value(self, val: impl IntoResettable<OsStr>) -> Arg", Doc: "Value for the argument when the flag is present but no value is specified; unlike a default value, it applies only when the flag is given."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "default_value_if", QualifiedName: "clap::Arg::default_value_if", Signature: "pub fn default_value_if(self, arg_id: impl Into<Id>, predicate: impl Into<ArgPredicate>, default: impl IntoResettable<OsStr>) -> Arg", Doc: "Specifies the value of the argument if another argument is present: a conditional default value. Give the argument a default value only when the other argument has one."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "default_values", QualifiedName: "clap::Arg::default_values", Signature: "pub fn default_values(self, vals: impl IntoIterator<Item = impl Into<OsStr>>) -> Arg", Doc: "Value for the argument when not present: several default values, one per occurrence of the argument."}),
		fixturePackage(docidx.PyPI, "configlib", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "default_value", QualifiedName: "configlib.default_value", Signature: "def default_value(arg)", Doc: "Returns the default value of an argument."}),
	)
	rankedFirst(t, r, "clap: how do I give an argument a default value?", "docidx://cargo/clap@4.0.0/symbol/clap::Arg::default_value")
	if got := wordNames("a default value, then Max Size of x_y!"); !slices.Contains(got, "default_value") || !slices.Contains(got, "defaultvalue") ||
		!slices.Contains(got, "max_size") || slices.Contains(got, "value_then") || slices.Contains(got, "of_x_y") {
		t.Errorf("wordNames: %q, want default_value, defaultvalue and max_size, nothing across the comma nor with an identifier", got)
	}
}

// A package the question names surely (its compound name) comes before another package's page
// that shares more of the question's other words; a plain word that is more a word than a
// package's name, or a name written in mixed case, names no package surely.
func TestRankSurelyNamedPackage(t *testing.T) {
	r := openRankFixture(t,
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "wrap-lines", Version: "1.0.0"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindField, Name: "trim", QualifiedName: "Options.trim", Signature: "trim?: boolean",
				Doc: "Trim the spaces at the start of every row; pass false to keep them."}}},
		&docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "fold-text", Version: "1.0.0"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindField, Name: "indent", QualifiedName: "Options.indent", Signature: "indent?: string",
				Doc: "Indentation of wrapped lines."}}},
	)
	rankedFirst(t, r, "wrap-lines is stripping the leading indentation spaces from my wrapped lines. How do I keep them?",
		"docidx://npm/wrap-lines@1.0.0/symbol/Options.trim")
	for _, c := range []struct {
		word, text string
		share      float64
		want       bool
	}{
		{"wrap-lines", "wrap-lines is stripping", 0.003, true},
		{"six", "can I vendor six", 0.47, true},
		{"requests", "make HTTP requests with promises", 0.027, false},
		{"mongodb", "MongoDB object modeling", 0.78, false},
	} {
		if got := surelyNames(c.word, c.share, mixedCase(c.text)); got != c.want {
			t.Errorf("surelyNames(%q, %.3f) in %q = %v, want %v", c.word, c.share, c.text, got, c.want)
		}
	}
}

// A version a question gives a package ("arrayvec 0.7", "arrayvec@0.7") is no word of its
// answer: its digits do not match an example's literals.
func TestRankWithoutVersions(t *testing.T) {
	r := openRankFixture(t,
		fixturePackage(docidx.Cargo, "arrayvec", "0.7.8",
			docidx.Symbol{Kind: docidx.KindPackage, Name: "arrayvec", QualifiedName: "arrayvec", Signature: "crate arrayvec",
				Doc: "A vector with fixed capacity.\n\n# Rust Version\n\nThis version of arrayvec requires Rust 1.51 or later."},
			docidx.Symbol{Kind: docidx.KindMethod, Name: "try_insert", QualifiedName: "arrayvec::ArrayVec::try_insert", Signature: "pub fn try_insert(&mut self, index: usize, element: T) -> Result<(), CapacityError<T>>",
				Doc: "Insert element at position index; the index must be less than or equal to the length.\n\n```rust\nlet mut array = ArrayVec::<_, 7>::new();\nassert!(array.try_insert(0, 7).is_ok());\nassert!(array.try_insert(0, 0.7).is_ok());\n```"}),
	)
	rankedFirst(t, r, "What's the minimum Rust version that arrayvec 0.7 supports?", "docidx://cargo/arrayvec@0.7.8/symbol/arrayvec")
	ri := r.r.rank
	for in, want := range map[string]string{
		"minimum Rust version arrayvec 0.7 supports": "minimum Rust version arrayvec supports",
		"does arrayvec@0.7 panic":                    "does arrayvec panic",
		"arrayvec v0.7.8?":                           "arrayvec",
		"needs Python 3.12":                          "needs Python 3.12",
		"in arrayvec, 2 items":                       "in arrayvec, 2 items",
		"is there an arrayvec v8() function":         "is there an arrayvec v8() function",
	} {
		if got := ri.withoutVersions(in); got != want {
			t.Errorf("withoutVersions(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRustPath: identifiers joined by "::" are a Rust path, written as code writes it; a
// pytest node ID, a lone "::" and a URL's port are not.
func TestRustPath(t *testing.T) {
	for word, want := range map[string][]string{
		"std::process::exit": {"std", "process", "exit"}, "tokio::select!": {"tokio", "select"},
		"Arc::clone()": {"Arc", "clone"}, "`serde::Serialize`": {"serde", "Serialize"},
		"tests/test_io.py::test_read": nil, "::": nil, "a::": nil, "http://localhost:8080": nil, "exit": nil,
	} {
		if got := rustPath(word); !slices.Equal(got, want) {
			t.Errorf("rustPath(%q) = %q, want %q", word, got, want)
		}
	}
	if got := rustPathNames("does it run on std::process::exit? and tokio::select!"); !reflect.DeepEqual(got,
		map[string]bool{"std": true, "process": true, "exit": true, "tokio": true, "select": true}) {
		t.Errorf("rustPathNames = %v", got)
	}
}

// A package called as a function ("ms()") is named though its name is a common word of other
// packages' docs, when it holds a symbol of its name (the function it exports); the word
// alone names nothing.
func TestBareCallNamesPackage(t *testing.T) {
	docs := []*docidx.PackageDocs{
		fixturePackage(docidx.NPM, "ms", "2.1.3",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "ms", QualifiedName: "ms", Signature: "module.exports = function (val, options)", Doc: "Parse or format the given val."}),
		fixturePackage(docidx.NPM, "retry", "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "operation", QualifiedName: "retry.operation", Signature: "function operation(options)", Doc: "Retries after ms milliseconds."}),
	}
	for i := range 100 { // ms's two documents are under namedShare of those holding "ms"
		docs = append(docs, fixturePackage(docidx.NPM, fmt.Sprintf("timer-%d", i), "1.0.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "wait", QualifiedName: "wait", Signature: "function wait(ms)", Doc: "Waits ms milliseconds."}))
	}
	r := openRankFixture(t, docs...)
	checkNamed(t, r, map[string][]string{
		"what does ms() do with an empty string?": {"npm\x00ms"},
		"what does ms('') return?":                {"npm\x00ms"},
		"how long is a delay of 100 ms?":          nil,
	})
}

// TestFoldedNameShare: a package name that the analyzer folds into a common word's stem
// ("optionator" into "option") names its package when other packages' documents of that stem
// never write the name itself, read from a sample of more documents than literalSample; when
// they do write it ("requests" of an HTTP server's docs), the stem's documents measure the
// name as they measure any word.
func TestFoldedNameShare(t *testing.T) {
	var others []docidx.Symbol
	for i := range 3 * literalSample {
		word := "option" // "options", "optional": other forms of the stem
		if i%2 == 1 {
			word = "requests"
		}
		others = append(others, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("f%d", i), QualifiedName: fmt.Sprintf("kit.f%d", i),
			Signature: fmt.Sprintf("f%d()", i), Doc: fmt.Sprintf("Sets the %s of the server; every %s is optional.", word, word)})
	}
	r := openRankFixture(t,
		fixturePackage(docidx.NPM, "kit", "1.0.0", others...),
		fixturePackage(docidx.NPM, "optionator", "0.9.4",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "optionator.parse", Signature: "parse(input: string): object", Doc: "Parses the input by the option definitions given to optionator."}),
		fixturePackage(docidx.PyPI, "requests", "2.32.0",
			docidx.Symbol{Kind: docidx.KindFunc, Name: "get", QualifiedName: "requests.get", Signature: "def get(url)", Doc: "Sends a GET request with requests."}),
	)
	ri := r.r.rank
	if s := ri.nameShare(r.r, "optionator", ri.packagesNamed("optionator")); s < sureNameShare {
		t.Errorf("optionator: share %.3f, want at least sureNameShare (%.2f): no other package writes it", s, sureNameShare)
	}
	if s := ri.nameShare(r.r, "requests", ri.packagesNamed("requests")); s >= namedShare {
		t.Errorf("requests: share %.3f, want under namedShare (%.3f): %d documents of another package write it", s, namedShare, 3*literalSample/2)
	}
	checkNamed(t, r, map[string][]string{"optionator: which option is required?": {"npm\x00optionator"}})
}
