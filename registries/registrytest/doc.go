// Package registrytest is the kit every fake registry (the <ecosystem>test packages under
// registries/, and cmd/docidx's flaky-registry proxy) is built on, and the conformance suites
// every registry client and local cache runs.
//
// The kit holds what the fakes share: a Server that runs a fake's handler behind a request log
// (Requests, Targets, Authorized), fault middleware (one Fault type: a path match or a Match
// function, a status with the fake's own error body and Retry-After, a delay, a replaced or
// truncated body, a number of uses) and required credentials (Require: an Authorization value per
// path prefix, 401 with the fake's challenge without it); archive builders over raw Entry values,
// so tests can build hostile archives (Tar for npm tarballs, sdists and .crate files; Zip for
// wheels and Swift source archives; each fake fixes the modification time and header format its
// tool writes); ReadTree and ReadVersions for fixture trees; Published for the publication times
// every fake gives its versions; Record and RecordFiles for responses recorded from real
// registries; LessVersion for ordering fixture versions; and Get for requests in the fakes' own
// tests. Go module zips are built by golang.org/x/mod/zip in gomodtest, as cmd/go builds them.
//
// FetchFaults runs a registry's table of failing fetches (injected faults, lowered limits, hostile
// archives) against its fake; MetadataCache checks a client's bounded metadata cache (failures
// not kept, at most its size held); QuickClient is the quickly retrying client tests use over a
// fake.
//
// Conformance runs one registry client against its fake and the error contract of
// docidx.Registry: not found, retried 429 and 503, exhausted 5xx, truncated bodies, wrong
// checksums, offline clients and cancelled contexts. CacheConformance runs one local cache (the
// offline mode) against docidx.Cache.
//
// It imports the root package, registries/internal/fetch, net/http/httptest and the standard
// library; never a registry package, so each registry's own tests can use it (deps_test.go).
package registrytest
