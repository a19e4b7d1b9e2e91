package cargo

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/cargo/internal/rustapi"
	"github.com/docidx/docidx/registries/internal/docdirs"
	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// skipDirs hold sources that are not part of the library: integration tests, benchmarks, build
// output, fuzz targets.
var skipDirs = []string{"tests", "benches", "target", "fuzz"}

// markdownExt reports whether p names a markdown file.
func markdownExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mkdn":
		return true
	}
	return false
}

// keepCrateFile says which .crate entries docidx reads, and the size limit for the file (0 means
// the default): Cargo.toml and Cargo.toml.orig (for the comments of its [features]), README
// files at the root, markdown anywhere (a readme field or an include_str! may name one), and
// Rust sources outside tests/, benches/ and the like.
func keepCrateFile(p string) (bool, int64) {
	base := path.Base(p)
	switch {
	case p == "Cargo.toml", p == "Cargo.toml.orig":
		return true, maxManifest
	case !strings.Contains(p, "/") && strings.HasPrefix(strings.ToLower(base), "readme"):
		return true, 0
	case markdownExt(p):
		return true, 0
	case strings.HasSuffix(p, ".rs"):
		return !docpath.FirstComponentFold(p, skipDirs...), 0
	}
	return false, 0
}

// contents is what buildContents extracted from a crate's files.
type contents struct {
	man      *manifest
	docs     []docidx.Document
	symbols  []docidx.Symbol
	aliases  map[string]string // other public paths of symbols (rustapi.Result.Aliases)
	problems []string          // limits hit
	skipped  []error           // files skipped: too large, not regular (see registries/internal/skip)
}

// buildContents reads a crate version's Cargo.toml, README, root guides (docdirs.RootGuide),
// docs/, examples/, the entry of its
// version in CHANGELOG.md (docdirs.Release), crate-level
// documentation (see crateDocument; after the README) and Rust API from fsys (a .crate's files
// or an extracted directory). name is the crate's name, used when
// Cargo.toml does not give one. It fails only when Cargo.toml is missing or unreadable.
//
// extern, when not nil, gives the public API of a dependency a `pub use` re-exports
// (rustapi.Options.Extern), from the dependencies man lists.
func buildContents(fsys fs.FS, name string, lim Limits, extern func(man *manifest) func(string) rustapi.ExternAPI) (*contents, error) {
	man, err := readManifest(fsys)
	if err != nil {
		return nil, err
	}
	c := &contents{man: man}
	man.commands = man.binaries(fsys, name)

	// README: the manifest's path, `readme = false` for none, else cargo's auto-detection
	// (https://doc.rust-lang.org/cargo/reference/manifest.html#the-readme-field).
	readmePath := man.readme
	var readmeSrc []byte
	if !man.readmeSet {
		for _, cand := range []string{"README.md", "README.txt", "README"} {
			if st, err := fs.Stat(fsys, cand); err == nil && st.Mode().IsRegular() {
				readmePath = cand
				break
			}
		}
	}
	if readmePath != "" {
		p := path.Clean(strings.ReplaceAll(readmePath, `\`, "/"))
		if p == ".." || strings.HasPrefix(p, "../") || !fs.ValidPath(p) {
			c.problems = append(c.problems, fmt.Sprintf("readme %q is outside the package", readmePath))
		} else if src, err := memfs.ReadLimited(fsys, p, lim.MaxFile); err == nil {
			readmeSrc = trimBOM(src)
			d := readme.Parse(p, docidx.DocReadme, readmeSrc)
			d.Title = readme.PackageTitle(d, name)
			c.docs = append(c.docs, d)
			readmePath = p
		} else {
			c.skipped = append(c.skipped, err)
		}
	}
	// The repository's README, when the manifest names another file for crates.io (serde's
	// crates-io.md beside its README.md): the front page of the crate's repository, which
	// often says more (serde's says when the "derive" feature is needed). It is a guide of the
	// crate, as docs/ pages are.
	if man.readmeSet && readmePath != "" {
		for _, cand := range []string{"README.md", "README"} {
			if cand == readmePath {
				break
			}
			src, err := memfs.ReadLimited(fsys, cand, lim.MaxFile)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				c.skipped = append(c.skipped, err)
			} else if src = trimBOM(src); !bytes.Equal(src, readmeSrc) {
				c.docs = append(c.docs, readme.Parse(cand, docidx.DocGuide, src))
			}
			break
		}
	}

	// Root guides, docs/ and examples/.
	d := docdirs.Read(fsys, len(c.docs), docdirs.Options{
		SkipDir: "target",
		Keep: func(p string, kind docidx.DocKind) (func(string, []byte) []byte, bool) {
			switch {
			case p == readmePath:
				return nil, false
			case kind == docidx.DocExample && strings.HasSuffix(p, ".rs"):
				return exampleMarkdown, true
			}
			return nil, markdownExt(p)
		},
		MaxDocuments: lim.MaxDocuments,
		MaxFile:      lim.MaxFile,
	})
	c.docs = append(c.docs, d.Docs...)
	c.problems = append(c.problems, d.Problems...)
	c.skipped = append(c.skipped, d.Skipped...)

	// What changed in this version: its entry in CHANGELOG.md.
	if d, ok, skipped := docdirs.Release(fsys, man.version, lim.MaxFile); ok {
		c.docs = append(c.docs, d)
	} else if skipped != nil {
		c.skipped = append(c.skipped, skipped)
	}

	// The library's public API.
	if res, root, ok := libraryAPI(fsys, man, name, lim, extern); ok {
		c.symbols, c.aliases = res.Symbols, res.Aliases
		c.problems = append(c.problems, res.Problems...)
		if d, ok := crateDocument(res, man.crateName(name), root, readmePath, readmeSrc); ok {
			at := min(len(c.docs), 1)
			if len(c.docs) > 0 && c.docs[0].Kind != docidx.DocReadme {
				at = 0
			}
			c.docs = slices.Insert(c.docs, at, d)
		}
		orig, _ := memfs.ReadLimited(fsys, "Cargo.toml.orig", maxManifest)
		if d, ok := featuresDocument(cmp.Or(man.name, name), man.version, man.features, orig, c.symbols, res.CrateDoc, string(readmeSrc)); ok &&
			!slices.ContainsFunc(c.docs, func(o docidx.Document) bool { return o.Path == d.Path }) {
			c.docs = append(c.docs, d)
		}
		if res.Truncated {
			c.problems = append(c.problems, fmt.Sprintf("API truncated at %d symbols / %d files", len(res.Symbols), len(res.Files)))
		}
	}
	return c, nil
}

// readManifest reads and parses the crate's Cargo.toml.
func readManifest(fsys fs.FS) (*manifest, error) {
	data, err := memfs.ReadLimited(fsys, "Cargo.toml", maxManifest)
	if err != nil {
		return nil, fmt.Errorf("reading Cargo.toml: %w", err)
	}
	return parseManifest(data)
}

// libraryAPI extracts the public API of the crate's library (its lib path, else src/lib.rs),
// the dependencies it re-exports read through extern when not nil, and returns the library's
// root file; ok is false for a crate without a library.
func libraryAPI(fsys fs.FS, man *manifest, name string, lim Limits, extern func(man *manifest) func(string) rustapi.ExternAPI) (res rustapi.Result, root string, ok bool) {
	root = man.libPath
	if root == "" {
		root = "src/lib.rs"
	}
	root = path.Clean(strings.ReplaceAll(root, `\`, "/"))
	if st, err := fs.Stat(fsys, root); err != nil || !st.Mode().IsRegular() || !fs.ValidPath(root) {
		return rustapi.Result{}, root, false
	}
	var ext func(string) rustapi.ExternAPI
	if extern != nil {
		ext = extern(man)
	}
	return rustapi.Extract(fsys, rustapi.Options{
		Crate:       man.crateName(name),
		Root:        root,
		Edition:     man.edition,
		Extern:      ext,
		MaxFiles:    lim.MaxFiles,
		MaxFileSize: lim.MaxFile,
		MaxSymbols:  lim.MaxSymbols,
	}), root, true
}

// exampleMarkdown wraps an example program as markdown: its //! doc (if any) as prose under its
// path as the title, then the whole file fenced as rust.
func exampleMarkdown(p string, src []byte) []byte {
	fence := "```"
	for strings.Contains(string(src), fence) {
		fence += "`"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", p)
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		text, ok := strings.CutPrefix(t, "//!")
		if !ok {
			if t == "" || strings.HasPrefix(t, "#![") {
				continue
			}
			break
		}
		b.WriteString(strings.TrimPrefix(text, " ") + "\n")
	}
	fmt.Fprintf(&b, "\n%srust\n", fence)
	b.Write(src)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	return []byte(b.String())
}
func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// minCrateDoc is the fewest bytes of crate-level documentation without a heading that becomes a
// document of its own: a line or two is the crate symbol's doc, and a second copy as a document
// would only repeat it in search.
const minCrateDoc = 1 << 10

// crateDocument returns the crate-level documentation of res (the crate root's //! docs, as
// rustdoc's front page shows them) as a guide document at the crate root's path, titled "Crate
// NAME" as rustdoc titles it (its text is already as rustdoc shows it: rustapi hides doctest
// set-up lines and link reference definitions). ok is
// false when it would repeat what is indexed already: empty, short and without a heading (the
// crate symbol's doc holds it), or the README brought in with include_str! or copied.
func crateDocument(res rustapi.Result, crate, root, readmePath string, readmeSrc []byte) (docidx.Document, bool) {
	doc := strings.TrimSpace(res.CrateDoc)
	if doc == "" {
		return docidx.Document{}, false
	}
	for _, inc := range res.CrateDocIncludes {
		if readmePath != "" && inc == readmePath {
			return docidx.Document{}, false
		}
	}
	if readmeSrc != nil && strings.Join(strings.Fields(doc), " ") == strings.Join(strings.Fields(string(readmeSrc)), " ") {
		return docidx.Document{}, false
	}
	d := readme.Parse(root, docidx.DocGuide, []byte(doc))
	hasHeading := false
	for _, s := range d.Sections {
		hasHeading = hasHeading || len(s.Heading) > 0
	}
	if len(d.Sections) == 0 || !hasHeading && len(doc) < minCrateDoc {
		return docidx.Document{}, false
	}
	d.Title = "Crate " + crate
	return d, true
}
