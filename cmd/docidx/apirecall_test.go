package main

// The API completeness benchmark (issue 27, point 3): for each package the corpus requested
// (the exact versions of $DOCIDX_CORPUS/NOTES.txt), the public items its ecosystem's own tool
// lists, against the symbols docidx holds for the same package version in a snapshot crawled
// from the corpus's caches. `make api-recall` runs it (TestAPIRecall): a Markdown table per
// ecosystem, one row per package and a total, printed and written to $DOCIDX_APIRECALL_OUT
// (default dist/api-recall.md). It measures; it fails only when DOCIDX_APIRECALL_MIN (a share,
// e.g. 0.95) is set and an ecosystem's found or with-docs share is below it.
// DOCIDX_APIRECALL_MISSING=FILE writes every item not found, and every documented item found
// without its docs, one a line, to look for the gaps behind the shares.
//
// The references, each cached as JSON in $DOCIDX_APIRECALL_CACHE (default the user cache dir's
// docidx-apirecall) under ECOSYSTEM/NAME@VERSION.json, so that a rerun costs only the matching:
//
//   - golang: `go doc -all` of every package of the module (`go list MODULE/...` in the corpus's
//     goproject, linux/amd64; internal and main packages left out, as they are no importable
//     API), parsed by parseGoDoc: exported consts, vars, funcs, types and methods are items;
//     the exported fields and interface methods go doc shows inside a type's declaration are
//     members. An item is documented when go doc prints a doc comment under it (a member: a
//     comment on or above its line).
//   - npm: scripts/apirecall/npm_api.cjs, the TypeScript compiler API (a 5.x release installed
//     into the cache dir by `make api-recall`) over the package's types entry, or its @types
//     package's: the module's exports, documented when they carry JSDoc.
//   - pypi: scripts/apirecall/python_api.py run with the virtualenv's python: the public names of
//     the distribution's public modules (__all__, else the names a module defines; see the
//     script for the rules), documented when the object has a docstring of its own.
//   - cargo: `cargo doc --no-deps` of the requested crates in the corpus's cargoproject
//     (offline, with the corpus's cargo home, the features that project resolves), parsed by
//     parseRustdocAll and parseRustdocItem: every item of all.html, documented when its page has
//     a top doc block; the inherent methods and the members of trait implementations written
//     in the crate (not auto traits, not blanket impls) that item pages list are members.
//
// Matching, per ecosystem (a symbol is docidx's record, its docs its Doc or Params):
//
//   - golang: import path plus Type.Method or Name, exactly (docidx's Package, Parent, Name).
//   - npm: the export name against the names of top-level symbols (no Parent); for a types
//     file that declares modules (@types/node) the reference's "MODULE:NAME" against symbols
//     whose Package is the package's module MODULE ("node:fs" and "fs" are one module).
//   - pypi: an item is found when a symbol's module.qualname is one of its public paths or its
//     definition path; it is "re-export resolved" when one of its public paths other than the
//     definition is found. A callable with parameters counts as "with parameters" when every
//     parameter name occurs in the symbol's signature (a class's, or its __init__'s).
//   - cargo: the item's path (crate::module::Name, the lib name of the crate) against
//     QualifiedName without a macro's "!"; else, as rustdoc lists a re-exported item once at
//     its defining public module, the one top-level symbol of the same name (macro or not
//     alike) wherever it is, or of several the one in a module of the same name;
//     members as Path::member under wherever their item was found.
//
// A found item counts "with docs" when the reference documents it and the matched symbol has
// non-empty docs. Items the reference does not document are not in the docs share.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/crawl"
	"github.com/docidx/docidx/index"
)

// refItem is one public item of a reference listing.
type refItem struct {
	// Paths are the public paths the tool shows the item under, canonical first.
	Paths []string `json:"paths"`
	// Def is where the item is defined, when that differs from its public paths (Python).
	Def  string `json:"def,omitempty"`
	Kind string `json:"kind"`
	Doc  bool   `json:"doc"`
	// Params are a callable's parameter names (Python).
	Params []string `json:"params,omitempty"`
	// Parent is the path of the item a member belongs to (Rust).
	Parent string `json:"parent,omitempty"`
	// Tags put the item in extra columns: "member", "trait-impl", "macro", "reexport",
	// "feature" (behind a non-default crate feature).
	Tags []string `json:"tags,omitempty"`
}

// refList is a reference listing of one package version.
type refList struct {
	Ecosystem string    `json:"ecosystem"`
	Package   string    `json:"package"`
	Version   string    `json:"version"`
	Note      string    `json:"note,omitempty"` // what the tool could not list (failed imports …)
	Items     []refItem `json:"items"`
}

// recallRow is one package's counts.
type recallRow struct {
	Ref                  docidx.Ref
	Items, Found         int
	Documented, WithDocs int
	Tags                 map[string][2]int // tag -> items, found
	Note                 string
	Missing, Undoc       []string // a few examples
	AllMissing           []string // every item not found, and documented ones found without docs ("… (no docs)")
}

func (r *recallRow) tag(t string, found bool) {
	if r.Tags == nil {
		r.Tags = map[string][2]int{}
	}
	c := r.Tags[t]
	c[0]++
	if found {
		c[1]++
	}
	r.Tags[t] = c
}

// apiRecallEcosystems are the ecosystems measured, in report order.
var apiRecallEcosystems = []docidx.Ecosystem{docidx.Cargo, docidx.PyPI, docidx.Go, docidx.NPM}

// apiRecallTags are each ecosystem's extra columns, with their headings.
var apiRecallTags = map[docidx.Ecosystem][][2]string{
	docidx.Cargo: {{"member", "members (apart)"}, {"trait-impl", "trait impl members (apart)"}, {"macro", "macros"}, {"reexport", "re-exports resolved"}, {"feature", "behind features"}},
	docidx.PyPI:  {{"reexport", "re-exports resolved"}, {"params", "with parameters"}, {"typevar", "type variables (apart)"}, {"modvar", "lower-case module variables (apart)"}},
	docidx.Go:    {{"member", "members (apart)"}},
	docidx.NPM:   {},
}

// apiRecallApart are the tags of items counted in their own columns only, not in items, found
// and with docs: Rust's members, and Python's type variables and lower-case module variables
// (scripts/apirecall/python_api.py says why).
var apiRecallApart = map[string]bool{"member": true, "trait-impl": true, "typevar": true, "modvar": true}

// TestAPIRecall is the benchmark; see the file's comment.
func TestAPIRecall(t *testing.T) {
	if os.Getenv("DOCIDX_APIRECALL") == "" {
		t.Skip("DOCIDX_APIRECALL not set (make api-recall)")
	}
	corpus := os.Getenv("DOCIDX_CORPUS")
	if corpus == "" {
		t.Skip("DOCIDX_CORPUS not set (scripts/corpus.sh builds the corpus)")
	}
	specs, err := corpusRequested(filepath.Join(corpus, "NOTES.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if only := strings.Fields(os.Getenv("DOCIDX_APIRECALL_ECOSYSTEMS")); len(only) > 0 {
		specs = slices.DeleteFunc(specs, func(s crawl.Spec) bool {
			return !slices.ContainsFunc(only, func(e string) bool {
				eco, err := docidx.ParseEcosystem(e)
				return err == nil && eco == s.Ecosystem
			})
		})
	}
	if only := strings.Fields(os.Getenv("DOCIDX_APIRECALL_PACKAGES")); len(only) > 0 {
		specs = slices.DeleteFunc(specs, func(s crawl.Spec) bool { return !slices.Contains(only, s.Name) })
	}
	cache := os.Getenv("DOCIDX_APIRECALL_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(dir, "docidx-apirecall")
	}
	snap := os.Getenv("DOCIDX_CORPUS_INDEX")
	if snap == "" {
		snap = crawlRequested(t, specs)
	}
	r, err := index.Open(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	refs := &references{corpus: corpus, cache: cache, repo: repoRoot(t)}
	rows := map[docidx.Ecosystem][]recallRow{}
	for _, s := range specs {
		ref := docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name, Version: s.Query}
		list, err := refs.list(ref)
		if err != nil {
			t.Errorf("%s: reference: %v", ref, err)
			continue
		}
		syms, err := r.Symbols(ref)
		if err != nil && !errors.Is(err, docidx.ErrNotFound) {
			t.Fatal(err)
		}
		row := matchRecall(ref, list, syms)
		rows[s.Ecosystem] = append(rows[s.Ecosystem], row)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "# API recall\n\nThe public items each ecosystem's own tool lists for the corpus's requested package versions, against docidx's symbols (cmd/docidx/apirecall_test.go says how each is listed and matched). Found: items docidx holds; with docs: of the items the tool shows documented, those docidx holds with their docs. Snapshot: %s.\n\n", filepath.Base(snap))
	writeRecallTotals(&out, rows)
	for _, eco := range apiRecallEcosystems {
		if len(rows[eco]) > 0 {
			writeRecallTable(&out, eco, rows[eco])
		}
	}
	t.Log("\n" + out.String())
	dest := os.Getenv("DOCIDX_APIRECALL_OUT")
	if dest == "" {
		dest = filepath.Join(refs.repo, "dist", "api-recall.md")
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dest, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if file := os.Getenv("DOCIDX_APIRECALL_MISSING"); file != "" {
		var b strings.Builder
		for _, eco := range apiRecallEcosystems {
			for _, r := range rows[eco] {
				for _, m := range r.AllMissing {
					fmt.Fprintf(&b, "%s %s\n", r.Ref, m)
				}
			}
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if min := os.Getenv("DOCIDX_APIRECALL_MIN"); min != "" {
		goal, err := strconv.ParseFloat(min, 64)
		if err != nil {
			t.Fatalf("DOCIDX_APIRECALL_MIN=%q: %v", min, err)
		}
		for eco, rs := range rows {
			tot := sumRows(rs)
			if share(tot.Found, tot.Items) < goal || share(tot.WithDocs, tot.Documented) < goal {
				t.Errorf("%s: found %.1f%%, with docs %.1f%%; goal %.0f%%", eco, 100*share(tot.Found, tot.Items), 100*share(tot.WithDocs, tot.Documented), 100*goal)
			}
		}
	}
}

// corpusRequested reads the requested package versions from scripts/corpus.sh's NOTES.txt:
// "NAME VERSION" lines under the "== Go modules", "== npm packages", "== Python
// distributions" and "== Crates" headings.
func corpusRequested(notes string) ([]crawl.Spec, error) {
	data, err := os.ReadFile(notes)
	if err != nil {
		return nil, err
	}
	var specs []crawl.Spec
	var eco docidx.Ecosystem
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "==") {
			switch {
			case strings.HasPrefix(line, "== Go modules"):
				eco = docidx.Go
			case strings.HasPrefix(line, "== npm packages"):
				eco = docidx.NPM
			case strings.HasPrefix(line, "== Python distributions"):
				eco = docidx.PyPI
			case strings.HasPrefix(line, "== Crates"):
				eco = docidx.Cargo
			default:
				eco = ""
			}
			continue
		}
		f := strings.Fields(line)
		if eco == "" || len(f) != 2 {
			continue
		}
		specs = append(specs, crawl.Spec{Ecosystem: eco, Name: f[0], Query: f[1], Exact: true})
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no requested packages", notes)
	}
	return specs, nil
}

// crawlRequested crawls the requested package versions from the corpus's caches into a
// temporary snapshot.
func crawlRequested(t *testing.T, specs []crawl.Spec) string {
	dir := filepath.Join(t.TempDir(), "index")
	w, err := index.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := crawl.Run(context.Background(), w, crawl.Options{Specs: specs, Caches: corpusCaches(t)})
	if err != nil {
		w.Abort()
		t.Fatal(err)
	}
	for _, res := range sum.Results {
		if res.Err != nil {
			t.Logf("crawl: %v", res.Err)
		}
	}
	if _, err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// repoRoot is the module's root directory.
func repoRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// references lists, and caches, the reference items of package versions.
type references struct {
	corpus, cache, repo string
	cargoOnce           sync.Once
	cargoErr            error
}

func (rs *references) list(ref docidx.Ref) (*refList, error) {
	file := filepath.Join(rs.cache, string(ref.Ecosystem), strings.ReplaceAll(ref.Name, "/", "%")+"@"+ref.Version+".json")
	if data, err := os.ReadFile(file); err == nil {
		var l refList
		if err := json.Unmarshal(data, &l); err == nil {
			return &l, nil
		}
	}
	var l *refList
	var err error
	switch ref.Ecosystem {
	case docidx.Go:
		l, err = rs.golang(ref)
	case docidx.NPM:
		l, err = rs.npm(ref)
	case docidx.PyPI:
		l, err = rs.python(ref)
	case docidx.Cargo:
		l, err = rs.cargo(ref)
	default:
		err = fmt.Errorf("no reference tool for %s", ref.Ecosystem)
	}
	if err != nil {
		return nil, err
	}
	l.Ecosystem, l.Package, l.Version = string(ref.Ecosystem), ref.Name, ref.Version
	data, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	return l, os.WriteFile(file, data, 0o644)
}

// runTool runs a tool and returns its standard output; its standard error goes into the error.
func runTool(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := stderr.String()
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return out, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, msg)
	}
	return out, nil
}

// python lists a distribution's public names with scripts/apirecall/python_api.py.
func (rs *references) python(ref docidx.Ref) (*refList, error) {
	site := filepath.Join(rs.corpus, "pyenv", "lib", "python3.11", "site-packages")
	if m, _ := filepath.Glob(filepath.Join(rs.corpus, "pyenv", "lib", "python3*", "site-packages")); len(m) > 0 {
		site = m[0]
	}
	py := filepath.Join(rs.corpus, "pyenv", "bin", "python")
	out, err := runTool(os.TempDir(), []string{"PYTHONDONTWRITEBYTECODE=1"}, py, filepath.Join(rs.repo, "scripts", "apirecall", "python_api.py"), ref.Name, site)
	if err != nil {
		return nil, err
	}
	var res struct {
		Version string   `json:"version"`
		Failed  []string `json:"failed"`
		Items   []struct {
			Paths  []string `json:"paths"`
			Def    string   `json:"def"`
			Kind   string   `json:"kind"`
			Doc    bool     `json:"doc"`
			Params []string `json:"params"`
			Tags   []string `json:"tags"`
		} `json:"items"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("python_api.py %s: %w", ref.Name, err)
	}
	l := &refList{}
	if len(res.Failed) > 0 {
		l.Note = fmt.Sprintf("%d modules failed to import", len(res.Failed))
	}
	for _, it := range res.Items {
		l.Items = append(l.Items, refItem{Paths: it.Paths, Def: it.Def, Kind: it.Kind, Doc: it.Doc, Params: it.Params, Tags: it.Tags})
	}
	return l, nil
}

// npm lists a package's type exports with scripts/apirecall/npm_api.cjs.
func (rs *references) npm(ref docidx.Ref) (*refList, error) {
	ts := os.Getenv("DOCIDX_APIRECALL_TYPESCRIPT")
	if ts == "" {
		ts = filepath.Join(rs.cache, "typescript")
	}
	if _, err := os.Stat(filepath.Join(ts, "node_modules", "typescript", "lib", "typescript.js")); err != nil {
		return nil, fmt.Errorf("no TypeScript compiler API in %s (make api-recall installs one): %w", ts, err)
	}
	nm := filepath.Join(rs.corpus, "npmproject", "node_modules")
	out, err := runTool(os.TempDir(), nil, "node", filepath.Join(rs.repo, "scripts", "apirecall", "npm_api.cjs"), ts, nm, ref.Name)
	if err != nil {
		return nil, err
	}
	var res struct {
		Entry string `json:"entry"`
		Items []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
			Doc  bool   `json:"doc"`
		} `json:"items"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("npm_api.cjs %s: %w", ref.Name, err)
	}
	l := &refList{}
	if res.Entry == "" {
		l.Note = "no types"
	}
	for _, it := range res.Items {
		l.Items = append(l.Items, refItem{Paths: []string{it.Name}, Kind: it.Kind, Doc: it.Doc})
	}
	return l, nil
}

// goEnv is the environment the go tool runs in over the corpus's module cache.
func (rs *references) goEnv() []string {
	return []string{"GOMODCACHE=" + filepath.Join(rs.corpus, "gomodcache"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"GOWORK=off", "GOPROXY=off", "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=1"}
}

// golang lists a module's API with go list and go doc -all in the corpus's goproject.
func (rs *references) golang(ref docidx.Ref) (*refList, error) {
	dir := filepath.Join(rs.corpus, "goproject")
	env := rs.goEnv()
	out, err := runTool(dir, env, "go", "list", "-e", "-f", "{{if and (not .Error) (ne .Name \"main\")}}{{.ImportPath}}{{end}}", ref.Name+"/...")
	if err != nil {
		return nil, err
	}
	l := &refList{}
	for _, pkg := range strings.Fields(string(out)) {
		if !strings.HasPrefix(pkg, ref.Name) || slices.Contains(strings.Split(pkg, "/"), "internal") {
			continue
		}
		doc, err := runTool(dir, env, "go", "doc", "-all", pkg)
		if err != nil {
			l.Note = fmt.Sprintf("go doc failed for some packages (%s)", pkg)
			continue
		}
		for _, it := range parseGoDoc(string(doc)) {
			for i, p := range it.Paths {
				it.Paths[i] = pkg + "#" + p
			}
			l.Items = append(l.Items, it)
		}
	}
	return l, nil
}

// cargo documents the requested crates once (cargo doc --no-deps in the corpus's
// cargoproject) and lists one crate's items from its HTML.
func (rs *references) cargo(ref docidx.Ref) (*refList, error) {
	target := filepath.Join(rs.cache, "cargo-target")
	rs.cargoOnce.Do(func() {
		specs, err := corpusRequested(filepath.Join(rs.corpus, "NOTES.txt"))
		if err != nil {
			rs.cargoErr = err
			return
		}
		args := []string{"doc", "--offline", "--no-deps"}
		for _, s := range specs {
			if s.Ecosystem == docidx.Cargo {
				args = append(args, "-p", s.Name+"@"+strings.SplitN(s.Query, "+", 2)[0])
			}
		}
		_, rs.cargoErr = runTool(filepath.Join(rs.corpus, "cargoproject"),
			[]string{"CARGO_HOME=" + filepath.Join(rs.corpus, "cargohome"), "CARGO_TARGET_DIR=" + target}, "cargo", args...)
	})
	if rs.cargoErr != nil {
		return nil, rs.cargoErr
	}
	lib := strings.ReplaceAll(ref.Name, "-", "_")
	if ref.Name == "md-5" {
		lib = "md5"
	}
	root := filepath.Join(target, "doc", lib)
	all, err := os.ReadFile(filepath.Join(root, "all.html"))
	if err != nil {
		return nil, err
	}
	l := &refList{}
	for _, e := range parseRustdocAll(all) {
		path := lib + "::" + e.Path
		page, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.Href)))
		if err != nil {
			return nil, err
		}
		info := parseRustdocItem(page, lib)
		it := refItem{Paths: []string{path}, Kind: e.Kind, Doc: info.Doc}
		if e.Kind == "macro" {
			it.Tags = append(it.Tags, "macro")
		}
		if info.Reexport {
			it.Tags = append(it.Tags, "reexport")
		}
		if info.Feature {
			it.Tags = append(it.Tags, "feature")
		}
		l.Items = append(l.Items, it)
		for _, m := range info.Members {
			tag := "member"
			if m.TraitImpl {
				tag = "trait-impl"
			}
			l.Items = append(l.Items, refItem{Paths: []string{path + "::" + m.Name}, Parent: path, Kind: "method", Doc: m.Doc, Tags: []string{tag}})
		}
	}
	return l, nil
}

// matchRecall counts which of list's items syms holds, and with their docs.
func matchRecall(ref docidx.Ref, list *refList, syms []docidx.Symbol) recallRow {
	row := recallRow{Ref: ref, Note: list.Note}
	byKey := map[string]*docidx.Symbol{}
	put := func(k string, s *docidx.Symbol) {
		if old, ok := byKey[k]; !ok || (old.Doc == "" && len(old.Params) == 0) {
			byKey[k] = s
		}
	}
	namespaces := map[string]bool{} // npm: top-level symbols that can hold a module's exports
	for _, s := range syms {
		switch s.Kind {
		case docidx.KindPackage, docidx.KindFunc, docidx.KindConst, docidx.KindVar, docidx.KindClass:
			if s.Parent == "" {
				namespaces[s.Name] = true
			}
		}
	}
	for i := range syms {
		s := &syms[i]
		switch ref.Ecosystem {
		case docidx.Go:
			k := s.Name
			if s.Parent != "" {
				k = s.Parent + "." + s.Name
			}
			put(s.Package+"#"+k, s)
		case docidx.NPM:
			// A top-level symbol, or a member of the namespace or function a module assigns
			// with "export =" (express, joi, React), which is an export of that module.
			if s.Parent == "" || (namespaces[s.Parent] && s.Kind != docidx.KindField && s.Kind != docidx.KindMethod) {
				if s.Parent == "" {
					put(s.QualifiedName, s)
				}
				put(s.Name, s)
				put(strings.TrimPrefix(s.Package, "node:")+":"+s.Name, s)
			}
		case docidx.Cargo:
			put(strings.TrimSuffix(s.QualifiedName, "!"), s)
		default:
			put(s.QualifiedName, s)
		}
	}
	// cargo: an item not at its rustdoc path may be at another public path (a "pub use"
	// re-export, which is where rustdoc does not list it): a top-level symbol of the same name,
	// macro or not alike, when there is exactly one.
	byName := map[string][]*docidx.Symbol{}
	if ref.Ecosystem == docidx.Cargo {
		for i := range syms {
			if s := &syms[i]; s.Parent == "" {
				byName[rustLast(s.QualifiedName)] = append(byName[rustLast(s.QualifiedName)], s)
			}
		}
	}
	placed := map[string]string{} // cargo: an item's rustdoc path -> the QualifiedName it was found at
	for _, it := range list.Items {
		var sym *docidx.Symbol
		for _, p := range it.Paths {
			if s := byKey[p]; s != nil {
				sym = s
				break
			}
		}
		if ref.Ecosystem == docidx.Cargo && sym == nil {
			if it.Parent != "" {
				if at, ok := placed[it.Parent]; ok {
					sym = byKey[at+"::"+rustLast(it.Paths[0])]
				}
			} else {
				var alike []*docidx.Symbol
				for _, s := range byName[rustLast(it.Paths[0])] {
					if (s.Kind == docidx.KindMacro) == (it.Kind == "macro") {
						alike = append(alike, s)
					}
				}
				if len(alike) > 1 {
					// The same name in several modules: the one in a module named alike
					// (futures::prelude::stream::AbortHandle is futures::stream::AbortHandle).
					parent := rustLast(strings.TrimSuffix(it.Paths[0], "::"+rustLast(it.Paths[0])))
					alike = slices.DeleteFunc(alike, func(s *docidx.Symbol) bool {
						return rustLast(strings.TrimSuffix(strings.TrimSuffix(s.QualifiedName, "!"), "::"+rustLast(s.QualifiedName))) != parent
					})
				}
				if len(alike) == 1 {
					sym = alike[0]
				}
			}
		}
		if ref.Ecosystem == docidx.Cargo && sym != nil && it.Parent == "" {
			placed[it.Paths[0]] = strings.TrimSuffix(sym.QualifiedName, "!")
		}
		if ref.Ecosystem == docidx.PyPI {
			reexported := len(it.Paths) > 1 || (it.Def != "" && len(it.Paths) == 1 && it.Paths[0] != it.Def)
			if reexported {
				public := false
				for _, p := range it.Paths {
					if p != it.Def && byKey[p] != nil {
						public = true
					}
				}
				row.tag("reexport", public)
			}
			if sym == nil && it.Def != "" {
				sym = byKey[it.Def]
			}
			if len(it.Params) > 0 {
				row.tag("params", sym != nil && hasParams(sym, byKey, it.Params))
			}
		}
		for _, tg := range it.Tags {
			row.tag(tg, sym != nil)
		}
		if slices.ContainsFunc(it.Tags, func(t string) bool { return apiRecallApart[t] }) {
			continue
		}
		row.Items++
		if sym != nil {
			row.Found++
		} else {
			if len(row.Missing) < 8 {
				row.Missing = append(row.Missing, it.Paths[0])
			}
			row.AllMissing = append(row.AllMissing, it.Kind+" "+it.Paths[0])
		}
		if it.Doc {
			row.Documented++
			if sym != nil && (sym.Doc != "" || len(sym.Params) > 0) {
				row.WithDocs++
			} else if sym != nil {
				if len(row.Undoc) < 8 {
					row.Undoc = append(row.Undoc, it.Paths[0])
				}
				row.AllMissing = append(row.AllMissing, it.Kind+" "+it.Paths[0]+" (no docs)")
			}
		}
	}
	return row
}

// rustLast is the last segment of a Rust path, without a macro's "!".
func rustLast(p string) string {
	p = strings.TrimSuffix(p, "!")
	if i := strings.LastIndex(p, "::"); i >= 0 {
		p = p[i+2:]
	}
	return p
}

// hasParams reports whether every name of params occurs in sym's signature, or for a class in
// its __init__'s.
func hasParams(sym *docidx.Symbol, byKey map[string]*docidx.Symbol, params []string) bool {
	sig := sym.Signature
	if init := byKey[sym.QualifiedName+".__init__"]; init != nil {
		sig += " " + init.Signature
	}
	for _, p := range params {
		if !strings.Contains(sig, p) {
			return false
		}
	}
	return true
}

func share(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*share(n, of))
}

func sumRows(rs []recallRow) recallRow {
	var t recallRow
	for _, r := range rs {
		t.Items += r.Items
		t.Found += r.Found
		t.Documented += r.Documented
		t.WithDocs += r.WithDocs
		for k, v := range r.Tags {
			if t.Tags == nil {
				t.Tags = map[string][2]int{}
			}
			c := t.Tags[k]
			c[0] += v[0]
			c[1] += v[1]
			t.Tags[k] = c
		}
	}
	return t
}

func writeRecallTotals(w io.Writer, rows map[docidx.Ecosystem][]recallRow) {
	fmt.Fprintln(w, "| ecosystem | packages | items | found | documented | with docs |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, eco := range apiRecallEcosystems {
		if len(rows[eco]) == 0 {
			continue
		}
		t := sumRows(rows[eco])
		fmt.Fprintf(w, "| %s | %d | %d | %s | %d | %s |\n", eco, len(rows[eco]), t.Items, pct(t.Found, t.Items), t.Documented, pct(t.WithDocs, t.Documented))
	}
	fmt.Fprintln(w)
}

func writeRecallTable(w io.Writer, eco docidx.Ecosystem, rows []recallRow) {
	tags := apiRecallTags[eco]
	fmt.Fprintf(w, "## %s\n\n| package@version | items | found | documented | with docs |", eco)
	for _, tg := range tags {
		fmt.Fprintf(w, " %s |", tg[1])
	}
	fmt.Fprintln(w, " missing (examples) |")
	fmt.Fprint(w, "| --- | ---: | ---: | ---: | ---: |")
	for range tags {
		fmt.Fprint(w, " ---: |")
	}
	fmt.Fprintln(w, " --- |")
	sort.Slice(rows, func(i, j int) bool { return rows[i].Ref.Name < rows[j].Ref.Name })
	line := func(name string, r recallRow, examples bool) {
		fmt.Fprintf(w, "| %s | %d | %s | %d | %s |", name, r.Items, pct(r.Found, r.Items), r.Documented, pct(r.WithDocs, r.Documented))
		for _, tg := range tags {
			c := r.Tags[tg[0]]
			if c[0] == 0 {
				fmt.Fprint(w, " – |")
			} else {
				fmt.Fprintf(w, " %d/%d |", c[1], c[0])
			}
		}
		var ex []string
		if examples {
			if r.Note != "" {
				ex = append(ex, "("+r.Note+")")
			}
			for _, m := range r.Missing[:min(len(r.Missing), 3)] {
				ex = append(ex, "`"+m+"`")
			}
			for _, m := range r.Undoc[:min(len(r.Undoc), 2)] {
				ex = append(ex, "`"+m+"` (no docs)")
			}
		}
		fmt.Fprintf(w, " %s |\n", strings.Join(ex, " "))
	}
	for _, r := range rows {
		line(r.Ref.Name+"@"+r.Ref.Version, r, true)
	}
	line("**total**", sumRows(rows), false)
	fmt.Fprintln(w)
}
