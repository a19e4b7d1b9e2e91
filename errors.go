package docidx

import "errors"

// Sentinel errors shared across docidx. Callers test for them with errors.Is; the error that wraps
// one carries the details (which package, which URL, what limit).
var (
	// ErrNotFound is returned when a package, version, document or symbol does not exist in the
	// registry, cache or snapshot asked. Registries map HTTP 404 and 410 to it.
	ErrNotFound = errors.New("not found")

	// ErrOffline is returned when a network request is attempted while crawling with --offline,
	// or when a registry is configured as disabled (GOPROXY=off).
	ErrOffline = errors.New("network access disabled")

	// ErrIntegrity is returned when downloaded content does not match the digest the registry
	// gives for it (npm's SRI integrity, a crate's or a PyPI file's sha256, a Swift source
	// archive's checksum). The Go module proxy gives no digest and gomod checks no go.sum, so
	// gomod never returns it.
	ErrIntegrity = errors.New("integrity check failed")

	// ErrTooLarge is returned when a download, an archive, or one archive entry exceeds its
	// size limit; the wrapping error names the limit in bytes.
	ErrTooLarge = errors.New("size limit exceeded")

	// ErrUnsafePath is returned when an archive entry's path is absolute, climbs out of the
	// archive root with "..", or is otherwise unsafe to use.
	ErrUnsafePath = errors.New("unsafe path in archive")

	// ErrBadSpec is returned for a package spec, ecosystem name or version query that cannot be
	// parsed; the wrapping error shows the accepted forms.
	ErrBadSpec = errors.New("bad package spec")

	// ErrBadURI is returned for a resource URI that is not of a docidx shape.
	ErrBadURI = errors.New("bad resource URI")

	// ErrNoSnapshot is returned when the index directory holds no snapshot yet; run docidx crawl.
	ErrNoSnapshot = errors.New("no snapshot")

	// ErrFormat is returned when a snapshot was written in a format this docidx cannot read,
	// typically by a newer docidx; the wrapping error names both format versions.
	ErrFormat = errors.New("unsupported snapshot format")

	// ErrRetryable marks a transient registry failure (HTTP 429, 5xx, a reset connection)
	// that was still failing when the retries ran out.
	ErrRetryable = errors.New("temporary registry failure")
)

// ErrUsage is returned for a request whose arguments no snapshot could answer: an empty query,
// an unknown ecosystem or symbol kind, a malformed URI, a cursor that is not the one the
// previous page gave. The wrapping error names the argument and what it accepts.
var ErrUsage = errors.New("invalid arguments")
