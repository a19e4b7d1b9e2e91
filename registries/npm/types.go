package npm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/npm/internal/dts"
)

// typesPackageName returns the DefinitelyTyped package that declares the types of an npm package
// (https://github.com/DefinitelyTyped/DefinitelyTyped#what-about-scoped-packages): "@types/x"
// for "x", "@types/scope__x" for "@scope/x". It returns "" for an @types package itself.
func typesPackageName(name string) string {
	if strings.HasPrefix(name, "@types/") {
		return ""
	}
	if scope, rest, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(scope, "@") {
		return "@types/" + strings.TrimPrefix(scope, "@") + "__" + rest
	}
	return "@types/" + name
}

// otherPackage is a package whose declaration files an API extraction reads besides the
// package's own: its DefinitelyTyped package, or a package one of its files re-exports.
type otherPackage struct {
	name, version string
	fsys          fs.FS
	m             *manifest
}

// packageFinder finds the other packages an API extraction reaches. NodeModules finds them as
// Node.js resolves them from the package's directory; Registry fetches @types packages from the
// registry.
type packageFinder interface {
	// typesFor returns the DefinitelyTyped package (typesPackageName) for name@version, or nil
	// when there is none. An error means one exists but could not be read.
	typesFor(ctx context.Context, name, version string) (*otherPackage, error)
	// dependency returns the package that the bare module specifier's package name pkgName
	// resolves to from the package from (an earlier result or the package extracted), or nil.
	dependency(ctx context.Context, from, pkgName string) *otherPackage
}

// api is the API of one package version and where it came from.
type api struct {
	symbols  []docidx.Symbol
	from     string   // "" for the package's own declarations, else "@types/x@1.2.3"
	problems []string // files skipped, limits hit
	typesErr error    // the @types package exists but could not be read (the API is then empty)
}

// packageAPI extracts the API of name@version, whose files are fsys and package.json m, from
// the first source that has one, in the order TypeScript resolves a package's types:
//
//  1. the package's own declaration files (types/typings, the exports "types" condition,
//     typesVersions, a .d.ts beside main, index.d.ts; see typesEntries), with what its
//     JavaScript says that they do not (withJSDocs: commander's hand-written declarations leave
//     out 15 docs its JavaScript gives, undici's 29; @humanwhocodes/retry's documents every
//     symbol but not that maxDelay's default is `const MAX_TASK_DELAY = 100`);
//  2. its DefinitelyTyped package, @types/name (@types/scope__name), through find: symbols keep
//     the package's name and their File starts with the @types package's name
//     ("@types/ws/index.d.ts"); failing to get it sets typesErr (logged), never fails the fetch;
//  3. its JavaScript sources: the exports of its entry point with their JSDoc (jsAPI,
//     registries/npm/internal/jsapi); also when an @types package exists but cannot be read.
//
// find may be nil (no @types, no cross-package re-exports). The @types package itself is also
// indexed as its own package, as any package is.
func packageAPI(ctx context.Context, fsys fs.FS, m *manifest, name, version string, lim Limits, find packageFinder) api {
	lim = lim.withDefaults()
	if entries := typesEntries(fsys, m); len(entries) > 0 {
		a := extractAPI(ctx, fsys, entries, name, name, "", lim, find)
		a = withSubpaths(ctx, a, fsys, m, name, lim, find)
		a.symbols = withJSDocs(a.symbols, jsAPI(fsys, m, name, lim).symbols)
		return a
	}
	if find != nil && typesPackageName(name) != "" {
		tp, err := find.typesFor(ctx, name, version)
		switch {
		case err != nil:
			a := jsAPI(fsys, m, name, lim)
			a.typesErr = fmt.Errorf("%s: %w", typesPackageName(name), err)
			return a
		case tp != nil:
			if entries := typesEntries(tp.fsys, tp.m); len(entries) > 0 {
				a := extractAPI(ctx, tp.fsys, entries, name, tp.name, tp.name+"/", lim, find)
				a.from = tp.name + "@" + tp.version
				a.symbols = withJSDocs(a.symbols, jsAPI(fsys, m, name, lim).symbols)
				return a
			}
		}
	}
	return jsAPI(fsys, m, name, lim)
}

// withSubpaths adds to a, the API of package name's main entry point, the symbols that only its
// subpath exports declare ("@reduxjs/toolkit/query"'s createApi and its options), with Package
// set to the subpath's import specifier. A symbol the main entry already has, by qualified
// name, is not added again, nor one an earlier subpath added; all count against the package's
// symbol limit.
func withSubpaths(ctx context.Context, a api, fsys fs.FS, m *manifest, name string, lim Limits, find packageFinder) api {
	subs := subpathTypesEntries(fsys, m)
	if len(subs) == 0 {
		return a
	}
	have := make(map[string]bool, len(a.symbols))
	for i := range a.symbols {
		have[a.symbols[i].QualifiedName] = true
	}
	for _, sp := range subs {
		left := lim.MaxSymbols - len(a.symbols)
		if left <= 0 {
			a.problems = append(a.problems, fmt.Sprintf("API truncated at %d symbols: subpath exports from %q on left out", len(a.symbols), "./"+sp.sub))
			break
		}
		sl := lim
		sl.MaxSymbols = left
		s := extractAPI(ctx, fsys, []string{sp.entry}, name, name, "", sl, find)
		a.problems = append(a.problems, s.problems...)
		for _, sym := range s.symbols {
			if have[sym.QualifiedName] {
				continue
			}
			have[sym.QualifiedName] = true
			if sym.Package == name {
				sym.Package = name + "/" + sp.sub
			}
			a.symbols = append(a.symbols, sym)
		}
	}
	return a
}

// withJSDocs gives the symbols of a package's declarations (its own or DefinitelyTyped's) what
// the JSDoc of its own JavaScript says and the declarations leave out: the documented parameters with their
// defaults (ws's `@param {Number} [options.maxPayload=104857600]`); for a symbol without a doc
// the JavaScript's, and for one whose doc the JavaScript's says more than (jsDocAdds) both, the
// declaration's first; the constants its parameter defaults name (docidx.Symbol.Values:
// @humanwhocodes/retry's `const MAX_TASK_DELAY = 100`); and for one whose doc says nothing of
// throwing the errors its code
// throws (docidx.Symbol.Errors: lru-cache 11's LRUCache.constructor and its `max option must
// be a nonnegative integer`). DefinitelyTyped's docs are often a line where the package's own
// says what a user asks: @types/express has "Set status `code`." for Response.status, whose
// JSDoc in express says "Expects an integer value between 100 and 999 inclusive." Symbols are
// matched by qualified name, which both extractors derive alike from the package's exports,
// and else by the same name in another letter case when only one JavaScript symbol has it: a
// declaration names the interface (express.Response.status) of what the JavaScript exports
// as an object (express.response.status).
func withJSDocs(types, js []docidx.Symbol) []docidx.Symbol {
	if len(js) == 0 {
		return types
	}
	byName := make(map[string]*docidx.Symbol, len(js))
	byFold := make(map[string]*docidx.Symbol, len(js))
	for i := range js {
		if _, dup := byName[js[i].QualifiedName]; !dup {
			byName[js[i].QualifiedName] = &js[i]
		}
		fold := strings.ToLower(js[i].QualifiedName)
		if _, dup := byFold[fold]; dup {
			byFold[fold] = nil // more than one: none is the declaration's
		} else {
			byFold[fold] = &js[i]
		}
	}
	for i := range types {
		t := &types[i]
		j, ok := byName[t.QualifiedName]
		if !ok {
			j = byFold[strings.ToLower(t.QualifiedName)]
		}
		if j == nil {
			continue
		}
		if len(t.Params) == 0 {
			t.Params = j.Params
		}
		if len(t.Values) == 0 {
			t.Values = j.Values // a declaration has no defaults' values: the JavaScript's constants
		}
		switch {
		case t.Doc == "":
			t.Doc = j.Doc
		case jsDocAdds(t.Doc, j.Doc):
			t.Doc = strings.TrimRight(t.Doc, "\n") + "\n\n" + j.Doc
		}
		if len(t.Errors) == 0 && !strings.Contains(strings.ToLower(t.Doc), "throw") {
			t.Errors = j.Errors // a declaration has no body: what the code throws is the JavaScript's
		}
	}
	return types
}

// jsDocAdds reports whether the JavaScript's doc js says more than the declaration's doc decl:
// at least minAddedWords of its distinct words (three letters or more, any case) are not in
// decl, and they are at least half of its words. A JSDoc copied into the declarations, or
// edited a little there, adds fewer; one that states what the declaration's line leaves out
// (ranges, defaults, what it throws) adds more.
func jsDocAdds(decl, js string) bool {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			if len(w) >= 3 {
				m[w] = true
			}
		}
		return m
	}
	have, own := words(decl), words(js)
	added := 0
	for w := range own {
		if !have[w] {
			added++
		}
	}
	return added >= minAddedWords && 2*added >= len(own)
}

// minAddedWords is the fewest new words by which a JavaScript doc says more than a declaration's
// (jsDocAdds): a sentence's worth.
const minAddedWords = 5

// extractAPI runs the declaration extractor over entries of fsys, the files of package owner
// (name itself or its @types package), following re-exports of other packages through find.
func extractAPI(ctx context.Context, fsys fs.FS, entries []string, name, owner, filePrefix string, lim Limits, find packageFinder) api {
	opts := dts.Options{
		Package:     name,
		ExportName:  exportName(name),
		FilePrefix:  filePrefix,
		MaxSymbols:  lim.MaxSymbols,
		MaxFileSize: lim.MaxFile,
	}
	if find != nil {
		opts.External = func(from, spec string) (dts.Package, bool) {
			if from == name {
				from = owner
			}
			return externalDeclarations(ctx, find, from, spec)
		}
	}
	res := dts.Extract(fsys, entries, opts)
	a := api{symbols: res.Symbols, problems: res.Problems}
	if res.Truncated {
		a.problems = append(a.problems, fmt.Sprintf("API truncated at %d symbols / %d files", len(res.Symbols), len(res.Files)))
	}
	return a
}

// externalDeclarations resolves a bare module specifier re-exported by package from
// ("@vue/runtime-dom", "pkg/sub/path") to the declaration files TypeScript would read: the
// package's own, else its @types package's; for a subpath, the subpath's .d.ts.
func externalDeclarations(ctx context.Context, find packageFinder, from, spec string) (dts.Package, bool) {
	pkgName, sub := splitSpecifier(spec)
	if pkgName == "" || pkgName == from {
		return dts.Package{}, false
	}
	try := func(name string) (dts.Package, bool) {
		op := find.dependency(ctx, from, name)
		if op == nil {
			return dts.Package{}, false
		}
		var entries []string
		if sub == "" {
			entries = typesEntries(op.fsys, op.m)
		} else {
			for _, c := range declarationCandidates(sub) {
				if st, err := fs.Stat(op.fsys, c); err == nil && st.Mode().IsRegular() {
					entries = []string{c}
					break
				}
			}
		}
		if len(entries) == 0 {
			return dts.Package{}, false
		}
		return dts.Package{Name: op.name, FS: op.fsys, Entries: entries}, true
	}
	if p, ok := try(pkgName); ok {
		return p, true
	}
	if tn := typesPackageName(pkgName); tn != "" {
		return try(tn)
	}
	return dts.Package{}, false
}

// splitSpecifier splits a bare module specifier into its package name and subpath:
// "@scope/x/a/b" -> "@scope/x", "a/b"; "x" -> "x", "".
func splitSpecifier(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return "", ""
		}
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
	} else {
		name, sub, _ = strings.Cut(spec, "/")
	}
	if !ValidName(name) {
		return "", ""
	}
	return name, sub
}

// registryFinder finds @types packages in the registry a package came from (the scoped registry
// configuration of @types applies). Re-exports of other packages are not followed from a
// registry: that would fetch whole dependency tarballs for a few names.
type registryFinder struct{ r *Registry }

// typesFor fetches the packument of name's @types package and the tarball of the version
// typesVersion picks. A package without an @types package gives nil, nil.
func (f registryFinder) typesFor(ctx context.Context, name, version string) (*otherPackage, error) {
	tn := typesPackageName(name)
	p, err := f.r.packument(ctx, tn, selection{picks: typesPicks(version)})
	if errors.Is(err, docidx.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v := typesVersion(p.versionList(), version)
	if v == "" {
		return nil, nil
	}
	m, err := f.r.manifest(ctx, p, tn, v)
	if err != nil {
		return nil, err
	}
	files, err := f.r.tarball(ctx, tn, v, m)
	if err != nil {
		return nil, err
	}
	fsys := memfs.New(files)
	if b, ok := files["package.json"]; ok {
		if tm, err := parseManifest(trimBOM(b)); err == nil {
			m = tm
		}
	}
	return &otherPackage{name: tn, version: v, fsys: fsys, m: m}, nil
}

func (registryFinder) dependency(context.Context, string, string) *otherPackage { return nil }

// typesVersion picks the version of an @types package that describes version of its package,
// following DefinitelyTyped's convention that an @types package's major.minor is the package's
// (https://github.com/DefinitelyTyped/DefinitelyTyped#how-do-definitely-typed-package-versions-relate-to-versions-of-the-corresponding-library):
// the highest release with the same major.minor, else the highest with the same major, else "".
// versions are sorted oldest first; prereleases are picked only when no release matches.
func typesVersion(versions []string, version string) string {
	for _, ok := range typesPicks(version) {
		if v := highest(versions, func(v string) bool { return ok(&candidate{version: v}) }, false); v != "" {
			return v
		}
	}
	return ""
}

// typesPicks returns typesVersion's choices for version, best first: releases with its
// major.minor, releases with its major, then any version with its major.minor, its major.
func typesPicks(version string) []pick {
	want, err := semver.NewVersion(version)
	if err != nil {
		return nil
	}
	var picks []pick
	for _, release := range []bool{true, false} {
		for _, sameMinor := range []bool{true, false} {
			picks = append(picks, func(c *candidate) bool {
				sv := c.semver()
				return sv != nil && sv.Major() == want.Major() && (!sameMinor || sv.Minor() == want.Minor()) &&
					(!release || sv.Prerelease() == "")
			})
		}
	}
	return picks
}
