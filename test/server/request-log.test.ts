// demo-server --log-requests: what a reviewer reads to see the wire. Driven by the real CLI
// (`mcp-prism call`) against the real demo server, so it also shows the host's selection on the wire.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "prism-reqlog-"));

async function callsLogged(protocol: string | undefined, mode: string): Promise<Array<Record<string, any>>> {
  const log = join(dir, `${protocol ?? "default"}-${mode}.jsonl`);
  const config = join(dir, `${protocol ?? "default"}-${mode}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: ["bin/mcp-prism.js", "demo-server", "--log-requests", log] },
      },
    }),
  );
  const args = [
    "bin/mcp-prism.js",
    "call",
    "search_customers",
    "--args",
    '{"query":"Globex"}',
    "--mode",
    mode,
    "--config",
    config,
    "--json",
  ];
  if (protocol) args.push("--protocol", protocol);
  await run(process.execPath, args);
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

test("2026-12-01 code mode: the logged tools/call carries requestedOutputs and the answer only that output", async () => {
  const entries = await callsLogged(undefined, "code");
  const req = entries.find((e) => e.dir === "request" && e.method === "tools/call")!;
  assert.deepEqual(req.params.requestedOutputs, [{ audience: "programmatic", format: "structured" }]);
  assert.equal(req.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-12-01");
  const res = entries.find((e) => e.dir === "result" && e.method === "tools/call")!;
  assert.deepEqual(
    res.result.outputs.map((o: any) => `${o.audience}/${o.format}`),
    ["programmatic/structured"],
  );
});

for (const protocol of ["2026-07-28", "2025-11-25"]) {
  test(`${protocol}: no requestedOutputs is sent, whatever the mode, and the answer is the legacy shape`, async () => {
    const entries = await callsLogged(protocol, "code");
    const req = entries.find((e) => e.dir === "request" && e.method === "tools/call")!;
    assert.ok(req, "the call was logged");
    assert.equal("requestedOutputs" in req.params, false);
    const res = entries.find((e) => e.dir === "result" && e.method === "tools/call")!;
    assert.equal("outputs" in res.result, false);
    assert.ok(Array.isArray(res.result.content));
    if (protocol === "2025-11-25") assert.ok(entries.some((e) => e.method === "initialize"));
  });
}
