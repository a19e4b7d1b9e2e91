// Package npm reads npm package documentation from a registry (packument + tarball) and from a
// node_modules tree, implementing docidx.Registry and docidx.Cache for the npm ecosystem.
//
// What it owns:
//
//   - .npmrc configuration (LoadConfig): the default registry, per-scope registries and
//     credentials scoped to a URL prefix, read the way npm reads them
//     (https://docs.npmjs.com/cli/configuring-npm/npmrc). The registry host is never built in:
//     it comes from the environment, the .npmrc files, a flag, or `npm config get registry`.
//   - the remote Registry: the full packument (npm registry API,
//     https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md), read as a stream that keeps
//     every version's name but the version objects of only the few a query may pick (packument.go),
//     semver-range and dist-tag resolution, the tarball with its Subresource Integrity digest checked
//     (https://www.w3.org/TR/SRI/), and safe in-memory extraction under size limits;
//   - the NodeModules cache: hoisted, nested and pnpm layouts of an installed node_modules tree;
//   - the .d.ts API scanner: a hand-written TypeScript declaration tokenizer that turns the
//     exported declarations of a package's type entry point into docidx.Symbols;
//   - the JavaScript API (internal/jsapi, glue in jsapi.go): for packages whose declaration
//     files give no symbols, the exports of the package.json entry point (CommonJS, ESM, UMD)
//     and their JSDoc.
//
// README files, docs/ and examples/ are handed to readme.Parse.
//
// It imports docidx, internal/budget, readme, registries/internal/fetch, the standard library and
// github.com/Masterminds/semver/v3; never crawl, index or serve (deps_test.go enforces this).
package npm
