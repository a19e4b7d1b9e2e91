// Package registrytest is the kit every fake registry (the <ecosystem>test packages under
// registries/) is built on, and the conformance suite every registry client runs against its
// fake.
//
// The kit holds what the fakes share: a Server that runs a fake's handler behind a request log
// and fault middleware (one Fault type: a path match, a status with Retry-After, a delay, a
// replaced or truncated body, a number of uses), archive builders (Tar for npm tarballs, sdists
// and .crate files; Zip for wheels and Swift source archives) over raw Entry values so tests can
// build hostile archives, ReadTree for fixture trees, and LessVersion for ordering fixture
// versions. Go module zips are built by golang.org/x/mod/zip in gomodtest, as cmd/go builds them.
//
// Conformance runs one registry client against the error contract of docidx.Registry: not found,
// retried 429 and 503, exhausted 5xx, truncated bodies, wrong checksums, offline clients and
// cancelled contexts.
//
// It imports the root package, registries/internal/fetch, net/http/httptest and the standard
// library; never a registry package, so each registry's own tests can use it.
package registrytest
