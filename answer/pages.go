package answer

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// Contents is the whole of one page of the snapshot, as a resource holds it: markdown or other
// text, or a binary file's bytes, with its MIME type.
type Contents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte // a binary file's bytes; Text is empty then
}

// MIME types of pages.
const (
	MIMEMarkdown = "text/markdown"
	MIMEJSON     = "application/json"
)

// Page returns the whole page uri names — docidx://snapshot, or a package version's overview,
// README, API outline, document or symbol, a section of a document by its #anchor — as MCP's
// resources/read gives it: not paged, but cut at maxResourceBytes (4 MiB) with a note. A URI that
// names nothing indexed is an error wrapping docidx.ErrNotFound that says why; a failure to read
// the snapshot an *InternalError.
func (s *Service) Page(uri string) (*Contents, error) {
	if uri == docidx.SnapshotURI {
		text, err := s.snapshotJSON()
		if err != nil {
			return nil, err
		}
		return &Contents{URI: uri, MIMEType: MIMEJSON, Text: text}, nil
	}
	// Search hits name sections as page URIs with the section's anchor as a fragment; reading
	// one returns that section and its subsections.
	base, anchor, _ := strings.Cut(uri, "#")
	ref, page, err := docidx.ParsePageURI(base)
	if err != nil {
		return nil, notFoundf("not a docidx resource URI (want docidx://snapshot or docidx://ECOSYSTEM/PACKAGE@VERSION/PAGE)")
	}
	r := s.reader()
	pkg, err := r.Package(ref)
	if err != nil {
		if !errors.Is(err, docidx.ErrNotFound) {
			return nil, internalError("read package", err)
		}
		version := ref.Version
		if version == "latest" {
			version = ""
		}
		return nil, s.unknownPackage(ref.Ecosystem, ref.Name, version)
	}
	ref = pkg.Ref()
	switch {
	case page == docidx.PageOverview, page == docidx.PageAPI:
		want := LoadOverview
		if page == docidx.PageAPI {
			want = LoadAll
		}
		v, err := s.VersionPages(pkg, want)
		if err != nil {
			return nil, err
		}
		text := v.Overview
		if page == docidx.PageAPI {
			text = v.API
		}
		return &Contents{URI: uri, MIMEType: MIMEMarkdown, Text: capText(text, uri)}, nil
	case page == docidx.PageReadme:
		docs, err := s.documentsCached(r, ref)
		if err != nil {
			return nil, err
		}
		if d := index.FindDocument(docs, "readme"); d != nil {
			cut, err := sectionOf(ref, d, anchor)
			if err != nil {
				return nil, err
			}
			return &Contents{URI: uri, MIMEType: MIMEMarkdown, Text: capText(RenderDocument(cut), uri)}, nil
		}
		return nil, notFoundf("%s@%s has no README", ref.Name, ref.Version)
	case strings.HasPrefix(page, docidx.PageDocPrefix):
		p := strings.TrimPrefix(page, docidx.PageDocPrefix)
		docs, err := s.documentsCached(r, ref)
		if err != nil {
			return nil, err
		}
		d := index.FindDocument(docs, p)
		if d == nil {
			return nil, notFoundf("%s@%s has no document %s", ref.Name, ref.Version, docidx.Quote(p))
		}
		cut, err := sectionOf(ref, d, anchor)
		if err != nil {
			return nil, err
		}
		c := DocumentContents(cut)
		c.URI = uri
		if c.Text != "" {
			c.Text = capText(c.Text, uri)
		}
		return c, nil
	default: // symbol/
		name := strings.TrimPrefix(page, docidx.PageSymbolPrefix)
		syms, err := s.symbolsCached(r, ref)
		if err != nil {
			return nil, err
		}
		matches := index.MatchSymbols(syms, name)
		if len(matches) == 0 {
			return nil, notFoundf("%s@%s has no symbol %s", ref.Name, ref.Version, docidx.Quote(name))
		}
		// The symbols and their members, as describe and read_package_doc give them.
		_, units, err := s.symbolDetails(ref, "", name)
		if err != nil {
			return nil, err
		}
		return &Contents{URI: uri, MIMEType: MIMEMarkdown, Text: capText(strings.Join(units, ""), uri)}, nil
	}
}

// capText cuts text longer than maxResourceBytes at a line boundary and says so.
func capText(text, uri string) string {
	if len(text) <= maxResourceBytes {
		return text
	}
	n := LineCut(text, maxResourceBytes)
	return text[:n] + fmt.Sprintf("\n---\nCut at %d of %d bytes: %s is too long to read at once; use the describe or get_package_doc tools, which page with a cursor.\n", n, len(text), uri)
}

// maxResourceBytes bounds the text of one resource read; a longer page (the API outline of a
// very large module) is cut at a unit boundary with a note saying how to read the rest.
const maxResourceBytes = 4 << 20

// VersionPages is what the pages of one package version are made of, read and rendered once:
// the overview and API texts, the documents and the symbols. Callers must not modify them.
type VersionPages struct {
	Package   *docidx.Package
	Default   bool   // Package is the version read when none is asked for (its root version, else the latest)
	Overview  string // the overview page (LoadOverview and LoadAll)
	API       string // the API outline page (LoadAll)
	Documents []docidx.Document
	Symbols   []docidx.Symbol
	Manifest  *index.Manifest // of the snapshot read
}

// VersionPages reads the pages of one package version, as much as want says (LoadOverview,
// LoadAll). Errors are as Page's.
func (s *Service) VersionPages(pkg *docidx.Package, want Load) (*VersionPages, error) {
	ref := pkg.Ref()
	r := s.reader()
	base, err := s.describeBase(pkg, "")
	if err != nil {
		return nil, err
	}
	docs, err := s.documentsCached(r, ref)
	if err != nil {
		return nil, err
	}
	syms, err := s.symbolsCached(r, ref)
	if err != nil {
		return nil, err
	}
	outline, err := s.outlineOf(pkg, "", &base, syms, docs)
	if err != nil {
		return nil, err
	}
	v := &VersionPages{Package: pkg, Default: cmp.Or(base.Default, base.Latest) == pkg.Version, Documents: docs, Symbols: syms, Manifest: r.Manifest()}

	// The overview is the describe header plus where to read the API.
	var o strings.Builder
	o.WriteString(outline.At(0))
	nsyms := 0
	for i := range syms {
		if syms[i].Kind != docidx.KindPackage {
			nsyms++
		}
	}
	if nsyms > 0 {
		fmt.Fprintf(&o, "API: %s, outlined in %s\n", plural(nsyms, "symbol"), ref.PageURI(docidx.PageAPI))
	} else {
		o.WriteString("No API symbols are indexed for this version.\n")
	}
	for i := range docs {
		what := "Document"
		if docs[i].Kind == docidx.DocReadme {
			what = "README"
		}
		fmt.Fprintf(&o, "%s %s: %s\n", what, docs[i].Path, ref.PageURI(documentPage(&docs[i])))
	}
	v.Overview = o.String()

	if want == LoadAll {
		var a strings.Builder
		fmt.Fprintf(&a, "# %s %s API\n\n", pkg.Name, pkg.Version)
		if nsyms == 0 {
			a.WriteString("No API symbols are indexed for this version.\n")
		}
		for i := 1; i < outline.Len(); i++ {
			a.WriteString(outline.At(i))
		}
		v.API = a.String()
	}
	return v, nil
}

// Load says what VersionPages reads and renders.
type Load int

// What VersionPages reads and renders.
const (
	LoadOverview Load = iota // the documents, the symbols and the overview
	LoadAll                  // and the API outline
)
