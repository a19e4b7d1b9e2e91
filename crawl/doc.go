// Package crawl is docidx's pipeline: it expands package specs (command-line arguments, purls,
// manifests and lockfiles) into exact package versions, resolves each against the local caches and
// then the registries it is given, fetches and extracts them concurrently, and hands the results to
// a Sink (the snapshot writer).
//
// crawl imports the root package docidx, readme and golang.org/x libraries only. It receives its
// registries as []docidx.Registry and writes through its own Sink interface, so it never imports
// registries/, index/ or serve/; cmd/docidx wires the concrete types together.
package crawl
