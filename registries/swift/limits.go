package swift

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits. Download and archive limits fail the package version with an error
// wrapping docidx.ErrTooLarge; the per-file and per-package limits below skip what is over them
// and log it, so one huge generated file does not cost a package its documentation.
const (
	// DefaultMaxArchive is the largest source archive accepted, in bytes, and also the largest
	// total uncompressed size of its entries: 500 MiB, the Go module zip limit (SwiftPM sets none).
	DefaultMaxArchive = 500 << 20
	// DefaultMaxEntry is the largest single archive entry accepted, uncompressed, in bytes: 45 MB,
	// pkgsite's per-file limit. A larger entry fails the archive with docidx.ErrTooLarge.
	DefaultMaxEntry = 45_000_000
	// DefaultMaxFile is the largest Swift source or documentation file read, in bytes
	// (limit.File).
	DefaultMaxFile = limit.File
	// DefaultMaxFiles is the most Swift source files scanned for API in one package version;
	// later ones are skipped.
	DefaultMaxFiles = 2000
	// DefaultMaxSymbols is the most symbols kept for one package version (limit.Symbols).
	DefaultMaxSymbols = limit.Symbols
	// DefaultMaxDocuments is the most documents (README, DocC articles, docs/ and examples/
	// files) kept for one package version (limit.Documents).
	DefaultMaxDocuments = limit.Documents

	// MaxRegistriesJSON is the largest registries.json read, in bytes; a larger one is an error.
	MaxRegistriesJSON = 1 << 20
	// MaxNetrc is the largest .netrc read, in bytes; a larger one is an error.
	MaxNetrc = 1 << 20
	// MaxWorkspaceState is the largest workspace-state.json read, in bytes; a larger one fails
	// the cache with docidx.ErrTooLarge.
	MaxWorkspaceState = 16 << 20

	maxJSON         = 8 << 20  // bytes of a releases list, release metadata or identifiers reply
	maxManifest     = 1 << 20  // bytes of a Package.swift
	maxLicense      = 64 << 10 // bytes of LICENSE text looked at
	maxReleasePages = 100      // pages of a paginated releases list followed
)

// Limits bounds what fetching and extracting one package version may cost; Checkouts, which
// reads checked-out packages, uses all but MaxArchive and MaxEntry. A zero field means its
// default.
type Limits struct {
	MaxArchive   int64 // bytes of a source archive, and of its entries uncompressed; 0 means DefaultMaxArchive
	MaxEntry     int64 // bytes of one archive entry uncompressed; 0 means DefaultMaxEntry
	MaxFile      int64 // bytes per source or documentation file; 0 means DefaultMaxFile
	MaxFiles     int   // Swift source files per package version; 0 means DefaultMaxFiles
	MaxSymbols   int   // symbols per package version; 0 means DefaultMaxSymbols
	MaxDocuments int   // documents per package version; 0 means DefaultMaxDocuments
}

func (l Limits) withDefaults() Limits {
	limit.Default(&l.MaxArchive, DefaultMaxArchive)
	limit.Default(&l.MaxEntry, DefaultMaxEntry)
	limit.Default(&l.MaxFile, DefaultMaxFile)
	limit.Default(&l.MaxFiles, DefaultMaxFiles)
	limit.Default(&l.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&l.MaxDocuments, DefaultMaxDocuments)
	return l
}
