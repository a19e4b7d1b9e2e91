// Package index owns the snapshot (docs/ARCHITECTURE.md §3): it writes generations of a bbolt store plus
// Bleve full-text indexes, publishes them atomically, reads them read-only, searches them, and
// moves them in one archive.
//
// On disk an index directory holds
//
//	CURRENT         the name of the current generation ("gen-000007\n"), replaced by rename
//	gen-000007/     one snapshot: manifest.json, which lists its segments, and store.db
//	seg-000012/     a segment (search.bleve/, rank.idx, its ranking index, and docs.dat, its
//	                documents; see rank.go, docstore.go and segment.go), shared by every
//	                generation that lists it
//	.lock           flock'ed by the one crawl (Writer) or unpack (Install) writing a generation
//
// Writers: Create seeds a new generation from the current one (read-only, so running servers are
// never blocked): a copy of its store and its list of segments. Put and Delete change it, Commit
// builds a segment of what was put and merges segments as the merge policy says, syncs what it
// wrote, writes the manifest with a sha256 per file and only then renames CURRENT: a crash or
// kill -9 at any moment leaves the previous generation current and whole. Old generations are
// removed by the next Commit, Create or Install as soon as no Reader holds them: each Reader keeps
// a shared flock on its generation's store.db, and a writer removes only generations whose store
// it can lock exclusively; then the segments no generation left lists. Writer.SetProgress has
// Commit report the search documents it has indexed of its total and the steps it goes through
// (progress.go).
//
// Every search is ranked from the segments' rank.idx, BM25F impact indexes built at commit from
// the documents' words (search.bleve holds their stored fields), read as one index (rankread.go), by one relevance model (model.go):
// field weights, priors, name bonuses; typos are corrected from the dictionaries, and a version
// filter is a filter like the others. Every hit carries the passage of its stored text where the
// question's words concentrate (passage.go), stored as units, one per line, by docs.go; hit 1's
// is the largest, and hits below the third are one-sentence pointers unless they add words of
// the question (search.go's passages).
//
// Versions: every read takes a version as people write it — exact, "latest", a partial version
// or a range ("4", "^4", "~4.2", ">=4 <5", "~=4.2") — and ResolveVersion, through Reader.Resolve,
// is the one place that picks the newest indexed match (version.go); FindPackages finds what a
// bare name ("goldmark") names.
//
// Readers: Open opens the generation CURRENT names (or a single snapshot directory), reading no
// file whole: the catalog, the document stores' tables and the shape of each rank.idx; the first
// search (or Reader.Prepare) opens the Bleve indexes and loads each rank.idx, checking its
// checksum. Watcher follows new generations for a long-running server (see Current,
// Reader.Stale), preparing each before it serves it. Archives: Pack,
// Extract, Install, UnpackCached, OpenArchive; Verify checks checksums and opens both stores.
// An archive's origin (its SSH signature, ARCHIVE.sig) is checked by the commands, with
// internal/sshsig, over the archive's bytes before they reach this package.
//
// index imports docidx, bbolt, Bleve and klauspost/compress (zstd); never net/http, registries,
// crawl, readme or serve.
package index
