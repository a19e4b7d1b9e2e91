package npm

import "github.com/docidx/docidx/registries/npm/internal/dts"

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
	def64 := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def64(&l.MaxPackument, DefaultMaxPackument)
	def64(&l.MaxPackumentValue, DefaultMaxPackumentValue)
	def64(&l.MaxTarball, DefaultMaxTarball)
	def64(&l.MaxUnpacked, DefaultMaxUnpacked)
	def64(&l.MaxEntry, DefaultMaxEntry)
	def64(&l.MaxFile, DefaultMaxFile)
	def(&l.MaxDocuments, DefaultMaxDocuments)
	def64(&l.MaxDocumentSize, DefaultMaxDocumentSize)
	def(&l.MaxSymbols, dts.DefaultMaxSymbols)
	return l
}
