// Package answer is docidx's one answer layer: every question the snapshot answers — search,
// describe a package or symbol, read a URI, get a document, list packages, count what is
// indexed, compare two versions' APIs, give a whole page, list the pages to pick from — is one
// method of Service, and each answer comes as markdown text for a model or a person and as
// structured content (ListPages, for resources/list, as structured content only). Its input and
// output types (SearchInput, SearchOutput, DescribeOutput, PackageListing, APIDiff …) are the
// shapes of the MCP tools' arguments and results, and of the CLI's --json. The tools' output
// types (SearchOutput, DescribeOutput, ReadOutput, DocOutput, ListOutput) and Stats carry
// SchemaVersion, set to docidx.SchemaVersion by the method that answers; their JSON Schemas are
// published in the repository's schemas/ directory and docs/json-changelog.md records each
// change of shape: rename or remove a json field only with a raise of docidx.SchemaVersion.
//
// Who calls it: serve, the MCP server, whose tools, resources and prompts are thin adapters
// (argument schemas, JSON-RPC, transports); web, the HTML pages; and cmd/docidx, the CLI's search,
// show, read, list and stats. So the three never disagree. Answers say what to do next in the
// caller's words (Words): MCP tool and argument names for serve ("read_package_doc with its
// uri", "cursor"), commands and flags for the CLI ("docidx read URI", "--cursor"), pages and
// links for web, which answers through a copy of serve's Service in its own words (WithWords).
//
// A Service answers from the *index.Reader a function returns, asked anew at every request
// (New). That is how it follows a snapshot reload: serve swaps its reader (SetReader) and the
// same Service answers from the new one at once, with no Service per generation to build, hand
// to web and replace; serve keeps the replaced reader open until the requests that began on it
// end. Its caches of decoded symbols and documents are keyed by reader, so a reload never serves
// what an old snapshot held.
//
// Errors: a method returns
//
//   - an *ArgumentError, wrapping docidx.ErrUsage, for arguments no snapshot could answer (an
//     empty query, an unknown ecosystem, a bad cursor or URI); it names the argument;
//   - an error wrapping docidx.ErrNotFound for what the snapshot does not hold (a package,
//     version, document, symbol or anchor, a search without hits, an ambiguous bare name), or
//     context.DeadlineExceeded for a search that ran out of time; its message says what is
//     there instead and what to try;
//   - an *InternalError when the snapshot could not be read (a damaged file, a closed reader).
//
// Callers test them with errors.Is and errors.As and map them at their edge: serve to JSON-RPC
// codes and tool errors (serve's wireError), web to HTTP statuses, the CLI to exit codes. answer
// never builds a protocol error.
//
// answer reads a snapshot through *index.Reader only and never writes it. It imports docidx,
// index and the standard library — no MCP SDK, no serve, web, registries, crawl or readme
// (deps_test.go enforces it).
package answer
