package defaults

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/docidx/docidx/registries/internal/fetch"
)

func TestDefaults(t *testing.T) {
	c := fetch.New(nil)
	if Client(c) != c || Client(nil) == nil {
		t.Error("Client does not keep a client, or gives none for nil")
	}
	l := slog.Default()
	if Logger(l) != l || Logger(nil) == nil || Logger(nil).Enabled(context.Background(), slog.LevelError) {
		t.Error("Logger does not keep a logger, or does not give a discarding one for nil")
	}
	fixed := time.Unix(1, 0)
	if Now(func() time.Time { return fixed })() != fixed || time.Since(Now(nil)()) > time.Hour {
		t.Error("Now does not keep a clock, or does not give time.Now for nil")
	}
}
