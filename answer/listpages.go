package answer

// listpages.go is ListPages (MCP's resources/list): the pages a person picks from — the
// snapshot's, then each package version's overview, README, API outline and documents — paged
// with a cursor bound to the snapshot it was read from.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// PageKind says what a listed page is.
type PageKind string

// Kinds of listed pages.
const (
	PageKindSnapshot PageKind = "snapshot" // docidx://snapshot
	PageKindOverview PageKind = "overview" // a package version's overview
	PageKindReadme   PageKind = "readme"   // its README
	PageKindAPI      PageKind = "api"      // its API outline
	PageKindGuide    PageKind = "doc"      // a docs/ file (docidx.DocGuide)
	PageKindExample  PageKind = "example"  // an examples/ file (docidx.DocExample)
)

// PageEntry is one page as ListPages lists it: what it is, its URI (which Page reads) and what
// to show of it.
type PageEntry struct {
	Kind        PageKind
	URI         string // docidx.SnapshotURI or a docidx.PageURI
	Name        string // short and unique: "zod@3.22.4", "zod@3.22.4 README", "zod@3.22.4 docs/guide.md"
	Title       string // for a person: "zod 3.22.4 README"
	Description string // one or a few sentences, at most 300 bytes
	MIMEType    string
	Size        int       // bytes of the text or blob Page returns for URI
	Default     bool      // of the version of its package read when none is asked for (true for the snapshot)
	Modified    time.Time // when the version was crawled, else published, else the snapshot made; zero when unknown
}

// PageList is one page of ListPages.
type PageList struct {
	Pages      []PageEntry
	NextCursor string // continues the listing; empty on the last page
}

// ListPages lists the pages of the snapshot that a person picks from, at most limit (at least
// 1) at a time: first docidx://snapshot, then for every package version, in (ecosystem,
// package, version) order, its overview, README, API outline (when it has symbols) and
// documents. Each URI is listed once. Symbols are not listed — a version has hundreds or
// thousands; their pages are read by URI (see docidx.PageSymbolPrefix).
//
// cursor is "" for the first page, else the NextCursor of the page before. A cursor names the
// snapshot it was read from (a digest of its manifest, the same on every replica of it): once
// that snapshot is replaced (a crawl published a new generation), the positions it holds mean
// nothing, and it is refused with an *ArgumentError saying to list again from the start, as
// MCP's pagination asks of an invalid cursor (-32602), rather than continued into the new
// snapshot, skipping or repeating pages. Other errors are as Page's.
func (s *Service) ListPages(ctx context.Context, cursor string, limit int) (PageList, error) {
	out := PageList{Pages: []PageEntry{}}
	limit = max(limit, 1)
	r := s.reader()
	snap := snapshotID(r)
	hash := RequestHash(IssuerPages)
	c, err := s.DecodeCursor(cursor, IssuerPages, hash)
	if err != nil {
		return out, err
	}
	if cursor != "" && c.Snapshot != snap {
		return out, s.badCursor("the snapshot changed since this listing began (a new one was published); omit %s to list again from the start", s.opts.Words.Cursor)
	}
	if cursor == "" {
		e, err := s.snapshotEntry(r)
		if err != nil {
			return out, err
		}
		out.Pages = append(out.Pages, e)
	}
	for {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// c.Next is the index's cursor of the package before the one listed now.
		pkgs, next, err := r.List("", "", c.Next, 1)
		if err != nil {
			if errors.Is(err, index.ErrBadCursor) {
				return out, s.badCursor("not issued by this snapshot; omit %s to start over", s.opts.Words.Cursor)
			}
			return out, internalError("list packages", err)
		}
		if len(pkgs) == 0 {
			return out, nil // no package follows
		}
		l := pkgs[0]
		if c.Ver >= len(l.Versions) { // this package is listed
			if next == "" {
				return out, nil // the last
			}
			c = Cursor{Next: next}
			continue
		}
		if len(out.Pages) == limit {
			break
		}
		pkg, err := r.Package(docidx.Ref{Ecosystem: l.Ecosystem, Name: l.Name, Version: l.Versions[c.Ver]})
		if err != nil {
			return out, internalError("read package", err)
		}
		v, err := s.VersionPages(pkg, LoadAll)
		if err != nil {
			return out, err
		}
		entries := v.Entries()
		if c.Unit > len(entries) {
			return out, s.badCursor("out of range; omit %s to start over", s.opts.Words.Cursor)
		}
		n := min(len(entries)-c.Unit, limit-len(out.Pages))
		out.Pages = append(out.Pages, entries[c.Unit:c.Unit+n]...)
		c.Unit += n
		if c.Unit == len(entries) {
			c.Ver, c.Unit = c.Ver+1, 0
		}
	}
	c.Tool, c.Hash, c.Snapshot = IssuerPages, hash, snap
	out.NextCursor = c.Encode()
	return out, nil
}

// snapshotID names the snapshot r reads, for cursors that must not outlive it: 16 hex digits
// of a digest of its manifest (its creation time and the checksums of its files). Every
// generation has its own, and readers of the same snapshot (replicas behind a load balancer)
// share one.
func snapshotID(r *index.Reader) string {
	b, err := json.Marshal(r.Manifest()) // sorted map keys: the same manifest, the same bytes
	if err != nil {
		b = []byte(r.Dir()) // not reached: a manifest is plain strings, numbers and times
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// snapshotEntry is the listing of docidx://snapshot.
func (s *Service) snapshotEntry(r *index.Reader) (PageEntry, error) {
	text, err := s.snapshotJSON()
	if err != nil {
		return PageEntry{}, err
	}
	e := PageEntry{
		Kind: PageKindSnapshot, URI: docidx.SnapshotURI, Name: "snapshot", Title: "docidx snapshot",
		Description: "What this snapshot indexes and when: format, docidx version, creation time, sources crawled, counts per ecosystem.",
		MIMEType:    MIMEJSON, Size: len(text), Default: true,
	}
	if m := r.Manifest(); m != nil {
		e.Modified = m.Created
	}
	return e, nil
}

// Entries lists the pages of v as ListPages does: its overview, README (when it has one), API
// outline (when it has symbols) and other documents, in that order, each URI once. v must be
// loaded with LoadAll.
func (v *VersionPages) Entries() []PageEntry {
	pkg := v.Package
	ref := pkg.Ref()
	at := pkg.Name + "@" + pkg.Version
	mod := pkg.CrawledAt
	if mod.IsZero() {
		mod = pkg.Published
	}
	if m := v.Manifest; mod.IsZero() && m != nil {
		mod = m.Created // captured no later than the snapshot was made
	}
	desc := strings.TrimSpace(index.CollapseSpace(pkg.Description))
	if desc == "" {
		desc = fmt.Sprintf("%s package %s version %s", pkg.Ecosystem, pkg.Name, pkg.Version)
	}
	// Sizes are of what Page returns: capText'd, with the URI in the note of a cut.
	uri := ref.PageURI(docidx.PageOverview)
	out := []PageEntry{{
		Kind: PageKindOverview, URI: uri, Name: at, Title: pkg.Name + " " + pkg.Version,
		Description: Clip(desc, 300), MIMEType: MIMEMarkdown, Size: len(capText(v.Overview, uri)),
	}}
	if d := index.FindDocument(v.Documents, docidx.PageReadme); d != nil { // the document Page reads
		uri := ref.PageURI(docidx.PageReadme)
		out = append(out, PageEntry{
			Kind: PageKindReadme, URI: uri, Name: at + " README", Title: pkg.Name + " " + pkg.Version + " README",
			Description: Clip(ReadmeSummary(d), 300), MIMEType: MIMEMarkdown, Size: len(capText(RenderDocument(d), uri)),
		})
	}
	nsyms := 0
	for i := range v.Symbols {
		if v.Symbols[i].Kind != docidx.KindPackage {
			nsyms++
		}
	}
	if nsyms > 0 {
		uri := ref.PageURI(docidx.PageAPI)
		out = append(out, PageEntry{
			Kind: PageKindAPI, URI: uri, Name: at + " API", Title: pkg.Name + " " + pkg.Version + " API",
			Description: fmt.Sprintf("API outline of %s %s: %s", pkg.Name, pkg.Version, plural(nsyms, "symbol")),
			MIMEType:    MIMEMarkdown, Size: len(capText(v.API, uri)),
		})
	}
	for i := range v.Documents {
		d := &v.Documents[i]
		if d.Kind == docidx.DocReadme {
			continue // the README's page is listed above; another README file is read by path
		}
		uri := ref.PageURI(documentPage(d))
		c := DocumentContents(d)
		title := d.Title
		if title == "" {
			title = d.Path
		}
		kind := PageKindGuide
		if d.Kind == docidx.DocExample {
			kind = PageKindExample
		}
		out = append(out, PageEntry{
			Kind: kind, URI: uri, Name: at + " " + d.Path, Title: title + " — " + pkg.Name + " " + pkg.Version,
			Description: Clip(index.CollapseSpace(d.Summary), 300), MIMEType: c.MIMEType, Size: len(capText(c.Text, uri)) + len(c.Blob),
		})
	}
	for i := range out {
		out[i].Default, out[i].Modified = v.Default, mod
	}
	return out
}
