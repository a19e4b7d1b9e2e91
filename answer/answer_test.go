package answer_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/answer"
	"github.com/docidx/docidx/index"
)

// snapshot writes a snapshot of pkgs into a new directory and opens it; the test closes it.
func snapshot(t *testing.T, pkgs ...*docidx.PackageDocs) *index.Reader {
	t.Helper()
	dir := t.TempDir()
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if err := w.Put(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// module is a Go module with a README, a guide and a few documented symbols.
func module(name string) *docidx.PackageDocs {
	return &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: name, Version: "v1.0.0", Description: "Greetings for people."},
		Documents: []docidx.Document{
			{Path: "README.md", Kind: docidx.DocReadme, Title: "hello", Sections: []docidx.Section{
				{Heading: []string{"hello"}, Anchor: "hello", Text: "Greetings for people, by name.", Plain: "Greetings for people, by name."},
				{Heading: []string{"hello", "Usage"}, Anchor: "usage", Text: "Call Greet with a name to get a greeting.", Plain: "Call Greet with a name to get a greeting."},
			}},
			{Path: "docs/guide.md", Kind: docidx.DocGuide, Title: "Guide", Sections: []docidx.Section{
				{Heading: []string{"Guide"}, Anchor: "guide", Text: "A greeting names the person greeted.", Plain: "A greeting names the person greeted."},
			}},
		},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindPackage, Name: "hello", Package: name, QualifiedName: name, Signature: "package hello", Doc: "Package hello greets people."},
			{Kind: docidx.KindFunc, Name: "Greet", Package: name, QualifiedName: "hello.Greet", Signature: "func Greet(name string) string", Doc: "Greet returns a greeting for name."},
			{Kind: docidx.KindFunc, Name: "Farewell", Package: name, QualifiedName: "hello.Farewell", Signature: "func Farewell(name string) string", Doc: "Farewell returns a greeting for name when they leave."},
		},
	}
}

// words are Words whose every phrase is marked, to be found in answers.
var words = answer.Words{
	Read: "READ-WORD", ReadDocument: "DOCUMENT-WORD", DescribeSymbol: "SYMBOL-WORD", Outline: "OUTLINE-WORD",
	API: "API-WORD", List: "LIST-WORD", PassURI: "URI-WORD", Cursor: "CURSOR-WORD", NextCursor: "NEXT-WORD",
	Continue: "CONTINUE-WORD",
}

func service(r *index.Reader) *answer.Service {
	return answer.New(func() *index.Reader { return r }, answer.Options{Words: words})
}

// TestErrors holds the error contract: bad arguments are *ArgumentError wrapping
// docidx.ErrUsage and naming the argument, what the snapshot does not hold wraps
// docidx.ErrNotFound, and a snapshot that cannot be read is an *InternalError.
func TestErrors(t *testing.T) {
	const mod = "example.com/hello"
	s := service(snapshot(t, module(mod)))
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		err      error
		want     error
		argument string // for docidx.ErrUsage
		missing  bool
	}{
		{"empty query", third(s.Search(ctx, answer.SearchInput{Query: " "})), docidx.ErrUsage, "query", true},
		{"bad ecosystem", third(s.Search(ctx, answer.SearchInput{Query: "greet", Ecosystem: "cobol"})), docidx.ErrUsage, "ecosystem", false},
		{"bad cursor", third(s.Search(ctx, answer.SearchInput{Query: "greet", Cursor: "bogus"})), docidx.ErrUsage, "cursor", false},
		{"bad kind", third(s.Search(ctx, answer.SearchInput{Query: "greet", Kind: "sonnet"})), docidx.ErrUsage, "kind", false},
		{"package in another ecosystem", third(s.Search(ctx, answer.SearchInput{Query: "greet", Ecosystem: "npm", Package: "go:" + mod})), docidx.ErrUsage, "package", false},
		{"bad uri", third(s.Read(ctx, answer.ReadInput{URI: "not-a-uri"})), docidx.ErrUsage, "uri", false},
		{"no package", third(s.Describe(ctx, docidx.Go, answer.DescribeInput{})), docidx.ErrUsage, "package", true},
		{"no ecosystem", third(s.GetDoc(ctx, answer.DocInput{Package: mod})), docidx.ErrUsage, "ecosystem", true},
		{"no hits", third(s.Search(ctx, answer.SearchInput{Query: "zebra xylophone"})), docidx.ErrNotFound, "", false},
		{"unknown package", third(s.Describe(ctx, docidx.Go, answer.DescribeInput{Package: "example.com/nope"})), docidx.ErrNotFound, "", false},
		{"unknown version", third(s.Describe(ctx, docidx.Go, answer.DescribeInput{Package: mod, Version: "v9"})), docidx.ErrNotFound, "", false},
		{"unknown symbol", third(s.Describe(ctx, docidx.Go, answer.DescribeInput{Package: mod, Symbol: "Qqqqqqqq"})), docidx.ErrNotFound, "", false},
		{"unknown document", third(s.GetDoc(ctx, answer.DocInput{Ecosystem: "go", Package: mod, Path: "docs/nope.md"})), docidx.ErrNotFound, "", false},
		{"unknown anchor", third(s.Read(ctx, answer.ReadInput{URI: "docidx://golang/" + mod + "@v1.0.0/readme#nope"})), docidx.ErrNotFound, "", false},
		{"unknown page", second(s.Page("docidx://golang/" + mod + "@v1.0.0/symbol/Nope")), docidx.ErrNotFound, "", false},
		{"unknown diff", second(s.Diff(docidx.Go, mod, "v0.1.0", "")), docidx.ErrNotFound, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Fatalf("error %v, want one wrapping %v", tc.err, tc.want)
			}
			var arg *answer.ArgumentError
			if isArg := errors.As(tc.err, &arg); isArg != (tc.want == docidx.ErrUsage) {
				t.Fatalf("error %v: *ArgumentError %v, want %v", tc.err, isArg, !isArg)
			}
			if arg != nil && (arg.Argument != tc.argument || arg.Missing != tc.missing) {
				t.Errorf("argument %q missing %v, want %q %v", arg.Argument, arg.Missing, tc.argument, tc.missing)
			}
			var internal *answer.InternalError
			if errors.As(tc.err, &internal) {
				t.Errorf("error %v is an *InternalError", tc.err)
			}
		})
	}

	// A reader that cannot be read (here: closed) is the server's fault, not a missing package.
	r := snapshot(t, module(mod))
	closed := service(r)
	r.Close()
	_, _, err := closed.Describe(ctx, docidx.Go, answer.DescribeInput{Package: mod})
	var internal *answer.InternalError
	if !errors.As(err, &internal) || errors.Is(err, docidx.ErrUsage) {
		t.Errorf("describe over a closed reader: %v, want an *InternalError", err)
	}
}

func second[T any](_ T, err error) error        { return err }
func third[T, U any](_ T, _ U, err error) error { return err }

// TestWords holds that the words of what to do next are the caller's: every phrase of Words
// comes into the answers that need it, and nothing else names a tool or argument.
func TestWords(t *testing.T) {
	const mod = "example.com/hello"
	s := service(snapshot(t, module(mod)))
	ctx := context.Background()
	var texts []string
	add := func(text string, _ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	addErr := func(_ string, _ any, err error) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		texts = append(texts, err.Error())
	}
	text, out, err := s.Search(ctx, answer.SearchInput{Query: "greeting name", MaxTokens: answer.MinMaxTokens})
	add(text, out, err)
	if out.NextCursor == "" {
		t.Fatal("a search at the smallest budget is not cut")
	}
	addErr(s.Search(ctx, answer.SearchInput{Query: "greeting name", Cursor: "bogus"}))
	addErr(s.Search(ctx, answer.SearchInput{Query: "zebra xylophone"}))
	add(s.Describe(ctx, docidx.Go, answer.DescribeInput{Package: mod}))
	addErr(s.Describe(ctx, docidx.Go, answer.DescribeInput{Package: mod, Symbol: "Qqqqqqqqqq"}))
	addErr(s.Read(ctx, answer.ReadInput{URI: "not-a-uri"}))
	all := strings.Join(texts, "\n")
	for _, w := range []string{words.Read, words.ReadDocument, words.DescribeSymbol, words.Outline, words.List,
		words.PassURI, words.Cursor, words.NextCursor, words.Continue} {
		if !strings.Contains(all, w) {
			t.Errorf("no answer says %s:\n%s", w, all)
		}
	}
	for _, tool := range []string{"read_package_doc", "get_package_doc", "list_packages", "search_package_docs", "symbol=", "nextCursor"} {
		if strings.Contains(all, tool) {
			t.Errorf("an answer names %s, not in its Words:\n%s", tool, all)
		}
	}
}

// TestFollowsReader holds that a Service answers from the reader its function returns at each
// request: a reload (another reader) is followed without a new Service.
func TestFollowsReader(t *testing.T) {
	var cur atomic.Pointer[index.Reader]
	cur.Store(snapshot(t, module("example.com/hello")))
	s := answer.New(cur.Load, answer.Options{Words: words})
	names := func() []string {
		_, out, err := s.List(context.Background(), answer.ListInput{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range out.Packages {
			names = append(names, p.Package)
		}
		return names
	}
	if got := names(); len(got) != 1 || got[0] != "example.com/hello" {
		t.Fatalf("first snapshot lists %v", got)
	}
	hello := docidx.Ref{Ecosystem: docidx.Go, Name: "example.com/hello", Version: "v1.0.0"}
	opening := func() string {
		docs, err := s.Documents(hello)
		if err != nil || len(docs) == 0 || len(docs[0].Sections) == 0 {
			t.Fatalf("documents of %s: %v, %v", hello, docs, err)
		}
		return docs[0].Sections[0].Plain
	}
	if got := opening(); got != "Greetings for people, by name." {
		t.Fatalf("first snapshot's README opens %q", got)
	}
	rewritten := module("example.com/hello")
	rewritten.Documents[0].Sections[0].Text = "Greetings, rewritten."
	rewritten.Documents[0].Sections[0].Plain = "Greetings, rewritten."
	cur.Store(snapshot(t, rewritten, module("example.com/later")))
	if got := names(); len(got) != 2 || got[1] != "example.com/later" {
		t.Fatalf("after the reload the Service lists %v, want the new snapshot's two packages", got)
	}
	// Cached documents of the old reader are not served for the new one.
	if got := opening(); got != "Greetings, rewritten." {
		t.Errorf("after the reload the README opens %q, the old snapshot's cached text", got)
	}
	_, _, err := s.GetDoc(context.Background(), answer.DocInput{Ecosystem: "go", Package: "example.com/later"})
	if err != nil {
		t.Fatal(err)
	}
}

// TestVersionInQuestion: a question that names an older indexed version of a package ("cache 4",
// "cache@4", "cache v4.1") is searched in that version; one that names the default version (the
// root one, else the latest), or no version, searches the default versions of every package; a version given without a package
// (search --version 4) is the named package's.
func TestVersionInQuestion(t *testing.T) {
	cache := func(version, doc string) *docidx.PackageDocs {
		return &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.NPM, Name: "cache", Version: version},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "prune", QualifiedName: "prune", Signature: "function prune(): void", Doc: doc}},
		}
	}
	s := service(snapshot(t, cache("4.1.0", "Prunes stale entries; in 4, nothing is pruned in the background."), cache("5.0.0", "Prunes stale entries now.")))
	for q, want := range map[string]string{
		"does cache 4 prune stale entries?":           "4.1.0",
		"does cache@4 prune stale entries":            "4.1.0",
		"in cache v4.1, how do I prune stale entries": "4.1.0",
		"does cache 5 prune stale entries?":           "5.0.0",
		"does cache prune stale entries? 4 times":     "5.0.0",
		"how do I prune stale entries":                "5.0.0",
	} {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(out.Results) == 0 || out.Results[0].Ref().Version != want {
			t.Errorf("%q: results %+v, want version %s first", q, out.Results, want)
		}
	}
	// A version asked for without a package is the version of the package the question names:
	// a partial one picks its newest match, as with a package filter.
	for version, want := range map[string]string{"4": "4.1.0", "^4": "4.1.0", "4.1.0": "4.1.0", "5": "5.0.0"} {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "how does cache prune stale entries", Version: version})
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		if len(out.Results) == 0 || out.Results[0].Ref().Version != want {
			t.Errorf("version %s: results %+v, want version %s", version, out.Results, want)
		}
	}
	// A package written NAME@VERSION, as show and crawl write one, is that package and version;
	// the same version given twice is fine, two different ones, or none after the @, are refused.
	for pkg, want := range map[string]string{"cache@4": "4.1.0", "npm:cache@^4": "4.1.0", "cache@5.0.0": "5.0.0", "cache@latest": "5.0.0"} {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "how does it prune stale entries", Package: pkg})
		if err != nil || len(out.Results) == 0 || out.Results[0].Ref().Version != want {
			t.Errorf("package %s: results %+v, %v; want version %s", pkg, out.Results, err, want)
		}
	}
	if _, _, err := s.Search(context.Background(), answer.SearchInput{Query: "prune", Package: "cache@4", Version: "4"}); err != nil {
		t.Errorf("package cache@4, version 4: %v", err)
	}
	for _, in := range []answer.SearchInput{{Query: "prune", Package: "cache@4", Version: "5"}, {Query: "prune", Package: "cache@"}} {
		if _, _, err := s.Search(context.Background(), in); err == nil || !strings.Contains(err.Error(), "version") {
			t.Errorf("package %s, version %q: %v, want an error that says what to write", in.Package, in.Version, err)
		}
	}
	// With 4.1.0 the root version (node_modules' top-level copy), a question without a version
	// reads it, and one that names 5 reads 5.0.0.
	root := cache("4.1.0", "Prunes stale entries; in 4, nothing is pruned in the background.")
	root.Package.Root = true
	s = service(snapshot(t, root, cache("5.0.0", "Prunes stale entries now.")))
	for q, want := range map[string]string{"how do I prune stale entries": "4.1.0", "does cache 5 prune stale entries?": "5.0.0"} {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: q})
		if err != nil || len(out.Results) == 0 || out.Results[0].Ref().Version != want {
			t.Errorf("with a root version, %q: results %+v, %v; want version %s first", q, out.Results, err, want)
		}
	}
	// The root version's pages are the package's default ones, listed at full priority.
	list, err := s.ListPages(context.Background(), "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list.Pages {
		if strings.Contains(e.URI, "/cache@") && e.Default != strings.Contains(e.URI, "/cache@4.1.0/") {
			t.Errorf("%s: default %v, want only 4.1.0's pages default", e.URI, e.Default)
		}
	}
	// describe shows the root version and says it is the one read by default.
	text, d, err := s.Describe(context.Background(), docidx.NPM, answer.DescribeInput{Package: "cache"})
	if err != nil || d.Version != "4.1.0" || d.Latest != "5.0.0" || d.Default != "4.1.0" || !strings.Contains(text, "read when no version is given: 4.1.0") {
		t.Errorf("describe cache: version %s, latest %s, default %s, %v:\n%s", d.Version, d.Latest, d.Default, err, text)
	}
}

// TestReadQuery: a read with a query returns the passage of the page that holds its words, and
// says how much of the page that is; a page without them says so; a cursor is refused.
func TestReadQuery(t *testing.T) {
	mod := module("example.com/hello")
	long := strings.Repeat("Greetings are made of words and are printed on a line of their own. ", 40)
	mod.Documents[0].Sections = append(mod.Documents[0].Sections, docidx.Section{
		Heading: []string{"hello", "Options"}, Anchor: "options",
		Text:  long + "The Shout option prints the greeting in capitals; it is off by default. " + long,
		Plain: long + "The Shout option prints the greeting in capitals; it is off by default. " + long,
	})
	s := service(snapshot(t, mod))
	ctx := context.Background()
	uri := "docidx://golang/example.com/hello@v1.0.0/readme#options"
	text, out, err := s.Read(ctx, answer.ReadInput{URI: uri, Query: "print in capital letters"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "The Shout option prints the greeting in capitals; it is off by default.") || len(text) > 2000 {
		t.Errorf("passage (%d bytes):\n%s", len(text), text)
	}
	if out.Kind != "section" || out.URI != uri || !strings.Contains(text, "READ-WORD, without a query") {
		t.Errorf("out %+v, text %q", out, text)
	}
	if text, _, err := s.Read(ctx, answer.ReadInput{URI: uri, Query: "zebra"}); err != nil || !strings.Contains(text, "holds none of the words") {
		t.Errorf("no such words: %q, %v", text, err)
	}
	if _, _, err := s.Read(ctx, answer.ReadInput{URI: uri, Query: "shout", Cursor: "x"}); !errors.Is(err, docidx.ErrUsage) {
		t.Errorf("query with cursor: %v, want a usage error", err)
	}
}

// TestRepeatedPassage checks that a hit whose passage repeats a better hit's of the same package
// version (a README option copied into a symbol's doc comment) is named by that hit (also)
// rather than shown again, and that one differing in a word with a digit, the answer, is not.
func TestRepeatedPassage(t *testing.T) {
	mod := module("example.com/hello")
	const option = "Shout prints the greeting in capitals at level 3, so that people far away hear it over the noise of the crowd in the great hall tonight."
	mod.Documents[0].Sections = append(mod.Documents[0].Sections, docidx.Section{
		Heading: []string{"hello", "Options", "Shout"}, Anchor: "shout", Text: option, Plain: option})
	mod.Symbols = append(mod.Symbols,
		docidx.Symbol{Kind: docidx.KindField, Name: "Shout", Package: "example.com/hello", QualifiedName: "hello.Options.Shout",
			Signature: "Shout bool", Doc: option},
		docidx.Symbol{Kind: docidx.KindField, Name: "Volume", Package: "example.com/hello", QualifiedName: "hello.Options.Volume",
			Signature: "Volume int", Doc: "Shout prints the greeting in capitals at level 11, so that people far away hear it over the noise of the crowd in the great hall tonight."},
	)
	s := service(snapshot(t, mod))
	text, out, err := s.Search(context.Background(), answer.SearchInput{Query: "shout greeting in capitals far away"})
	if err != nil {
		t.Fatal(err)
	}
	var shout *answer.SearchResult
	for i, h := range out.Results {
		if h.Title == "hello.Options.Shout" || h.URI == "docidx://golang/example.com/hello@v1.0.0/readme#shout" {
			if shout != nil {
				t.Fatalf("the option and its field are two hits:\n%s", text)
			}
			shout = &out.Results[i]
		}
	}
	if shout == nil || len(shout.Also) != 1 || !strings.Contains(text, "also: ") {
		t.Fatalf("the hit that stands for the repeat does not name it: %+v\n%s", shout, text)
	}
	volume := slices.ContainsFunc(out.Results, func(h answer.SearchResult) bool { return h.Title == "hello.Options.Volume" })
	if !volume || len(shout.Also) != 1 {
		t.Errorf("a passage that differs in \"11\" was taken for a repeat (its own hit: %v, also: %q):\n%s", volume, shout.Also, text)
	}
}

// TestOtherMajorTwin checks that a symbol declared alike, with the same passage, in two major
// versions of a Go module (github.com/cenkalti/backoff and its /v4) is one hit that names the
// other by its URI, and that a symbol of the same name whose passage differs stays a hit.
func TestOtherMajorTwin(t *testing.T) {
	const retry = "Retry calls the operation until it succeeds, the backoff stops, or the error is permanent."
	v1, v2 := module("example.com/backoff"), module("example.com/backoff/v2")
	v2.Package.Version = "v2.0.0"
	for _, m := range []*docidx.PackageDocs{v1, v2} {
		m.Symbols = append(m.Symbols,
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Retry", Package: m.Package.Name, QualifiedName: "backoff.Retry",
				Signature: "func Retry(o Operation, b BackOff) error", Doc: retry},
			docidx.Symbol{Kind: docidx.KindFunc, Name: "Notify", Package: m.Package.Name, QualifiedName: "backoff.Notify",
				Signature: "func Notify(o Operation, b BackOff) error", Doc: "Notify retries the operation until it succeeds and tells " + m.Package.Version + " of each error."})
	}
	s := service(snapshot(t, v1, v2))
	text, out, err := s.Search(context.Background(), answer.SearchInput{Query: "retry the operation until it succeeds"})
	if err != nil {
		t.Fatal(err)
	}
	var retries, notifies int
	var also []string
	for _, h := range out.Results {
		switch h.Title {
		case "backoff.Retry":
			retries++
			also = append(also, h.Also...)
		case "backoff.Notify":
			notifies++
		}
	}
	if retries != 1 || len(also) != 1 || !strings.HasPrefix(also[0], "docidx://golang/example.com/backoff") || !strings.HasSuffix(also[0], "/symbol/backoff.Retry") {
		t.Errorf("%d backoff.Retry hits naming %q, want 1 naming the other major's by URI:\n%s", retries, also, text)
	}
	if notifies != 2 {
		t.Errorf("%d backoff.Notify hits, want 2: their passages differ:\n%s", notifies, text)
	}
}

// TestSmallBudgetFewHits checks that a small max_tokens with few hits keeps hit 1's passage at
// the default size when the page fits (two hits in 500 tokens), and shrinks it when it does not
// (ten hits in 500 tokens).
func TestSmallBudgetFewHits(t *testing.T) {
	mod := module("example.com/hello")
	var long strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, "Shout option sentence number %d says the greeting is printed in capitals. ", i)
	}
	mod.Documents[0].Sections = append(mod.Documents[0].Sections, docidx.Section{
		Heading: []string{"hello", "Options"}, Anchor: "options", Text: long.String(), Plain: long.String()})
	s := service(snapshot(t, mod))
	passage := func(limit int) int {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "shout capitals", MaxTokens: 500, Limit: limit})
		if err != nil || len(out.Results) == 0 {
			t.Fatalf("limit %d: %v, %d hits", limit, err, len(out.Results))
		}
		return len(out.Results[0].Snippet)
	}
	few, many := passage(2), passage(10)
	if few < 600 || many >= few {
		t.Errorf("hit 1's passage in 500 tokens: %d bytes with 2 hits (want about %d), %d with 10", few, index.DefaultPassageBytes, many)
	}
}

// TestNoHitsInPackage checks that a search of one package that finds nothing says what the
// snapshot holds of it, so that its reader knows when to stop asking in other words; the package
// may be written with its ecosystem, as show and crawl write it.
func TestNoHitsInPackage(t *testing.T) {
	s := service(snapshot(t, module("example.com/hello")))
	_, _, err := s.Search(context.Background(), answer.SearchInput{Query: "zebra", Package: "golang:example.com/hello"})
	want := `example.com/hello@v1.0.0 has 2 documents (README.md, docs/guide.md; 3 sections) and 3 API symbols in the snapshot, none with these words`
	if !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
	// A kind filter may be what found nothing: the answer names the filters instead.
	_, _, err = s.Search(context.Background(), answer.SearchInput{Query: "greeting", Package: "example.com/hello", Kind: "const"})
	if err == nil || strings.Contains(err.Error(), "none with these words") || !strings.Contains(err.Error(), "kind=const") {
		t.Errorf("with a kind filter: err = %v, want it to name the filters, not say the words are missing", err)
	}
}

// TestUndocumentedMembers checks that the undocumented members of one type are one hit that
// names the others, while documented members stay hits of their own.
func TestUndocumentedMembers(t *testing.T) {
	mod := module("example.com/hello")
	mod.Symbols = append(mod.Symbols, docidx.Symbol{Kind: docidx.KindType, Name: "Greeter", Package: "example.com/hello",
		QualifiedName: "hello.Greeter", Signature: "type Greeter struct{}", Doc: "Greeter greets."})
	for _, m := range []string{"Open", "Close", "Stat", "Sync"} {
		mod.Symbols = append(mod.Symbols, docidx.Symbol{Kind: docidx.KindMethod, Name: m, Package: "example.com/hello",
			QualifiedName: "hello.Greeter." + m, Signature: "func (g *Greeter) " + m + "() error"})
	}
	mod.Symbols = append(mod.Symbols, docidx.Symbol{Kind: docidx.KindMethod, Name: "Wave", Package: "example.com/hello",
		QualifiedName: "hello.Greeter.Wave", Signature: "func (g *Greeter) Wave() error", Doc: "Wave waves at the Greeter's people."})
	s := service(snapshot(t, mod))
	_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "Greeter"})
	if err != nil {
		t.Fatal(err)
	}
	bare, named := 0, 0
	for _, r := range out.Results {
		if strings.HasPrefix(r.Title, "hello.Greeter.") && r.Snippet == "" {
			bare++
			named += len(r.Also)
		}
	}
	if bare != 1 || named != 3 {
		t.Errorf("%d undocumented member hits naming %d others, want 1 naming 3: %+v", bare, named, out.Results)
	}
}

// TestBareSymbolsLast checks that a symbol with nothing to show but its declaration follows
// every hit that has a passage, however well its name matches (issue 26: an undocumented
// symbol never outranks documented ones for a prose question nor shows an empty passage),
// unless the question names it.
func TestBareSymbolsLast(t *testing.T) {
	mod := module("example.com/hello")
	mod.Symbols = append(mod.Symbols,
		docidx.Symbol{Kind: docidx.KindFunc, Name: "WavePeople", Package: "example.com/hello",
			QualifiedName: "hello.WavePeople", Signature: "func WavePeople(people []string) error"},
		docidx.Symbol{Kind: docidx.KindFunc, Name: "Greet", Package: "example.com/hello",
			QualifiedName: "hello.Greet", Signature: "func Greet() error", Doc: "Greet says hello to the people it meets, one after another, in the order they arrive, and waits for each to answer before it moves on to the next."})
	s := service(snapshot(t, mod))
	bareAt := func(query string) (bare, documented int) {
		t.Helper()
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		bare, documented = -1, -1
		for i, r := range out.Results {
			switch r.Title {
			case "hello.WavePeople":
				bare = i
			case "hello.Greet":
				documented = i
			}
		}
		return bare, documented
	}
	if bare, documented := bareAt("how do I wave at people"); bare < 0 || documented < 0 || bare < documented {
		t.Errorf("prose question: the undocumented WavePeople at %d, the documented Greet at %d; want both, WavePeople after", bare, documented)
	}
	if bare, documented := bareAt("how do I call WavePeople"); bare != 0 || documented < 0 {
		t.Errorf("a question naming WavePeople: it is at %d (Greet at %d), want it first", bare, documented)
	}
	// It follows them within its page only: a page of one hit holds the best-ranked hit, as a
	// page of a named package whose best pages are such symbols still shows them.
	_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "how do I wave at people", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || out.Results[0].Title != "hello.WavePeople" {
		t.Errorf("a page of one hit: %+v, want hello.WavePeople, the best-ranked", out.Results)
	}
}

// TestDescribeInternalLast: a package's outline, for an assistant as for the pages, lists the
// symbols marked @internal after the others, marked, with the tag out of their synopsis
// (zod's outline started with "_ZodString — @internal", issue 29).
func TestDescribeInternalLast(t *testing.T) {
	p := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "zod", Version: "4.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindInterface, Name: "_ZodString", Package: "zod", QualifiedName: "zod._ZodString", Signature: "interface _ZodString", Doc: "@internal\nThe base of string schemas."},
			{Kind: docidx.KindInterface, Name: "ZodString", Package: "zod", QualifiedName: "zod.ZodString", Signature: "interface ZodString", Doc: "A string schema."},
			{Kind: docidx.KindFunc, Name: "_parse", Package: "zod", QualifiedName: "zod._parse", Signature: "function _parse(): void", Doc: "@internal"},
			{Kind: docidx.KindFunc, Name: "string", Package: "zod", QualifiedName: "zod.string", Signature: "function string(): ZodString"},
		},
	}
	s := service(snapshot(t, p))
	text, out, err := s.Describe(context.Background(), docidx.NPM, answer.DescribeInput{Package: "zod"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range out.Outline {
		got = append(got, fmt.Sprintf("%s internal=%v %q", e.Name, e.Internal, e.Synopsis))
	}
	want := []string{
		`zod.ZodString internal=false "A string schema."`,
		`zod.string internal=false ""`,
		`zod._ZodString internal=true "The base of string schemas."`,
		`zod._parse internal=true ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if i, j := strings.Index(text, "Internal (marked @internal"), strings.Index(text, "interface _ZodString"); i < 0 || j < i {
		t.Errorf("the text does not list _ZodString under an Internal heading:\n%s", text)
	}
}

// TestSearchHeader checks that a search answer opens with the range of its hits and the versions
// searched, not with the question, which the caller wrote and an assistant pays for again.
func TestSearchHeader(t *testing.T) {
	const mod = "example.com/hello"
	s := service(snapshot(t, module(mod)))
	text, _, err := s.Search(context.Background(), answer.SearchInput{Query: "greeting for name"})
	if err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(text, "\n"); !strings.HasPrefix(head, "Results 1–") || !strings.HasSuffix(head, " (default versions):") || strings.Contains(head, "greeting") {
		t.Errorf("search answer opens with %q", head)
	}
}

// TestDescribeOutlineNested: a type's methods are listed under it, each qualified name once
// with its overloads counted, and a method another type listed before it declares alike (an
// inherited copy) is named on the type's line instead of listed again; express's outline listed
// Application's methods twice (Express repeats them), unnamed by type, and listen once per overload. The members of
// a namespace (express's interfaces, declared in the namespace merged with its function e) are
// the package's API, listed at the top.
func TestDescribeOutlineNested(t *testing.T) {
	sym := func(kind docidx.SymbolKind, parent, name, sig, doc string) docidx.Symbol {
		q := "express." + strings.TrimPrefix(strings.TrimPrefix(parent+"."+name, "."), "e.")
		return docidx.Symbol{Kind: kind, Name: name, Parent: parent, Package: "express", QualifiedName: q, Signature: sig, Doc: doc}
	}
	p := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "express", Version: "5.0.0"},
		Symbols: []docidx.Symbol{
			sym(docidx.KindFunc, "", "e", "function e(): Express", "Creates an application."),
			sym(docidx.KindInterface, "e", "Application", "interface Application", "An application."),
			sym(docidx.KindMethod, "e.Application", "listen", "listen(port: number): Server", "Listen for connections."),
			sym(docidx.KindMethod, "e.Application", "listen", "listen(path: string): Server", ""),
			sym(docidx.KindMethod, "e.Application", "init", "init(): void", "Initialize the server."),
			sym(docidx.KindMethod, "e.Application", "path", "path(): string", ""),
			sym(docidx.KindField, "e.Application", "locals", "locals: Locals", ""),
			sym(docidx.KindInterface, "e", "Express", "interface Express extends Application", ""),
			sym(docidx.KindMethod, "e.Express", "init", "init(): void", "Initialize the server."),
			sym(docidx.KindMethod, "e.Express", "path", "path(): string", ""),
			sym(docidx.KindMethod, "e.Express", "listen", "listen(port: number): Server", "Listen for connections."),
			sym(docidx.KindField, "e.Express", "request", "request: Request", ""),
			sym(docidx.KindField, "e.Express", "response", "response: Response", ""),
		},
	}
	s := service(snapshot(t, p))
	text, out, err := s.Describe(context.Background(), docidx.NPM, answer.DescribeInput{Package: "express"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range out.Outline {
		got = append(got, fmt.Sprintf("%s parent=%q overloads=%d members=%d alike=%v", e.Name, e.Parent, e.Overloads, e.Members, e.Alike))
	}
	want := []string{
		`express.Application parent="" overloads=0 members=1 alike=[]`,
		`express.Application.listen parent="Application" overloads=1 members=0 alike=[]`,
		`express.Application.init parent="Application" overloads=0 members=0 alike=[]`,
		`express.Application.path parent="Application" overloads=0 members=0 alike=[]`,
		`express.Express parent="" overloads=0 members=2 alike=[{Application [init listen]}]`,
		`express.Express.path parent="Express" overloads=0 members=0 alike=[]`, // undocumented: no proof of a copy
		`express.e parent="" overloads=0 members=0 alike=[]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, line := range []string{
		"- `interface Application` — An application. (1 member)\n  - `listen(port: number): Server` — Listen for connections. (2 overloads)\n",
		"- `interface Express extends Application` (2 members; 2 methods as Application's: init, listen)\n  - `path(): string`\n",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("the text lacks %q:\n%s", line, text)
		}
	}
}

// TestGoImportPathNames checks that a Go import path inside an indexed module, written without
// its ecosystem as Go code imports it, names that module's package: show finds it
// (FindPackageOf keeps the path for Describe to focus on), and a search by it searches the module.
func TestGoImportPathNames(t *testing.T) {
	mod := module("example.com/text")
	mod.Symbols = append(mod.Symbols, docidx.Symbol{Kind: docidx.KindType, Name: "Caser", Package: "example.com/text/cases",
		QualifiedName: "cases.Caser", Signature: "type Caser struct{}", Doc: "A Caser may be stateful and should not be shared between goroutines."})
	s := service(snapshot(t, mod))
	ref, err := s.FindPackageOf("", "example.com/text/cases", "Caser")
	if err != nil || ref != (docidx.Ref{Ecosystem: docidx.Go, Name: "example.com/text/cases"}) {
		t.Fatalf("FindPackageOf(example.com/text/cases) = %v, %v; want the import path in Go", ref, err)
	}
	text, _, err := s.Describe(context.Background(), ref.Ecosystem, answer.DescribeInput{Package: ref.Name, Symbol: "Caser"})
	if err != nil || !strings.Contains(text, "should not be shared between goroutines") {
		t.Errorf("Describe of the import path's Caser: %v\n%s", err, text)
	}
	for _, pkg := range []string{"example.com/text/cases", "go:example.com/text/cases"} {
		_, out, err := s.Search(context.Background(), answer.SearchInput{Query: "shared between goroutines", Package: pkg})
		if err != nil || len(out.Results) == 0 || out.Results[0].Title != "cases.Caser" {
			t.Errorf("search -p %s: %v, %+v; want cases.Caser", pkg, err, out.Results)
		}
	}
	if _, err := s.FindPackageOf("", "example.org/nosuch/cases", ""); !errors.Is(err, docidx.ErrNotFound) {
		t.Errorf("an import path of no indexed module: %v, want not found", err)
	}
}

// TestFindPackageOf: a bare name that names packages of several ecosystems names the one whose
// symbols the request's symbol matches; without a symbol, or with one that none or both have,
// the answer is FindPackage's, which lists the candidates.
func TestFindPackageOf(t *testing.T) {
	crate := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Cargo, Name: "bytes", Version: "1.0.0"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindType, Name: "Bytes", QualifiedName: "bytes::Bytes", Signature: "pub struct Bytes", Doc: "A cheaply cloneable chunk of memory."},
			{Kind: docidx.KindFunc, Name: "format", QualifiedName: "bytes::format", Signature: "pub fn format()", Doc: "Formats."},
		},
	}
	npm := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "bytes", Version: "3.1.2"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindFunc, Name: "parse", QualifiedName: "bytes.parse", Signature: "function parse(val: string): number", Doc: "Parse a string to bytes."},
			{Kind: docidx.KindFunc, Name: "format", QualifiedName: "bytes.format", Signature: "function format(n: number): string", Doc: "Format bytes."},
		},
	}
	s := service(snapshot(t, crate, npm))
	for _, c := range []struct {
		symbol string
		want   docidx.Ecosystem // "" for the ambiguity error
	}{
		{"bytes::Bytes", docidx.Cargo},
		{"Bytes", docidx.Cargo},
		{"parse", docidx.NPM},
		{"format", ""},
		{"nosuch", ""},
		{"", ""},
	} {
		ref, err := s.FindPackageOf("", "bytes", c.symbol)
		switch {
		case c.want == "" && (err == nil || !errors.Is(err, docidx.ErrNotFound) || !strings.Contains(err.Error(), "names 2 packages")):
			t.Errorf("bytes %q: %v, %v; want the error that lists both packages", c.symbol, ref, err)
		case c.want != "" && (err != nil || ref.Ecosystem != c.want || ref.Name != "bytes"):
			t.Errorf("bytes %q: %v, %v; want %s's bytes", c.symbol, ref, err, c.want)
		}
	}
}

// TestDeprecatedFlag checks that a deprecated symbol's full view says so once: the flag when its
// doc does not, the doc's own deprecation paragraph when it does.
func TestDeprecatedFlag(t *testing.T) {
	mod := module("example.com/hello")
	mod.Symbols = append(mod.Symbols,
		docidx.Symbol{Kind: docidx.KindFunc, Name: "Old", Package: "example.com/hello", QualifiedName: "hello.Old",
			Signature: "func Old()", Doc: "Old greets.\n\nDeprecated: Use Greet.", Deprecated: true},
		docidx.Symbol{Kind: docidx.KindFunc, Name: "Older", Package: "example.com/hello", QualifiedName: "hello.Older",
			Signature: "func Older()", Doc: "Older greets.", Deprecated: true})
	s := service(snapshot(t, mod))
	for name, flag := range map[string]bool{"hello.Old": false, "hello.Older": true} {
		text, _, err := s.Describe(context.Background(), docidx.Go, answer.DescribeInput{Package: "example.com/hello", Symbol: name})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text, "**Deprecated.**"); got != flag || !strings.Contains(text, "eprecated") {
			t.Errorf("%s: flag shown %v, want %v:\n%s", name, got, flag, text)
		}
	}
}

// TestPagesFitAsJSON checks that a page of an outline, of a symbol's members, of search hits and
// of a document fits max_tokens in its structured form too, which Claude Code and the Copilot
// CLI give the model instead of the text, and that following the cursors lists every outline
// entry and member once.
func TestPagesFitAsJSON(t *testing.T) {
	p := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.NPM, Name: "wide", Version: "1.0.0"}}
	readme := docidx.Document{Path: "README.md", Kind: docidx.DocReadme, Title: "wide"}
	for i := range 60 {
		text := fmt.Sprintf("Set \"option%03d\" to \"on\"\nor \"off\";\n", i)
		readme.Sections = append(readme.Sections, docidx.Section{Heading: []string{"wide", fmt.Sprintf("Option %d", i)},
			Anchor: fmt.Sprintf("option-%d", i), Text: text, Plain: text})
	}
	p.Documents = []docidx.Document{readme}
	p.Symbols = append(p.Symbols, docidx.Symbol{Kind: docidx.KindInterface, Name: "Options", Package: "wide",
		QualifiedName: "Options", Signature: "interface Options", Doc: "Options of everything."})
	for i := range 120 {
		name := fmt.Sprintf("option%03d", i)
		p.Symbols = append(p.Symbols, docidx.Symbol{Kind: docidx.KindField, Name: name, Package: "wide", Parent: "Options",
			QualifiedName: "Options." + name, Signature: name + "?: number", Doc: fmt.Sprintf("Option %d.", i)})
		p.Symbols = append(p.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: "make" + name, Package: "wide",
			QualifiedName: "make" + name, Signature: "function make" + name + "(): void", Doc: fmt.Sprintf("Makes option %d.", i)})
	}
	s := service(snapshot(t, p))
	const maxTokens = 500
	budget := s.Budget(maxTokens)
	for _, symbol := range []string{"", "Options"} {
		seen := map[string]int{}
		cursor, pages := "", 0
		for {
			_, out, err := s.Describe(context.Background(), docidx.NPM, answer.DescribeInput{Package: "wide", Symbol: symbol, MaxTokens: maxTokens, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			var list any = out.Outline
			for _, e := range out.Outline {
				seen[e.Name]++
			}
			if symbol != "" {
				list = out.Symbols
				for _, d := range out.Symbols {
					seen[d.QualifiedName]++
				}
			}
			if b, _ := json.Marshal(list); len(b) > budget {
				t.Errorf("symbol %q, page %d: %d bytes of JSON entries, over the budget of %d", symbol, pages, len(b), budget)
			}
			if cursor = out.NextCursor; cursor == "" {
				break
			}
		}
		want := 121 // the interface and the functions (the outline counts fields), or the interface and its fields
		if len(seen) != want || pages < 3 {
			t.Errorf("symbol %q: %d entries over %d pages, want %d over several", symbol, len(seen), pages, want)
		}
		for name, n := range seen {
			if n != 1 {
				t.Errorf("symbol %q: %s listed %d times", symbol, name, n)
			}
		}
	}
	_, found, err := s.Search(context.Background(), answer.SearchInput{Query: "makes option", Limit: 20, MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(found.Results); len(found.Results) < 2 || len(b) > s.Budget(200) {
		t.Errorf("search: %d hits in %d bytes of JSON, want several within %d", len(found.Results), len(b), s.Budget(200))
	}
	_, read, err := s.Read(context.Background(), answer.ReadInput{URI: "docidx://npm/wide@1.0.0/readme", MaxTokens: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The page's first line names the URI and its last says how to go on: 200 bytes besides the
	// budget, in the text too.
	if b, _ := json.Marshal(read.Text); read.NextCursor == "" || len(b) > s.Budget(200)+200 {
		t.Errorf("read: %d bytes of text as JSON (next page %q), want a page within %d", len(b), read.NextCursor, s.Budget(200)+200)
	}
}

// TestDescribeReexportOnce checks that a symbol argument matching one declaration under two names
// (a class of a submodule re-exported by the package) describes it once, naming the other.
func TestDescribeReexportOnce(t *testing.T) {
	method := func(qname string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindMethod, Name: "request", Package: "requests", Parent: "Session",
			QualifiedName: qname, Signature: "def request(self, method, url)", Doc: "Constructs a Request, prepares it and sends it.",
			File: "requests/sessions.py", Line: 557}
	}
	other := method("requests.adapters.Session.request")
	other.Line = 90 // another declaration with the same text: not a re-export
	p := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "requests", Version: "2.0.0"},
		Symbols: []docidx.Symbol{method("requests.Session.request"), method("requests.sessions.Session.request"), other},
	}
	s := service(snapshot(t, p))
	text, out, err := s.Describe(context.Background(), docidx.PyPI, answer.DescribeInput{Package: "requests", Symbol: "Session.request"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range out.Symbols {
		got = append(got, d.QualifiedName+" "+strings.Join(d.Aliases, ","))
	}
	want := []string{"requests.Session.request requests.sessions.Session.request", "requests.adapters.Session.request "}
	if !slices.Equal(got, want) {
		t.Errorf("symbols %q, want %q", got, want)
	}
	if n := strings.Count(text, "Constructs a Request"); n != 2 || !strings.Contains(text, "Also named: requests.sessions.Session.request") {
		t.Errorf("the doc %d times, want twice (one per declaration), and the re-export named:\n%s", n, text)
	}
}
