package swift

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits that are not settable: they bound configuration files and replies.
const (
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
// reads checked-out packages, uses all but MaxArchive and MaxEntry. A zero or negative field
// means its value in DefaultLimits. Download and archive limits fail the package version with an
// error wrapping docidx.ErrTooLarge; the per-file and per-package limits skip what is over them
// and log it, so one huge generated file does not cost a package its documentation.
type Limits struct {
	MaxArchive   int64 // bytes of a source archive, and of its entries uncompressed
	MaxEntry     int64 // bytes of one archive entry uncompressed; a larger one fails the archive
	MaxFile      int64 // bytes per Swift source or documentation file
	MaxFiles     int   // Swift source files scanned for API per package version
	MaxSymbols   int   // symbols per package version
	MaxDocuments int   // documents (README, DocC articles, docs/ and examples/ files) per version
}

// DefaultLimits is what each zero field of a Limits stands for.
var DefaultLimits = Limits{
	MaxArchive:   500 << 20,  // the Go module zip limit (SwiftPM sets none)
	MaxEntry:     45_000_000, // pkgsite's per-file limit
	MaxFile:      limit.File,
	MaxFiles:     2000,
	MaxSymbols:   limit.Symbols,
	MaxDocuments: limit.Documents,
}

func (l Limits) withDefaults() Limits { return limit.Fill(l, DefaultLimits) }
