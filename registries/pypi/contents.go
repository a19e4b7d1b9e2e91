package pypi

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
	"github.com/docidx/docidx/registries/pypi/internal/rst"
)

// Ecosystem is the purl type this package serves.
const Ecosystem = docidx.PyPI

// readFunc reads one file of a distribution by slash path, failing with an error wrapping
// docidx.ErrTooLarge over limit bytes.
type readFunc func(p string, limit int64) ([]byte, error)

// isIdentifier reports whether s is a Python identifier (letters, digits and "_", not starting
// with a digit; non-ASCII letters allowed).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return true
}

// scriptModules are top-level modules of a source tree that are build or test scripts, not API.
var scriptModules = map[string]bool{
	"setup": true, "conftest": true, "noxfile": true, "fabfile": true, "tasks": true, "runtests": true,
	"bootstrap": true, "ez_setup": true, "versioneer": true, "manage": true, "hatch_build": true,
}

// moduleName returns the dotted module name of a Python file by its slash path relative to the
// import root ("flask/app.py" -> "flask.app", "yaml/__init__.py" -> "yaml", "six.py" -> "six",
// "requests-stubs/api.pyi" -> "requests.api"). ok is false for files that are not public
// modules: not .py or .pyi, a path element that is not an identifier, a private module or package
// (a name starting with "_", __main__ included), tests or test directories, conftest.py, and
// build scripts at the top (setup.py, noxfile.py …).
func moduleName(p string) (string, bool) {
	var stem string
	switch {
	case strings.HasSuffix(p, ".pyi"):
		stem = strings.TrimSuffix(p, ".pyi")
	case strings.HasSuffix(p, ".py"):
		stem = strings.TrimSuffix(p, ".py")
	default:
		return "", false
	}
	parts := strings.Split(stem, "/")
	if s, ok := strings.CutSuffix(parts[0], "-stubs"); ok && len(parts) > 1 {
		parts[0] = s // a stub-only distribution (PEP 561)
	}
	if parts[len(parts)-1] == "__init__" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return "", false
	}
	for _, part := range parts {
		if !isIdentifier(part) || strings.HasPrefix(part, "_") || part == "tests" || part == "test" || part == "conftest" {
			return "", false
		}
	}
	if len(parts) == 1 && scriptModules[parts[0]] {
		return "", false
	}
	return strings.Join(parts, "."), true
}

// apiFile is one module chosen for API extraction.
type apiFile struct {
	module string
	path   string // slash path read, relative to the distribution root
	file   string // Symbol.File: path inside the package
}

// chooseModules picks the modules to scan from paths relative to the import root: one file per
// module, the .pyi stub when there is one, sorted by module name. prefix is prepended to each path
// to read it (an sdist's "src/").
func chooseModules(paths []string, prefix string) []apiFile {
	byModule := map[string]apiFile{}
	for _, p := range paths {
		mod, ok := moduleName(p)
		if !ok {
			continue
		}
		if prev, seen := byModule[mod]; seen && (strings.HasSuffix(prev.path, ".pyi") || !strings.HasSuffix(p, ".pyi")) {
			continue
		}
		byModule[mod] = apiFile{module: mod, path: prefix + p, file: prefix + p}
	}
	out := make([]apiFile, 0, len(byModule))
	for _, f := range byModule {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].module < out[j].module })
	return out
}

// apiResult is what extractAPI found.
type apiResult struct {
	symbols   []docidx.Symbol
	modules   int
	truncated bool
	problems  []string
}

// extractAPI scans the chosen modules: at most lim.MaxFiles files of at most lim.MaxFile bytes
// each, at most lim.MaxSymbols symbols, qualified names unique across modules. Docstrings are
// converted from reStructuredText inline markup to markdown.
func extractAPI(files []apiFile, read readFunc, lim Limits) apiResult {
	var res apiResult
	seen := map[string]bool{}
	for i, f := range files {
		if i >= lim.MaxFiles {
			res.truncated = true
			res.problems = append(res.problems, fmt.Sprintf("more than %d modules; %d skipped", lim.MaxFiles, len(files)-i))
			break
		}
		src, err := read(f.path, lim.MaxFile)
		if err != nil {
			res.problems = append(res.problems, err.Error())
			continue
		}
		if !utf8.Valid(src) {
			src = []byte(strings.ToValidUTF8(string(src), "\uFFFD"))
		}
		res.modules++
		out := pyscan.Scan(src, pyscan.Options{Module: f.module, File: f.file, MaxSymbols: lim.MaxSymbols - len(res.symbols) + 1})
		for _, s := range out.Symbols {
			if seen[s.QualifiedName] {
				continue
			}
			if len(res.symbols) >= lim.MaxSymbols {
				res.truncated = true
				break
			}
			seen[s.QualifiedName] = true
			if s.Doc != "" && strings.ContainsAny(s.Doc, "`*|_:\\") {
				s.Doc, _ = rst.Inline(s.Doc)
			}
			res.symbols = append(res.symbols, s)
		}
		if res.truncated || out.Truncated && len(res.symbols) >= lim.MaxSymbols {
			res.truncated = true
			res.problems = append(res.problems, fmt.Sprintf("API truncated at %d symbols", lim.MaxSymbols))
			break
		}
	}
	return res
}

// descriptionDocument turns the long description into the README document by its content type:
// markdown through readme.Parse, reStructuredText (also when no type is given, as PyPI assumes)
// through the rst splitter, plain text as one section. ok is false for an empty description.
func descriptionDocument(m *Metadata) (docidx.Document, bool) {
	desc := strings.TrimSpace(m.Description)
	if desc == "" {
		return docidx.Document{}, false
	}
	var d docidx.Document
	switch ct := m.ContentType(); ct {
	case "text/markdown":
		d = readme.Parse("README.md", docidx.DocReadme, []byte(m.Description))
	case "text/x-rst", "text/rst", "text/restructuredtext":
		d = rst.Parse("README.rst", docidx.DocReadme, []byte(m.Description))
	default:
		d = plainDocument("README.txt", docidx.DocReadme, m.Description)
	}
	if d.Title == "" || strings.EqualFold(d.Title, "readme") {
		d.Title = m.Name
	}
	return d, true
}

// plainDocument keeps plain text as one section: the text as written (cut at readme.MaxInput
// bytes), one plain line per paragraph.
func plainDocument(p string, kind docidx.DocKind, text string) docidx.Document {
	if len(text) > readme.MaxInput {
		text = text[:readme.MaxInput]
		for len(text) > 0 && !utf8.RuneStart(text[len(text)-1]) {
			text = text[:len(text)-1]
		}
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	var paras []string
	for _, para := range strings.Split(text, "\n\n") {
		if f := strings.Fields(para); len(f) > 0 {
			paras = append(paras, strings.Join(f, " "))
		}
	}
	d := docidx.Document{Path: p, Kind: kind, Sections: []docidx.Section{}}
	if len(paras) > 0 {
		d.Summary = readme.Summary(paras[0])
		d.Sections = append(d.Sections, docidx.Section{Text: text, Plain: strings.Join(paras, "\n")})
	}
	base := path.Base(p)
	d.Title = strings.TrimSuffix(base, path.Ext(base))
	return d
}

// documentFile parses a file under docs/ or examples/ by its extension: markdown, reStructuredText,
// plain text, or (for examples) a Python source shown as a code block. ok is false for other files.
func documentFile(p string, kind docidx.DocKind, src []byte) (docidx.Document, bool) {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdown", ".mkd":
		return readme.Parse(p, kind, src), true
	case ".rst", ".rest":
		return rst.Parse(p, kind, src), true
	case ".py":
		if kind != docidx.DocExample {
			return docidx.Document{}, false
		}
		fence := "```"
		for strings.Contains(string(src), fence) {
			fence += "`"
		}
		md := "# " + p + "\n\n" + fence + "python\n" + strings.TrimRight(string(src), "\n") + "\n" + fence + "\n"
		return readme.Parse(p, kind, []byte(md)), true
	}
	return docidx.Document{}, false
}

// isDocPath reports whether p (relative to an sdist's root) is a document docidx reads, and which
// kind: markdown or reStructuredText under docs/ or doc/, and those or Python sources under
// examples/ or example/.
func isDocPath(p string) (docidx.DocKind, bool) {
	first, rest, ok := strings.Cut(p, "/")
	if !ok || rest == "" || strings.Contains("/"+rest, "/_") || strings.Contains("/"+rest, "/.") {
		return "", false
	}
	ext := strings.ToLower(path.Ext(p))
	doc := ext == ".md" || ext == ".markdown" || ext == ".rst"
	switch strings.ToLower(first) {
	case "docs", "doc":
		return docidx.DocGuide, doc
	case "examples", "example":
		return docidx.DocExample, doc || ext == ".py"
	}
	return "", false
}

// packageFromMetadata fills a Package from core metadata; name is the normalized name.
func packageFromMetadata(m *Metadata, name, version string) docidx.Package {
	p := docidx.Package{
		Ecosystem:   Ecosystem,
		Name:        name,
		Version:     version,
		Description: strings.TrimSpace(m.Summary),
		License:     m.LicenseName(),
		Homepage:    m.Homepage(),
		Repository:  m.Repository(),
		Keywords:    m.Keywords,
	}
	for _, c := range m.Classifiers {
		if strings.HasPrefix(c, "Development Status :: 7") {
			p.Deprecated = "the project is marked inactive (" + c + ")"
		}
	}
	return p
}

// docsResult is the documents of a distribution version.
type docsResult struct {
	docs     []docidx.Document
	problems []string
}

// readDocs reads docs/ and examples/ documents among paths (slash paths under root), at most
// lim.MaxDocs of them.
func readDocs(paths []string, root string, read readFunc, lim Limits) docsResult {
	var res docsResult
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	for _, p := range sorted {
		rel, ok := strings.CutPrefix(p, root)
		if !ok {
			continue
		}
		kind, ok := isDocPath(rel)
		if !ok {
			continue
		}
		if len(res.docs) >= lim.MaxDocs {
			res.problems = append(res.problems, fmt.Sprintf("more than %d documents; the rest skipped", lim.MaxDocs))
			break
		}
		src, err := read(p, lim.MaxFile)
		if err != nil {
			if errors.Is(err, docidx.ErrTooLarge) {
				res.problems = append(res.problems, err.Error())
			}
			continue
		}
		if d, ok := documentFile(rel, kind, src); ok && len(d.Sections) > 0 {
			res.docs = append(res.docs, d)
		}
	}
	return res
}
