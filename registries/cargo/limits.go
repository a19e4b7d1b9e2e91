package cargo

import (
	"github.com/docidx/docidx/registries/cargo/internal/rustapi"
	"github.com/docidx/docidx/registries/internal/limit"
)

// Size and count limits. Download and archive limits fail the crate version with an error wrapping
// docidx.ErrTooLarge; the per-file and per-crate limits below skip what is over them and log it, so
// one huge generated file does not cost a crate its documentation.
const (
	// DefaultMaxCrate is the largest .crate download accepted, in bytes (64 MiB; crates.io accepts
	// uploads of 10 MB unless a crate was granted more).
	DefaultMaxCrate = 64 << 20
	// DefaultMaxUnpacked is the largest total size of a .crate's entries once decompressed, in
	// bytes: 512 MiB, cargo's own limit on unpacking a crate.
	DefaultMaxUnpacked = 512 << 20
	// DefaultMaxEntry is the largest single entry of a .crate, decompressed, in bytes (256 MiB).
	DefaultMaxEntry = 256 << 20
	// DefaultMaxFile is the largest source or documentation file read, in bytes (limit.File).
	DefaultMaxFile = limit.File
	// DefaultMaxFiles is the most Rust source files read from one crate version.
	DefaultMaxFiles = rustapi.DefaultMaxFiles
	// DefaultMaxSymbols is the most symbols kept for one crate version.
	DefaultMaxSymbols = rustapi.DefaultMaxSymbols
	// DefaultMaxDocuments is the most documents (README, docs/ and examples/ files) kept for one
	// crate version (limit.Documents).
	DefaultMaxDocuments = limit.Documents
	// DefaultMaxIndexFile is the largest sparse-index file read for one crate, in bytes (64 MiB;
	// crates with thousands of versions and features reach a few MiB).
	DefaultMaxIndexFile = 64 << 20

	maxManifest   = 4 << 20  // bytes of Cargo.toml (crates with thousands of features)
	maxConfigJSON = 1 << 20  // bytes of an index's config.json
	maxKept       = 64 << 20 // bytes of all files kept in memory from one .crate
	maxConfigFile = 4 << 20  // bytes of one cargo configuration or credentials file
)

// Limits bounds what reading one crate version may cost. A zero field means its default.
type Limits struct {
	MaxCrate     int64 // bytes of a .crate download; 0 means DefaultMaxCrate
	MaxUnpacked  int64 // bytes of a .crate's entries decompressed; 0 means DefaultMaxUnpacked
	MaxEntry     int64 // bytes of one .crate entry decompressed; 0 means DefaultMaxEntry
	MaxFile      int64 // bytes per source or documentation file; 0 means DefaultMaxFile
	MaxFiles     int   // Rust source files per crate version; 0 means DefaultMaxFiles
	MaxSymbols   int   // symbols per crate version; 0 means DefaultMaxSymbols
	MaxDocuments int   // documents per crate version; 0 means DefaultMaxDocuments
	MaxIndexFile int64 // bytes of one sparse-index file; 0 means DefaultMaxIndexFile
}

func (l Limits) withDefaults() Limits {
	limit.Default(&l.MaxCrate, DefaultMaxCrate)
	limit.Default(&l.MaxUnpacked, DefaultMaxUnpacked)
	limit.Default(&l.MaxEntry, DefaultMaxEntry)
	limit.Default(&l.MaxFile, DefaultMaxFile)
	limit.Default(&l.MaxFiles, DefaultMaxFiles)
	limit.Default(&l.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&l.MaxDocuments, DefaultMaxDocuments)
	limit.Default(&l.MaxIndexFile, DefaultMaxIndexFile)
	return l
}
