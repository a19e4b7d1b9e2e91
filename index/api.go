package index

// This file holds the API that crawl (through its own Sink interface), answer, serve, web and
// cmd/docidx use: the file names, the manifest, and the writer's and reader's entry points.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docidx/docidx"
)

// FormatVersion is the snapshot format this docidx writes and the newest it reads. Open refuses a
// snapshot whose manifest states a larger one, with an error wrapping docidx.ErrFormat.
//
// Formats:
//
//	1  the first
//	2  large store.db values compressed (see store.go)
//	3  segments: each crawl adds a segment directory (seg-NNNNNN: search.bleve and rank.idx of
//	   the versions it indexed) and hard-links the segments of the generation before; the
//	   store's "where" bucket says which segment searches each version; rank.idx layout
//	   DOCIDXR6 (named sections, document frequencies, per-version term counts, CRC-32C).
//	   Formats 1 and 2 are refused by Open; a crawl into their index directory rewrites them.
//	4  each segment holds the documents and symbols of its versions (DocsFile, layout DOCIDXD1,
//	   see docstore.go); store.db holds the catalog only. Format 3 is refused by Open and
//	   rewritten by a crawl, as formats 1 and 2.
//	5  the segments a crawl writes are kept beside the generations, in the index directory, and
//	   shared by every generation that lists them (Manifest.SegmentDir ".."): a generation is
//	   its manifest and its store.db, and a crawl writes its new segments and nothing of the
//	   others. A single snapshot (an archive, also as unpacked) holds its segments itself
//	   (SegmentDir ""). Format 4 is read as such a snapshot; a crawl into its index directory
//	   moves its segments beside the generations.
//	6  a segment's words are analysed once, into its rank.idx, which also holds the spelling
//	   dictionaries (sections fuzzall and fuzzname); search.bleve holds the stored fields only.
//	   Segments of format 5 are read as they are (their spelling dictionaries from
//	   search.bleve) and rewritten when a merge or docidx compact reads them.
const FormatVersion = 6

// oldestReadFormat is the oldest snapshot format Open reads; older ones are refused with an
// error wrapping docidx.ErrFormat, and a crawl rewrites them.
const oldestReadFormat = 4

// File names inside one snapshot directory (docs/ARCHITECTURE.md §3). SearchDir and RankFile are inside
// each segment directory (see Segment).
const (
	ManifestFile = "manifest.json"
	StoreFile    = "store.db"
	SearchDir    = "search.bleve" // a segment's Bleve index: its documents and their hits' text
)

// Manifest is manifest.json: it describes one snapshot and the checksum of each file in it.
type Manifest struct {
	Format        int               `json:"format"`
	DocidxVersion string            `json:"docidxVersion"`
	Created       time.Time         `json:"created"`
	Sources       []string          `json:"sources,omitempty"` // registries and local paths crawled
	Counts        []EcosystemCounts `json:"counts"`
	Segments      []Segment         `json:"segments"`
	// SegmentDir is the directory holding the segments, relative to the snapshot's directory:
	// "" for the snapshot's own (a single snapshot, or a generation of format 4 or older),
	// ".." for the index directory holding the generation (see FormatVersion 5).
	SegmentDir string            `json:"segmentDir,omitempty"`
	Files      map[string]string `json:"files"` // slash path -> sha256 hex; a segment's files under SegmentDir, the others under the snapshot
}

// segmentPath returns the directory of segment name of the snapshot at snap.
func (m *Manifest) segmentPath(snap, name string) string {
	return filepath.Join(snap, m.SegmentDir, name)
}

// filePath returns the path of the file name (a slash path of Files) of the snapshot at snap: a
// path whose first element names a segment is in SegmentDir.
func (m *Manifest) filePath(snap, name string) string {
	if first, _, ok := strings.Cut(name, "/"); ok && validSegmentName(first) {
		return filepath.Join(snap, m.SegmentDir, filepath.FromSlash(name))
	}
	return filepath.Join(snap, filepath.FromSlash(name))
}

// Segment describes one immutable segment of a snapshot: a directory (in Manifest.SegmentDir)
// holding the Bleve index (SearchDir), the ranking index (RankFile) and the document store
// (DocsFile) of the package versions one crawl or merge indexed. Later generations list it
// rather than copy it. Versions counts the
// package versions it holds and Documents their search documents; Live counts the documents of
// those versions still searched in it (see the store's where bucket): a segment less than half
// of whose documents are live is rewritten by the next commit.
type Segment struct {
	Name      string `json:"name"` // "seg-000003"
	Versions  int    `json:"versions"`
	Documents int    `json:"documents"`
	Live      int    `json:"live"`
	// Format is the snapshot format the segment's files were written in, as its rank.idx
	// shows: FormatVersion, or 5 for one without its own spelling dictionaries (written by
	// formats 3 to 5; 0 in their manifests), which compaction rewrites.
	Format int `json:"format,omitempty"`
}

// EcosystemCounts counts what a snapshot holds of one ecosystem.
type EcosystemCounts struct {
	Ecosystem docidx.Ecosystem `json:"ecosystem"`
	Packages  int              `json:"packages"`  // distinct package names
	Versions  int              `json:"versions"`  // package versions
	Documents int              `json:"documents"` // documents over all versions
	Sections  int              `json:"sections"`  // sections over all documents
	Symbols   int              `json:"symbols"`   // symbols over all versions
}

// Query is one search request. Zero fields do not filter.
type Query struct {
	Text      string           // the user's words; required
	Ecosystem docidx.Ecosystem // filter
	Package   string           // filter: exact package name
	Version   string           // filter: exact version, or with Package a range (see ResolveVersion); when empty only each package's default version is searched (its root version, else its latest)
	Kind      string           // filter: "section", "symbol", a document kind ("readme") or a symbol kind ("func", "type", …), see Kinds; plurals too
	Limit     int              // hits per page; 0 means 10, at most 100
	Offset    int              // hits to skip (paging)
	// PassageBytes is the size in bytes of the passage (Hit.Snippet) of the first hit of the
	// results. Hits 2 and 3 get half of it; hits 1 to 3 show a stored text of up to 1.92 times it
	// whole. The hits below are pointers, one sentence of about 200 bytes, but for those whose
	// passage at half of PassageBytes holds a word of the question that no passage above
	// them holds. No passage is cut inside a sentence shorter than twice its budget. 0 means
	// DefaultPassageBytes (800); values above MaxPassageBytes are lowered to it. passage.go's
	// constants say how the shares were chosen.
	PassageBytes int
}

// Results is one page of search results.
type Results struct {
	Hits  []docidx.Hit
	Total int // hits matching in all, for paging
}

// Listing is one package in a list: its name and indexed versions.
type Listing struct {
	Ecosystem   docidx.Ecosystem `json:"ecosystem"`
	Name        string           `json:"package"`
	Latest      string           `json:"latest"`   // newest indexed version
	Versions    []string         `json:"versions"` // indexed versions, oldest first
	Description string           `json:"description,omitempty"`
}

// ErrClosed is returned by a Reader or Writer used after Close, Commit or Abort.
var ErrClosed = errors.New("index: closed")

// Writer builds a new snapshot generation. Use Create, Put each package version, then Commit
// to publish it or Abort to drop it. A Writer is safe for concurrent Put calls.
type Writer struct {
	w *writer
}

// Create starts a new snapshot generation under dir (created if missing), seeded with the
// package versions of the current snapshot there, if any. Nothing is visible to readers until
// Commit. It returns an error wrapping docidx.ErrFormat if dir holds a snapshot of a newer format,
// and a *BusyError while another docidx command writes to dir. Create writes for a crawl; other
// commands that write a generation call CreateFor.
func Create(dir string) (*Writer, error) { return create(dir, "crawl") }

// CreateFor is Create for the docidx command named command ("compact", "prune", ...): the
// writer lock records it, so that a command started meanwhile says which one it waits for.
func CreateFor(dir, command string) (*Writer, error) { return create(dir, command) }

// Has reports whether the package version ref is already in the generation being written.
func (w *Writer) Has(ref docidx.Ref) bool { return w.w.has(ref) }

// Put adds or replaces one package version.
func (w *Writer) Put(ctx context.Context, docs *docidx.PackageDocs) error { return w.w.put(ctx, docs) }

// AddSource records a source the crawl read, for the manifest: a registry URL or a label of a
// local cache ("go module cache"), never a path of the crawling machine (see crawl.CacheLabel).
func (w *Writer) AddSource(source string) { w.w.addSource(source) }

// Commit finishes the generation (index flushed, files synced, manifest with checksums written)
// and makes it current in one atomic step. The Writer cannot be used afterwards.
func (w *Writer) Commit(ctx context.Context) (*Manifest, error) { return w.w.commit(ctx) }

// Abort drops the generation being written; the current snapshot is untouched.
func (w *Writer) Abort() error { return w.w.abort() }

// Base returns the manifest of the snapshot the Writer was seeded from (the current one when
// Create was called), nil when there was none. Its Format can be older than FormatVersion: Open
// refuses such a snapshot, so a caller that would skip a Commit that adds nothing must commit
// anyway, to rewrite it in the current format. The caller must not modify it.
func (w *Writer) Base() *Manifest { return w.w.base }

// Reader reads one snapshot, read-only: bbolt opened ReadOnly with a lock timeout, Bleve opened
// read-only. Many Readers, in many processes, may share a snapshot. A Reader is safe for
// concurrent use. A damaged file that a request meets (a store truncated since Open, a search
// index Bleve or zapx panics on) makes that request fail with an error wrapping ErrCorrupt that
// names the file; the process goes on.
type Reader struct {
	r *reader
}

// Open opens the current snapshot in dir. dir may be an index directory written by Create, or a
// single snapshot directory (one holding manifest.json). It returns an error wrapping
// docidx.ErrNoSnapshot when there is none yet, and docidx.ErrFormat for a newer format. A file
// of the snapshot that is missing, truncated, damaged or not a regular file (a FIFO, a link to a
// device) returns an error wrapping ErrCorrupt, and one this user may not read an error wrapping
// fs.ErrPermission; either names the file and says what to do. Only regular files are read,
// with bounded sizes, so Open never hangs on the snapshot's files.
//
// Open reads no file whole: of each segment's ranking index it checks the shape (header,
// sections, size); its checksum and tables are loaded by the first search, or by Prepare. A
// flipped bit there is then the error of every search (and of Prepare), naming the file.
func Open(dir string) (*Reader, error) { return open(dir) }

// Prepare opens what Open leaves to the first search: each segment's Bleve index, checked as it
// opens, and its ranking index, whose checksum it checks over the whole file before reading its
// tables into memory (some 40 ms for the five segments, 76 MB of rank.idx, of the real corpus).
// It does so once, segments in parallel on the machine's processors; Search, SearchDeferred and
// Passage call it themselves. A server calls it in the background once a client's session has
// opened, so that the first search does not wait. It returns the error every search of r
// returns: one wrapping ErrCorrupt that names a damaged file (and says that docidx compact
// rebuilds a segment's search or ranking index), or ErrClosed.
func (r *Reader) Prepare() error {
	_, err := r.r.ranked()
	return err
}

// Close releases the snapshot's files.
func (r *Reader) Close() error { return r.r.close() }

// Dir returns the snapshot directory actually opened.
func (r *Reader) Dir() string { return r.r.dir }

// Size returns the bytes of the snapshot's files: its manifest and every file the manifest
// lists, its segments' included wherever they are kept (see Manifest.SegmentDir). A file that
// cannot be read counts 0 bytes.
func (r *Reader) Size() int64 {
	m := r.r.manifest
	var n int64
	for _, name := range append(sortedFiles(m), ManifestFile) {
		if fi, err := os.Stat(m.filePath(r.r.dir, name)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Manifest returns the snapshot's manifest.
func (r *Reader) Manifest() *Manifest { return r.r.manifest }

// Search runs q. It returns an error for an empty q.Text, and one wrapping ErrUnknownKind for a
// q.Kind not in Kinds.
func (r *Reader) Search(ctx context.Context, q Query) (res *Results, err error) {
	defer guard(&err, r.r.dir)()
	if err := r.r.checkMapped(); err != nil {
		return nil, err
	}
	return r.r.search(ctx, q)
}

// Package returns the metadata of a package version. An empty or "latest" ref.Version means the
// newest indexed version, and a partial version or range ("4", "^4", "~4.2", ">=4 <5") the
// newest indexed version it selects (see ResolveVersion); so for Documents, Document, Symbols
// and LookupSymbol. It returns an error wrapping docidx.ErrNotFound when absent.
func (r *Reader) Package(ref docidx.Ref) (p *docidx.Package, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.pkg(ref)
}

// Resolve returns ref with the indexed version its Version selects, as Package reads it: the
// latest for "" or "latest", the version itself when indexed, else the newest match of a range
// (see ResolveVersion). It returns an error wrapping docidx.ErrNotFound, naming the indexed
// versions, when the package is not indexed or no indexed version matches.
func (r *Reader) Resolve(ref docidx.Ref) (resolved docidx.Ref, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.resolve(ref)
}

// Versions returns the indexed versions of a package, oldest first, or an error wrapping
// docidx.ErrNotFound.
func (r *Reader) Versions(eco docidx.Ecosystem, name string) (versions []string, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.versions(eco, name)
}

// List returns up to limit packages of eco (all ecosystems when empty) whose names start with
// prefix, in (ecosystem, name) order, starting after the opaque cursor after (empty: from the
// start). next is the cursor for the following page, empty at the end. A cursor that was not
// returned by List gives an error wrapping ErrBadCursor.
func (r *Reader) List(eco docidx.Ecosystem, prefix, after string, limit int) (page []Listing, next string, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.list(eco, prefix, after, limit)
}

// ErrBadCursor is returned for a paging cursor that this snapshot did not issue.
var ErrBadCursor = errors.New("index: invalid cursor")

// Documents returns the documents of a package version (README first, then docs, then examples).
func (r *Reader) Documents(ref docidx.Ref) (docs []docidx.Document, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.documents(ref)
}

// Document returns one document of a package version by its path, or an error wrapping
// docidx.ErrNotFound.
func (r *Reader) Document(ref docidx.Ref, path string) (d *docidx.Document, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.document(ref, path)
}

// Symbols returns every symbol of a package version, in declaration order.
func (r *Reader) Symbols(ref docidx.Ref) (syms []docidx.Symbol, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.symbols(ref)
}

// LookupSymbol returns the symbols of a package version that name matches (see MatchSymbols).
// It returns an error wrapping docidx.ErrNotFound when none match.
func (r *Reader) LookupSymbol(ref docidx.Ref, name string) (syms []docidx.Symbol, err error) {
	defer guard(&err, r.r.dir)()
	return r.r.lookupSymbol(ref, name)
}

// Suggest returns up to n indexed package names of eco (all ecosystems when empty) that are
// close to name — by prefix, substring or edit distance — best first, for "did you mean".
func (r *Reader) Suggest(eco docidx.Ecosystem, name string, n int) (refs []docidx.Ref) {
	var err error // a damaged store suggests nothing; the request that reads it says why
	defer guard(&err, r.r.dir)()
	return r.r.suggest(eco, name, n)
}

// Counts returns what the snapshot holds per ecosystem, in docidx.Ecosystems order, omitting
// empty ecosystems.
func (r *Reader) Counts() []EcosystemCounts { return r.r.manifest.Counts }
