// Package crawl is docidx's pipeline: it expands package specs (command-line arguments, purls,
// manifests and lockfiles) into exact package versions, resolves each against the local caches and
// then the registries it is given, fetches and extracts them concurrently, and hands the results to
// a Sink (the snapshot writer).
//
// Each ecosystem's packages are crawled in their own lane of Options.Concurrency workers, and each
// package version's resolve and fetch run under Options.PackageTimeout: a registry that stalls
// fails its own packages, with an error naming it, while the other ecosystems' packages go on.
//
// Lockfiles (ParseLockfile, ReadLockfile, ParseLockfileFS) give exact versions: go.mod,
// package-lock.json, pnpm-lock.yaml, yarn.lock, poetry.lock, uv.lock, Cargo.lock and
// Package.resolved. Requirements files and pyproject.toml give Python requirements (Spec.Requirement),
// which a crawl with a site-packages (an Installed cache) resolves to the installed versions and
// walks through what they require; Cargo.toml gives version requirements, resolved to the newest
// compatible release. Entries that name no registry version are reported as Skipped.
//
// crawl imports the root package docidx, internal/budget (the crawl's memory budget),
// internal/purl (Package URLs), internal/redact (credentials out of the specs and lockfile
// entries it reports),
// golang.org/x libraries and the TOML and YAML parsers its lockfiles need
// (github.com/BurntSushi/toml, go.yaml.in/yaml/v3) only. It receives
// its registries as []docidx.Registry and writes through its own Sink interface, so it never
// imports registries/, index/ or serve/; cmd/docidx wires the concrete types together.
package crawl
