# docidx — see README.md. `make test` is hermetic (no network at test time) and is what CI runs.
GO        ?= go
PKGS      ?= ./...
BIN       ?= bin/docidx
CORPUS    ?= $(or $(DOCIDX_CORPUS),/work/corpus)
BENCHTIME ?= 1s
# The commit `docidx version` names, "-dirty" when tracked files have changes not committed;
# empty outside a git checkout. go build records it too, unless GOFLAGS holds -buildvcs=false.
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)$(if $(shell git status --porcelain --untracked-files=no 2>/dev/null),-dirty)

.PHONY: all build test lint fmt-check vet staticcheck unit schemas bench relevance answers e2e e2e-registries faults demo fuzz clean

all: build

# A static binary (no cgo): it starts about 2 ms sooner, without the dynamic loader and libc, and
# `docidx serve --stdio` is started by editors for every session. What cgo would bring, the
# system's DNS resolver and user database, docidx does not need (Go's own are used).
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X github.com/docidx/docidx.Commit=$(COMMIT)" -o $(BIN) ./cmd/docidx

## test: formatting, go vet, staticcheck and the race-enabled unit tests. No network.
test: fmt-check vet staticcheck unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)

unit:
	$(GO) test -race -count=1 $(PKGS)

## schemas: rewrite schemas/*.schema.json, the JSON Schemas of the --json documents and of the MCP
## tools' structured content, from their Go types, and the shape goldens of every --json command
## (cmd/docidx/testdata/golden). A change that breaks consumers fails unless docidx.SchemaVersion
## was raised; docs/json-changelog.md says what each version changed.
schemas:
	$(GO) test -count=1 -run 'TestSchemas|TestJSONDocuments' ./cmd/docidx -update

## bench: Go benchmarks (search latency, resource reads, start-up, crawl throughput).
## With a real corpus in $(CORPUS) (scripts/corpus.sh builds it) the real-input benchmarks run too.
bench:
	DOCIDX_CORPUS=$(CORPUS) $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

## relevance: the labelled queries of testdata/relevance over the corpus: MRR and Recall@5.
relevance:
	DOCIDX_CORPUS=$(CORPUS) DOCIDX_RELEVANCE=1 $(GO) test -count=1 -run TestRelevance -v ./cmd/docidx | grep -E 'MRR|miss|ok|FAIL'

## answers: the question sets over the corpus, testdata/answers and the dev half of
## testdata/heldout (DOCIDX_ANSWERS_SETS="answers dev test" picks, and a path ending in .json
## runs a question file of the same format kept outside the repo; run test only to report):
## whether each fact is anywhere in the first search_package_docs answer, in hit 1, in its first
## 2 KB and after one read call, bytes before the fact, answer sizes; and npm API coverage.
## DOCIDX_CORPUS_INDEX=DIR measures a snapshot crawled before instead of crawling the corpus.
## (`make bench` reports the same totals as BenchmarkAnswers and BenchmarkNPMCoverage metrics.)
answers:
	DOCIDX_CORPUS=$(CORPUS) DOCIDX_ANSWERS=1 DOCIDX_ANSWERS_SETS="$(DOCIDX_ANSWERS_SETS)" $(GO) test -count=1 -run 'TestAnswerSources|TestAnswers|TestNPMCoverage' -v ./cmd/docidx \
	  | grep -E 'answers(_npm)?_test.go|^(--- FAIL|FAIL|ok)' | sed -E 's/^ *answers(_npm)?_test.go:[0-9]+: //'

## api-recall: issue 27's API completeness benchmark over the corpus: for each requested package
## version (NOTES.txt), the public items the ecosystem's own tool lists (rustdoc's all.html from
## `cargo doc --no-deps`, the Python interpreter's view of each public module, `go doc -all`,
## the TypeScript compiler API over the package's types) against docidx's symbols: found, with
## docs, and per ecosystem extra columns, as Markdown per-package tables in
## $(APIRECALL_OUT). References are cached in $(APIRECALL_CACHE) by version (the first run
## documents the crates, minutes on 2 cores); TypeScript 5 is installed there with npm once.
## DOCIDX_CORPUS_INDEX=DIR measures a snapshot crawled before; DOCIDX_APIRECALL_ECOSYSTEMS="cargo
## pypi" and DOCIDX_APIRECALL_PACKAGES="serde flask" narrow it; DOCIDX_APIRECALL_MIN=0.95 fails
## an ecosystem below that share. Not part of `make test`.
.PHONY: api-recall
APIRECALL_CACHE ?= $(or $(DOCIDX_APIRECALL_CACHE),$(or $(TMPDIR),/tmp)/docidx-apirecall)
APIRECALL_OUT ?= $(or $(DOCIDX_APIRECALL_OUT),$(CURDIR)/dist/api-recall.md)
api-recall:
	@test -f $(APIRECALL_CACHE)/typescript/node_modules/typescript/lib/typescript.js || \
	  (mkdir -p $(APIRECALL_CACHE)/typescript && cd $(APIRECALL_CACHE)/typescript && npm install --no-audit --no-fund --silent typescript@5)
	DOCIDX_CORPUS=$(CORPUS) DOCIDX_APIRECALL=1 DOCIDX_APIRECALL_CACHE=$(APIRECALL_CACHE) DOCIDX_APIRECALL_OUT=$(APIRECALL_OUT) \
	  $(GO) test -count=1 -timeout 90m -run 'TestAPIRecall$$' ./cmd/docidx
	@cat $(APIRECALL_OUT)

## e2e: crawl real packages from the configured registries and local caches (needs network).
e2e: build
	DOCIDX_CORPUS=$(CORPUS) BIN=$(BIN) bash scripts/e2e.sh

## e2e-registries: crawl from the real registries as this machine configures them (needs network;
## an ecosystem whose registry does not answer is skipped, saying so): PyPI through the JSON API
## and the PEP 691 simple API (wheels, sdists), crates.io's sparse index, the Go proxy, npm; then
## lockfiles made by uv, poetry, pip-compile, cargo, npm, pnpm, yarn and go mod tidy (installed
## into a temp dir; E2E_TOOLS=DIR keeps them), each checked to parse to the versions its tool
## resolved, and a search hit from each.
e2e-registries: build
	BIN=$(BIN) bash scripts/e2e-registries.sh

## faults: issue 15's fault benchmark, offline: damaged snapshots, malformed JSON-RPC over stdio and
## HTTP, crawl faults, leaks; prints tries/ok/crash/hang/lost/wrong per group, fails if any try did.
faults: build
	BIN=$(BIN) bash scripts/faults.sh

## demo: the README's quick start: index this module's own dependencies from the local module
## cache, then ask the MCP server over stdio.
demo: build
	bash scripts/demo.sh

## fuzz: run every fuzz target for FUZZTIME each.
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin build dist

## conformance: the official MCP conformance suite against `docidx serve --http` (stateful and
## --stateless) and the MCP Inspector's --strict schema check over stdio. Installs Node 22 and the
## npm packages into $(CONFORMANCE_DIR) (not part of `make test`).
.PHONY: conformance
CONFORMANCE_DIR ?= $(or $(TMPDIR),/tmp)/docidx-conformance
conformance: build
	CONFORMANCE_DIR=$(CONFORMANCE_DIR) BIN=$(BIN) bash scripts/conformance.sh

## release: the release artifacts in dist/, offline from a clean clone: static binaries for linux,
## darwin and windows on amd64 and arm64 in archives (tar.gz, zip for windows) with README, LICENSE,
## NOTICE, THIRD_PARTY_LICENSES (the license texts of every module linked in and of Go's standard
## library, written by tools/release/thirdparty), the man page and shell completions, an SPDX SBOM beside each archive
## (ARCHIVE.sbom.json, made by syft), checksums.txt, the Claude Desktop bundle (.mcpb, packed by
## scripts/mcpb.sh with the official npm CLI), server.json for the MCP Registry, and the container
## image as an OCI layout tar (tools/release/ociimage; no daemon, no base image). Nothing is
## published.
## goreleaser and syft are pinned in their own module, tools/release/go.mod, not in the main
## go.mod: their several hundred dependencies would otherwise be in every `make test` and every
## user's `go install` module graph, for tools only releases run. goreleaser runs syft as
## build/tools/syft from dist/ (.goreleaser.yaml's sboms), with GOMODCACHE passed so that syft
## reads the modules' licenses from the module cache the binaries were built from.
.PHONY: release release-check completion man
GORELEASER ?= $(GO) tool -modfile=tools/release/go.mod goreleaser
release: completion man build/tools/syft
	cd tools/release && $(GO) run ./thirdparty -repo ../.. -o ../../build/THIRD_PARTY_LICENSES
	GOMODCACHE="$$($(GO) env GOMODCACHE)" $(GORELEASER) release --snapshot --clean
	bash scripts/mcpb.sh
	cd tools/release && $(GO) run ./ociimage -dist ../../dist -server ../../packaging/server.json -license ../../LICENSE -notice ../../NOTICE
	cd dist && sha256sum docidx_*_oci.tar >> checksums.txt

## build/tools/syft: the SBOM generator, at the version tools/release/go.mod pins, stamped with
## that version as syft's own release builds are, so the SBOMs name the tool that made them.
build/tools/syft: tools/release/go.mod tools/release/go.sum
	cd tools/release && v=$$($(GO) list -m -f '{{.Version}}' github.com/anchore/syft) && \
	  CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$$v" -o ../../build/tools/syft github.com/anchore/syft/cmd/syft

## completion: shell completion scripts into build/completions (also in the release archives).
completion: build
	mkdir -p build/completions
	$(BIN) completion bash > build/completions/docidx.bash
	$(BIN) completion zsh > build/completions/_docidx
	$(BIN) completion fish > build/completions/docidx.fish
	$(BIN) completion powershell > build/completions/docidx.ps1

## man: the manual page, build/man/docidx.1 (also in the release archives as man/docidx.1).
man: build
	mkdir -p build/man
	$(BIN) man > build/man/docidx.1

## release-check: the smoke test of dist/ after `make release` (not in `make test`): LICENSE and
## NOTICE in every archive, the bundle and the image; each archive's SBOM listing the Go modules
## its binary is built from; the linux archive's version and an offline crawl, the MCPB bundle's
## entry point under the MCP Inspector, the OCI image's labels (license among them) and
## entrypoint, server.json against the registry schema and naming the license.
release-check:
	GO=$(GO) bash scripts/release-check.sh
## browser-test: headless Chromium through the HTML pages of `docidx serve --http` over a snapshot
## crawled offline from registries/gomod's fixture: search ("/" focuses the box) → package →
## version switcher → API outline → symbol → upgrade diff → snapshot, a crafted package whose
## README and doc comments try to run script, the results in dark mode on a phone screen, search
## and version switcher with JavaScript off, every page kind (home, results, package, README, API,
## symbol, diff, snapshot, not found) light and dark at desktop and phone width (gallery-*.png);
## then every link to the server those pages showed. Fails on any console error, uncaught
## exception, CSP violation, failed request or request that leaves 127.0.0.1, a broken link, and
## if CSP lets an inline script run; saves a PNG per page in dist/browser-test/. DOCIDX_BIN=FILE
## tests another docidx build. Installs Debian's chromium package (apt-get, with sudo unless
## root) when no Chromium is on PATH and DOCIDX_CHROMIUM is unset. Not part of `make test`:
## browsertest/ is a module of its own (its doc.go says why), so ./... never builds it.
.PHONY: browser-test
SUDO ?= $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser-test: build
	@if [ -z "$$DOCIDX_CHROMIUM" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then \
	  echo "browser-test: installing Debian's chromium package"; \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi
	cd browsertest && $(GO) vet . && DOCIDX_BIN=$${DOCIDX_BIN:-$(abspath $(BIN))} $(GO) test -count=1 -v .

## segbench: issue 16's snapshot benchmark through the CLI only (scripts/segbench.sh; not part of
## `make test`; about 45 minutes on 2 cores with nothing cached): full offline crawl of N, 2N and
## 4N package versions (the corpus and renamed copies of it), adding 1, 10 and 100 versions to
## each, snapshot bytes per hit, search p50/p99 and a merge of two --shard halves, as a Markdown
## table. SEGBENCH_BIN=FILE measures another docidx binary (bin/docidx is built otherwise);
## snapshots are cached per binary in SEGBENCH_DIR.
.PHONY: segbench
SEGBENCH_BIN ?=
SEGBENCH_DIR ?= $(or $(TMPDIR),/tmp)/docidx-segbench
segbench: $(if $(SEGBENCH_BIN),,build)
	BIN=$(or $(SEGBENCH_BIN),$(BIN)) CORPUS=$(CORPUS) WORK=$(SEGBENCH_DIR) bash scripts/segbench.sh
