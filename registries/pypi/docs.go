package pypi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/docdirs"
	"github.com/docidx/docidx/registries/internal/docpath"
)

// The documents of an sdist: its documentation tree (docs/ or doc/, Sphinx or MkDocs) and its
// examples. Wheels and installed distributions carry neither; only sdists do.

// docExts are the extensions of the files a documentation tree may hold as pages: markdown
// (MkDocs, MyST), reStructuredText (Sphinx), and .txt (Sphinx projects that name it in
// source_suffix, as Django does).
var docExts = map[string]bool{
	".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".rst": true, ".rest": true, ".txt": true,
}

// guideDirs and exampleDirs are the top directories of an sdist that hold its documentation and
// its example programs.
var (
	guideDirs   = []string{"docs", "doc"}
	exampleDirs = []string{"examples", "example"}
)

// mkdocsFiles are the names of an MkDocs configuration at the sdist's root
// (https://www.mkdocs.org/user-guide/configuration/).
var mkdocsFiles = []string{"mkdocs.yml", "mkdocs.yaml"}

// isDocCandidate reports whether an sdist entry p (a slash path below its top directory) may be
// a document, so that reading the archive keeps it: a page (see docExts) below a top directory,
// a Python source under examples/ or example/, or a Sphinx conf.py. A path element starting
// with "_" or "." is never one: Sphinx's _build, _static and _templates, autosummary's
// _autosummary, hidden directories. Which candidates are documents is readDocs' choice, once the
// MkDocs and Sphinx configurations are known.
func isDocCandidate(p string) bool {
	if !strings.Contains(p, "/") || strings.HasPrefix(p, "_") || strings.HasPrefix(p, ".") ||
		strings.Contains(p, "/_") || strings.Contains(p, "/.") {
		return false
	}
	ext := strings.ToLower(path.Ext(p))
	switch {
	case docExts[ext]:
		return true
	case ext == ".py":
		return docpath.FirstComponentFold(p, exampleDirs...) || path.Base(p) == "conf.py"
	}
	return false
}

// isMkdocsConfig reports whether p is an MkDocs configuration at the sdist's root.
func isMkdocsConfig(p string) bool {
	for _, n := range mkdocsFiles {
		if p == n {
			return true
		}
	}
	return false
}

// docTree is one directory of an sdist whose files are documents.
type docTree struct {
	dir  string // slash path below the sdist's root, no trailing slash
	kind docidx.DocKind
	txt  bool // .txt files are pages: the tree's Sphinx conf.py names ".txt" in source_suffix
}

// docTrees returns the document trees among the sdist's paths, sorted by directory: docs/ and
// doc/ (any case) as guides, the docs_dir of a root mkdocs.yml when it names another directory
// inside the sdist, and examples/ and example/ as examples. read reads mkdocs.yml and conf.py.
func docTrees(paths []string, read readFunc) []docTree {
	dirs := map[string]docidx.DocKind{}
	for _, p := range paths {
		first, _, ok := strings.Cut(p, "/")
		switch {
		case !ok:
			if isMkdocsConfig(p) {
				if src, err := read(p, maxDocsConfig); err == nil {
					if d := mkdocsDocsDir(src); d != "" {
						dirs[d] = docidx.DocGuide
					}
				}
			}
		case docpath.FirstComponentFold(p, guideDirs...):
			dirs[first] = docidx.DocGuide
		case docpath.FirstComponentFold(p, exampleDirs...):
			dirs[first] = docidx.DocExample
		}
	}
	trees := make([]docTree, 0, len(dirs))
	for d, kind := range dirs {
		trees = append(trees, docTree{dir: d, kind: kind})
	}
	sort.Slice(trees, func(i, j int) bool { return trees[i].dir < trees[j].dir })
	for i := range trees {
		t := &trees[i]
		if t.kind != docidx.DocGuide {
			continue
		}
		// Sphinx keeps conf.py at the top of the source directory: docs/ itself, or docs/source/
		// when the build output goes beside it (sphinx-quickstart's separate layout).
		for _, c := range []string{t.dir + "/conf.py", t.dir + "/source/conf.py"} {
			if src, err := read(c, maxDocsConfig); err == nil && sphinxTxt(src) {
				t.txt = true
			}
		}
	}
	return trees
}

// maxDocsConfig is the most bytes of an mkdocs.yml or Sphinx conf.py read.
const maxDocsConfig = 256 << 10

// mkdocsDocsDir returns the docs_dir an mkdocs.yml names when it is a directory inside the
// project other than docs/ (MkDocs' default, a guide directory already), cleaned; else "". Only
// the top-level "docs_dir:" line is read: a plain or quoted scalar, comments allowed.
func mkdocsDocsDir(src []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), maxDocsConfig)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "docs_dir:")
		if !ok {
			continue
		}
		if i := strings.Index(v, " #"); i >= 0 {
			v = v[:i]
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		d := path.Clean(strings.ReplaceAll(v, `\`, "/"))
		if v == "" || d == "." || d == ".." || strings.HasPrefix(d, "../") || path.IsAbs(d) ||
			strings.HasPrefix(d, "_") || strings.HasPrefix(d, ".") || strings.Contains(d, "/_") || strings.Contains(d, "/.") ||
			docpath.FirstComponentFold(d, guideDirs...) && !strings.Contains(d, "/") {
			return ""
		}
		return d
	}
	return ""
}

// sphinxTxt reports whether a Sphinx conf.py names ".txt" in its source_suffix
// (https://www.sphinx-doc.org/en/master/usage/configuration.html#confval-source_suffix): only then
// are the tree's .txt files pages rather than notes or requirements lists. The assignment is
// found by its line ("source_suffix = …", a list, tuple or dict on that line or the next few).
func sphinxTxt(conf []byte) bool {
	lines := strings.Split(string(conf), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "source_suffix") {
			continue
		}
		val := strings.Join(lines[i:min(i+6, len(lines))], "\n")
		if end := strings.IndexAny(val, "]})"); end >= 0 {
			val = val[:end]
		} else {
			val, _, _ = strings.Cut(val, "\n")
		}
		if strings.Contains(val, `".txt"`) || strings.Contains(val, `'.txt'`) {
			return true
		}
	}
	return false
}

// docKind returns the kind of document p (a slash path below the sdist's root) is in trees, or
// false when it is none: a page of a guide tree (a .txt only where tree.txt, never a
// requirements or constraints list), markdown, reStructuredText or a Python source of an example
// tree; never under a directory named build (Sphinx's output), nor a project page
// (docdirs.ProjectPage: a changelog, or a page under Python-Markdown's docs/change_log/).
func docKind(p string, trees []docTree) (docidx.DocKind, bool) {
	for _, t := range trees {
		rest, ok := strings.CutPrefix(p, t.dir+"/")
		if !ok {
			continue
		}
		if strings.HasPrefix(rest, "build/") || strings.Contains(rest, "/build/") {
			return "", false
		}
		base := strings.ToLower(path.Base(p))
		ext := path.Ext(base)
		stem := strings.ReplaceAll(strings.TrimSuffix(base, ext), "-", "_")
		if docdirs.ProjectPage(rest) {
			return "", false
		}
		switch {
		case ext == ".txt":
			return t.kind, t.kind == docidx.DocGuide && t.txt && !strings.HasPrefix(stem, "requirements") && !strings.HasPrefix(stem, "constraints")
		case docExts[ext]:
			return t.kind, true
		case ext == ".py":
			return t.kind, t.kind == docidx.DocExample
		}
		return "", false
	}
	return "", false
}

// docsResult is the documents of a distribution version.
type docsResult struct {
	docs     []docidx.Document
	problems []string
}

// readDocs reads the documents of an sdist among paths (slash paths below its top directory),
// in path order, at most lim.MaxDocuments of them; see docTrees and docKind for which. A page that
// holds nothing but markup for Sphinx (an autodoc stub of automodule and autoclass directives, a
// toctree-only index) has no sections and is left out: the API it would render is indexed from
// the sources.
func readDocs(paths []string, read readFunc, lim Limits) docsResult {
	var res docsResult
	trees := docTrees(paths, read)
	if len(trees) == 0 {
		return res
	}
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	for _, p := range sorted {
		kind, ok := docKind(p, trees)
		if !ok {
			continue
		}
		if len(res.docs) >= lim.MaxDocuments {
			res.problems = append(res.problems, fmt.Sprintf("more than %d documents; the rest skipped", lim.MaxDocuments))
			break
		}
		src, err := read(p, lim.MaxFile)
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				res.problems = append(res.problems, err.Error())
			}
			continue
		}
		if d, ok := documentFile(p, kind, src); ok && len(d.Sections) > 0 {
			res.docs = append(res.docs, d)
		}
	}
	return res
}
