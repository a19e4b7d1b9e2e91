package index

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// lockTimeout bounds how long Open waits for store.db's file lock. Readers share the lock; only a
// process that opened the file for writing (never docidx's own crawl, which writes a new
// generation) holds it exclusively.
const lockTimeout = 2 * time.Second

// readOnlyOptions are the bbolt options of every read-only open: a shared lock, waited for at
// most lockTimeout, and no file created where there is none (bbolt adds O_CREATE to every open).
// The file must be a regular file (opened without blocking, so a FIFO does not hang the open)
// holding every page its meta page claims (see checkBolt): bbolt maps it, and a read past the
// end of a truncated file would kill the process with SIGBUS.
func readOnlyOptions() *bolt.Options {
	return &bolt.Options{ReadOnly: true, Timeout: lockTimeout, OpenFile: func(path string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(path, flag&^os.O_CREATE|openNonblock, mode)
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err == nil && !fi.Mode().IsRegular() {
			err = damaged(path, "not a regular file (%v)", fi.Mode().Type())
		}
		if err == nil {
			if cerr := checkBolt(f, fi.Size()); cerr != nil {
				err = damaged(path, "%v", cerr)
			}
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}}
}

// openStore opens the bbolt file path read-only (see readOnlyOptions), with an error that names
// the file and says what to do.
func openStore(path string) (db *bolt.DB, err error) {
	defer guard(&err, path)()
	db, err = bolt.Open(path, 0o444, readOnlyOptions())
	switch {
	case err == nil, errors.Is(err, ErrCorrupt):
		return db, err
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("index: opening %s: %w: a process holds it open for writing", path, err)
	}
	return nil, fileError(path, err)
}

// openBleve opens the Bleve index at path read-only. Bleve and zapx panic on some damaged
// files and hang on special ones: the tree is checked first and a panic becomes an error.
func openBleve(path string) (idx bleve.Index, err error) {
	if err := checkBleve(path); err != nil {
		return nil, err
	}
	defer guard(&err, path)()
	idx, err = bleve.OpenUsing(path, map[string]any{"read_only": true})
	if err != nil {
		// Bleve returns a half-made index with its error: closing it would dereference nil.
		idx = nil
		if perr := unreadable(path); perr != nil {
			return nil, perr
		}
		if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
			return nil, damaged(path, "the search index is missing")
		}
		return nil, damaged(path, "%v", err)
	}
	return idx, nil
}

// unreadable returns the error of the first file or directory under dir that this user cannot
// open, or nil: Bleve's own errors do not say that a permission is the cause.
func unreadable(dir string) error {
	var found error
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_RDONLY|openNonblock, 0); err == nil {
				f.Close()
			}
		}
		if errors.Is(err, fs.ErrPermission) {
			found = fileError(p, err)
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// closeBleve closes idx, which may be nil; a panic in Bleve's Close becomes an error.
func closeBleve(idx bleve.Index, path string) (err error) {
	if idx == nil {
		return nil
	}
	defer guard(&err, path)()
	return idx.Close()
}

type reader struct {
	root     string // the directory given to Open: an index directory, or a snapshot directory
	dir      string // the snapshot directory opened
	gen      string // its generation name ("gen-000007"), or "" for a single snapshot directory
	manifest *Manifest
	db       *bolt.DB
	segs     []*readerSegment
	mapping  mapping.IndexMapping // the segments' Bleve mapping, for analyzing questions; set with rank
	// where names the segment that searches each package version, by version key: its
	// document store holds the version's documents and symbols.
	where map[string]*readerSegment

	// rankSegs are the segments' ranking indexes, in the order of segs, opened with their shape
	// checked. What searches read — the segments' Bleve indexes, rank.idx loaded, read as one
	// (rank) — is opened on first use (see ranked), or rankErr says why not.
	rankSegs []*rankSegment
	rankOnce sync.Once
	rank     *rankIndex
	rankErr  error
	// rankings are the rankings of the latest searches, for the pages that follow them.
	rankings rankings

	// store is store.db opened once more, to learn its size before each read (see view), and
	// mapped the files of the search indexes that Bleve maps (see checkMapped), set with rank.
	// broken holds the error of a fault met reading the store, after which it is not read again.
	store  mappedFile
	mapped []mappedFile
	broken atomic.Value

	closeMu sync.Mutex
	closed  bool

	namesOnce sync.Once
	names     []docidx.Ref // every package name, for Suggest; loaded on first use
}

// readerSegment is one segment of an opened snapshot: its Bleve index, which holds the text of
// its hits, and its document store.
type readerSegment struct {
	name string      // "seg-000003"
	dir  string      // its directory
	idx  bleve.Index // opened by the first search (see reader.ranked), nil until then
	docs *docStore   // its documents and symbols
}

// openAttempts bounds how often open starts over when a crawl switched generations (and
// removed the one just read from CURRENT) while it was opening.
const openAttempts = 5

func open(dir string) (*Reader, error) {
	for attempt := 1; ; attempt++ {
		snap, err := currentGen(dir)
		if err != nil {
			return nil, err
		}
		r, err := openSnapshot(snap)
		if err == nil {
			r.root = dir
			if snap != dir {
				r.gen = filepath.Base(snap)
			}
			return &Reader{r: r}, nil
		}
		// A crawl may have published a new generation and removed this one between our
		// reading CURRENT and locking the store: start over from the new CURRENT.
		if now, cerr := currentGen(dir); attempt < openAttempts && cerr == nil && now != snap {
			continue
		}
		if _, serr := os.Stat(snap); errors.Is(serr, fs.ErrNotExist) {
			return nil, damaged(filepath.Join(dir, currentFile), "it names %s, which does not exist", filepath.Base(snap))
		}
		return nil, err
	}
}

// openSnapshot opens one snapshot directory. The store is opened (and its shared lock taken)
// first, so that no crawl removes the snapshot while the rest is opened.
func openSnapshot(snap string) (*reader, error) {
	storePath := filepath.Join(snap, StoreFile)
	if _, err := os.Stat(snap); errors.Is(err, fs.ErrNotExist) {
		return nil, damaged(snap, "the snapshot directory is missing")
	}
	db, err := openStore(storePath)
	if err != nil {
		return nil, err
	}
	store, err := openMapped(storePath)
	if err != nil {
		db.Close()
		return nil, err
	}
	m, err := readManifest(snap)
	if err != nil {
		store.f.Close()
		db.Close()
		return nil, err
	}
	r := &reader{dir: snap, manifest: m, db: db, store: store}
	fail := func(err error) (*reader, error) {
		for _, seg := range r.segs {
			closeBleve(seg.idx, filepath.Join(seg.dir, SearchDir))
			if seg.docs != nil {
				seg.docs.close()
			}
		}
		for _, rs := range r.rankSegs {
			rs.close()
		}
		r.closeMapped()
		db.Close()
		return nil, err
	}
	if m.Format < oldestReadFormat {
		return fail(fmt.Errorf("%w: %s holds a snapshot of format %d, written by docidx %s; this docidx reads formats %d to %d: run 'docidx crawl' into its index directory (with any input: the crawl indexes every version its store holds anew) or unpack an archive packed by this docidx",
			docidx.ErrFormat, snap, m.Format, m.DocidxVersion, oldestReadFormat, FormatVersion))
	}
	for _, si := range m.Segments {
		if !validSegmentName(si.Name) {
			return fail(damaged(filepath.Join(snap, ManifestFile), "it lists a segment named %q", si.Name))
		}
		dir := m.segmentPath(snap, si.Name)
		rseg := &readerSegment{name: si.Name, dir: dir}
		r.segs = append(r.segs, rseg)
		// Of its search and ranking indexes, which only searches read, the shape of rank.idx
		// only: the first search opens and checks the rest (see ranked).
		rs, err := openRank(filepath.Join(dir, RankFile), true)
		if err != nil {
			return fail(rebuildable(err))
		}
		r.rankSegs = append(r.rankSegs, rs)
		if rseg.docs, err = openDocStore(filepath.Join(dir, DocsFile)); err != nil {
			return fail(err)
		}
		// The table of docs.dat is checked against its checksum, rank.idx's header is not yet.
		if d := rseg.docs.documents(); d != rs.docs {
			return fail(rebuildable(damaged(rs.f.Name(), "it ranks %d documents, %s holds versions of %d", rs.docs, DocsFile, d)))
		}
	}
	where, err := r.liveness()
	if err != nil {
		return fail(err)
	}
	bySeg := make(map[string]*readerSegment, len(r.segs))
	for _, seg := range r.segs {
		bySeg[seg.name] = seg
	}
	r.where = make(map[string]*readerSegment, len(where))
	for k, name := range where {
		r.where[k] = bySeg[name] // liveness checked that every version's segment is listed
	}
	return r, nil
}

// ranked returns the segments' ranking indexes loaded and read as one, opening on the first
// call what searches read: each segment's Bleve index (checked first, see openBleve) and its
// rank.idx, whose checksum is checked over the whole file before its tables are read (see
// rankSegment.load), segments in parallel; then the ranking indexes are numbered over the
// snapshot (newRankIndex). Open leaves this to the first search, or to Reader.Prepare, so that
// opening a snapshot reads no file whole and starts no Bleve index. Damage found is an error
// wrapping ErrCorrupt naming the file, returned to every search: what it ranks or shows would be
// wrong or missing.
func (r *reader) ranked() (*rankIndex, error) {
	r.rankOnce.Do(func() {
		defer guard(&r.rankErr, r.dir)()
		r.rank, r.rankErr = r.openSearch()
	})
	return r.rank, r.rankErr
}

// openSearch is ranked's work, done once.
func (r *reader) openSearch() (*rankIndex, error) {
	mapped := make([][]mappedFile, len(r.segs))
	errs := make([]error, len(r.segs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0)) // each load checksums its whole file
	for i, seg := range r.segs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			mapped[i], errs[i] = seg.openSearch(r.rankSegs[i])
		})
	}
	wg.Wait()
	for _, m := range mapped {
		r.mapped = append(r.mapped, m...) // closed with r
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var err error
	if len(r.segs) > 0 {
		r.mapping = r.segs[0].idx.Mapping()
	} else if r.mapping, err = newMapping(); err != nil {
		return nil, err
	}
	defaults, err := r.defaultVersions()
	if err != nil {
		return nil, err
	}
	ri, err := newRankIndex(r.rankSegs,
		func(i int, eco docidx.Ecosystem, name, version string) bool {
			return r.where[string(versionKey(docidx.Ref{Ecosystem: eco, Name: name, Version: version}))] == r.segs[i]
		},
		func(eco docidx.Ecosystem, name, version string) bool {
			return defaults[string(nameKey(eco, name))] == version
		})
	if err != nil {
		return nil, damaged(r.dir, "%v", err)
	}
	return ri, nil
}

// openSearch opens the segment's Bleve index and loads rs, its ranking index, checking that the
// two hold the same documents. It returns the files that Bleve and rs map (see checkMapped),
// opened so far.
func (seg *readerSegment) openSearch(rs *rankSegment) (mapped []mappedFile, err error) {
	path := filepath.Join(seg.dir, SearchDir)
	if seg.idx, err = openBleve(path); err != nil {
		return nil, rebuildable(err)
	}
	paths, err := filepath.Glob(filepath.Join(path, "store", "*"))
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if filepath.Ext(p) != ".zap" && filepath.Base(p) != "root.bolt" {
			continue
		}
		mf, err := openMapped(p)
		if err != nil {
			return mapped, err
		}
		mapped = append(mapped, mf)
	}
	// rank.idx reads its hits' text from search.bleve by document number: the two must hold the
	// same documents.
	n, err := docCount(seg.idx, path)
	if err != nil {
		return mapped, err
	}
	if n != uint64(rs.docs) {
		return mapped, rebuildable(damaged(rs.f.Name(), "it ranks %d documents, %s holds %d", rs.docs, SearchDir, n))
	}
	if err := rs.load(); err != nil {
		return mapped, rebuildable(rankError(rs.f.Name(), err))
	}
	mf, err := openMapped(rs.f.Name())
	if err != nil {
		return mapped, err
	}
	return append(mapped, mf), nil
}

// rebuildable adds to err, damage found in a segment's search index or ranking index, that
// docidx compact mends it: a crawl checks only the shape of the segments it keeps (see
// keepSegment), so crawling again would keep the damage, while compact checks every segment and
// rewrites a damaged one from its documents (see Writer.Compact).
func rebuildable(err error) error {
	if !errors.Is(err, ErrCorrupt) {
		return err
	}
	return fmt.Errorf("%w\nthe segment's documents can rebuild it: run 'docidx compact' on its index directory", err)
}

// segmentOf returns the name of the segment that searches package version ref.
func (r *reader) segmentOf(ref docidx.Ref) (string, error) {
	seg := r.where[string(versionKey(ref))]
	if seg == nil {
		return "", fmt.Errorf("%w: %s is not indexed", docidx.ErrNotFound, ref)
	}
	return seg.name, nil
}

// liveness reads from the store which segment each package version's documents are searched
// in (by version key).
func (r *reader) liveness() (where map[string]string, err error) {
	where = map[string]string{}
	err = r.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketWhere)
		if b == nil {
			return damaged(filepath.Join(r.dir, StoreFile), "it has no bucket %q", bucketWhere)
		}
		if err := b.ForEach(func(k, v []byte) error {
			where[string(k)] = string(v)
			return nil
		}); err != nil {
			return err
		}
		// Every version is searched in a segment of the snapshot: one that is not would be
		// silently missing from every search.
		segs := map[string]bool{}
		for _, seg := range r.segs {
			segs[seg.name] = true
		}
		return tx.Bucket(bucketPackages).ForEach(func(k, _ []byte) error {
			if seg, ok := where[string(k)]; !ok || !segs[seg] {
				ref, _ := parseVersionKey(k)
				return damaged(filepath.Join(r.dir, StoreFile), "%s is searched in segment %q, which the manifest does not list", ref, seg)
			}
			return nil
		})
	})
	return where, err
}

// defaultVersions reads from the store the version of each package a search without a version
// reads (nameEntry.defaultVersion: its root version, else its latest), by name key.
func (r *reader) defaultVersions() (versions map[string]string, err error) {
	versions = map[string]string{}
	err = r.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketNames).ForEach(func(k, v []byte) error {
			var e nameEntry
			if err := decodeJSON(k, v, &e); err != nil {
				return err
			}
			versions[string(k)] = e.defaultVersion()
			return nil
		})
	})
	return versions, err
}

func (r *reader) close() error {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	if r.closed {
		return ErrClosed
	}
	r.closed = true
	// An opening of what searches read (ranked) under way ends first; none starts after.
	r.rankOnce.Do(func() { r.rankErr = ErrClosed })
	var err error
	for _, seg := range r.segs {
		if cerr := closeBleve(seg.idx, filepath.Join(seg.dir, SearchDir)); err == nil {
			err = cerr
		}
		if cerr := seg.docs.close(); err == nil {
			err = cerr
		}
	}
	for _, rs := range r.rankSegs {
		if rerr := rs.close(); err == nil {
			err = rerr
		}
	}
	r.closeMapped()
	// After a fault bbolt may hold its locks: its Close would wait for ever. The mapping and
	// the file stay until the process ends.
	if r.broken.Load() == nil {
		if derr := r.db.Close(); err == nil {
			err = derr
		}
	}
	return err
}

// entry returns the names entry of a package.
func (r *reader) entry(eco docidx.Ecosystem, name string) (*nameEntry, error) {
	var e nameEntry
	var found bool
	err := r.view(func(tx *bolt.Tx) error {
		var err error
		found, err = getJSON(tx.Bucket(bucketNames), nameKey(eco, name), &e)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: %s:%s is not indexed", docidx.ErrNotFound, eco, name)
	}
	return &e, nil
}

// resolve fills in the version ref.Version selects among the indexed versions of its package:
// the default one (nameEntry.defaultVersion: the root version, else the latest) for "" or
// "latest", the newest match of a range or partial version (see
// ResolveVersion). A version that is neither indexed nor a range is not found.
func (r *reader) resolve(ref docidx.Ref) (docidx.Ref, error) {
	e, err := r.entry(ref.Ecosystem, ref.Name)
	if err != nil {
		return ref, err
	}
	if ref.Version == "" || ref.Version == "latest" {
		ref.Version = e.defaultVersion()
		return ref, nil
	}
	if slices.Contains(e.Versions, ref.Version) {
		return ref, nil
	}
	v, err := ResolveVersion(ref.Ecosystem, e.Versions, ref.Version)
	if errors.Is(err, docidx.ErrBadSpec) {
		return ref, fmt.Errorf("%w: %s is not indexed; indexed: %s", docidx.ErrNotFound, ref, strings.Join(e.Versions, ", "))
	}
	if err != nil {
		return ref, fmt.Errorf("%s:%s: %w", ref.Ecosystem, ref.Name, err)
	}
	ref.Version = v
	return ref, nil
}

// exactVersion reports whether v names one version as it is written rather than asking
// resolve for one ("" and "latest" ask for the latest).
func exactVersion(v string) bool { return v != "" && v != "latest" }

// get decodes the value in bucket of package version ref, resolved.
// An indexed exact version is read at once; only a miss, "latest" or a range is resolved first.
func (r *reader) get(bucket []byte, ref docidx.Ref, v any) (docidx.Ref, error) {
	read := func(ref docidx.Ref) (found bool, err error) {
		err = r.view(func(tx *bolt.Tx) error {
			found, err = getJSON(tx.Bucket(bucket), versionKey(ref), v)
			return err
		})
		return found, err
	}
	if exactVersion(ref.Version) {
		if found, err := read(ref); err != nil || found {
			return ref, err
		}
	}
	ref, err := r.resolve(ref)
	if err != nil {
		return ref, err
	}
	found, err := read(ref)
	if err != nil {
		return ref, err
	}
	if !found {
		return ref, fmt.Errorf("%w: %s is not indexed", docidx.ErrNotFound, ref)
	}
	return ref, nil
}

func (r *reader) pkg(ref docidx.Ref) (*docidx.Package, error) {
	var p docidx.Package
	if _, err := r.get(bucketPackages, ref, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (r *reader) versions(eco docidx.Ecosystem, name string) ([]string, error) {
	e, err := r.entry(eco, name)
	if err != nil {
		return nil, err
	}
	return e.Versions, nil
}

func (r *reader) documents(ref docidx.Ref) ([]docidx.Document, error) {
	var docs []docidx.Document
	if err := r.value(ref, docsValue, &docs); err != nil {
		return nil, err
	}
	return docs, nil
}

// value decodes value which (docsValue or symsValue) of package version ref, resolved, from the
// document store of the segment that searches it.
// An indexed exact version is found in the where map at once; only a miss, "latest" or a range
// is resolved first.
func (r *reader) value(ref docidx.Ref, which int, v any) error {
	key := versionKey(ref)
	seg := r.where[string(key)]
	if seg == nil || !exactVersion(ref.Version) {
		var err error
		if ref, err = r.resolve(ref); err != nil {
			return err
		}
		key = versionKey(ref)
		seg = r.where[string(key)]
	}
	if seg == nil {
		return fmt.Errorf("%w: %s is not indexed", docidx.ErrNotFound, ref)
	}
	found, err := seg.docs.get(string(key), which, v)
	if err == nil && !found {
		err = damaged(seg.docs.path, "it does not hold %s, which the store says it searches", ref)
	}
	return err
}

func (r *reader) document(ref docidx.Ref, path string) (*docidx.Document, error) {
	docs, err := r.documents(ref)
	if err != nil {
		return nil, err
	}
	if d := FindDocument(docs, path); d != nil {
		return d, nil
	}
	return nil, fmt.Errorf("%w: %s has no document %q", docidx.ErrNotFound, ref, path)
}

// FindDocument returns the document of docs at path, as Document finds it: by its exact path, or
// the README for "" or "readme" (any case). It returns nil when there is none.
func FindDocument(docs []docidx.Document, path string) *docidx.Document {
	for i := range docs {
		if docs[i].Path == path {
			return &docs[i]
		}
	}
	if strings.EqualFold(path, "readme") || path == "" {
		for i := range docs {
			if docs[i].Kind == docidx.DocReadme {
				return &docs[i]
			}
		}
	}
	return nil
}

func (r *reader) symbols(ref docidx.Ref) ([]docidx.Symbol, error) {
	var syms []docidx.Symbol
	if err := r.value(ref, symsValue, &syms); err != nil {
		return nil, err
	}
	return syms, nil
}

func (r *reader) lookupSymbol(ref docidx.Ref, name string) ([]docidx.Symbol, error) {
	syms, err := r.symbols(ref)
	if err != nil {
		return nil, err
	}
	if out := MatchSymbols(syms, name); len(out) > 0 {
		return out, nil
	}
	return nil, fmt.Errorf("%w: %s has no symbol %q", docidx.ErrNotFound, ref, name)
}

// MatchSymbols returns the symbols of syms that name matches, as LookupSymbol matches them: exactly
// by QualifiedName, else by Key ("Group.Go"), else by Name ("Go"), else by the path it is
// imported by (see reexported), case-sensitively first and then case-insensitively; a name
// ending in "!" matches the macros its name without the "!" matches so. It returns nil when
// none match.
func MatchSymbols(syms []docidx.Symbol, name string) []docidx.Symbol {
	keys := []func(*docidx.Symbol) string{
		func(s *docidx.Symbol) string { return s.QualifiedName },
		(*docidx.Symbol).Key,
		func(s *docidx.Symbol) string { return s.Name },
	}
	for _, fold := range []bool{false, true} {
		for _, key := range keys {
			var out []docidx.Symbol
			for i := range syms {
				k := key(&syms[i])
				if k == name || fold && strings.EqualFold(k, name) {
					out = append(out, syms[i])
				}
			}
			if len(out) > 0 {
				return out
			}
		}
		if !fold {
			if out := reexported(syms, name); len(out) > 0 {
				return out
			}
		}
	}
	// A Rust macro is called with its "!" ("pin!", "tokio::pin!"), which its name and key
	// leave out.
	if base, ok := strings.CutSuffix(name, "!"); ok && base != "" && !strings.HasSuffix(base, "!") {
		var out []docidx.Symbol
		for _, s := range MatchSymbols(syms, base) {
			if s.Kind == docidx.KindMacro {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// reexported returns the symbols of syms that name calls by a package that re-exports them: a
// module path, then the symbol's Key, where the symbol is declared in that module or one below
// it. Python packages export their classes from their top module ("jinja2.Environment" is
// jinja2.environment.Environment, "jinja2.Environment.autoescape" its attribute), as JavaScript
// packages do from their entry point, and users call them so; the shortest such module wins.
// It is tried before any case-insensitive match, which would take "jinja2.Environment" for the
// module jinja2.environment.
func reexported(syms []docidx.Symbol, name string) []docidx.Symbol {
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		mod, key := name[:i], name[i+1:]
		var out []docidx.Symbol
		for j := range syms {
			s := &syms[j]
			if s.Key() == key && (strings.HasPrefix(s.Package, mod+".") || strings.HasPrefix(s.Package, mod+"/")) {
				out = append(out, *s)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// cursorSecret keeps List cursors opaque and lets List reject cursors it did not issue. It is
// the same for every generation, so a client's cursor survives a snapshot switch.
const cursorSecret = "docidx list cursor v1"

func encodeCursor(key []byte) string {
	sum := sha256.Sum256(append([]byte(cursorSecret), key...))
	return base64.RawURLEncoding.EncodeToString(key) + "." + hex.EncodeToString(sum[:6])
}

func decodeCursor(c string) ([]byte, error) {
	b64, _, ok := strings.Cut(c, ".")
	if !ok {
		return nil, ErrBadCursor
	}
	key, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil || encodeCursor(key) != c {
		return nil, ErrBadCursor
	}
	return key, nil
}

func (r *reader) list(eco docidx.Ecosystem, prefix, after string, limit int) ([]Listing, string, error) {
	if limit <= 0 {
		limit = 50
	}
	var start []byte
	if after != "" {
		k, err := decodeCursor(after)
		if err != nil {
			return nil, "", err
		}
		start = k
	}
	var seek []byte
	if eco != "" {
		seek = nameKey(eco, prefix)
	}
	if bytes.Compare(start, seek) > 0 {
		seek = start
	}
	var page []Listing
	var next string
	err := r.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketNames).Cursor()
		for k, v := c.Seek(seek); k != nil; k, v = c.Next() {
			if start != nil && bytes.Equal(k, start) {
				continue
			}
			e, name := parseNameKey(k)
			if eco != "" && e != eco {
				break
			}
			if !strings.HasPrefix(name, prefix) {
				if eco != "" {
					break // keys of one ecosystem are sorted by name: no more matches
				}
				continue
			}
			if len(page) == limit {
				next = encodeCursor(page[len(page)-1].key())
				break
			}
			var ent nameEntry
			if err := decodeJSON(k, v, &ent); err != nil {
				return err
			}
			page = append(page, Listing{Ecosystem: e, Name: name, Latest: ent.Latest, Versions: ent.Versions, Description: ent.Description})
		}
		return nil
	})
	return page, next, err
}

func (l Listing) key() []byte { return nameKey(l.Ecosystem, l.Name) }

func (r *reader) loadNames() {
	r.namesOnce.Do(func() {
		r.view(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketNames).ForEach(func(k, _ []byte) error {
				eco, name := parseNameKey(k)
				r.names = append(r.names, docidx.Ref{Ecosystem: eco, Name: name})
				return nil
			})
		})
	})
}

// view runs fn in a read transaction of store.db. bbolt reads the file from memory mapped at
// open: a page past the end of a file truncated since would fault, so the file's size is checked
// first; a fault or panic that happens all the same becomes an error naming the file, and since
// bbolt may then hold its locks for ever, every later request gets that error too.
func (r *reader) view(fn func(*bolt.Tx) error) error {
	path := filepath.Join(r.dir, StoreFile)
	if err, _ := r.broken.Load().(error); err != nil {
		return err
	}
	if err := r.store.check(); err != nil {
		return err
	}
	err := viewGuarded(r.db, path, fn)
	if fe := (*faultError)(nil); errors.As(err, &fe) {
		r.broken.Store(err)
	}
	return err
}

// mappedFile is a file of the snapshot that bbolt, zapx or rankSegment maps into memory, opened
// once more to learn whether it shrank since: reading mapped memory past the end of a file is a
// fault (SIGBUS), which in a goroutine of Bleve's no recover catches.
type mappedFile struct {
	path string
	f    *os.File
	size int64 // when opened
}

func openMapped(path string) (mappedFile, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return mappedFile{}, err
		}
		return mappedFile{}, fileError(path, err)
	}
	return mappedFile{path: path, f: f, size: fi.Size()}, nil
}

// check returns an error naming the file when it is shorter than when it was opened.
func (m mappedFile) check() error {
	fi, err := m.f.Stat()
	if err != nil {
		return fileError(m.path, err)
	}
	if fi.Size() < m.size {
		return damaged(m.path, "the file shrank from %d to %d bytes while it was open", m.size, fi.Size())
	}
	return nil
}

// checkMapped opens what searches read (see ranked) and checks, before a search, that no file
// mapped shrank since. A file truncated during the search can still fault; this catches the
// usual case, a file damaged between requests, for the cost of a few fstat calls.
func (r *reader) checkMapped() error {
	if _, err := r.ranked(); err != nil {
		return err
	}
	for _, m := range r.mapped {
		if err := m.check(); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) closeMapped() {
	if r.store.f != nil {
		r.store.f.Close()
	}
	for _, m := range r.mapped {
		m.f.Close()
	}
}
