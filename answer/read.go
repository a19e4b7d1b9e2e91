package answer

// read.go is Read (MCP's read_package_doc): any URI that search, describe or get_package_doc
// hands out, read in full and paged within max_tokens. Most clients never let a model call
// resources/read, so this tool is how a model with only tools reads what a search hit points at.

import (
	"context"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
)

// ReadInput is the arguments of read_package_doc.
type ReadInput struct {
	URI       string `json:"uri" jsonschema:"a docidx:// URI as search_package_docs or describe_* return it: a README or docs section (…/readme#anchor, …/doc/docs/guide.md#anchor), a whole document, a symbol with its members (…/symbol/redis.Options), a package overview or its API outline (…/api), or docidx://snapshot"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"answer budget in tokens (about 4 bytes each); the rest continues with nextCursor"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"nextCursor from the previous page of the same URI, to continue it"`
	Query     string `json:"query,omitempty" jsonschema:"words to look for: only the passages of the page that hold them are returned (about 1,200 bytes, or max_tokens), not the whole page"`
}

// queryReadBytes is the budget of a read with a query when max_tokens does not set one: a hit's
// passage and a half, enough for the sentences around the answer.
const queryReadBytes = 1200

// ReadOutput is the structured result of read_package_doc: what the URI named, where this page
// of it is, and the page's text, which is also the tool result's text content. The text is here
// too because Claude Code, the Copilot CLI, Codex and opencode give the model a result's
// structured content instead of its text when it has both: without it their models read what a
// page is about and never the page.
type ReadOutput struct {
	SchemaVersion int          `json:"schemaVersion" jsonschema:"version of this document's shape (docs/json-changelog.md); raised when a field is renamed, removed or changes type"`
	URI           string       `json:"uri" jsonschema:"the URI read"`
	Kind          string       `json:"kind" jsonschema:"what it names: section, document, symbol, overview, api or snapshot"`
	Ecosystem     string       `json:"ecosystem,omitempty" jsonschema:"purl type of the package"`
	Package       string       `json:"package,omitempty" jsonschema:"package name or Go module path"`
	Version       string       `json:"version,omitempty" jsonschema:"the version read (a URI without a version, with latest or with a range is resolved to it)"`
	Title         string       `json:"title,omitempty" jsonschema:"document title, or the symbol's qualified name"`
	Sections      []SectionRef `json:"sections,omitempty" jsonschema:"the document sections that start on this page"`
	Symbols       []string     `json:"symbols,omitempty" jsonschema:"qualified names of the symbols and members that start on this page"`
	NextCursor    string       `json:"nextCursor,omitempty" jsonschema:"pass as cursor to get the next page; absent on the last page"`
	Text          string       `json:"text" jsonschema:"this page as markdown: the section, document, symbol, overview or outline within max_tokens (with a query, the passages that hold its words), as the tool result's text content gives it"`
}

// Read answers read_package_doc: the page of in.URI that in.Cursor names, within in.MaxTokens.
// A section URI (with "#anchor") reads that section and its subsections; a symbol URI the symbol
// in full and then its members one by one; overview and api the package's description and API
// outline. A URI that names nothing indexed is a not-found error that says what is there instead
// (the did-you-mean of Describe and GetDoc); a malformed URI or cursor is an *ArgumentError.
func (s *Service) Read(ctx context.Context, in ReadInput) (string, ReadOutput, error) {
	text, out, err := s.read(ctx, in)
	if err == nil {
		out.Text = text
	}
	return text, out, err
}

// read is Read but for out.Text.
func (s *Service) read(ctx context.Context, in ReadInput) (string, ReadOutput, error) {
	uri := strings.TrimSpace(in.URI)
	out := ReadOutput{SchemaVersion: docidx.SchemaVersion, URI: uri}
	if uri == "" {
		return "", out, missingArgument("uri", "uri is empty")
	}
	if uri == docidx.SnapshotURI {
		out.Kind = "snapshot"
		text, err := s.snapshotJSON()
		if err != nil {
			return "", out, err
		}
		return "```json\n" + text + "\n```\n", out, nil
	}
	base, anchor, _ := strings.Cut(uri, "#")
	ref, page, err := docidx.ParsePageURI(base)
	if err != nil {
		return "", out, badArgument("uri", "%v; %s", err, s.opts.Words.PassURI)
	}
	version := ref.Version
	if version == "latest" {
		version = ""
	}
	pkg, focus, err := s.resolvePackage(ref.Ecosystem, ref.Name, version)
	if err != nil {
		return "", out, err
	}
	ref = pkg.Ref()
	out.Ecosystem, out.Package, out.Version = string(ref.Ecosystem), ref.Name, ref.Version
	hash := RequestHash(IssuerRead, uri, ref.Version)
	c, err := s.DecodeCursor(in.Cursor, IssuerRead, hash)
	if err != nil {
		return "", out, err
	}

	var units unitList
	var onPage func(first, end int) // fills out's lists with the units [first, end)
	switch {
	case page == docidx.PageOverview, page == docidx.PageAPI:
		out.Kind, out.Title = page, ref.Name
		var d DescribeOutput
		if d, err = s.describeBase(pkg, focus); err != nil {
			return "", out, err
		}
		o, err := s.outline(pkg, focus, &d)
		if err != nil {
			return "", out, err
		}
		units = o
		if page == docidx.PageOverview {
			units = textUnits{o.At(0)}
		}
		onPage = func(first, end int) {
			for _, e := range o.entriesOf(first, end) {
				out.Symbols = append(out.Symbols, e.Name)
			}
		}
	case page == docidx.PageReadme, strings.HasPrefix(page, docidx.PageDocPrefix):
		path := strings.TrimPrefix(page, docidx.PageDocPrefix)
		if page == docidx.PageReadme {
			path = ""
		}
		doc, err := s.findDocument(ref, path)
		if err != nil {
			return "", out, err
		}
		cut, err := sectionOf(ref, doc, anchor)
		if err != nil {
			return "", out, err
		}
		out.Kind, out.Title = "document", doc.Title
		if anchor != "" {
			out.Kind = "section"
		}
		texts := make(textUnits, len(cut.Sections))
		for i := range cut.Sections {
			texts[i] = renderSection(&cut.Sections[i])
		}
		if dc := DocumentContents(doc); dc.Blob != nil {
			texts = textUnits{fmt.Sprintf("(binary file: %s, %d bytes; read the resource %s for its content)\n", dc.MIMEType, len(dc.Blob), base)}
		}
		units = texts
		onPage = func(first, end int) {
			for i := first; i < end && i < len(cut.Sections); i++ {
				sec := &cut.Sections[i]
				out.Sections = append(out.Sections, SectionRef{Heading: headingPath(sec.Heading), Anchor: sec.Anchor})
			}
		}
	default: // symbol/
		name := strings.TrimPrefix(page, docidx.PageSymbolPrefix)
		details, texts, err := s.symbolDetails(ref, focus, name)
		if err != nil {
			return "", out, err
		}
		out.Kind, out.Title = "symbol", details[0].QualifiedName
		units = textUnits(texts)
		onPage = func(first, end int) {
			for _, d := range details[first:end] {
				out.Symbols = append(out.Symbols, d.QualifiedName)
			}
		}
	}

	if q := strings.TrimSpace(in.Query); q != "" {
		if in.Cursor != "" {
			return "", out, badArgument("cursor", "a read with a query is one page: leave out %s", s.opts.Words.Cursor)
		}
		onPage(0, units.Len())
		return s.readPassages(out, q, units, in.MaxTokens)
	}
	p := pos{c.Unit, c.Byte}
	if !validPos(units, p) {
		return "", out, s.badCursor("out of range")
	}
	text, first, end, next, more := cutPage(asText{units}, p, s.Budget(in.MaxTokens))
	if p.off > 0 {
		first++ // the unit a continued page starts inside was listed with the page before
	}
	onPage(first, end)
	var t strings.Builder
	fmt.Fprintf(&t, "<!-- %s", uri)
	if p.unit > 0 || p.off > 0 {
		t.WriteString(" (continued)")
	}
	t.WriteString(" -->\n\n")
	t.WriteString(text)
	if more {
		out.NextCursor = Cursor{Tool: IssuerRead, Hash: hash, Unit: next.unit, Byte: next.off}.Encode()
		t.WriteString(s.opts.Words.continuation(out.NextCursor))
	}
	return t.String(), out, nil
}

// readPassages is Read with a query: the passage of the whole page (units joined) that answers
// q, within queryReadBytes or the budget of maxTokens when it is set, and a line saying how much
// of the page that is and how to read it all.
func (s *Service) readPassages(out ReadOutput, q string, units unitList, maxTokens int) (string, ReadOutput, error) {
	var page strings.Builder
	for i := range units.Len() {
		page.WriteString(units.At(i))
	}
	budget := queryReadBytes
	if maxTokens > 0 {
		budget = s.Budget(maxTokens)
	}
	p, err := s.reader().Passage(page.String(), q, budget)
	if err != nil {
		return "", out, internalError("read", err)
	}
	var t strings.Builder
	fmt.Fprintf(&t, "<!-- %s, the passages for %s -->\n\n", out.URI, docidx.Quote(q))
	if p == "" {
		fmt.Fprintf(&t, "The page (%d bytes) holds none of the words of %s. To read all of it: %s, without a query.\n", page.Len(), docidx.Quote(q), s.opts.Words.Read)
		return t.String(), out, nil
	}
	t.WriteString(strings.TrimRight(p, "\n"))
	fmt.Fprintf(&t, "\n\n---\n%d of the page's %d bytes. To read all of it: %s, without a query.\n", len(p), page.Len(), s.opts.Words.Read)
	return t.String(), out, nil
}
