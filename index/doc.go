// Package index owns the snapshot (DESIGN.md §3): it writes generations of a bbolt store plus
// Bleve full-text indexes, publishes them atomically, reads them read-only, searches them, and
// moves them in one archive.
//
// On disk an index directory holds
//
//	CURRENT         the name of the current generation ("gen-000007\n"), replaced by rename
//	gen-000007/     one complete snapshot: manifest.json, store.db, search.bleve/, search-old.bleve/,
//	                rank.idx (the ranking index of search.bleve, see rank.go)
//	.lock           flock'ed by the one crawl (Writer) or unpack (Install) writing a generation
//
// Writers: Create seeds a new generation from the current one (read-only, so running servers are
// never blocked), Put and Delete change it, Commit builds the search indexes, syncs every file,
// writes the manifest with a sha256 per file and only then renames CURRENT: a crash or kill -9 at
// any moment leaves the previous generation current and whole. Old generations are removed by the
// next Commit, Create or Install as soon as no Reader holds them: each Reader keeps a shared flock
// on its generation's store.db, and a writer removes only generations whose store it can lock
// exclusively.
//
// Searches of the latest versions are ranked from rank.idx, a BM25F impact index derived from
// search.bleve at commit, typos corrected from its dictionary and a filter by a package's latest
// version included; searches by an older version and snapshots written before rank.idx existed go
// to Bleve. Both read one relevance model (model.go): field weights, priors, name bonuses. Every
// hit carries the passage of its stored text where the question's words concentrate
// (passage.go), stored as units, one per line, by docs.go.
//
// Readers: Open opens the generation CURRENT names (or a single snapshot directory); Watcher
// follows new generations for a long-running server (see Current, Reader.Stale). Archives: Pack,
// Extract, Install, UnpackCached, OpenArchive; Verify checks checksums and opens both stores.
//
// index imports docidx, bbolt, Bleve and klauspost/compress (zstd); never net/http, registries,
// crawl, readme or serve.
package index
