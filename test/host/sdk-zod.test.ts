// A server built with SDK 1.32.2's McpServer.registerTool and a zod outputSchema (it emits a
// draft-07 "$schema"), over stdio and over Streamable HTTP: listed usable, called, and its
// structuredContent validated against that draft-07 schema before it reaches program logic.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { CallOutcome, ToolEntry } from "../../src/host/types.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { compileSchema } from "../../src/protocol/json-schema.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { waitForListeningUrl } from "../helpers/listening.js";

const FIXTURE = join(ROOT, "test", "fixtures", "sdk-zod-server.ts");
const FORECAST = {
  city: "Oslo",
  days: [
    { day: 1, highC: 20, summary: "sunny" },
    { day: 2, highC: 21, summary: "showers" },
  ],
};

function ok(o: CallOutcome) {
  assert.ok(o.ok, o.ok ? "" : `${o.error.rule}: ${o.error.message}`);
  return o as Extract<CallOutcome, { ok: true }>;
}

function checks(start: () => Promise<Host>) {
  let host: Host;
  before(async () => {
    host = await start();
  });
  after(() => host.close());

  test("forecast is listed usable with its draft-07 outputSchema as the SDK emitted it", async () => {
    assert.deepEqual(await host.toolErrors(), []);
    const t = (await host.tools()).find((x) => x.name === "forecast") as ToolEntry;
    assert.equal(t.legacyOutputSchema?.$schema, "http://json-schema.org/draft-07/schema#");
    assert.equal(t.inputSchema.$schema, "http://json-schema.org/draft-07/schema#");
    assert.equal(t.warnings, undefined);
    assert.ok(host.modelTools().some((x) => x.name === "forecast"));
  });

  test("a call routes content to the model and the validated structuredContent to program logic", async () => {
    const o = ok(await host.call("forecast", { city: "Oslo", days: 2 }));
    assert.equal(o.warnings, undefined, "structuredContent passed the draft-07 outputSchema");
    assert.deepEqual(
      o.routed.model.flatMap((e) => (e.format === "content" ? e.content : [])),
      [{ type: "text", text: "Oslo: day 1 sunny 20°C; day 2 showers 21°C" }],
    );
    assert.deepEqual(
      o.routed.programmatic.map((e) => e.structuredContent),
      [FORECAST],
    );
    // The validator the host used is the draft-07 one: it refuses what that schema refuses.
    const schema = (await host.tools()).find((x) => x.name === "forecast")!.legacyOutputSchema!;
    const validate = compileSchema(schema);
    assert.equal(validate(FORECAST), true);
    assert.equal(validate({ ...FORECAST, extra: 1 }), false, "additionalProperties: false is enforced");
  });
}

describe("SDK McpServer + zod over stdio", () => {
  const server: ServerConfig = {
    kind: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", FIXTURE],
    cwd: ROOT,
  };
  checks(() => Host.start({ config: config({ zod: server }) }));
});

describe("SDK McpServer + zod over Streamable HTTP", () => {
  let child: ChildProcess | undefined;
  checks(async () => {
    child = spawn(process.execPath, ["--import", "tsx", FIXTURE, "--http"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const { url } = await waitForListeningUrl(child, "sdk-zod fixture", 20_000);
    return Host.start({ config: config({ zod: { kind: "http", url } }) });
  });
  after(() => void child?.kill()); // after the host's own close (hooks run in order)
});
