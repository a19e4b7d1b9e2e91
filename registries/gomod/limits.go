package gomod

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits that are not settable. MaxGoMod and the unexported ones below bound
// replies and what one symbol keeps.
const (
	// MaxGoMod is the largest go.mod file read, in bytes (golang.org/x/mod/zip.MaxGoMod, 16 MiB).
	MaxGoMod = 16 << 20

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
// reads extracted modules, uses all but MaxZip. A zero or negative field means its value in
// DefaultLimits. The download and archive limit fails the module version with an error wrapping
// docidx.ErrTooLarge; the per-file and per-module limits skip what is over them and log it, so
// one huge generated file does not cost a module its documentation.
type Limits struct {
	MaxZip          int64 // bytes of a module zip, and of its files uncompressed
	MaxFile         int64 // bytes per source or documentation file
	MaxPackageFiles int   // .go files per package directory; larger packages are skipped
	MaxPackages     int   // package directories per module; later ones are skipped
	MaxSymbols      int   // symbols per module version
	MaxDocuments    int   // documents (README, docs/, examples/ files) per module version
}

// DefaultLimits is what each zero field of a Limits stands for.
var DefaultLimits = Limits{
	MaxZip:          500 << 20,  // cmd/go's limit (golang.org/x/mod/zip.MaxZipFile)
	MaxFile:         limit.File, // 1 MiB
	MaxPackageFiles: 1000,
	MaxPackages:     10000,           // pkgsite's limit
	MaxSymbols:      limit.Symbols,   // 20,000
	MaxDocuments:    limit.Documents, // 200
}

func (l Limits) withDefaults() Limits { return limit.Fill(l, DefaultLimits) }
