// Package skip reports input files that a local-cache reader or an extractor skipped (not a
// regular file, too large, malformed, unreadable), in a form the crawl can count: a debug-level
// log record with the attribute Key set to the reason. The crawl counts such records by reason
// for its summary (crawl.SkipCounter) and warns once per reason, so a cache with thousands of
// bad files costs a few lines at the default log level, and --log-level debug lists every file.
// It imports only the standard library, docidx and memfs.
package skip

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
)

// Key is the attribute that marks a log record as reporting skipped input; its value is the
// reason. It must equal crawl.SkipKey, which counts them (cmd/docidx's scripts check the two
// together end to end).
const Key = "skipped"

// CountKey is the attribute holding how many files one record reports; absent means 1.
const CountKey = "count"

// Reasons.
const (
	NotRegular = "not a regular file" // FIFO, socket, device, directory where a file belongs
	TooLarge   = "too large"          // over its size limit
	Malformed  = "malformed"          // does not parse (package.json, METADATA …)
	Unreadable = "unreadable"         // permission denied, I/O error
)

// Reason classifies the error that made a reader skip a file.
func Reason(err error) string {
	switch {
	case errors.Is(err, memfs.ErrNotRegular):
		return NotRegular
	case errors.Is(err, docidx.ErrTooLarge):
		return TooLarge
	case errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
		return Unreadable
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return Unreadable
	}
	return Malformed
}

// File logs at debug level that the file named in err was skipped, with msg and args as
// in slog.Logger.Debug; the reason is Reason(err).
func File(log *slog.Logger, msg string, err error, args ...any) {
	if log == nil {
		return
	}
	log.Log(context.Background(), slog.LevelDebug, msg, append(args, Key, Reason(err), "err", err)...)
}

// Errors logs errs, the errors of files skipped, with Files: one record per reason.
func Errors(log *slog.Logger, msg string, errs []error, args ...any) {
	first := map[string]error{}
	count := map[string]int{}
	var reasons []string
	for _, err := range errs {
		r := Reason(err)
		if count[r] == 0 {
			first[r] = err
			reasons = append(reasons, r)
		}
		count[r]++
	}
	for _, r := range reasons {
		Files(log, msg, r, count[r], first[r], args...)
	}
}

// Files logs at debug level that n files were skipped for reason, with the first one's error.
func Files(log *slog.Logger, msg, reason string, n int, first error, args ...any) {
	if log == nil || n == 0 {
		return
	}
	log.Log(context.Background(), slog.LevelDebug, msg, append(args, Key, reason, CountKey, n, "first", first)...)
}
