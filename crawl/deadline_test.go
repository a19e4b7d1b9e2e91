package crawl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/docidx/docidx"
)

// stallingRegistry is a registry that never answers: Resolve (for the names in stallResolve)
// and Fetch wait until their context ends and return its cause, as net/http does when a
// registry trickles a body or never answers.
type stallingRegistry struct {
	fakeSource
	stallResolve map[string]bool
}

func (s *stallingRegistry) Resolve(ctx context.Context, name, query string) (string, error) {
	if s.stallResolve[name] {
		<-ctx.Done()
		return "", fmt.Errorf("GET %s/%s: %w", s.name, name, context.Cause(ctx))
	}
	return s.fakeSource.Resolve(ctx, name, query)
}

func (s *stallingRegistry) Fetch(ctx context.Context, name, version string) (*docidx.PackageDocs, error) {
	<-ctx.Done()
	return nil, fmt.Errorf("GET %s/%s/-/%s.tgz: reading body: %w", s.name, name, version, context.Cause(ctx))
}

// A registry that stalls fails each of its packages at the package deadline, with an error that
// names the registry and says what to do, while the packages of another ecosystem are indexed
// without waiting for it, even with one worker. The crawl itself succeeds and reports the
// failures. Time is synctest's, so the deadlines are the real ones.
func TestRunSlowRegistry(t *testing.T) {
	for _, timeout := range []time.Duration{0, 5 * time.Second} {
		synctest.Test(t, func(t *testing.T) {
			slow := &stallingRegistry{
				fakeSource:   fakeSource{eco: docidx.NPM, name: "npm registry http://127.0.0.1:1", versions: map[string][]string{"a": {"1.0.0"}, "b": {"1.0.0"}, "c": {"1.0.0"}}},
				stallResolve: map[string]bool{"c": true},
			}
			fast := &fakeSource{eco: docidx.Go, name: "GOPROXY=http://127.0.0.1:2", versions: map[string][]string{"example.com/x": {"v1.0.0"}, "example.com/y": {"v1.0.0"}, "example.com/z": {"v1.0.0"}}}
			start := time.Now()
			var mu sync.Mutex
			doneAt := map[string]time.Duration{}
			sum, err := Run(context.Background(), &fakeSink{}, Options{
				Specs:          mustSpecs(t, "npm:a@1.0.0", "go:example.com/x@v1.0.0", "npm:b", "go:example.com/y@v1.0.0", "npm:c", "go:example.com/z"),
				Registries:     []docidx.Registry{slow, fast},
				Concurrency:    1,
				PackageTimeout: timeout,
				OnResult: func(r Result) {
					mu.Lock()
					doneAt[r.Spec] = time.Since(start)
					mu.Unlock()
				},
			})
			if err != nil {
				t.Fatalf("Run = %v, want the failures in the summary", err)
			}
			if sum.Indexed != 3 || sum.Failed != 3 || !errors.Is(sum.Err(), ErrSomeFailed) {
				t.Errorf("indexed %d, failed %d, Err %v; want 3, 3, ErrSomeFailed", sum.Indexed, sum.Failed, sum.Err())
			}
			want := timeout
			if want == 0 {
				want = DefaultPackageTimeout
			}
			for _, r := range sum.Results {
				switch r.Ref.Ecosystem {
				case docidx.Go:
					if r.Status != Indexed || doneAt[r.Spec] >= want {
						t.Errorf("%s: %s after %v, want indexed before the first deadline (%v)", r.Spec, r.Status, doneAt[r.Spec], want)
					}
				case docidx.NPM:
					msg := fmt.Sprintf("npm registry http://127.0.0.1:1 did not answer within %v; raise --package-timeout or check the registry: GET ", want)
					if r.Status != Failed || !strings.HasPrefix(r.Error, r.Spec) || !strings.Contains(r.Error, msg) || !errors.Is(r.Err, context.DeadlineExceeded) {
						t.Errorf("%s: %s, %q; want failed with %q", r.Spec, r.Status, r.Error, msg)
					}
				}
			}
		})
	}
}

// When the crawl's own context ends first, a package is not blamed on its registry.
func TestCrawlOneCancelIsNotPackageTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := &stallingRegistry{fakeSource: fakeSource{eco: docidx.NPM, name: "npm registry", versions: map[string][]string{"a": {"1.0.0"}}}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		opts := Options{Registries: []docidx.Registry{slow}}
		r, _ := crawlOne(ctx, &fakeSink{}, opts, job{spec: mustSpecs(t, "npm:a")[0]}, func(docidx.Ref) bool { return true })
		if r.Status != Failed || !errors.Is(r.Err, context.DeadlineExceeded) || strings.Contains(r.Err.Error(), "did not answer") {
			t.Errorf("%s: %s, %v; want failed with the crawl's deadline, not the package's", r.Spec, r.Status, r.Err)
		}
	})
}

// Each lane runs its jobs in the order they were added, at most limit at once, whatever the
// other lanes do; a lane that is blocked does not hold up another.
func TestLanes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var ran []string
		release := make(chan struct{})
		l := &lanes{limit: 1}
		for _, name := range []string{"a", "b", "c"} {
			l.add(docidx.NPM, func() error {
				<-release // the npm lane is stuck until the Go lane is done
				mu.Lock()
				ran = append(ran, "npm:"+name)
				mu.Unlock()
				return nil
			})
			l.add(docidx.Go, func() error {
				mu.Lock()
				ran = append(ran, "go:"+name)
				if name == "c" {
					close(release)
				}
				mu.Unlock()
				return nil
			})
		}
		l.run(context.Background())
		if got, want := fmt.Sprint(ran), "[go:a go:b go:c npm:a npm:b npm:c]"; got != want {
			t.Errorf("ran %s, want %s", got, want)
		}
	})
}
