package npm

import (
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/npm/internal/dts"
)

// Limits bounds what reading one package version may cost. A zero or negative field means its
// value in DefaultLimits. Download and archive limits fail the version with an error wrapping
// docidx.ErrTooLarge; the per-file and per-version limits skip what is over them and log it.
type Limits struct {
	MaxPackument int64 // bytes of one packument document
	// MaxPackumentValue bounds one value of a packument, in bytes: a version object, one publish
	// time, the readme, the dist-tags, any other top-level member. "versions" and "time" are
	// read member by member, so only each of their members is bounded. A larger value fails the
	// packument with docidx.ErrTooLarge after at most this many bytes were read into memory.
	MaxPackumentValue int64
	MaxTarball        int64 // bytes of one compressed tarball
	MaxUnpacked       int64 // bytes of all entries of one tarball, decompressed
	MaxEntry          int64 // bytes of one tarball entry, decompressed
	MaxFile           int64 // bytes of one README, doc or declaration file read; larger ones are skipped
	MaxDocuments      int   // docs/ and examples/ documents per package version
	MaxDocumentSize   int64 // bytes of one docs/ or examples/ file; larger ones are skipped
	MaxSymbols        int   // API symbols per package version
}

// DefaultLimits is what each zero field of a Limits stands for.
var DefaultLimits = Limits{
	MaxPackument:      128 << 20,
	MaxPackumentValue: 16 << 20,
	MaxTarball:        100 << 20,
	MaxUnpacked:       512 << 20,
	MaxEntry:          256 << 20,
	MaxFile:           2 << 20, // packages ship bundled declaration files larger than limit.File
	MaxDocuments:      limit.Documents,
	MaxDocumentSize:   limit.File,
	MaxSymbols:        dts.DefaultMaxSymbols,
}

func (l Limits) withDefaults() Limits { return limit.Fill(l, DefaultLimits) }
