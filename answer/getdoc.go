package answer

// getdoc.go is GetDoc and GetNPMDoc (MCP's get_package_doc and get_npm_package_doc): one
// README, docs/ or examples/ file, paged by section.

import (
	"context"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// DocInput is the arguments of get_package_doc.
type DocInput struct {
	Ecosystem string `json:"ecosystem" jsonschema:"ecosystem: golang, npm, pypi, cargo or swift (aliases go, node, python, rust, crates accepted)"`
	Package   string `json:"package" jsonschema:"package name or Go module path; 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"version: exact (4.29.1), partial (4, 4.2) or a range (^4, ~4.2, >=4 <5), the newest indexed match; default the latest indexed version"`
	Path      string `json:"path,omitempty" jsonschema:"document to read: default the README; else a path listed by describe_*_package, e.g. docs/guide.md or examples/basic.md"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same document, to continue it"`
}

// NPMDocInput is the arguments of get_npm_package_doc: DocInput without the ecosystem.
type NPMDocInput struct {
	Package   string `json:"package" jsonschema:"npm package name, e.g. express or @types/node; 'name@version' is accepted"`
	Version   string `json:"version,omitempty" jsonschema:"version: exact (4.29.1), partial (4, 4.2) or a range (^4, ~4.2, >=4 <5), the newest indexed match; default the latest indexed version"`
	Path      string `json:"path,omitempty" jsonschema:"document to read: default the README; else a path listed by describe_npm_package, e.g. docs/guide.md"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same document, to continue it"`
}

// DocOutput is the structured result of get_package_doc and get_npm_package_doc: one page of a
// document. The text of successive pages, concatenated, is the whole document.
type DocOutput struct {
	SchemaVersion int          `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	Ecosystem     string       `json:"ecosystem" jsonschema:"purl type of the package"`
	Package       string       `json:"package" jsonschema:"package name or Go module path"`
	Version       string       `json:"version" jsonschema:"version the document belongs to"`
	Path          string       `json:"path" jsonschema:"document path inside the package"`
	Title         string       `json:"title" jsonschema:"document title"`
	URI           string       `json:"uri" jsonschema:"docidx:// resource URI of the document"`
	Sections      []SectionRef `json:"sections" jsonschema:"the sections on this page, in order"`
	Text          string       `json:"text" jsonschema:"this page of the document as markdown, each section under its heading"`
	NextCursor    string       `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
}

// SectionRef names one section of a document.
type SectionRef struct {
	Heading string `json:"heading" jsonschema:"heading path joined with ' › '; empty for the text before the first heading"`
	Anchor  string `json:"anchor,omitempty" jsonschema:"GitHub-style anchor of the heading"`
}

// GetDoc answers get_package_doc: one document of a package version (its README by default),
// paged by section within in.MaxTokens. Errors are as Search's.
func (s *Service) GetDoc(ctx context.Context, in DocInput) (string, DocOutput, error) {
	return s.getDoc(IssuerGetDoc, in)
}

// GetNPMDoc answers get_npm_package_doc: GetDoc for an npm package, its cursors its own.
func (s *Service) GetNPMDoc(ctx context.Context, in NPMDocInput) (string, DocOutput, error) {
	return s.getDoc(IssuerGetNPMDoc, DocInput{
		Ecosystem: string(docidx.NPM), Package: in.Package, Version: in.Version, Path: in.Path,
		MaxTokens: in.MaxTokens, Cursor: in.Cursor,
	})
}

// getDoc is GetDoc with the cursor issuer tool.
func (s *Service) getDoc(tool string, in DocInput) (string, DocOutput, error) {
	var out DocOutput
	eco, err := parseEcosystem(in.Ecosystem, true)
	if err != nil {
		return "", out, err
	}
	name, version := SplitVersion(in.Package, in.Version)
	if name == "" {
		return "", out, missingArgument("package", "package is empty")
	}
	pkg, _, err := s.resolvePackage(eco, name, version)
	if err != nil {
		return "", out, err
	}
	ref := pkg.Ref()
	doc, err := s.findDocument(ref, in.Path)
	if err != nil {
		return "", out, err
	}
	hash := RequestHash(tool, string(eco), pkg.Name, pkg.Version, doc.Path)
	c, err := s.DecodeCursor(in.Cursor, tool, hash)
	if err != nil {
		return "", out, err
	}
	units := make([]string, len(doc.Sections))
	for i := range doc.Sections {
		units[i] = renderSection(&doc.Sections[i])
	}
	if dc := DocumentContents(doc); dc.Blob != nil {
		// Binary files are for resources/read, which can carry bytes.
		units = []string{fmt.Sprintf("(binary file: %s, %d bytes; read the resource %s for its content)\n",
			dc.MIMEType, len(dc.Blob), ref.PageURI(documentPage(doc)))}
	}
	p := pos{c.Unit, c.Byte}
	if !validPos(textUnits(units), p) {
		return "", out, s.badCursor("out of range")
	}
	text, first, end, next, more := cutPage(asText{textUnits(units)}, p, s.Budget(in.MaxTokens))
	page := docidx.PageDocPrefix + doc.Path
	if doc.Kind == docidx.DocReadme {
		page = docidx.PageReadme
	}
	title := doc.Title
	if title == "" {
		title = doc.Path
	}
	out = DocOutput{
		SchemaVersion: docidx.SchemaVersion,
		Ecosystem:     string(eco), Package: pkg.Name, Version: pkg.Version, Path: doc.Path, Title: title,
		URI: ref.PageURI(page), Sections: []SectionRef{}, Text: text,
	}
	for i := first; i < end; i++ {
		sec := &doc.Sections[i]
		out.Sections = append(out.Sections, SectionRef{Heading: headingPath(sec.Heading), Anchor: sec.Anchor})
	}
	var t strings.Builder
	part := ""
	if first > 0 || p.off > 0 {
		part = ", continued"
	}
	fmt.Fprintf(&t, "<!-- %s@%s %s%s; %s -->\n\n", pkg.Name, pkg.Version, doc.Path, part, out.URI)
	if text == "" {
		t.WriteString("(this document has no text)\n")
	}
	t.WriteString(text)
	if more {
		out.NextCursor = Cursor{Tool: tool, Hash: hash, Unit: next.unit, Byte: next.off}.Encode()
		t.WriteString(s.opts.Words.continuation(out.NextCursor))
	}
	return t.String(), out, nil
}

// findDocument returns the document of ref at path: the README when path is empty or "README",
// else the document with that path (exactly, then ignoring case, then by unique suffix). A
// missing document is a not-found error listing the paths there are.
func (s *Service) findDocument(ref docidx.Ref, path string) (*docidx.Document, error) {
	path = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(path), "./"), "/")
	readme := path == "" || strings.EqualFold(path, "readme")
	docs, err := s.documentsCached(s.reader(), ref)
	if err != nil {
		return nil, err
	}
	if !readme {
		if d := index.FindDocument(docs, path); d != nil {
			return d, nil
		}
	}
	var suffix []int
	for i := range docs {
		d := &docs[i]
		switch {
		case readme && d.Kind == docidx.DocReadme:
			return d, nil
		case readme:
		case strings.EqualFold(d.Path, path):
			return d, nil
		case strings.HasSuffix(strings.ToLower(d.Path), "/"+strings.ToLower(path)):
			suffix = append(suffix, i)
		}
	}
	if len(suffix) == 1 {
		return &docs[suffix[0]], nil
	}
	what := "has no README"
	if !readme {
		what = "has no document " + docidx.Quote(path)
	}
	msg := fmt.Sprintf("%s@%s %s", ref.Name, ref.Version, what)
	if len(docs) == 0 {
		return nil, notFoundf("%s; it has no documents at all (%s)", msg, s.opts.Words.API)
	}
	paths := make([]string, len(docs))
	for i := range docs {
		paths[i] = docs[i].Path
	}
	return nil, notFoundf("%s; available documents: %s", msg, strings.Join(paths, ", "))
}
