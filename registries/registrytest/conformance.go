package registrytest

import (
	"context"
	"errors"
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
