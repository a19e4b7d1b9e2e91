package skip_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/memfs"
	"github.com/docidx/docidx/registries/internal/skip"
)

func TestReasonAndErrors(t *testing.T) {
	notRegular := fmt.Errorf("a/package.json: %w (a FIFO)", memfs.ErrNotRegular)
	tooLarge := fmt.Errorf("README.md: %w", docidx.ErrTooLarge)
	denied := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}
	malformed := errors.New("b/package.json: unexpected end of JSON input")
	for err, want := range map[error]string{notRegular: skip.NotRegular, tooLarge: skip.TooLarge, denied: skip.Unreadable, malformed: skip.Malformed} {
		if got := skip.Reason(err); got != want {
			t.Errorf("Reason(%v) = %q, want %q", err, got, want)
		}
	}

	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	skip.Errors(log, "entries skipped", []error{malformed, notRegular, malformed}, "dir", "nm")
	got := out.String()
	if strings.Count(got, "\n") != 2 || !strings.Contains(got, "skipped=malformed count=2") || !strings.Contains(got, `skipped="not a regular file" count=1`) {
		t.Errorf("one record per reason with its count, got:\n%s", got)
	}
}
