// Package serve exposes a docidx snapshot to AI clients as a read-only Model Context Protocol
// server, built on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// It owns the MCP surface of docs/ARCHITECTURE.md §6 — the protocol edge, not the answers: what a tool,
// resource or prompt says is composed by package answer (Server.Answers), in MCP's words
// (mcpWords), and answer.go maps its errors to JSON-RPC in one place (wireError). One file per
// concern:
//
//   - tools.go: the tools (search_package_docs, describe_<ecosystem>_package for Go, npm, PyPI,
//     crates and Swift, get_package_doc, get_npm_package_doc, read_package_doc, list_packages),
//     with schema.go (strict-client JSON Schemas);
//   - resources.go: one docidx:// resource per page of every package version, the snapshot
//     resource, the resource templates; resources/list (each version's overview, README, API
//     outline and documents, not its symbols) and resources/read are answered from the store by
//     a receiving middleware, so start-up cost does not grow with the snapshot;
//   - prompts.go: use_package, explain_symbol, upgrade_package (an API diff of two versions);
//   - complete.go: completion/complete for prompt arguments and template variables;
//   - notify.go: progress notifications and notifications/message logging;
//   - generations.go: a reload (SetReader) releases the snapshot it leaves when the last request
//     that may read it ends, and the SDK's notification warnings come once per reload;
//   - stdio.go: the stdio transport, with its guard against go-sdk issue #1061 (requests read
//     before stdin closed are answered before exit);
//   - http.go: Streamable HTTP with Host, Origin, token, rate and size checks, /healthz and a
//     graceful drain.
//
// The protocol followed is MCP as the SDK implements it: revisions 2024-11-05 through 2026-07-28
// (https://modelcontextprotocol.io/specification), behaving as each says where they differ (an
// unknown resource is -32002 up to 2025-11-25 and -32602 from 2026-07-28 on, SEP-2164). Tool
// results carry structuredContent matching each tool's outputSchema, plus a compact markdown
// rendering of the same data as text content. The output schemas are internal/docschema's, the
// files published in the repository's schemas/ directory (the CLI's --json prints the same
// documents), and every structuredContent carries schemaVersion (docs/json-changelog.md).
//
// No answer carries a C0 or C1 control character but tab and newline, whatever a package wrote:
// the results of the methods that read the snapshot, and error messages, are cleaned by
// internal/safetext's rule for AI clients (see guard); printable Unicode, bidi included, stays.
//
// serve reads a snapshot through *index.Reader only and never writes it. It imports docidx, answer,
// index, the SDK, golang.org/x/time/rate and the standard library — never registries, crawl or readme —
// so serving can never reach a package registry or the network (deps_test.go enforces the import
// rule; serve's tests fail on any HTTP request not sent to their own loopback servers).
package serve
