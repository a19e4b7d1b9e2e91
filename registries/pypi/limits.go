package pypi

import "github.com/docidx/docidx/registries/internal/limit"

// Size and count limits that are not settable.
const (
	maxKept   = 64 << 20 // bytes of files kept in memory from one archive
	maxRecord = 16 << 20 // bytes of a RECORD, installed-files.txt, SOURCES.txt or top_level.txt
	maxWalk   = 20000    // directory entries visited looking for a distribution's modules
)

// Limits bounds what reading one distribution version may cost. A zero field means its value in
// DefaultLimits, as does a negative one except for MaxDocsSdist. Download and archive limits fail
// the distribution version with an error wrapping docidx.ErrTooLarge; per-file and
// per-distribution limits skip what is over them and log it, so one huge generated module does
// not cost a distribution its documentation.
type Limits struct {
	// MaxProject bounds a JSON API project document or simple API page, in bytes.
	MaxProject int64
	// MaxDownload bounds one wheel or sdist, in bytes. A file whose advertised size is larger is
	// not requested.
	MaxDownload int64
	MaxUnpacked int64 // decompressed bytes of one archive's entries together
	MaxEntry    int64 // decompressed bytes of one archive entry
	MaxFile     int64 // bytes of one source (.py, .pyi) or documentation file
	MaxFiles    int   // Python source files scanned per distribution version; the rest are skipped
	MaxSymbols  int   // API symbols kept per distribution version
	// MaxDocuments bounds the docs/ and examples/ documents kept per distribution version (read
	// from sdists only; wheels and installed distributions carry none).
	MaxDocuments int
	// MaxDocsSdist is the most bytes of an sdist downloaded for its documents alone, when the API
	// comes from a wheel: the sdist is the only file of a release that holds docs/ and examples/.
	// A negative value never downloads one.
	MaxDocsSdist int64
}

// DefaultLimits is what each zero field of a Limits stands for.
var DefaultLimits = Limits{
	MaxProject:   64 << 20, // the JSON of a project with thousands of releases runs to a few MiB
	MaxDownload:  100 << 20,
	MaxUnpacked:  512 << 20,
	MaxEntry:     256 << 20,
	MaxFile:      limit.File,
	MaxFiles:     2000,
	MaxSymbols:   limit.Symbols,
	MaxDocuments: limit.Documents,
	// Sdists of pure-Python projects with a documentation tree weigh 0.1 to 2 MiB; those over
	// 16 MiB are mostly C, C++ or Fortran sources and test data.
	MaxDocsSdist: 16 << 20,
}

func (l Limits) withDefaults() Limits {
	never := l.MaxDocsSdist < 0
	l = limit.Fill(l, DefaultLimits)
	if never {
		l.MaxDocsSdist = -1
	}
	return l
}
