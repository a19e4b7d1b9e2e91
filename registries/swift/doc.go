// Package swift is docidx's Swift ecosystem: a [Registry] that speaks the Swift package registry
// service API of SE-0292, a [Checkouts] cache that reads the dependencies SwiftPM resolved into a
// project's .build directory, and the extraction both share.
//
// The registry API is the one swift-package-manager documents in
// Documentation/PackageRegistry/Registry.md
// (https://github.com/swiftlang/swift-package-manager/blob/main/Documentation/PackageRegistry/Registry.md):
// GET /{scope}/{name} lists releases (a release with a "problem" is unavailable and never
// selected; rel="next" pages are followed), GET /{scope}/{name}/{version} gives a release's
// metadata with the SHA-256 checksum of its source archive, GET /{scope}/{name}/{version}.zip the
// archive, which must match that checksum, and GET /identifiers?url=… maps a repository URL to
// package identifiers, so a package can be named by "scope.name" or by its repository URL. Every
// request sends Accept: application/vnd.swift.registry.v1+json (+zip, +swift). Registries come
// from SwiftPM's own configuration, .swiftpm/configuration/registries.json in the project and in
// the home directory, or a flag; SwiftPM has no default registry, so neither does this package.
// Credentials come from the environment variables SwiftPM reads and from ~/.netrc (see
// LoadConfig).
//
// Extraction works without a Swift toolchain. Package.swift gives the package's name (read from
// the Package( initializer by a tokenizer, not by running it); every Swift file under
// Sources/<Target>/ is scanned by a hand-written tokenizer and declaration scanner
// (internal/swiftsrc), and its public and open declarations become docidx symbols whose Package
// is the target (module) and whose signatures are the declarations without bodies; Tests/,
// Examples/, Plugins/, Benchmarks/ and manifests are not API. The README, DocC articles
// (*.docc/**/*.md), docs/ and examples/ become documents through package readme, and the LICENSE
// file gives an SPDX guess. Package contents are read through io/fs, so a source archive held in
// memory and a checkout on disk go through the same code.
//
// Every limit (download size, entry size, file size, files, symbols and documents per package) is
// a named constant; exceeding a download or archive limit returns an error wrapping
// docidx.ErrTooLarge, an archive path that escapes the package root returns one wrapping
// docidx.ErrUnsafePath, and a checksum mismatch one wrapping docidx.ErrIntegrity.
//
// Import rule (docs/ARCHITECTURE.md §1): swift may import the root package docidx, readme,
// registries/internal/fetch, github.com/Masterminds/semver/v3 and the standard library; never
// crawl, index or serve. Package swifttest fakes a registry and lays out .build directories for
// tests.
package swift
