package swift

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/readme"
	"github.com/docidx/docidx/registries/internal/docdirs"
	"github.com/docidx/docidx/registries/internal/docpath"
	"github.com/docidx/docidx/registries/internal/license"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
	"github.com/docidx/docidx/registries/swift/internal/swiftsrc"
)

// packageContents is what extraction yields for one package version.
type packageContents struct {
	symbols   []docidx.Symbol
	documents []docidx.Document
	summary   string // the README's summary
	license   string // SPDX identifier guessed from the LICENSE file
	manifest  swiftsrc.Manifest
	modules   []string // modules (targets) with Swift sources, in walk order
}

// requires returns the Swift tools version the manifest declares as the package's requirement:
// the oldest Swift toolchain that can build it (SE-0152), or nil.
func (pc *packageContents) requires() []docidx.Requirement {
	if v := pc.manifest.ToolsVersion; v != "" {
		return []docidx.Requirement{{Name: "swift", Range: ">=" + v}}
	}
	return nil
}

// commands returns the commands the package's manifest builds: its executable products and
// targets.
func (pc *packageContents) commands() []string {
	return docidx.CommandNames(pc.manifest.Executables)
}

// skippedAPIDirs are directories whose Swift files are not a library's API: tests, benchmarks,
// examples, plugins, snippets, fixtures and tooling (compared case-insensitively).
var skippedAPIDirs = map[string]bool{
	"tests": true, "test": true, "benchmarks": true, "benchmark": true, "examples": true, "example": true,
	"plugins": true, "snippets": true, "fixtures": true, "demo": true, "demos": true, "samples": true,
	"sample": true, "docs": true, "doc": true, "documentation": true, "scripts": true, "packages": true,
	"checkouts": true, "node_modules": true,
}

// skipAPIDir reports whether a directory named name holds no API sources.
func skipAPIDir(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(name, ".") || skippedAPIDirs[lower] || strings.HasSuffix(name, "Tests") ||
		strings.HasSuffix(lower, ".docc") || strings.HasSuffix(lower, ".xcodeproj") ||
		strings.HasSuffix(lower, ".xcworkspace") || strings.HasSuffix(lower, ".playground")
}

// isManifest reports whether a root file is a package manifest: Package.swift or a
// version-specific Package@swift-X.swift.
func isManifest(name string) bool {
	return name == "Package.swift" || strings.HasPrefix(name, "Package@swift-") && strings.HasSuffix(name, ".swift")
}

// moduleOf returns the module (SwiftPM target) a Swift file at p belongs to, by SwiftPM's
// default layout: Sources/<Target>/… (also Source/ and src/); a file elsewhere belongs to its
// top-level directory, and a file at the root or directly in Sources/ to the package itself
// (fallback). ok is false for files that are not API: manifests, tests, examples, plugins and
// the other skipped directories.
func moduleOf(p, fallback string) (module string, ok bool) {
	parts := strings.Split(p, "/")
	for _, dir := range parts[:len(parts)-1] {
		if skipAPIDir(dir) {
			return "", false
		}
	}
	if len(parts) == 1 && isManifest(parts[0]) {
		return "", false
	}
	switch {
	case len(parts) >= 3 && (parts[0] == "Sources" || parts[0] == "Source" || parts[0] == "src"):
		return c99Name(parts[1]), true
	case len(parts) >= 3:
		return c99Name(parts[0]), true
	case len(parts) == 2 && parts[0] != "Sources" && parts[0] != "Source" && parts[0] != "src":
		return c99Name(parts[0]), true
	}
	return c99Name(fallback), fallback != ""
}

// c99Name turns a target name into the module name Swift code imports, as SwiftPM does: every
// character that cannot appear in an identifier becomes "_", and a leading digit gets a "_"
// before it ("swift-nio" → "swift_nio").
func c99Name(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 && unicode.IsLetter(r):
			b.WriteRune(r)
		case r >= '0' && r <= '9' || r >= 0x80 && unicode.IsDigit(r):
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// docKindOf says whether a markdown or Swift file at p is documentation: markdown under a DocC
// catalog (*.docc) or a top-level docs/, doc/ or Documentation/ directory is a guide; markdown
// and Swift files under a top-level Examples/, example/ or Snippets/ directory are examples; a
// page of those directories about the project (docdirs.ProjectPage: Documentation/CHANGELOG.md)
// is neither.
func docKindOf(p string) (docidx.DocKind, bool) {
	parts := strings.Split(p, "/")
	if len(parts) < 2 {
		return "", false
	}
	for _, dir := range parts[:len(parts)-1] {
		if strings.HasPrefix(dir, ".") {
			return "", false
		}
	}
	md, swiftFile := isMarkdown(p), strings.HasSuffix(p, ".swift")
	project := docdirs.ProjectPage(strings.Join(parts[1:], "/"))
	switch strings.ToLower(parts[0]) {
	case "examples", "example", "snippets":
		if !project && (md || swiftFile && !isManifest(parts[len(parts)-1])) {
			return docidx.DocExample, true
		}
		return "", false
	case "docs", "doc", "documentation":
		if md && !project {
			return docidx.DocGuide, true
		}
		return "", false
	}
	for _, dir := range parts[:len(parts)-1] {
		if md && strings.HasSuffix(strings.ToLower(dir), ".docc") {
			return docidx.DocGuide, true
		}
	}
	return "", false
}

func isMarkdown(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		return true
	}
	return false
}

// extractor walks one package's files.
type extractor struct {
	ctx   context.Context
	fsys  fs.FS
	pkg   string // package identity, for messages
	lim   Limits
	log   *slog.Logger
	out   packageContents
	files []swiftsrc.File
	seen  map[string]bool // modules seen

	swiftFiles   int
	filesSkipped int
	docsDropped  int
}

// extractPackage reads the package rooted at fsys: the manifest, README, LICENSE, DocC
// articles, docs/ and examples/ documents, and the public API of every module's Swift sources.
// It fails only when the root cannot be read or ctx ends; an unreadable or oversized file is
// logged at debug level and skipped.
func extractPackage(ctx context.Context, fsys fs.FS, pkg string, lim Limits, log *slog.Logger) (*packageContents, error) {
	e := &extractor{ctx: ctx, fsys: fsys, pkg: pkg, lim: lim.withDefaults(), log: log, seen: map[string]bool{}}
	root, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading package root: %w", err)
	}
	e.rootFiles(root)
	fallback := e.out.manifest.Name
	if fallback == "" {
		fallback = pkg
	}
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			e.log.Debug("swift: skipping unreadable path", "package", pkg, "path", p, "err", err)
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "checkouts") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks are never followed
		}
		if kind, ok := docKindOf(p); ok {
			e.document(p, kind)
			return nil
		}
		if strings.HasSuffix(name, ".swift") {
			if module, ok := moduleOf(p, fallback); ok {
				e.source(p, module)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := swiftsrc.Symbols(e.files, swiftsrc.Options{MaxSymbols: e.lim.MaxSymbols})
	e.out.symbols = res.Symbols
	if res.Dropped > 0 {
		e.log.Warn("swift: symbol limit reached; later symbols dropped", "package", pkg, "limit", e.lim.MaxSymbols, "dropped", res.Dropped)
	}
	if e.filesSkipped > 0 {
		e.log.Warn("swift: source file limit reached; later files not scanned", "package", pkg, "limit", e.lim.MaxFiles, "skipped", e.filesSkipped)
	}
	if e.docsDropped > 0 {
		e.log.Warn("swift: document limit reached; later documents dropped", "package", pkg, "limit", e.lim.MaxDocuments, "dropped", e.docsDropped)
	}
	return &e.out, nil
}

// rootFiles reads Package.swift, the README and the LICENSE at the package root.
func (e *extractor) rootFiles(root []fs.DirEntry) {
	readmeName, licenseName := docpath.RootFiles(root)
	for _, de := range root {
		if de.Name() == "Package.swift" && de.Type().IsRegular() {
			if src, err := memfs.ReadLimited(e.fsys, de.Name(), maxManifest); err == nil {
				e.out.manifest = swiftsrc.ReadManifest(src)
			} else {
				e.log.Debug("swift: skipping manifest", "package", e.pkg, "err", err)
			}
		}
	}
	if readmeName != "" {
		if src, ok := e.read(readmeName); ok {
			d := parseDoc(readmeName, docidx.DocReadme, src, e.log)
			d.Title = readme.PackageTitle(d, e.pkg)
			e.out.summary = d.Summary
			e.addDoc(d)
		}
	}
	if licenseName != "" {
		if src, err := memfs.ReadLimited(e.fsys, licenseName, 16<<20); err == nil {
			if len(src) > maxLicense {
				src = src[:maxLicense]
			}
			e.out.license = license.Detect(string(src))
		}
	}
}

// source scans one Swift file of module.
func (e *extractor) source(p, module string) {
	if e.swiftFiles >= e.lim.MaxFiles {
		e.filesSkipped++
		return
	}
	src, ok := e.read(p)
	if !ok {
		return
	}
	e.swiftFiles++
	if !e.seen[module] {
		e.seen[module] = true
		e.out.modules = append(e.out.modules, module)
	}
	e.files = append(e.files, swiftsrc.File{Path: p, Module: module, Decls: swiftsrc.Parse(src)})
}

// document adds a guide or example file.
func (e *extractor) document(p string, kind docidx.DocKind) {
	if len(e.out.documents) >= e.lim.MaxDocuments {
		e.docsDropped++
		return
	}
	src, ok := e.read(p)
	if !ok {
		return
	}
	if strings.HasSuffix(p, ".swift") {
		if !utf8.Valid(src) {
			return
		}
		src = exampleMarkdown(p, src)
	}
	e.addDoc(parseDoc(p, kind, src, e.log))
}

func (e *extractor) addDoc(d docidx.Document) {
	if len(e.out.documents) >= e.lim.MaxDocuments {
		e.docsDropped++
		return
	}
	e.out.documents = append(e.out.documents, d)
}

// read reads a file within the per-file limit, logging what it skips.
func (e *extractor) read(p string) ([]byte, bool) {
	src, err := memfs.ReadLimited(e.fsys, p, e.lim.MaxFile)
	if err != nil {
		skip.File(e.log, "swift: skipping file", err, "package", e.pkg, "file", p)
		return nil, false
	}
	return trimBOM(src), true
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// parseDoc turns a documentation file into a Document: markdown through package readme, any
// other text as one section. A markdown parser failure falls back to the raw text.
func parseDoc(p string, kind docidx.DocKind, src []byte, log *slog.Logger) (d docidx.Document) {
	if isMarkdown(p) || strings.HasSuffix(p, ".swift") {
		defer func() {
			if r := recover(); r != nil {
				log.Warn("swift: markdown parser failed; keeping the raw text", "file", p, "panic", r)
				d = readme.Plain(p, kind, string(src))
			}
		}()
		return readme.Parse(p, kind, src)
	}
	return readme.Plain(p, kind, string(src))
}

// exampleMarkdown wraps a Swift example file as markdown: its path as the title, the code fenced.
func exampleMarkdown(p string, src []byte) []byte {
	fence := "```"
	for strings.Contains(string(src), fence) {
		fence += "`"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%sswift\n", p, fence)
	b.Write(src)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(fence + "\n")
	return []byte(b.String())
}
