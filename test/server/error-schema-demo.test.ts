// SEP-3279 open question 2 in the demo (opt-in, `demo-server --error-schemas`): draft_email's
// programmatic variant declares its error shape as `errorSchema`. Shown to mcp-prism as a host
// (`tools` prints it; a failed call's programmatic error output conforms and is routed as always),
// to the SDK v2 client at 2026-07-28 (it never sees the field), and its cost in listing bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createDemoServer } from "../../src/demo/server.js";
import { demoErrorSchema } from "../../src/demo/tools/client-input.js";
import { compileSchema } from "../../src/protocol/index.js";
import type { RequestContext } from "../../src/server/index.js";
import { CLI, modernMeta } from "../helpers/raw-stdio.js";
import { runCli } from "../conformance/run-check.js";

const ctx = (): RequestContext => ({ signal: new AbortController().signal, notify: async () => {} });
const listing = async (errorSchemas: boolean, version: string) =>
  (await createDemoServer({ errorSchemas }).handle("tools/list", { _meta: modernMeta(version) }, ctx())) as {
    tools: { name: string; outputVariants?: Record<string, unknown>[] }[];
  };

test("only with --error-schemas, only under 2026-12-01, and only draft_email's programmatic variant", async () => {
  const on = await listing(true, "2026-12-01");
  const draft = on.tools.find((t) => t.name === "draft_email")!;
  const declared = draft.outputVariants!.filter((v) => v.errorSchema !== undefined);
  assert.deepEqual(
    declared.map((v) => `${v.audience}/${v.format}`),
    ["programmatic/structured"],
  );
  assert.deepEqual(declared[0].errorSchema, demoErrorSchema);
  assert.equal(JSON.stringify(on).split('"errorSchema"').length - 1, 1);
  assert.doesNotMatch(JSON.stringify(await listing(false, "2026-12-01")), /errorSchema/);
  assert.doesNotMatch(JSON.stringify(await listing(true, "2026-07-28")), /errorSchema/);
  // Its cost: exactly the bytes of the one field, in every 2026-12-01 listing.
  const bytes = async (flag: boolean) => JSON.stringify((await listing(flag, "2026-12-01")).tools).length;
  assert.equal((await bytes(true)) - (await bytes(false)), JSON.stringify({ errorSchema: demoErrorSchema }).length - 1);
});

test("mcp-prism as the host: tools shows it, and the failed call's programmatic error conforms", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-q2-"));
  try {
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: [CLI, "demo-server", "--error-schemas"] } },
      }),
    );
    const tools = await runCli(["tools", "--config", config]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /programmatic\/structured {2}object \{[^}]*\} {2}error: object \{error\}/);
    // An unknown customer (the tool's own error) and an id the inputSchema refuses (the toolkit's).
    for (const [id, code] of [
      ["cust_9999", "unknown_customer"],
      ["nope", "invalid_arguments"],
    ]) {
      const call = await runCli([
        "call",
        "draft_email",
        "--config",
        config,
        "--args",
        JSON.stringify({ customerId: id }),
        "--mode",
        "code",
        "--json",
      ]);
      const doc = JSON.parse(call.stdout);
      assert.equal(doc.isError, true, call.stdout);
      const programmatic = doc.routed.programmatic[0].structuredContent;
      assert.equal(programmatic.error.code, code);
      assert.ok(compileSchema(demoErrorSchema)(programmatic), "the error output conforms to the declared errorSchema");
      assert.deepEqual(doc.routed.model, [], "nothing of it reaches the model in code mode");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the SDK v2 client at 2026-07-28 never sees errorSchema and gets the legacy error result", async () => {
  const client = new Client(
    { name: "q2-legacy", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
  );
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, "demo-server", "--error-schemas"] }),
  );
  try {
    const list = await client.listTools();
    assert.ok(list.tools.some((t) => t.name === "draft_email"));
    assert.doesNotMatch(JSON.stringify(list), /errorSchema/);
    const r = await client.callTool({ name: "draft_email", arguments: { customerId: "cust_9999" } });
    assert.equal(r.isError, true);
    assert.match((r.content as { text: string }[])[0].text, /There is no customer cust_9999/);
  } finally {
    await client.close();
  }
});
