// Package serve exposes a docidx snapshot to AI clients as a read-only Model Context Protocol
// server, built on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// It owns the MCP surface of DESIGN.md §6: the tools (search_package_docs, describe_go_package,
// describe_npm_package, get_package_doc, get_npm_package_doc, list_packages), their JSON
// Schemas, the token budget that bounds every answer, the opaque paging cursors, and the stdio
// transport with its guard against go-sdk issue #1061 (requests read before stdin closed are
// answered before exit). Resources, prompts, completion and Streamable HTTP are planned to live
// beside the tools, one file per concern.
//
// The protocol followed is MCP as the SDK implements it: revisions 2024-11-05 through 2026-07-28
// (https://modelcontextprotocol.io/specification). Tool results carry structuredContent matching
// each tool's outputSchema, plus a compact markdown rendering of the same data as text content.
//
// serve reads a snapshot through *index.Reader only and never writes it. It imports docidx, index,
// the SDK and the standard library — never registries, crawl or readme — so serving can never reach
// a package registry or the network (deps_test.go enforces the import rule; serve's tests fail on
// any HTTP request).
package serve
