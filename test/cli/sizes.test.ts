// One measure of size: the same call shows the same sizes on the app's tool card, in
// `call --json` and in `compare --json` (the built CLI and the real demo server over stdio).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { Host } from "../../src/host/host.js";
import { formatBytes } from "../../src/host/result/measure.js";
import { sinkSummary } from "../../src/ui/components/ToolCard.js";
import { renderCall } from "../../src/cli/output/call.js";
import { BIN, config, demoStdio, tempDir } from "../helpers/host-fixtures.js";

function cliJson(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, "--json"], {
    cwd: tempDir(),
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

let host: Host | undefined;
after(async () => host?.close());

const ARGS = '{"query":"Globex"}';

test("card, call --json and compare --json agree on every sink's size, in every mode", async () => {
  host = await Host.start({ config: config({ demo: demoStdio() }), eraCache: false });
  const compare = cliJson(["compare", "search_customers", "--args", ARGS]);
  for (const mode of ["chat", "structured", "code", "app", "minimal"] as const) {
    const outcome = await host.call("search_customers", { query: "Globex" }, { mode });
    assert.ok(outcome.ok, mode);
    const call = cliJson(["call", "search_customers", "--args", ARGS, "--mode", mode]);
    const row = compare.modes.find((r: { label: string }) => r.label === mode);
    for (const sink of ["model", "user", "programmatic", "app"] as const) {
      assert.equal(outcome.bytes[sink], call.sizes[sink].bytes, `${mode} ${sink}: card = call --json`);
      assert.equal(call.sizes[sink].bytes, row.sinks[sink].bytes, `${mode} ${sink}: call --json = compare --json`);
    }
    // What the card prints is that number in the one format, and so is `call`'s human view.
    const card = sinkSummary(outcome);
    const human = renderCall(outcome);
    for (const sink of ["user", "programmatic", "app"] as const) {
      if (call.sizes[sink].outputs === 0) continue;
      assert.ok(card.includes(formatBytes(outcome.bytes[sink])), `${mode}: card ${card}`);
      assert.ok(
        human.includes(formatBytes(call.sizes[sink].bytes)),
        `${mode}: call shows ${formatBytes(call.sizes[sink].bytes)}`,
      );
    }
    if (outcome.routed.model.length) {
      assert.match(card, new RegExp(`model ${formatBytes(call.sizes.model.bytes)}`));
      // The model's size is its text: "I found 37 …" in bytes, not the JSON wrapping of the output.
      const text = outcome.routed.model
        .map((o) =>
          o.format === "content"
            ? o.content.map((b) => (b.type === "text" ? b.text : "")).join("")
            : JSON.stringify(o.structuredContent),
        )
        .join("");
      assert.equal(outcome.bytes.model, Buffer.byteLength(text));
    }
  }
});

test("one byte format: B, kB, MB (1 kB = 1024 B), never KB", () => {
  assert.equal(formatBytes(212), "212 B");
  assert.equal(formatBytes(2649), "2.6 kB");
  assert.equal(formatBytes(48 * 1024), "48 kB");
  assert.equal(formatBytes(1.2 * 1024 * 1024), "1.2 MB");
});
