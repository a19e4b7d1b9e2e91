package pypi

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits. Download and archive limits fail the distribution version with an error
// wrapping docidx.ErrTooLarge; per-file and per-distribution limits skip what is over them and log
// it, so one huge generated module does not cost a distribution its documentation.
const (
	// DefaultMaxProject is the largest JSON API project document or simple API page read, in bytes
	// (64 MiB: the JSON of a project with thousands of releases runs to a few MiB).
	DefaultMaxProject = 64 << 20
	// DefaultMaxDownload is the largest wheel or sdist downloaded, in bytes (100 MiB). A file
	// whose advertised size is larger is not requested.
	DefaultMaxDownload = 100 << 20
	// DefaultMaxUnpacked is the largest total decompressed size of one archive's entries, in bytes
	// (512 MiB).
	DefaultMaxUnpacked = 512 << 20
	// DefaultMaxEntry is the largest decompressed size of one archive entry, in bytes (256 MiB).
	DefaultMaxEntry = 256 << 20
	// DefaultMaxFile is the largest source (.py, .pyi) or documentation file read, in bytes
	// (limit.File).
	DefaultMaxFile = limit.File
	// DefaultMaxFiles is the most Python source files scanned for one distribution version; the
	// rest are skipped.
	DefaultMaxFiles = 2000
	// DefaultMaxSymbols is the most API symbols kept for one distribution version (limit.Symbols).
	DefaultMaxSymbols = limit.Symbols
	// DefaultMaxDocuments is the most docs/ and examples/ documents kept for one distribution version
	// (limit.Documents; read from sdists only, wheels and installed distributions carry none).
	DefaultMaxDocuments = limit.Documents
	// DefaultMaxDocsSdist is the largest sdist downloaded for its documents alone, in bytes
	// (16 MiB), when the API comes from a wheel: the sdist is the only file of a release that
	// holds docs/ and examples/. Sdists of pure-Python projects with a documentation tree weigh
	// 0.1 to 2 MiB; those over the limit are mostly C, C++ or Fortran sources and test data.
	DefaultMaxDocsSdist = 16 << 20
	// DefaultMaxKept is the most bytes of files kept in memory from one archive.
	DefaultMaxKept = 64 << 20

	maxRecord = 16 << 20 // bytes of a RECORD, installed-files.txt, SOURCES.txt or top_level.txt
	maxWalk   = 20000    // directory entries visited looking for a distribution's modules
)

// Limits bounds what reading one distribution version may cost. A zero field means its default.
type Limits struct {
	MaxProject   int64 // bytes of a JSON project document or simple API page; 0 means DefaultMaxProject
	MaxDownload  int64 // bytes of one wheel or sdist; 0 means DefaultMaxDownload
	MaxUnpacked  int64 // decompressed bytes of one archive; 0 means DefaultMaxUnpacked
	MaxEntry     int64 // decompressed bytes of one archive entry; 0 means DefaultMaxEntry
	MaxFile      int64 // bytes of one source or documentation file; 0 means DefaultMaxFile
	MaxFiles     int   // source files per distribution version; 0 means DefaultMaxFiles
	MaxSymbols   int   // symbols per distribution version; 0 means DefaultMaxSymbols
	MaxDocuments int   // docs/ and examples/ documents per version; 0 means DefaultMaxDocuments
	// MaxDocsSdist is the most bytes of an sdist downloaded for its documents alone, when the API
	// comes from a wheel; 0 means DefaultMaxDocsSdist, a negative value never downloads one.
	MaxDocsSdist int64
}

func (l Limits) withDefaults() Limits {
	limit.Default(&l.MaxProject, DefaultMaxProject)
	limit.Default(&l.MaxDownload, DefaultMaxDownload)
	limit.Default(&l.MaxUnpacked, DefaultMaxUnpacked)
	limit.Default(&l.MaxEntry, DefaultMaxEntry)
	limit.Default(&l.MaxFile, DefaultMaxFile)
	limit.Default(&l.MaxFiles, DefaultMaxFiles)
	limit.Default(&l.MaxSymbols, DefaultMaxSymbols)
	limit.Default(&l.MaxDocuments, DefaultMaxDocuments)
	if l.MaxDocsSdist == 0 {
		l.MaxDocsSdist = DefaultMaxDocsSdist
	}
	return l
}
