package crawl

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"strings"
	"testing"

	"github.com/docidx/docidx"
)

// skippingSource logs skip records as registries do (registries/internal/skip) while fetching.
type skippingSource struct {
	fakeSource
	log *slog.Logger
}

func (s *skippingSource) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	s.log.Debug("file skipped", SkipKey, "too large", "file", "README.md")
	s.log.With(SkipKey, "not a regular file").Debug("file skipped", "file", "docs/pipe.md")
	s.log.Debug("entries skipped", SkipKey, "malformed", SkipCountKey, 3)
	return s.fakeSource.Fetch(ctx, name, version)
}

// Skip records are counted by reason into Summary.Skipped whatever the log level, and only
// records the next handler is enabled for are written.
func TestSkipCounter(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(NewSkipCounter(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn})))
	src := &skippingSource{fakeSource: fakeSource{eco: docidx.NPM, name: "reg", versions: map[string][]string{"a": {"1.0.0"}, "b": {"1.0.0"}}}, log: log}
	sum, err := Run(context.Background(), &fakeSink{}, Options{
		Specs:      mustSpecs(t, "npm:a", "npm:b"),
		Registries: []docidx.Registry{src},
		Logger:     log,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"too large": 2, "not a regular file": 2, "malformed": 6}
	if !maps.Equal(sum.Skipped, want) {
		t.Errorf("Skipped = %v, want %v", sum.Skipped, want)
	}
	log.Warn("visible")
	if got := strings.TrimSpace(out.String()); strings.Count(got, "\n") != 0 || !strings.Contains(got, "visible") {
		t.Errorf("written:\n%s\nwant the one warning", got)
	}
}
