package npm

import (
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/docdirs"
	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
)

// markdownExt reports whether p names a markdown file.
func markdownExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn":
		return true
	}
	return false
}

// exampleLang returns the fence language of an example source file, or "" for other files.
func exampleLang(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".cjs", ".jsx":
		return "js"
	case ".ts", ".mts", ".cts", ".tsx":
		if isDeclaration(p) {
			return ""
		}
		return "ts"
	}
	return ""
}

func isDeclaration(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// isReadmeName reports whether a root file name is a README: README, README.md, readme.markdown …
func isReadmeName(name string) bool {
	lower := strings.ToLower(name)
	if lower == "readme" {
		return true
	}
	base, ext, ok := strings.Cut(lower, ".")
	if !ok || base != "readme" {
		return false
	}
	switch ext {
	case "md", "markdown", "mdown", "mkd", "mkdn", "txt", "rst", "mdx":
		return true
	}
	return false
}

// keepTarballFile says which tarball entries docidx reads: package.json, a root README, release
// history (docidx.IsReleaseHistory) and guides (docdirs.RootGuide), markdown under docs/ or doc/, markdown and example sources under
// examples/ or example/, and declaration files anywhere outside bundled node_modules.
func keepTarballFile(p string) bool {
	if strings.Contains("/"+p+"/", "/node_modules/") {
		return false
	}
	if !strings.Contains(p, "/") {
		return p == "package.json" || isReadmeName(p) || isDeclaration(p) || docidx.IsReleaseHistory(p) || docdirs.RootGuide(p)
	}
	switch {
	case isDeclaration(p):
		return true
	case docpath.FirstComponentFold(p, docdirs.GuideDirs...):
		return markdownExt(p)
	case docpath.FirstComponentFold(p, docdirs.ExampleDirs...):
		return markdownExt(p) || exampleLang(p) != ""
	}
	return false
}

// findReadme returns the root README of fsys, preferring markdown, or "".
func findReadme(fsys fs.FS) string {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return ""
	}
	best, bestRank := "", 99
	for _, e := range entries {
		if e.IsDir() || !isReadmeName(e.Name()) {
			continue
		}
		rank := 3
		switch {
		case markdownExt(e.Name()):
			rank = 0
		case !strings.Contains(e.Name(), "."):
			rank = 1
		case strings.HasSuffix(strings.ToLower(e.Name()), ".txt"):
			rank = 2
		}
		if rank < bestRank || rank == bestRank && e.Name() < best {
			best, bestRank = e.Name(), rank
		}
	}
	return best
}

// contents is what buildContents extracted from a package's files.
type contents struct {
	docs     []docidx.Document
	problems []string // limits hit
	skipped  []error  // files skipped: too large, not regular (see registries/internal/skip)
}

// buildContents reads a package's README, root guides, docs/ and examples/ from fsys (its API is packageAPI's),
// and the entry of version in its CHANGELOG.md (docdirs.Release). When fsys holds no README,
// fallbackReadme (the registry's copy) is used under fallbackName. A README without a title of its
// own is titled by pkgName (readme.PackageTitle).
func buildContents(fsys fs.FS, pkgName, version, fallbackReadme, fallbackName string, lim Limits) contents {
	lim = lim.withDefaults()
	var c contents

	// README.
	if name := findReadme(fsys); name != "" {
		if src, err := memfs.ReadLimited(fsys, name, lim.MaxFile); err == nil {
			c.docs = append(c.docs, readme.Parse(name, docidx.DocReadme, trimBOM(src)))
		} else {
			c.skipped = append(c.skipped, err)
		}
	}
	if len(c.docs) == 0 && strings.TrimSpace(fallbackReadme) != "" && fallbackReadme != noReadme {
		if fallbackName == "" || strings.Contains(fallbackName, "/") {
			fallbackName = "README.md"
		}
		c.docs = append(c.docs, readme.Parse(fallbackName, docidx.DocReadme, []byte(fallbackReadme)))
	}

	if len(c.docs) > 0 {
		c.docs[0].Title = readme.PackageTitle(c.docs[0], pkgName)
	}

	// Root guides, docs/ and examples/.
	d := docdirs.Read(fsys, 0, docdirs.Options{
		SkipDir: "node_modules",
		Keep: func(p string, kind docidx.DocKind) (func(string, []byte) []byte, bool) {
			if markdownExt(p) {
				return nil, true
			}
			if kind != docidx.DocExample {
				return nil, false
			}
			lang := exampleLang(p)
			if lang == "" {
				return nil, false
			}
			return func(p string, src []byte) []byte { return exampleMarkdown(p, lang, src) }, true
		},
		MaxDocuments: lim.MaxDocuments,
		MaxFile:      lim.MaxDocumentSize,
	})
	c.docs = append(c.docs, d.Docs...)
	c.problems = d.Problems
	c.skipped = append(c.skipped, d.Skipped...)

	// What changed in this version.
	if d, ok, skipped := docdirs.Release(fsys, version, lim.MaxDocumentSize); ok {
		c.docs = append(c.docs, d)
	} else if skipped != nil {
		c.skipped = append(c.skipped, skipped)
	}
	return c
}

// exampleMarkdown wraps an example source file as markdown: its path as the title, the code fenced.
func exampleMarkdown(p, lang string, src []byte) []byte {
	fence := "```"
	for strings.Contains(string(src), fence) {
		fence += "`"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s%s\n", p, fence, lang)
	b.Write(src)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	return []byte(b.String())
}

// logExtraction logs what reading one package version's contents (c) and API (a) met: limits
// hit and where the API came from at debug level, each skipped file as registries/internal/skip
// counts it, and a failed @types package as a warning. Caches and registries log alike.
func logExtraction(log *slog.Logger, name, version string, c *contents, a *api) {
	for _, p := range append(c.problems, a.problems...) {
		log.Debug("npm: "+p, "package", name, "version", version)
	}
	for _, err := range c.skipped {
		skip.File(log, "npm: file skipped", err, "package", name, "version", version)
	}
	if a.from != "" {
		log.Debug("npm: API from "+a.from, "package", name, "version", version, "symbols", len(a.symbols))
	}
	if a.typesErr != nil {
		log.Warn("npm: no API from the @types package", "package", name, "version", version, "err", a.typesErr)
	}
}
