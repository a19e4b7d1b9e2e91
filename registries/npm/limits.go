package npm

import (
	"github.com/docidx/docidx/registries/internal/limit"
	"github.com/docidx/docidx/registries/npm/internal/dts"
)

// Limits bounds what reading one package version may cost. A zero field means its Default*
// constant. Download and archive limits fail the version with an error wrapping
// docidx.ErrTooLarge; the per-file and per-version limits skip what is over them and log it.
type Limits struct {
	MaxPackument int64 // bytes of one packument document; 0 means DefaultMaxPackument
	// MaxPackumentValue bounds one value of a packument, in bytes: a version object, the readme
	// (see DefaultMaxPackumentValue).
	MaxPackumentValue int64
	MaxTarball        int64 // bytes of one compressed tarball; 0 means DefaultMaxTarball
	MaxUnpacked       int64 // bytes of one tarball's entries decompressed; 0 means DefaultMaxUnpacked
	MaxEntry          int64 // bytes of one tarball entry decompressed; 0 means DefaultMaxEntry
	MaxFile           int64 // bytes of one README or declaration file; 0 means DefaultMaxFile
	MaxDocuments      int   // docs/ and examples/ documents per version; 0 means DefaultMaxDocuments
	MaxDocumentSize   int64 // bytes of one docs/ or examples/ file; 0 means DefaultMaxDocumentSize
	MaxSymbols        int   // API symbols per version; 0 means dts.DefaultMaxSymbols
}

func (l Limits) withDefaults() Limits {
	limit.Default(&l.MaxPackument, DefaultMaxPackument)
	limit.Default(&l.MaxPackumentValue, DefaultMaxPackumentValue)
	limit.Default(&l.MaxTarball, DefaultMaxTarball)
	limit.Default(&l.MaxUnpacked, DefaultMaxUnpacked)
	limit.Default(&l.MaxEntry, DefaultMaxEntry)
	limit.Default(&l.MaxFile, DefaultMaxFile)
	limit.Default(&l.MaxDocuments, DefaultMaxDocuments)
	limit.Default(&l.MaxDocumentSize, DefaultMaxDocumentSize)
	limit.Default(&l.MaxSymbols, dts.DefaultMaxSymbols)
	return l
}
