// Package packaging holds docidx's release manifests, which `make release` fills in and ships:
// server.json, the entry for the official MCP Registry (schema 2025-12-11,
// https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json), and
// mcpb/manifest.json, the Claude Desktop bundle's manifest (MCPB, github.com/anthropics/mcpb).
//
// The package has no code: it exists so that `go test` checks these files against their schemas
// (testdata/server.schema.json is the registry's own copy of that schema, from
// github.com/modelcontextprotocol/registry v1.8.9, internal/validators/schemas/2025-12-11.json,
// less the npm registry's address among registryBaseUrl's examples: docidx's repository names
// no registry host, and examples do not validate;
// testdata/mcpb-manifest-v0.3.schema.json is the MCPB schema from the npm package
// @anthropic-ai/mcpb 2.1.2), and checks the license they ship under: the repository's LICENSE is
// the Apache License 2.0 text unmodified, both manifests name it as "Apache-2.0" (server.json,
// whose schema has no license field, in _meta's publisher-provided object), and NOTICE carries the
// NOTICE file of every module linked into the binary that has one.
package packaging
