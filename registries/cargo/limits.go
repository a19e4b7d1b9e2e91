package cargo

import (
	"github.com/docidx/docidx/registries/cargo/internal/rustapi"
	"github.com/docidx/docidx/registries/internal/limit"
)

// Size and count limits that are not settable: they bound replies, configuration files and
// what one .crate keeps in memory.
const (
	maxManifest   = 4 << 20  // bytes of Cargo.toml (crates with thousands of features)
	maxConfigJSON = 1 << 20  // bytes of an index's config.json
	maxKept       = 64 << 20 // bytes of all files kept in memory from one .crate
	maxConfigFile = 4 << 20  // bytes of one cargo configuration or credentials file
)

// Limits bounds what reading one crate version may cost. A zero or negative field means its
// value in DefaultLimits. Download and archive limits fail the crate version with an error
// wrapping docidx.ErrTooLarge; the per-file and per-crate limits skip what is over them and log
// it, so one huge generated file does not cost a crate its documentation.
type Limits struct {
	MaxCrate     int64 // bytes of a .crate download
	MaxUnpacked  int64 // bytes of a .crate's entries decompressed
	MaxEntry     int64 // bytes of one .crate entry decompressed
	MaxFile      int64 // bytes per source or documentation file
	MaxFiles     int   // Rust source files per crate version
	MaxSymbols   int   // symbols per crate version
	MaxDocuments int   // documents (README, docs/ and examples/ files) per crate version
	MaxIndexFile int64 // bytes of one sparse-index file
}

// DefaultLimits is what each zero field of a Limits stands for.
var DefaultLimits = Limits{
	MaxCrate:     64 << 20,  // crates.io accepts uploads of 10 MB unless a crate was granted more
	MaxUnpacked:  512 << 20, // cargo's own limit on unpacking a crate
	MaxEntry:     256 << 20,
	MaxFile:      limit.File,
	MaxFiles:     rustapi.DefaultMaxFiles,
	MaxSymbols:   rustapi.DefaultMaxSymbols,
	MaxDocuments: limit.Documents,
	MaxIndexFile: 64 << 20, // crates with thousands of versions and features reach a few MiB
}

func (l Limits) withDefaults() Limits { return limit.Fill(l, DefaultLimits) }
