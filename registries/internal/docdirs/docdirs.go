// Package docdirs reads the guides and examples a package ships at its root (RootGuide) and in
// its top-level docs/ and examples/ directories, as the npm and cargo registries do alike: which
// directories are walked, which are skipped, which pages are about the project rather than its
// use (ProjectPage), the cap on documents, and which read errors are reported. What counts as a
// document, and how an example source becomes markdown, is the caller's. Release reads the entry
// of the package's version in the release history at its root, for the Go, npm and cargo
// registries. It imports the root packages docidx and readme, registries/internal/docpath and
// memfs, and the standard library.
package docdirs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// GuideDirs are the top-level directories, compared ignoring case, whose files are guides
// (docidx.DocGuide); ExampleDirs those whose files are examples (docidx.DocExample).
var (
	GuideDirs   = []string{"docs", "doc"}
	ExampleDirs = []string{"examples", "example"}
)

// Options configures Read.
type Options struct {
	// SkipDir is a directory name Read never enters below a top-level directory ("node_modules",
	// "target"), besides names starting with "." and directories more than 8 levels deep.
	SkipDir string
	// Keep reports whether the file at p (slash-separated, from the package root) in a directory
	// of kind is a document, and when it is one how to turn its contents, without a byte order
	// mark, into markdown: nil keeps them as they are.
	Keep func(p string, kind docidx.DocKind) (convert func(p string, src []byte) []byte, ok bool)
	// MaxDocuments caps the documents of the package: Read stops at the first document past it,
	// counting from the n it is given.
	MaxDocuments int
	// MaxFile is the largest file read, in bytes.
	MaxFile int64
}

// Result is what Read found.
type Result struct {
	Docs     []docidx.Document // the guides, then the examples, each parsed by readme.Parse
	Problems []string          // limits hit, such as "docs: more than 100 documents, rest skipped"
	Skipped  []error           // files skipped: too large (docidx.ErrTooLarge) or not regular (memfs.ErrNotRegular)
}

// RootGuide reports whether a markdown file at a package's root, by its name, documents the
// package for its users (FAQ.md, TROUBLESHOOTING.md, MIGRATION_GUIDE.md, UNICODE.md): any but a
// README, which each registry reads apart, and the files about the project rather than its use
// (projectFiles). zap answers "why are some of my logs missing?" in FAQ.md and rayon "how do I
// cap the threads?" in its FAQ.md, and nowhere else.
func RootGuide(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
	default:
		return false
	}
	base := strings.ToLower(strings.TrimSuffix(name, path.Ext(name)))
	base = strings.NewReplacer("-", "_", " ", "_").Replace(base)
	for _, meta := range projectFiles {
		if base == meta || strings.HasPrefix(base, meta+"_") {
			return false
		}
	}
	return true
}

// projectFiles are the base names (lowercased, "-" as "_") of root files about a project rather
// than its use: the community health files GitHub recognizes (contributing, code of conduct,
// security, support, governance, funding), licenses and notices, change logs and release
// notes, lists of people and sponsors, instructions and policies for AI coding agents, and the
// maintainers' own process notes. A name that starts with one and "_" is one too
// ("release_notes", "readme_zh_cn", "changelog_v1", "third_party_notices").
var projectFiles = []string{
	"readme", "contributing", "code_of_conduct", "conduct", "security", "support", "governance",
	"funding", "license", "licence", "copying", "notice", "notices", "patents", "changelog", "changes",
	"history", "news", "release", "releases", "releasing", "release_notes", "version_history",
	"versioning", "authors", "contributors", "maintainers", "owners", "codeowners", "emeritus",
	"sponsors", "backers", "third_party", "project_charter",
	"agents", "claude", "gemini", "copilot", "ai_policy", "todo", "roadmap", "development", "testing",
	"building", "hacking", "pull_request_template", "issue_template",
}

// ProjectPage reports whether the page at p, a slash path inside a documentation tree (docs/,
// examples/, an sdist's Sphinx source), is about the project rather than its use, by its file
// name or a directory's (without extension, any case, "-" as "_"): release notes, licences,
// contributor guides, the maintainers' release process. They are the README sections
// readme.Keep drops, as whole pages; a changelog of hundreds of releases would otherwise answer
// every question about a feature with the version that added it (urfave/cli's
// docs/CHANGELOG.md answered "exit with status 3" with its 1.17.0 entry of 2016).
func ProjectPage(p string) bool {
	for d := range strings.SplitSeq(p, "/") {
		stem := strings.ToLower(strings.TrimSuffix(d, path.Ext(d)))
		if projectPages[strings.ReplaceAll(stem, "-", "_")] {
			return true
		}
	}
	return false
}

// projectPages are ProjectPage's names: fewer than projectFiles, since inside a documentation
// tree a page named testing, building, support, security or development is usually a guide
// (fastify's Guides/Testing.md, flatbuffers' building.md), and a readme is its tree's index.
var projectPages = map[string]bool{
	"changelog": true, "changes": true, "history": true, "news": true, "release_notes": true,
	"releasenotes": true, "releases": true, "license": true, "licence": true, "copying": true,
	"authors": true, "contributors": true, "contributing": true, "code_of_conduct": true,
	"conduct": true, "sponsors": true, "backers": true, "funding": true, "change_log": true,
	"releasing": true, "pull_request_template": true, "issue_template": true,
}

// Read reads the root guides (RootGuide, in name order), then the guides, then the examples, of
// fsys (a package's files), in walk order within a top-level directory, but no project page
// (ProjectPage). n is the number of documents the package has already (such as its README),
// counted against o.MaxDocuments. A file that cannot be read for any other reason, and a
// directory that cannot be listed, are left out silently: a package's docs are best effort.
func Read(fsys fs.FS, n int, o Options) Result {
	var r Result
	roots, _ := fs.ReadDir(fsys, ".")
	for _, e := range roots {
		if !e.Type().IsRegular() || !RootGuide(e.Name()) {
			continue
		}
		convert, ok := o.Keep(e.Name(), docidx.DocGuide)
		if !ok {
			continue
		}
		if n >= o.MaxDocuments {
			r.Problems = append(r.Problems, fmt.Sprintf("more than %d documents, root guides from %s skipped", o.MaxDocuments, e.Name()))
			return r
		}
		if d, ok := readDoc(fsys, e.Name(), docidx.DocGuide, convert, o.MaxFile, &r); ok {
			r.Docs = append(r.Docs, d)
			n++
		}
	}
	for _, group := range []struct {
		dirs []string
		kind docidx.DocKind
	}{{GuideDirs, docidx.DocGuide}, {ExampleDirs, docidx.DocExample}} {
		for _, e := range roots {
			if !e.IsDir() || !docpath.FirstComponentFold(e.Name(), group.dirs...) {
				continue
			}
			_ = fs.WalkDir(fsys, e.Name(), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if p != e.Name() && (d.Name() == o.SkipDir || strings.HasPrefix(d.Name(), ".") || strings.Count(p, "/") > 8) {
						return fs.SkipDir
					}
					return nil
				}
				if ProjectPage(strings.TrimPrefix(p, e.Name()+"/")) {
					return nil
				}
				convert, ok := o.Keep(p, group.kind)
				if !ok {
					return nil
				}
				if n >= o.MaxDocuments {
					r.Problems = append(r.Problems, fmt.Sprintf("%s: more than %d documents, rest skipped", e.Name(), o.MaxDocuments))
					return fs.SkipAll
				}
				if d, ok := readDoc(fsys, p, group.kind, convert, o.MaxFile, &r); ok {
					r.Docs = append(r.Docs, d)
					n++
				}
				return nil
			})
		}
	}
	return r
}

// readDoc reads the document at p of kind, converted by convert when not nil, and records in r
// a file skipped for its size or type; ok is false when p could not be read.
func readDoc(fsys fs.FS, p string, kind docidx.DocKind, convert func(string, []byte) []byte, maxFile int64, r *Result) (docidx.Document, bool) {
	src, err := memfs.ReadLimited(fsys, p, maxFile)
	if err != nil {
		if errors.Is(err, docidx.ErrTooLarge) || errors.Is(err, memfs.ErrNotRegular) {
			r.Skipped = append(r.Skipped, err)
		}
		return docidx.Document{}, false
	}
	src = trimBOM(src)
	if convert != nil {
		src = convert(p, src)
	}
	return readme.Parse(p, kind, src), true
}

// Release returns the entry of version in the markdown release history at the root of fsys (a
// package's files), as readme.ParseRelease makes it: what changed in the version indexed. ok is
// false when there is no such file, it names no entry of version, or it cannot be read; a file
// over maxFile bytes, or one that is not a regular file, is returned as skipped (docidx.ErrTooLarge,
// memfs.ErrNotRegular).
func Release(fsys fs.FS, version string, maxFile int64) (d docidx.Document, ok bool, skipped error) {
	root, _ := fs.ReadDir(fsys, ".")
	for _, e := range root {
		name := e.Name()
		if e.IsDir() || !docidx.IsReleaseHistory(name) {
			continue
		}
		src, err := memfs.ReadLimited(fsys, name, maxFile)
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) || errors.Is(err, memfs.ErrNotRegular) {
				return docidx.Document{}, false, err
			}
			return docidx.Document{}, false, nil
		}
		d, ok = readme.ParseRelease(name, trimBOM(src), version)
		return d, ok, nil
	}
	return docidx.Document{}, false, nil
}

// trimBOM returns b without a leading UTF-8 byte order mark.
func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
