// The real app in tmux on server-everything (legacy era, stdio) and the demo server (modern era):
// /resources lists both servers' resources and templates, /read shows a resource here, and
// `@URI` in a prompt attaches one — shown on the user's turn, and the offline model's reply says
// it was given it; the transcript records the attachment.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const dir = mkdtempSync(join(tmpdir(), "prism-resources-app-"));
const open: AppTerminal[] = [];
after(() => {
  open.forEach((t) => t.close());
  rmSync(dir, { recursive: true, force: true });
});

test("/resources, /read and @ attachment in the app", async () => {
  const cfg = join(dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        demo: { command: process.execPath, args: [BIN, "demo-server"] },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--yes"],
    columns: 160,
    rows: 60,
    ready: /everything 2025-11-25 connected/,
  });
  open.push(t);
  await t.waitFor(/demo 2026-12-01 connected/, "the demo server connected");
  await t.send("/pane off");
  const trimmed = (x: string) => x.replace(/ +$/gm, "");

  t.submit("/resources everything");
  const listed = [
    /^everything · 7 resources, 2 templates$/m,
    /^ {2}demo:\/\/resource\/dynamic\/text\/\{resourceId\} {2}Dynamic Text Resource \(template\)$/m,
  ];
  let s = trimmed(
    await t.waitFor((x) => listed.every((r) => r.test(trimmed(x))), "the /resources listing", { history: 200 }),
  );
  for (const r of listed) assert.match(s, r);
  // The demo lists every customer (hundreds of lines): its head and its templates.
  t.submit("/resources demo");
  const demo = [
    /^demo · \d{3} resources, 2 templates$/m,
    /^ {2}ui:\/\/dashboard\/index\.html {2}Customer dashboard \(text\/html;profile=mcp-app\)$/m,
    /^ {2}customers:\/\/\{id\} {2}Customer record \(template\)$/m,
  ];
  s = trimmed(
    await t.waitFor((x) => demo.every((r) => r.test(trimmed(x))), "the demo's /resources listing", { history: 1000 }),
  );
  for (const r of demo) assert.match(s, r);

  t.submit("/read demo://resource/dynamic/text/5");
  s = trimmed(
    await t.waitFor(/Resource 5: This is a plaintext resource created at/, "the resource shown", { history: 200 }),
  );
  assert.match(s, /^\[1\] demo:\/\/resource\/dynamic\/text\/5 · text\/plain, \d+ B$/m);

  t.submit("/read ui://dashboard/index.html demo");
  s = trimmed(
    await t.waitFor(
      /^\[2\] ui:\/\/dashboard\/index\.html · text\/html;profile=mcp-app/m,
      "the demo's resource shown (modern era)",
      { history: 200 },
    ),
  );

  t.submit("what does it say @demo://resource/static/document/features.md");
  s = trimmed(
    await t.idle(
      /I was given the attached demo:\/\/resource\/static\/document\/features\.md \(\d+ characters\)/,
      "the model's reply",
      { history: 200 },
    ),
  );
  assert.match(s, /^attached everything · demo:\/\/resource\/static\/document\/features\.md \(\d+(\.\d)? (B|kB)\)$/m);

  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  const state = join(t.stateDir, "mcp-prism");
  const records = readdirSync(state)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      readFileSync(join(state, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
  const attached = records.find((r) => r.kind === "attachments");
  assert.deepEqual(
    attached?.resources.map((r: { uri: string }) => r.uri),
    ["demo://resource/static/document/features.md"],
  );
});
