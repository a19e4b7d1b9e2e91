// Package browsertest drives headless Chromium through docidx's HTML pages (issue 18, point 5):
// search, package overview, version switcher, API outline, one symbol, the upgrade diff between
// two versions, the snapshot page, the README and outline of a crafted package whose content
// tries to run script, and search and version switching with JavaScript off, over a snapshot
// crawled offline from the repository's Go module cache fixture; then every kind of page (home,
// search results, package, README, API, symbol, diff, snapshot, not found) light and dark, at a
// desktop's and a phone's width, as gallery-KIND-VIEW.png, to be looked at (issue 29), failing
// when a page is wider than the phone or a search passage shows a raw fence or code in a
// proportional font. It fails on any console error,
// uncaught exception, Content-Security-Policy violation, failed request, request that leaves the
// docidx server or broken link, and saves one PNG screenshot per page in dist/browser-test/ (or
// $DOCIDX_SCREENSHOTS). Run it with `make browser-test`, which builds
// bin/docidx and installs Debian's chromium when it is missing; DOCIDX_BIN names another docidx
// binary and DOCIDX_CHROMIUM another Chrome or Chromium.
//
// It is a module of its own, not a build-tagged test in the main module, because go mod tidy
// keeps the requirements of every build tag: chromedp, cdproto, go-json-experiment and gobwas/ws
// would join docidx's go.mod and go.sum, and every `go mod download` of docidx would fetch them,
// for a check that only `make browser-test` runs. Apart, `make test` (./... of the main module)
// neither builds nor needs it. It drives the docidx binary only (DOCIDX_BIN, default
// ../bin/docidx), so it imports nothing of the main module.
package browsertest
