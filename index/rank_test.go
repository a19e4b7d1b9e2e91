package index_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// rankFixture builds a snapshot of several packages and returns its index directory and the
// directory of its one segment.
func rankFixture(t *testing.T) (dir, seg string) {
	t.Helper()
	dir = build(t, goModule("v0.7.0"),
		npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"),
		npmPackage("zod", "3.23.8", "TypeScript-first schema validation with static type inference"))
	seg = filepath.Join(dir, "seg-000001")
	if _, err := os.Stat(filepath.Join(seg, index.RankFile)); err != nil {
		t.Fatalf("commit wrote no %s: %v", index.RankFile, err)
	}
	return dir, seg
}

func ids(hits []docidx.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.URI)
	}
	slices.Sort(out)
	return out
}

func TestRankRanks(t *testing.T) {
	dir, _ := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	for _, c := range []struct {
		q    index.Query
		want string // URI of the first hit
	}{
		{index.Query{Text: "zod"}, "docidx://npm/zod@3.23.8/overview"},                                                                        // exact name
		{index.Query{Text: "run goroutines and return the first error"}, "docidx://golang/golang.org/x/sync@v0.7.0/symbol/errgroup.Group.Go"}, // most words
		{index.Query{Text: "NewWeighted"}, "docidx://golang/golang.org/x/sync@v0.7.0/symbol/semaphore.NewWeighted"},
		{index.Query{Text: "SetLimit goroutines"}, "docidx://golang/golang.org/x/sync@v0.7.0/symbol/errgroup.Group.SetLimit"}, // a symbol's own name
		{index.Query{Text: "command line programs in node"}, "docidx://npm/commander@12.1.0/overview"},
	} {
		hits := search(t, r, c.q)
		if len(hits) == 0 || hits[0].URI != c.want {
			t.Errorf("%q: first hit %v, want %s", c.q.Text, ids(hits[:min(3, len(hits))]), c.want)
		}
	}
	// Typos: nothing matches as typed, so the likeliest corrections are searched.
	if hits := search(t, r, index.Query{Text: "goroutnies"}); len(hits) == 0 {
		t.Error("goroutnies: no hits")
	}
}

func TestRankCorrupt(t *testing.T) {
	dir, gen := rankFixture(t)
	path := filepath.Join(gen, index.RankFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"empty":     {},
		"truncated": good[:len(good)/2],
		"magic":     append([]byte("NOTRANK!"), good[8:]...),
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := index.Open(dir)
		if err == nil {
			r.Close()
			t.Errorf("%s: Open succeeded", name)
		} else if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want ErrCorrupt naming %s", name, err, path)
		}
	}
	// Another layout, and a flipped byte anywhere: Open finds those in the file's shape (its
	// header, section directory and size), the checksum the others before a search reads the
	// file. Every search then fails naming the file, and so does Prepare.
	bad := [][]byte{append([]byte("DOCIDXR9"), good[8:]...)}
	for _, i := range []int{9, len(good) / 3, len(good) / 2, len(good) - 70, len(good) - 1} {
		data := slices.Clone(good)
		data[i] ^= 0x10
		bad = append(bad, data)
	}
	for i, data := range bad {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := index.Open(dir)
		if err == nil {
			uses := map[string]func() error{
				"Search": func() error {
					_, err := r.Search(context.Background(), index.Query{Text: "goroutines"})
					return err
				},
				"Passage":  func() error { _, err := r.Passage("Goroutines and channels.", "goroutines", 100); return err },
				"Prepare":  r.Prepare,
				"Search 2": func() error { _, err := r.Search(context.Background(), index.Query{Text: "zod"}); return err },
			}
			for _, use := range []string{"Search", "Passage", "Prepare", "Search 2"} {
				if err := uses[use](); !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) {
					t.Errorf("damage %d: Open succeeded, then %s: %v, want ErrCorrupt naming %s", i, use, err, path)
				}
			}
			r.Close()
		} else if !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), path) {
			t.Errorf("damage %d: %v, want ErrCorrupt naming %s", i, err, path)
		}
	}
}

// Concurrent searches share the rank index's file and reuse accumulators: each must get what
// it gets alone.
func TestRankConcurrentSearches(t *testing.T) {
	dir, _ := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	queries := []index.Query{{Text: "goroutines"}, {Text: "options", Ecosystem: docidx.NPM}, {Text: "zod"}, {Text: "parseAsync"}, {Text: "group", Kind: "method"}}
	want := make([][]string, len(queries))
	for i, q := range queries {
		want[i] = ids(search(t, r, q))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := (g + i) % len(queries)
				res, err := r.Search(context.Background(), queries[k])
				if err != nil {
					t.Error(err)
					return
				}
				if got := ids(res.Hits); !slices.Equal(got, want[k]) {
					t.Errorf("%+v concurrently: %v, alone %v", queries[k], got, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// A search by the latest version of a package is the rank index's search under a package
// filter: it ranks as the search without a version does.
func TestLatestVersionRanksAsLatest(t *testing.T) {
	dir, _ := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	for _, q := range []index.Query{
		{Text: "goroutines error", Package: "golang.org/x/sync"},
		{Text: "options", Package: "zod", Ecosystem: docidx.NPM},
	} {
		want := search(t, r, q)
		q.Version = map[string]string{"golang.org/x/sync": "v0.7.0", "zod": "3.23.8"}[q.Package]
		if got := search(t, r, q); len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: %v, without the version %v", q, ids(got), ids(want))
		}
	}
}

// The kind filter takes the plurals the CLI's help names, and refuses a kind that names nothing
// rather than finding nothing.
func TestSearchKinds(t *testing.T) {
	dir, _ := rankFixture(t)
	check := func(r *index.Reader, engine string) {
		for _, c := range []struct{ plural, singular string }{{"sections", "section"}, {"Symbols", "symbol"}, {"methods", "method"}} {
			want := ids(search(t, r, index.Query{Text: "group install options", Kind: c.singular}))
			if got := ids(search(t, r, index.Query{Text: "group install options", Kind: c.plural})); len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("%s: kind %q: %v, %q gives %v", engine, c.plural, got, c.singular, want)
			}
		}
		_, err := r.Search(context.Background(), index.Query{Text: "group", Kind: "functionz"})
		if !errors.Is(err, index.ErrUnknownKind) || !strings.Contains(err.Error(), "section, symbol") {
			t.Errorf("%s: unknown kind: %v, want ErrUnknownKind listing the kinds", engine, err)
		}
	}
	r := open(t, dir)
	defer r.Close()
	check(r, "rank.idx")
}

// TestNamedPackage: a question that names a package ranks that package's pages (not its
// overview) above the same text of another package, with a version filter or without.
func TestNamedPackage(t *testing.T) {
	dir, _ := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	for _, q := range []index.Query{
		{Text: "define options for flags with commander"},
		{Text: "define options for flags with commander", Version: "12.1.0"},
		{Text: "zod: define options for flags"},
	} {
		hits := search(t, r, q)
		if len(hits) == 0 {
			t.Fatalf("%+v: no hits", q)
		}
		want := "commander"
		if strings.HasPrefix(q.Text, "zod") {
			want = "zod"
		}
		if h := hits[0]; h.Package != want || strings.HasSuffix(h.URI, "/overview") {
			t.Errorf("%+v: top hit %s %s, want a page of %s", q, h.Package, h.URI, want)
		}
	}
}

// A hit's text is stored once, in search.bleve: rank.idx ranks the hits and reads their title,
// section, text and URI from there.
func TestRankHoldsNoHitText(t *testing.T) {
	dir, gen := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	hits := search(t, r, index.Query{Text: "goroutines"})
	if len(hits) == 0 {
		t.Fatal("goroutines: no hits")
	}
	data, err := os.ReadFile(filepath.Join(gen, index.RankFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Title == "" || h.URI == "" || h.Snippet == "" {
			t.Errorf("hit %+v lacks its text", h)
		}
		for _, s := range []string{h.URI, h.Snippet} {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds %q of hit %s", index.RankFile, s, h.URI)
			}
		}
	}
}

// rank.idx reads its hits' text from search.bleve by document number, so a rank.idx that does
// not number the documents search.bleve holds (one from another snapshot) is damage, refused
// at open rather than showing other documents' text.
func TestRankOfAnotherSnapshot(t *testing.T) {
	_, gen := rankFixture(t)
	other := build(t, goModule("v0.7.0"))
	data, err := os.ReadFile(filepath.Join(other, "seg-000001", index.RankFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gen, index.RankFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := index.Open(filepath.Dir(gen))
	if err == nil {
		r.Close()
		t.Fatal("Open succeeded with the rank.idx of another snapshot")
	}
	checkDamageError(t, err, index.RankFile)
}

// TestSearchDeferred checks that SearchDeferred finds the hits Search finds, and that the
// passage it chooses for each, asked for in any order, is the one Search gives it.
func TestSearchDeferred(t *testing.T) {
	dir, _ := rankFixture(t)
	r := open(t, dir)
	defer r.Close()
	for _, q := range []index.Query{
		{Text: "run goroutines and return the first error"},
		{Text: "limit concurrent goroutines", Limit: 13},
		{Text: "command line programs in node", Offset: 2, Limit: 5},
		{Text: "schema validation", PassageBytes: 150},
		{Text: "goroutines", Kind: "symbol", Ecosystem: docidx.Go},
		{Text: "nothing matches xyzzyplugh"},
	} {
		want := search(t, r, q)
		res, ps, err := r.SearchDeferred(context.Background(), q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if len(res.Hits) != len(want) {
			t.Fatalf("%+v: %d hits, Search %d", q, len(res.Hits), len(want))
		}
		for i := len(res.Hits) - 1; i >= 0; i-- {
			h := res.Hits[i]
			if h.Snippet != "" {
				t.Errorf("%+v: hit %d has a passage before it is asked for", q, i)
			}
			h.Snippet = ps.At(i)
			if !reflect.DeepEqual(h, want[i]) {
				t.Errorf("%+v: hit %d:\n got %+v\nwant %+v", q, i, h, want[i])
			}
		}
	}
	if _, _, err := r.SearchDeferred(context.Background(), index.Query{Text: " "}); err == nil {
		t.Error("an empty question was searched")
	}
	// Passages are chosen from copies: after Close too, from other goroutines.
	q := index.Query{Text: "run goroutines and return the first error"}
	want := search(t, r, q)
	res, ps, err := r.SearchDeferred(context.Background(), q)
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("%v, %d hits", err, len(res.Hits))
	}
	r.Close()
	var wg sync.WaitGroup
	for i := range res.Hits {
		wg.Go(func() {
			if got := ps.At(i); got != want[i].Snippet {
				t.Errorf("after Close, hit %d: passage %q, want %q", i, got, want[i].Snippet)
			}
		})
	}
	wg.Wait()
}

// TestUndocumentedRanksBelow: for a question in words, a symbol without a doc comment ranks
// below a documented one that holds the same words, whatever errors its code makes; a question
// that spells its name, or the message of one of its errors, still finds it first, in
// whichever segment it is (rank.idx's docflags, numbered over the snapshot).
func TestUndocumentedRanksBelow(t *testing.T) {
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "flagpole", Version: "1.0.0", Description: "flags"},
		Symbols: []docidx.Symbol{
			// Named with every word of the question, so it would rank first on its name; the
			// errors its code makes are no doc comment.
			{Kind: docidx.KindMethod, Name: "parseStrictOptions", Parent: "Parser", QualifiedName: "Parser.parseStrictOptions", Signature: "parseStrictOptions(): void",
				Errors: []string{"throw new TypeError('strict options: flagpole refuses --colour')"}},
			{Kind: docidx.KindMethod, Name: "configure", Parent: "Parser", QualifiedName: "Parser.configure", Signature: "configure(o: Options): void",
				Doc: "Configure the parser. In strict mode, it will parse options it knows and reject the others with an error that names them, so that a typo never passes unseen."},
		},
	}
	// In a second segment, so that its documents are numbered after the first's.
	dir := build(t, npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"))
	commit(t, dir, pkg)
	r := open(t, dir)
	defer r.Close()
	if n := len(r.Manifest().Segments); n != 2 {
		t.Fatalf("%d segments, want 2", n)
	}
	hits := search(t, r, index.Query{Text: "how do I parse strict options"})
	if len(hits) < 2 || hits[0].Title != "Parser.configure" {
		t.Errorf("prose question: hits %v, want Parser.configure first", ids(hits))
	}
	if hits := search(t, r, index.Query{Text: "parseStrictOptions"}); len(hits) == 0 || hits[0].Title != "Parser.parseStrictOptions" {
		t.Errorf("its name: hits %v, want Parser.parseStrictOptions first", ids(hits))
	}
	// The message a user pastes finds the function whose code makes it, and shows it.
	hits = search(t, r, index.Query{Text: "TypeError: flagpole refuses --colour"})
	if len(hits) == 0 || hits[0].Title != "Parser.parseStrictOptions" || !strings.Contains(hits[0].Snippet, "flagpole refuses --colour") {
		t.Errorf("its error's message: hits %v, want Parser.parseStrictOptions first, showing it", ids(hits))
	}
}

// TestSpelledDocumentedFirst: of two symbols a question spells, the documented one ranks first.
func TestSpelledDocumentedFirst(t *testing.T) {
	pkg := func(name, doc string) *docidx.PackageDocs {
		return &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.NPM, Name: name, Version: "1.0.0"},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "useThing", QualifiedName: "useThing", Signature: "function useThing(): void", Doc: doc}},
		}
	}
	// The undocumented one first, so that ties would favour it.
	r := open(t, build(t, pkg("aaa-jsx", ""), pkg("zzz-react", "Returns the current thing.")))
	defer r.Close()
	if hits := search(t, r, index.Query{Text: "useThing hook"}); len(hits) < 2 || hits[0].Package != "zzz-react" {
		t.Errorf("hits %v, want zzz-react's documented useThing first", ids(hits))
	}
}

// TestWithinPackageWithoutName: among the pages of the package a question names, the words of
// its name do not rank the pages that repeat it (install instructions) above the one that
// answers.
func TestWithinPackageWithoutName(t *testing.T) {
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "fancy-cache", Version: "1.0.0", Description: "A cache."},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "fancy-cache", Sections: []docidx.Section{
			{Heading: []string{"fancy-cache", "Install"}, Anchor: "install",
				Plain: "Install fancy-cache with npm install fancy-cache, then import fancy-cache: const cache = require('fancy-cache'). fancy-cache entries expire."},
		}}},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindField, Name: "ttl", Parent: "Options", QualifiedName: "Options.ttl", Signature: "ttl?: number",
				Doc: "How long entries live, in milliseconds, before they expire. 0 keeps them forever."},
		},
	}
	r := open(t, build(t, pkg, npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs")))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "how long do fancy-cache entries live before they expire"})
	if len(hits) == 0 || hits[0].Title != "Options.ttl" {
		var titles []string
		for _, h := range hits {
			titles = append(titles, h.Title+" "+h.Section)
		}
		t.Errorf("hits %q, want Options.ttl first", titles)
	}
}

// TestWithinPackageOwnerPath: a question that names a Go module by its owner and repository
// as written ("SushiCorp/tomlkit") does not order the module's pages by the owner's words: the
// parts of "SushiCorp" ("sushi", "corp") are terms of the question as its identifier analysis
// splits it, and the import paths of the module's packages hold them all. Before, the
// documentation of its commands (cmd/tomlv, cmd/tomltest) ranked above the type that answers,
// as BurntSushi/toml's did in the corpus.
func TestWithinPackageOwnerPath(t *testing.T) {
	const mod = "github.com/SushiCorp/tomlkit"
	pkgSym := func(path, doc string) docidx.Symbol {
		return docidx.Symbol{Kind: docidx.KindPackage, Name: path[strings.LastIndexByte(path, '/')+1:], Package: path, QualifiedName: path,
			Signature: "package main", Doc: doc}
	}
	tomlkit := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Go, Name: mod, Version: "v1.0.0", Description: "TOML for Go."},
		Symbols: []docidx.Symbol{
			pkgSym(mod+"/cmd/tomlv", "Command tomlv checks that files are valid."),
			pkgSym(mod+"/cmd/tomltest", "Command tomltest runs the test suite."),
			pkgSym(mod+"/cmd/tomlfmt", "Command tomlfmt formats files."),
			{Kind: docidx.KindType, Name: "Decoder", Package: mod, QualifiedName: "tomlkit.Decoder", Signature: "type Decoder struct { … }",
				Doc: "Decoder reads a document into a struct. A duration field is read as nanoseconds when the value is an integer, and parsed when it is a string."},
			{Kind: docidx.KindType, Name: "Encoder", Package: mod, QualifiedName: "tomlkit.Encoder", Signature: "type Encoder struct { … }",
				Doc: "Encoder writes a struct as a document."},
		},
	}
	r := open(t, build(t, tomlkit, goModule("v0.1.0"), npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs")))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "what unit does SushiCorp/tomlkit assume for a duration?"})
	if len(hits) == 0 || hits[0].Title != "tomlkit.Decoder" {
		var titles []string
		for _, h := range hits {
			titles = append(titles, h.Title)
		}
		t.Errorf("hits %q, want tomlkit.Decoder first", titles)
	}
}

// TestOwnerNamesPackageSymbols: a call written with a lower-case owner that names a package
// ("validator.New()") owns that package's symbols of the name, not every symbol of the name
// whose documentation holds the owner's stem: quicktest.New says "valid", and it took the
// owned name's bonus beside validator.New.
func TestOwnerNamesPackageSymbols(t *testing.T) {
	goPkg := func(module, pkg, doc string, extra ...docidx.Section) *docidx.PackageDocs {
		d := &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.Go, Name: module, Version: "v1.0.0", Description: "A Go module."},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "New", Package: module, QualifiedName: pkg + ".New",
				Signature: "func New() *T", Doc: doc}},
		}
		if len(extra) > 0 {
			d.Documents = []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: pkg, Sections: extra}}
		}
		return d
	}
	validator := goPkg("github.com/example/validator", "validator", "New returns a new instance of Validate with sane defaults.",
		docidx.Section{Heading: []string{"validator", "Special notes"}, Anchor: "special-notes",
			Plain: "Validator is designed to be thread-safe and used as a singleton instance: share one across your HTTP handlers. It caches struct metadata."})
	quick := goPkg("github.com/example/quick", "quick", "New returns a checker of valid values for each test.")
	r := open(t, build(t, validator, quick, goModule("v0.1.0"), npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs")))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "should I create a new validator.New() in each HTTP handler or share one?"})
	score := map[string]float64{}
	for _, h := range hits {
		score[h.Title] = h.Score
	}
	if len(hits) == 0 || score["validator.New"] == 0 || score["quick.New"] > score["validator.New"]/4 {
		var titles []string
		for _, h := range hits {
			titles = append(titles, fmt.Sprintf("%s %.2f", h.Title, h.Score))
		}
		t.Errorf("hits %q: quick.New, whose doc says \"valid\", scores near validator.New", titles)
	}
}

// TestCallOwnerNamesPackage: a question that writes a call with its owner ("cacheable.set()")
// names the owner's package as one that writes the name alone does, with the prior of a named
// package, against a package the question names in passing ("the redis layer 2 store"). Before,
// only "redis" named a package, and in the corpus cacheable's answer was not among the first 30
// hits.
func TestCallOwnerNamesPackage(t *testing.T) {
	readme := func(name string, secs ...docidx.Section) docidx.Document {
		return docidx.Document{Path: "README.md", Kind: docidx.DocReadme, Title: name, Sections: secs}
	}
	sec := func(name, heading, plain string) docidx.Section {
		return docidx.Section{Heading: []string{name, heading}, Anchor: strings.ToLower(strings.ReplaceAll(heading, " ", "-")), Plain: plain}
	}
	cacheable := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "cacheable", Version: "2.0.0", Description: "Layered caching."},
		Documents: []docidx.Document{readme("cacheable",
			sec("cacheable", "Basic Usage", "Create a cache with new Cacheable() and call cacheable.set('key', 'value') and cacheable.get('key'). The cacheable.set() call stores a value."),
			sec("cacheable", "Storage Tiering", "Cacheable writes to a primary store and a secondary store (layer 2), such as redis: cacheable.set() writes both layers, and cacheable.get() reads the primary store first."),
			sec("cacheable", "Non-Blocking Operations", "If you want your layer 2 (secondary) store to be non-blocking you can set the nonBlocking property to true. It will not wait for the secondary store to respond."),
		)},
	}
	var redisSecs []docidx.Section
	for _, h := range []string{"Connecting", "Pipelines", "Transactions", "Pub Sub", "Scripting", "Streams", "Clusters", "Sentinel"} {
		redisSecs = append(redisSecs, sec("redis", h, "The redis client sends commands to the redis server and waits for the reply; a slow redis store makes every call wait. "+h+" with redis."))
	}
	redis := &docidx.PackageDocs{
		Package:   docidx.Package{Ecosystem: docidx.NPM, Name: "redis", Version: "4.0.0", Description: "A redis client."},
		Documents: []docidx.Document{readme("redis", redisSecs...)},
	}
	r := open(t, build(t, cacheable, redis, npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs")))
	defer r.Close()
	score := func(q string) float64 {
		hits := search(t, r, index.Query{Text: q})
		if len(hits) == 0 || hits[0].Section != "cacheable › Non-Blocking Operations" {
			t.Fatalf("%q: hits %+v, want cacheable's Non-Blocking Operations first", q, hits)
		}
		return hits[0].Score
	}
	call := score("cacheable.set() is slow because it waits for the redis layer 2 store, can I make it not wait?")
	name := score("cacheable set is slow because it waits for the redis layer 2 store, can I make it not wait?")
	if call < 0.8*name {
		t.Errorf("the answer scores %.2f when the question writes cacheable.set(), %.2f when it writes cacheable: the call does not name the package", call, name)
	}
}

// TestSiblingMentions: a member is found by the words its siblings' docs use for it (anchor
// text), and the words a sibling says of it rank it, not only the sibling.
func TestSiblingMentions(t *testing.T) {
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "wsgikit", Version: "1.0.0", Description: "WSGI toolkit"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindClass, Name: "Request", QualifiedName: "wsgikit.Request", Package: "wsgikit", Signature: "class Request"},
			{Kind: docidx.KindProperty, Name: "args", Parent: "Request", QualifiedName: "wsgikit.Request.args", Package: "wsgikit",
				Signature: "def args(self) -> MultiDict", Doc: "The parsed URL parameters (the part in the URL after the question mark)."},
			{Kind: docidx.KindField, Name: "query_string", Parent: "Request", QualifiedName: "wsgikit.Request.query_string", Package: "wsgikit",
				Doc: "The part of the URL after the \"?\". This is the raw value, use `args` for the parsed values."},
			{Kind: docidx.KindField, Name: "headers", Parent: "Request", QualifiedName: "wsgikit.Request.headers", Package: "wsgikit",
				Doc: "The headers received with the request."},
		},
	}
	r := open(t, build(t, pkg))
	defer r.Close()
	// Only query_string's doc says "raw" and "value", and it says them of args.
	hits := search(t, r, index.Query{Text: "raw value"})
	rank := 0
	for i, h := range hits {
		if h.Title == "wsgikit.Request.args" {
			rank = i + 1
		}
	}
	if rank == 0 || rank > 2 {
		t.Errorf("hits %v: want wsgikit.Request.args in the first two, by what query_string says of it", ids(hits))
	}
}

// TestSiblingMentionNamesProximity: a member that its siblings point to by name answers in the
// words of their names too when the first hits are ordered by proximity: args, which
// query_string's doc sends the reader to, above query_string, among members whose short docs
// say "query string" (werkzeug's Request, as flask inherits it) and beside a package whose docs
// make "parameter" a common word.
func TestSiblingMentionNamesProximity(t *testing.T) {
	member := func(kind docidx.SymbolKind, name, doc string) docidx.Symbol {
		return docidx.Symbol{Kind: kind, Name: name, Parent: "Request", QualifiedName: "wsgikit.Request." + name, Package: "wsgikit", Signature: name, Doc: doc}
	}
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "wsgikit", Version: "1.0.0", Description: "WSGI toolkit"},
		Symbols: []docidx.Symbol{
			{Kind: docidx.KindClass, Name: "Request", QualifiedName: "wsgikit.Request", Package: "wsgikit", Signature: "class Request", Doc: "A request."},
			member(docidx.KindProperty, "args", "The parsed URL parameters (the part in the URL after the question mark).\n\nBy default an ImmutableMultiDict is returned from this function. This can be changed by setting parameter_storage_class to a different type. This might be necessary if the order of the form data is important."),
			member(docidx.KindField, "query_string", "The part of the URL after the \"?\". This is the raw value, use `args` for the parsed values."),
			member(docidx.KindProperty, "url", "The full request URL with the scheme, host, root path, path, and query string."),
			member(docidx.KindProperty, "base_url", "Like url but without the query string."),
			member(docidx.KindProperty, "full_path", "Requested path, including the query string."),
		},
	}
	// Another package whose docs say "parameter" everywhere, as a corpus's do: the word weighs
	// less than "query" and "string".
	other := &docidx.PackageDocs{Package: docidx.Package{Ecosystem: docidx.PyPI, Name: "callkit", Version: "1.0.0", Description: "Calls"}}
	for i := range 60 {
		other.Symbols = append(other.Symbols, docidx.Symbol{Kind: docidx.KindFunc, Name: fmt.Sprintf("call%d", i), QualifiedName: fmt.Sprintf("callkit.call%d", i),
			Package: "callkit", Signature: "def call()", Doc: "Calls with the given parameter and reads its parameters."})
	}
	r := open(t, build(t, pkg, other))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "wsgikit read query string parameter"})
	at := func(title string) int {
		return slices.IndexFunc(hits, func(h docidx.Hit) bool { return h.Title == title })
	}
	if args, qs := at("wsgikit.Request.args"), at("wsgikit.Request.query_string"); args < 0 || qs >= 0 && args > qs {
		t.Errorf("wsgikit.Request.args at %d, query_string at %d: want args, which query_string points to, above it", args, qs)
	}
}

// TestCalledPackageWithEcosystemNoun: "the log crate" calls log a package although "crate" also
// names the ecosystem, so log's pages come before another crate's that say more of the words.
func TestCalledPackageWithEcosystemNoun(t *testing.T) {
	crate := func(name, doc string) *docidx.PackageDocs {
		return &docidx.PackageDocs{
			Package: docidx.Package{Ecosystem: docidx.Cargo, Name: name, Version: "1.0.0", Description: name},
			Symbols: []docidx.Symbol{{Kind: docidx.KindFunc, Name: "filters", QualifiedName: name + "::filters", Package: name, Doc: doc}},
		}
	}
	// Many documents say "log", so that the word alone does not name the crate.
	var others []*docidx.PackageDocs
	for i := range 100 {
		others = append(others, crate(fmt.Sprintf("logger%d", i), "Write a log line for every request, and log errors to the log file."))
	}
	others = append(others,
		crate("log", "Debug and trace calls can be disabled at compile time in release builds."),
		crate("tracing", "Debug and trace calls can be stripped out of release builds at compile time."))
	r := open(t, build(t, others...))
	hits := search(t, r, index.Query{Text: "can I strip debug and trace calls out of release builds with the log crate?"})
	if len(hits) == 0 || hits[0].Package != "log" {
		t.Errorf("hits %v, want the log crate's first", ids(hits))
	}
}

// A section whose heading names, as code, what the question asks about comes first among its
// package's hits, before one that holds more of the question's words: sonic-boom's
// "SonicBoom(opts)" documents what a SonicBoom does when it opens a file.
func TestHeadingNamesSubject(t *testing.T) {
	sec := func(heading, text string) docidx.Section {
		return docidx.Section{Heading: []string{"sonic-boom", "API", heading}, Text: text, Plain: text}
	}
	dir := build(t, &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "sonic-boom", Version: "4.0.0"},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "sonic-boom", Sections: []docidx.Section{
			sec("SonicBoom(opts)", "Creates a new instance that writes to the log file dest. append: appends writes to dest file instead of truncating it (default true)."),
			sec("SonicBoom#reopen([file])", "Reopens the log file in place, for log rotation."),
		}}},
	})
	r := open(t, dir)
	defer r.Close()
	hits := search(t, r, index.Query{Text: "when SonicBoom opens an existing log file, does it wipe the old contents?"})
	if len(hits) == 0 || !strings.HasSuffix(hits[0].Section, "SonicBoom(opts)") {
		var got []string
		for _, h := range hits {
			got = append(got, h.Section)
		}
		t.Errorf("hits %q, want SonicBoom(opts) first", got)
	}
}

// TestRustPathNamesRust: a name written in a Rust path ("std::process::exit") gives its bonus to
// Rust's symbols only: a JavaScript Process.exit, which the bonus would otherwise lift over
// the crate the question asks about, ranks by its words alone.
func TestRustPathNamesRust(t *testing.T) {
	node := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "@types/proc", Version: "1.0.0", Description: "Types of a process."},
		Symbols: []docidx.Symbol{{Kind: docidx.KindMethod, Name: "exit", Parent: "Process", QualifiedName: "Process.exit",
			Signature: "exit(code?: number): never", Doc: "Ends the process with code."}},
	}
	crate := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.Cargo, Name: "guardian", Version: "1.0.0",
			Description: "A guard runs its closure when it goes out of scope, unless the process aborts."},
		Symbols: []docidx.Symbol{{Kind: docidx.KindStruct, Name: "Guard", QualifiedName: "guardian::Guard", Signature: "pub struct Guard",
			Doc: "A closure run at scope exit. It cannot run on abort or process exit, where destructors do not run."}},
	}
	r := open(t, build(t, node, crate))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "does a guardian closure run when I call std::process::exit"})
	if len(hits) == 0 || hits[0].Package != "guardian" {
		t.Errorf("hits %v, want guardian's first", ids(hits))
	}
	// Written as JavaScript, the same name is the JavaScript method.
	if hits := search(t, r, index.Query{Text: "Process.exit code"}); len(hits) == 0 || hits[0].Title != "Process.exit" {
		t.Errorf("hits %v, want Process.exit first", ids(hits))
	}
}

// TestRequirementQuestion: a question for the runtime version a package needs finds its
// overview, which states what its manifest requires, above a page that only shares a word.
func TestRequirementQuestion(t *testing.T) {
	pkg := &docidx.PackageDocs{
		Package: docidx.Package{Ecosystem: docidx.NPM, Name: "quickserve", Version: "5.0.0", Description: "A small web server.",
			Requires: []docidx.Requirement{{Name: "node", Range: ">=18"}}},
		Documents: []docidx.Document{{Path: "README.md", Kind: docidx.DocReadme, Title: "quickserve", Sections: []docidx.Section{
			{Heading: []string{"quickserve", "Routing"}, Anchor: "routing",
				Plain: "Routes match the path of a request. The version of a route's handler is its own business."},
		}}},
	}
	r := open(t, build(t, npmPackage("other-server", "1.0.0", "another web server"), pkg))
	defer r.Close()
	hits := search(t, r, index.Query{Text: "what's the minimum Node.js version for quickserve?"})
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	if hits[0].URI != "docidx://npm/quickserve@5.0.0/overview" || !strings.Contains(hits[0].Snippet, "Requires node >=18") {
		t.Errorf("first hit %s shows %q, want quickserve's overview, showing Requires node >=18", hits[0].URI, hits[0].Snippet)
	}
}
