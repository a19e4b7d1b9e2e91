package gomod

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits. Download and archive limits fail the module version with an error wrapping
// docidx.ErrTooLarge; the per-file and per-module limits below skip what is over them and log it, so
// one huge generated file does not cost a module its documentation.
const (
	// DefaultMaxZip is the largest module zip accepted, in bytes, and also the largest total
	// uncompressed size of its files: 500 MiB, cmd/go's limit (golang.org/x/mod/zip.MaxZipFile).
	DefaultMaxZip = 500 << 20
	// MaxGoMod is the largest go.mod file read, in bytes (golang.org/x/mod/zip.MaxGoMod, 16 MiB).
	MaxGoMod = 16 << 20
	// DefaultMaxFile is the largest source or documentation file read, in bytes (limit.File).
	DefaultMaxFile = limit.File
	// DefaultMaxPackageFiles is the most .go files one package directory may hold; larger
	// packages are skipped.
	DefaultMaxPackageFiles = 1000
	// DefaultMaxPackages is the most package directories read from one module version
	// (pkgsite's limit); later ones are skipped.
	DefaultMaxPackages = 10000
	// DefaultMaxSymbols is the most symbols kept for one module version (limit.Symbols).
	DefaultMaxSymbols = limit.Symbols
	// DefaultMaxDocuments is the most documents (README, docs/, examples/ files) kept for one
	// module version (limit.Documents).
	DefaultMaxDocuments = limit.Documents

	maxInfo           = 1 << 20  // bytes of a .info or @latest reply
	maxList           = 8 << 20  // bytes of an @v/list reply
	maxLicense        = 64 << 10 // bytes of LICENSE text looked at
	maxExampleCode    = 64 << 10 // bytes of one example's code kept
	maxValueSignature = 4 << 10  // bytes of a const or var signature before its value is elided
	maxTypeSignature  = 4 << 10  // bytes of a type's signature before its member list is cut
	maxFieldTag       = 160      // bytes of a struct tag kept in a field's signature
	maxMemberDepth    = 3        // levels of anonymous struct types whose fields become members
)

// Limits bounds what fetching and extracting one module version may cost; a ModCache, which
// reads extracted modules, uses all but MaxZip. A zero field means its default.
type Limits struct {
	MaxZip          int64 // bytes of a module zip, and of its files uncompressed; 0 means DefaultMaxZip
	MaxFile         int64 // bytes per source or documentation file; 0 means DefaultMaxFile
	MaxPackageFiles int   // .go files per package directory; 0 means DefaultMaxPackageFiles
	MaxPackages     int   // package directories per module; 0 means DefaultMaxPackages
	MaxSymbols      int   // symbols per module version; 0 means DefaultMaxSymbols
	MaxDocuments    int   // documents per module version; 0 means DefaultMaxDocuments
}

func (l Limits) withDefaults() Limits {
	limit.Default(&l.MaxZip, DefaultMaxZip)
	limit.Default(&l.MaxFile, DefaultMaxFile)
	limit.Default(&l.MaxPackageFiles, DefaultMaxPackageFiles)
	limit.Default(&l.MaxPackages, DefaultMaxPackages)
	limit.Default(&l.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&l.MaxDocuments, DefaultMaxDocuments)
	return l
}
