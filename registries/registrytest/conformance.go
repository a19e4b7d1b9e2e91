package registrytest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/internal/fetch"
)

// Subject is one ecosystem's registry client against its fake, for Conformance.
type Subject struct {
	// Registry is the client under test, pointed at the fake.
	Registry docidx.Registry
	// Server is the fake's kit server, where Conformance injects faults and reads the log.
	Server *Server
	// Name and Version name a package version the fake holds; Missing a package it does not.
	Name, Version, Missing string
	// Metadata selects (as a Fault's Path) the requests Resolve(Name, "") makes: the packument,
	// index file, version list or release list.
	Metadata string
	// Archive selects the download of Name@Version's archive, and no request Fetch makes before
	// it.
	Archive string
	// Tamper makes the fake advertise a wrong checksum for Name@Version's archive. Nil when the
	// ecosystem's registry gives none; NoChecksum then says why, and the checksum case is skipped.
	Tamper     func()
	NoChecksum string
}

// Conformance checks a registry client against the error contract of docidx.Registry. start
// returns a fresh Subject, a fake and a client that makes every request through c, for each case:
//
//   - a missing package or version: Resolve and Fetch return errors wrapping docidx.ErrNotFound,
//     and so does Fetch when the archive answers 404 or 410;
//   - 429 and 503 with Retry-After, once: retried, then the answer;
//   - 500 on every attempt: an error wrapping docidx.ErrRetryable once the retries ran out;
//   - a truncated body, once: retried, then the answer; on every attempt: ErrRetryable (the body
//     never arrived whole) or ErrIntegrity;
//   - a wrong checksum, or an archive replaced in transit, where the registry gives a checksum:
//     ErrIntegrity;
//   - offline (a client over fetch.Offline): ErrOffline, and no request reaches the fake;
//   - a context cancelled before or during a request: an error wrapping context.Canceled.
func Conformance(t *testing.T, start func(t *testing.T, c *fetch.Client) Subject) {
	ctx := context.Background()
	// run starts a subject whose client retries quickly, twice.
	run := func(t *testing.T) (Subject, docidx.Registry) {
		t.Helper()
		s := start(t, &fetch.Client{HTTP: http.DefaultClient, Retries: 2, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
			Timeout: 30 * time.Second, Rate: 1000, Burst: 1000})
		return s, s.Registry
	}
	want := func(t *testing.T, op string, err error, targets ...error) {
		t.Helper()
		for _, target := range targets {
			if errors.Is(err, target) {
				return
			}
		}
		t.Errorf("%s: err = %v, want one wrapping %v", op, err, targets)
	}
	count := func(s Subject, path string) int {
		n := 0
		for _, target := range s.Server.Targets() {
			if strings.Contains(target, path) {
				n++
			}
		}
		return n
	}

	t.Run("not found", func(t *testing.T) {
		s, r := run(t)
		_, err := r.Resolve(ctx, s.Missing, "")
		want(t, "Resolve(missing)", err, docidx.ErrNotFound)
		_, err = r.Fetch(ctx, s.Missing, s.Version)
		want(t, "Fetch(missing)", err, docidx.ErrNotFound)
		_, err = r.Resolve(ctx, s.Name, "999.0.0")
		want(t, "Resolve(name, a version no release matches)", err, docidx.ErrNotFound)
		_, err = r.Fetch(ctx, s.Name, "999.0.0")
		want(t, "Fetch(name, a version it does not have)", err, docidx.ErrNotFound)
		for _, status := range []int{http.StatusNotFound, http.StatusGone} {
			s, r := run(t)
			s.Server.Inject(Fault{Path: s.Archive, Status: status})
			_, err := r.Fetch(ctx, s.Name, s.Version)
			want(t, "Fetch with archive "+http.StatusText(status), err, docidx.ErrNotFound)
		}
	})
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run("retry after "+http.StatusText(status), func(t *testing.T) {
			s, r := run(t)
			s.Server.Inject(Fault{Path: s.Metadata, Status: status, RetryAfter: "0", Times: 1})
			s.Server.Inject(Fault{Path: s.Archive, Status: status, RetryAfter: "0", Times: 1})
			if _, err := r.Resolve(ctx, s.Name, ""); err != nil {
				t.Errorf("Resolve: %v, want the answer after a retry", err)
			}
			if _, err := r.Fetch(ctx, s.Name, s.Version); err != nil {
				t.Errorf("Fetch: %v, want the answer after a retry", err)
			}
			if n := count(s, s.Archive); n != 2 {
				t.Errorf("archive requested %d times, want 2 (one failed, one retried): %q", n, s.Server.Targets())
			}
		})
	}
	t.Run("5xx exhausted", func(t *testing.T) {
		s, r := run(t)
		s.Server.Inject(Fault{Path: s.Metadata, Status: http.StatusInternalServerError})
		_, err := r.Resolve(ctx, s.Name, "")
		want(t, "Resolve", err, docidx.ErrRetryable)
		s, r = run(t)
		s.Server.Inject(Fault{Path: s.Archive, Status: http.StatusInternalServerError})
		_, err = r.Fetch(ctx, s.Name, s.Version)
		want(t, "Fetch", err, docidx.ErrRetryable)
		if n := count(s, s.Archive); n != 3 {
			t.Errorf("archive requested %d times, want 3 (the first and two retries)", n)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		s, r := run(t)
		s.Server.Inject(Fault{Path: s.Archive, Truncate: true, Times: 1})
		if _, err := r.Fetch(ctx, s.Name, s.Version); err != nil {
			t.Errorf("Fetch with the archive truncated once: %v, want the answer after a retry", err)
		}
		s, r = run(t)
		s.Server.Inject(Fault{Path: s.Archive, Truncate: true})
		_, err := r.Fetch(ctx, s.Name, s.Version)
		want(t, "Fetch with the archive always truncated", err, docidx.ErrRetryable, docidx.ErrIntegrity)
		s, r = run(t)
		s.Server.Inject(Fault{Path: s.Metadata, Truncate: true})
		_, err = r.Resolve(ctx, s.Name, "")
		want(t, "Resolve with the metadata always truncated", err, docidx.ErrRetryable, docidx.ErrIntegrity)
	})
	t.Run("checksum", func(t *testing.T) {
		s, r := run(t)
		if s.Tamper == nil {
			t.Skip(s.NoChecksum)
		}
		s.Tamper()
		_, err := r.Fetch(ctx, s.Name, s.Version)
		want(t, "Fetch with a wrong checksum", err, docidx.ErrIntegrity)
		s, r = run(t)
		s.Server.Inject(Fault{Path: s.Archive, Body: []byte("not the archive the checksum is of")})
		_, err = r.Fetch(ctx, s.Name, s.Version)
		want(t, "Fetch with the archive replaced in transit", err, docidx.ErrIntegrity)
	})
	t.Run("offline", func(t *testing.T) {
		s := start(t, fetch.New(&http.Client{Transport: fetch.Offline{}}))
		r := s.Registry
		_, err := r.Resolve(ctx, s.Name, "")
		want(t, "Resolve", err, docidx.ErrOffline)
		_, err = r.Fetch(ctx, s.Name, s.Version)
		want(t, "Fetch", err, docidx.ErrOffline)
		if reqs := s.Server.Targets(); len(reqs) > 0 {
			t.Errorf("offline client reached the registry: %q", reqs)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		s, r := run(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := r.Resolve(cctx, s.Name, "")
		want(t, "Resolve with a cancelled context", err, context.Canceled)
		_, err = r.Fetch(cctx, s.Name, s.Version)
		want(t, "Fetch with a cancelled context", err, context.Canceled)

		s.Server.Inject(Fault{Path: s.Archive, Delay: time.Minute})
		cctx, cancel = context.WithCancel(ctx)
		go func() {
			for count(s, s.Archive) == 0 && cctx.Err() == nil {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		_, err = r.Fetch(cctx, s.Name, s.Version)
		cancel()
		want(t, "Fetch cancelled while the archive is requested", err, context.Canceled)
	})
}

// FetchFault is a row of a table of failing fetches (FetchFaults): Setup, when not nil, changes
// the fake S (injects a fault, adds a hostile archive); Mod, when not nil, changes the registry's
// configuration C (lowers a limit); fetching Name must then fail with Want (errors.Is).
type FetchFault[S, C any] struct {
	Case  string
	Setup func(S)
	Mod   func(*C)
	Name  string
	Want  error
}

// FetchFaults runs each row of rows as a subtest named by its Case: start returns a registry
// configured through the row's Mod and its fake, the row's Setup changes the fake, and
// Fetch(Name, version) must fail with the row's Want, in an error that starts with prefix (such
// as "npm: "). after, when not nil, checks more of each row, given the fake after the fetch.
func FetchFaults[R docidx.Registry, S, C any](t *testing.T, prefix, version string,
	start func(t *testing.T, mod func(*C)) (R, S), after func(t *testing.T, row FetchFault[S, C], srv S),
	rows []FetchFault[S, C]) {
	t.Helper()
	for _, row := range rows {
		t.Run(row.Case, func(t *testing.T) {
			r, srv := start(t, row.Mod)
			if row.Setup != nil {
				row.Setup(srv)
			}
			_, err := r.Fetch(context.Background(), row.Name, version)
			if !errors.Is(err, row.Want) {
				t.Errorf("Fetch(%s, %s) = %v, want %v", row.Name, version, err, row.Want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error does not start with %q: %v", prefix, err)
			}
			if after != nil {
				after(t, row, srv)
			}
		})
	}
}

// QuickClient returns the client the registries' tests request their fakes through: over hc,
// retrying once after a millisecond, so a test of an exhausted retry takes no time.
func QuickClient(hc *http.Client) *fetch.Client {
	return &fetch.Client{HTTP: hc, Retries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
}

// MetadataCacheSubject is a registry client whose Resolve keeps the metadata it read (packuments,
// index files, project pages) in a bounded cache, with its fake, for MetadataCache.
type MetadataCacheSubject struct {
	// Registry is the client under test and Server its fake's kit server.
	Registry docidx.Registry
	Server   *Server
	// Fault makes Resolve(Name, "") fail with an error wrapping Want; once it is cleared, Resolve
	// must return Version.
	Fault         Fault
	Want          error
	Name, Version string
	// Add publishes a package called name (any version) on the fake.
	Add func(name string)
	// Size is the cache's capacity in entries and Len how many it holds now.
	Size int
	Len  func() int
}

// MetadataCache checks that a failed read is not cached (the same Resolve succeeds once the fault
// is cleared) and that resolving Size+4 other packages leaves at most Size entries in the cache.
func MetadataCache(t *testing.T, s MetadataCacheSubject) {
	t.Helper()
	ctx := context.Background()
	s.Server.Inject(s.Fault)
	if _, err := s.Registry.Resolve(ctx, s.Name, ""); !errors.Is(err, s.Want) {
		t.Fatalf("Resolve(%s) with the fault = %v, want %v", s.Name, err, s.Want)
	}
	s.Server.ClearFaults()
	if v, err := s.Registry.Resolve(ctx, s.Name, ""); err != nil || v != s.Version {
		t.Fatalf("after the fault cleared: %q %v, want %s (failures must not be cached)", v, err, s.Version)
	}
	for i := range s.Size + 4 {
		name := fmt.Sprintf("p%d", i)
		s.Add(name)
		if _, err := s.Registry.Resolve(ctx, name, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.Len(); n > s.Size {
		t.Errorf("cache holds %d entries, more than its %d", n, s.Size)
	}
}
