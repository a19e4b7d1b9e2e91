// ts-client.mjs: drive `docidx serve --stdio` with the official MCP TypeScript SDK client, the way
// editors built on it do. Used by scripts/e2e.sh; run with NODE_PATH pointing at a node_modules
// that holds @modelcontextprotocol/sdk.
//
//   node scripts/ts-client.mjs BIN INDEX
import { createRequire } from "node:module";
const require = createRequire(process.env.NODE_PATH ? process.env.NODE_PATH + "/" : import.meta.url);
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const [bin, index] = process.argv.slice(2);
const fail = (msg) => { console.error("ts-client: FAIL: " + msg); process.exit(1); };

const client = new Client({ name: "docidx-e2e", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: bin, args: ["serve", "--stdio", "--index", index], stderr: "inherit" }));

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
for (const want of ["describe_go_package", "describe_npm_package", "get_npm_package_doc", "get_package_doc", "list_packages", "search_package_docs"]) {
  if (!names.includes(want)) fail(`tools/list lacks ${want}: ${names}`);
}
for (const t of tools) {
  if (!t.annotations?.readOnlyHint || !t.outputSchema) fail(`${t.name}: readOnlyHint or outputSchema missing`);
}

// The SDK client validates structuredContent against each tool's output schema.
const search = await client.callTool({ name: "search_package_docs", arguments: { query: "define a subcommand with persistent flags", limit: 3 } });
const results = search.structuredContent?.results ?? [];
if (!results.some((r) => r.purl?.startsWith("pkg:golang/github.com/spf13/cobra@"))) fail("cobra not in the top 3: " + JSON.stringify(results.map((r) => r.purl)));

const g = await client.callTool({ name: "describe_go_package", arguments: { package: "golang.org/x/sync/errgroup", symbol: "Group.Go" } });
if (!g.structuredContent?.symbols?.some((s) => s.signature === "func (g *Group) Go(f func() error)")) fail("errgroup Group.Go: " + JSON.stringify(g.structuredContent));

const z = await client.callTool({ name: "describe_npm_package", arguments: { package: "zod" } });
if (!z.structuredContent?.description || !z.structuredContent?.readme) fail("zod: no description or README summary");

const bad = await client.callTool({ name: "describe_npm_package", arguments: { package: "zdo" } });
if (!bad.isError || !/did you mean/.test(bad.content[0].text)) fail("unknown package: " + JSON.stringify(bad));

await client.close();
console.log(`ts-client: ok (${tools.length} tools; search, describe_go_package, describe_npm_package, did-you-mean)`);
