// Package docdirs reads the guides and examples a package ships in its top-level docs/ and
// examples/ directories, as the npm and cargo registries do alike: which directories are walked,
// which are skipped, the cap on documents, and which read errors are reported. What counts as a
// document, and how an example source becomes markdown, is the caller's. Release reads the entry
// of the package's version in the release history at its root, for the Go, npm and cargo
// registries. It imports the root packages docidx and readme, registries/internal/docpath and
// memfs, and the standard library.
package docdirs

import (
	"errors"
	"fmt"
	"io/fs"
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

// Read reads the guides, then the examples, of fsys (a package's files), in walk order within a
// top-level directory. n is the number of documents the package has already (such as its README),
// counted against o.MaxDocuments. A file that cannot be read for any other reason, and a
// directory that cannot be listed, are left out silently: a package's docs are best effort.
func Read(fsys fs.FS, n int, o Options) Result {
	var r Result
	roots, _ := fs.ReadDir(fsys, ".")
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
				convert, ok := o.Keep(p, group.kind)
				if !ok {
					return nil
				}
				if n >= o.MaxDocuments {
					r.Problems = append(r.Problems, fmt.Sprintf("%s: more than %d documents, rest skipped", e.Name(), o.MaxDocuments))
					return fs.SkipAll
				}
				src, err := memfs.ReadLimited(fsys, p, o.MaxFile)
				if err != nil {
					if errors.Is(err, docidx.ErrTooLarge) || errors.Is(err, memfs.ErrNotRegular) {
						r.Skipped = append(r.Skipped, err)
					}
					return nil
				}
				src = trimBOM(src)
				if convert != nil {
					src = convert(p, src)
				}
				r.Docs = append(r.Docs, readme.Parse(p, group.kind, src))
				n++
				return nil
			})
		}
	}
	return r
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
