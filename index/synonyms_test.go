package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// formsModule is a Go module whose answers are named by abbreviations of a question's words
// (MaxRecvMsgSize for "the largest message received") and by what "how long" asks for
// (Timeout), beside symbols that hold the question's words as typed but do not answer it.
func formsModule() *docidx.PackageDocs {
	const pkg = "example.com/rpc"
	sym := func(kind docidx.SymbolKind, name, sig, doc string) docidx.Symbol {
		return docidx.Symbol{Kind: kind, Name: name, Package: pkg, QualifiedName: "rpc." + name, Signature: sig, Doc: doc}
	}
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: pkg, Version: "v1.2.0", Description: "Remote procedure calls."},
		Symbols: []docidx.Symbol{
			sym(docidx.KindFunc, "MaxRecvMsgSize", "func MaxRecvMsgSize(n int) ServerOption",
				"MaxRecvMsgSize sets the limit of the server in bytes; 4MB unless set."),
			sym(docidx.KindFunc, "Broadcast", "func Broadcast(m Message) error",
				"Broadcast sends a message to every peer of the server."),
			sym(docidx.KindType, "Envelope", "type Envelope struct{}",
				"Envelope wraps a message with its headers for the server."),
			sym(docidx.KindField, "Timeout", "Timeout time.Duration",
				"Timeout is the time Open waits to obtain the file lock; zero waits forever."),
			sym(docidx.KindFunc, "Sleep", "func Sleep()",
				"Sleep waits a long while before the next lock attempt of the file."),
			sym(docidx.KindFunc, "Flock", "func Flock(f *os.File) error",
				"Flock takes the file lock of the database; it waits for the lock held by others."),
		},
	}
}

// A question that spells out what an identifier abbreviates finds the identifier, and a "how
// long" question the timeout, in the latest version and in an older one alike.
func TestSearchFindsOtherForms(t *testing.T) {
	older := formsModule()
	older.Package.Version = "v1.1.0"
	dir := build(t, older, formsModule())
	cases := []struct{ question, want string }{
		{"what is the largest message the server will receive?", "rpc.MaxRecvMsgSize"},
		{"how long will Open wait for the file lock?", "rpc.Timeout"},
	}
	check := func(engine, version string) {
		r := open(t, dir)
		defer r.Close()
		for _, c := range cases {
			hits := search(t, r, index.Query{Text: c.question, Version: version})
			if len(hits) == 0 || hits[0].Title != c.want {
				t.Errorf("%s: %q: first hits %v, want %s first", engine, c.question, titles(hits), c.want)
			}
		}
	}
	check("latest", "")
	check("older version", "v1.1.0")
}

func titles(hits []docidx.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Title)
	}
	return out
}

// funcModule is a Go module at path with one documented function, q.name.
func funcModule(path, name, doc string) *docidx.PackageDocs {
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: path, Version: "v1.0.0"},
		Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: name, Package: path, QualifiedName: "q." + name,
			Signature: "func " + name + "()", Doc: doc}},
	}
}

// A document that holds a question's word as typed gains nothing from also holding another form
// of it: the word counts once, as typed.
func TestOtherFormCountsOnce(t *testing.T) {
	dir := build(t,
		funcModule("example.com/alpha", "Alpha", "Alpha queues the message; msg is kept."),
		funcModule("example.com/bravo", "Bravo", "Bravo queues the message; zzz is kept."),
		funcModule("example.com/delta", "Delta", "Delta sends a reply."))
	check := func(engine string) {
		r := open(t, dir)
		defer r.Close()
		scores := map[string]float64{}
		for _, h := range search(t, r, index.Query{Text: "queues the message"}) {
			scores[h.Title] = h.Score
		}
		if a, b := scores["q.Alpha"], scores["q.Bravo"]; a == 0 || a != b {
			t.Errorf("%s: scores: Alpha %v, Bravo %v; want equal: Alpha's msg is the message it holds already", engine, a, b)
		}
	}
	check("rank.idx")
}

// TestStandardLibraryIsStd: a question that spells out "the standard library" finds the
// document that says std, as Rust's crates do ("Works with no_std, simply disable the std
// Cargo feature", httparse's README), above one that holds only "library".
func TestStandardLibraryIsStd(t *testing.T) {
	dir := build(t,
		funcModule("example.com/alpha", "Parse", "Parse works with no_std: disable the std feature."),
		funcModule("example.com/bravo", "Version", "Version returns the version of the library."),
		funcModule("example.com/charlie", "Load", "Load reads the library's configuration."),
		funcModule("example.com/delta", "Delta", "Delta sends a reply."))
	r := open(t, dir)
	defer r.Close()
	hits := search(t, r, index.Query{Text: "does it build without the standard library?"})
	if len(hits) == 0 || hits[0].Title != "q.Parse" {
		t.Errorf("first hits %v, want q.Parse, whose doc says std", titles(hits))
	}
}

// TestCompoundOfTwoWords: two words written apart find the compound a document writes them as
// ("thread safe": "The current method is not threadsafe", mpmath's README), as well as a
// document that writes them apart, above documents that hold only one of them.
func TestCompoundOfTwoWords(t *testing.T) {
	dir := build(t,
		funcModule("example.com/alpha", "SetPrecision", "SetPrecision changes the working precision. The current method is not threadsafe."),
		funcModule("example.com/bravo", "Spawn", "Spawn starts a thread for the task."),
		funcModule("example.com/charlie", "Guard", "Guard keeps the value safe from readers."),
		funcModule("example.com/delta", "Delta", "Delta sends a reply."))
	r := open(t, dir)
	defer r.Close()
	hits := search(t, r, index.Query{Text: "is changing the precision thread safe"})
	if len(hits) == 0 || hits[0].Title != "q.SetPrecision" {
		t.Errorf("first hits %v, want q.SetPrecision, whose doc says threadsafe", titles(hits))
	}
	hits = search(t, r, index.Query{Text: "thread safe"})
	if !slices.ContainsFunc(hits, func(h docidx.Hit) bool { return h.Title == "q.SetPrecision" }) {
		t.Errorf("hits %v, want q.SetPrecision among them", titles(hits))
	}
}

// The one-letter parts of a question's camel-cased word ("g" of "gRPC") are not searched: a
// symbol named G does not answer a question about gRPC.
func TestNoOneLetterFragments(t *testing.T) {
	dir := build(t,
		funcModule("example.com/alpha", "G", "G returns the server."),
		funcModule("example.com/bravo", "Serve", "Serve runs gRPC calls."),
		funcModule("example.com/delta", "Listen", "Listen starts the server."))
	check := func(engine string) {
		r := open(t, dir)
		defer r.Close()
		hits := search(t, r, index.Query{Text: "gRPC server"})
		if len(hits) == 0 || hits[0].Title != "q.Serve" {
			t.Errorf("%s: first hits %v, want q.Serve first", engine, titles(hits))
		}
	}
	check("rank.idx")
}

// When one package's best hit far outscores every other package's, the question is about that
// package: its further hits are not discounted for diversity below other packages' weak ones.
func TestDominantPackage(t *testing.T) {
	module := func(path string, docs ...string) *docidx.PackageDocs {
		pd := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.Go, Name: path, Version: "v1.0.0"}}
		for i, doc := range docs {
			name := fmt.Sprintf("F%d", i)
			pd.Symbols = append(pd.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: name, Package: path,
				QualifiedName: path[strings.LastIndexByte(path, '/')+1:] + "." + name, Signature: "func " + name + "()", Doc: doc})
		}
		return pd
	}
	dir := build(t,
		module("example.com/store",
			"F0 opens the database file and waits for its lock.",
			"F1 is how long to wait for the database lock.",
			"F2 waits for the file lock."),
		module("example.com/other", "F0 waits on a lock."),
		module("example.com/third", "F0 locks a mutex."))
	check := func(engine string) {
		r := open(t, dir)
		defer r.Close()
		hits := titles(search(t, r, index.Query{Text: "how long will opening the database wait for the file lock"}))
		if len(hits) < 3 || !slices.Equal(hits[:3], []string{"store.F0", "store.F1", "store.F2"}) {
			t.Errorf("%s: hits %v, want store's three first", engine, hits)
		}
	}
	check("rank.idx")
}
