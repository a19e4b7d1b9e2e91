// Package cargo reads Rust crate documentation from a sparse registry index (crates.io or any
// registry cargo's configuration names) and from the crates cargo has extracted under
// $CARGO_HOME/registry/src, implementing docidx.Registry ([Registry]) and docidx.Cache ([Cache])
// for the cargo ecosystem.
//
// What it owns:
//
//   - cargo configuration ([LoadConfig]): .cargo/config.toml from the project directory upward,
//     $CARGO_HOME/config.toml and credentials.toml, source replacement ([source.crates-io]
//     replace-with), alternate registries ([registries.NAME] index, CARGO_REGISTRIES_<NAME>_INDEX)
//     and tokens, read the way cargo reads them (https://doc.rust-lang.org/cargo/reference/config.html).
//     With nothing configured, crates-io is crates.io's public sparse index ([DefaultIndex]).
//     Sources docidx cannot read (git indexes, local-registry and directory sources) fail
//     lookups with [ErrUnsupportedSource], saying what to do instead.
//   - the remote [Registry]: the sparse index protocol (https://doc.rust-lang.org/cargo/reference/registry-index.html):
//     config.json (download template, auth-required), index files (one JSON line per version),
//     version resolution with Cargo's requirement syntax, and the .crate tarball checked against
//     the index's sha256 and unpacked in memory under size limits, refusing entries outside
//     NAME-VERSION/ or with "..";
//   - the local [Cache] over registry/src, whose per-index directory names are matched by glob;
//   - the Rust API scanner (internal/rustapi): a hand-written tokenizer and item scanner that
//     follows the module tree from the crate root and resolves pub use re-exports.
//
// Metadata comes from the crate's normalized Cargo.toml; the README named by its readme field
// (or README.md, README.txt, README), markdown under docs/ and examples/, and example programs
// (examples/*.rs) become documents through package readme; the [features] table becomes a
// "Feature flags" document (features.go).
//
// It imports docidx, readme, the registries' shared internal packages (fetch, installed, untar
// …), its own internal/indexpath and internal/rustapi, the standard library,
// github.com/BurntSushi/toml and github.com/Masterminds/semver/v3; never crawl, index or serve
// (deps_test.go enforces this). Package cargotest fakes a sparse registry and lays out cargo
// homes for tests.
package cargo
