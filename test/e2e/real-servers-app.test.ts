// The real app in tmux on real third-party servers (server-filesystem, server-everything) and
// the schema-edge fixture: /tools lists the real servers' tools (none set aside: server-everything
// runs its task-only tool as a task, and that task runs to its report on a card showing its
// status), /servers names every finding, and a legacy call whose
// structuredContent breaks its outputSchema shows the warning on its card; the transcript
// keeps the warning and the result _meta.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT } from "../helpers/host-fixtures.js";
import { EVERYTHING, FILESYSTEM, realServerFiles } from "../helpers/real-servers.js";
import { SCHEMA_EDGE } from "../helpers/schema-edge.js";

const files = realServerFiles();
const open: AppTerminal[] = [];
after(() => {
  open.forEach((t) => t.close());
  files.remove();
});

test("/tools, /servers and a tool card on real servers show every rule; nothing is hidden", async () => {
  const cfg = join(files.dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        fs: { command: process.execPath, args: [FILESYSTEM, files.files] },
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        edge: { command: process.execPath, args: ["--import", "tsx", SCHEMA_EDGE, "--era", "legacy"], cwd: ROOT },
      },
      roots: [files.files],
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--yes"],
    columns: 160,
    rows: 60,
    ready: /edge 2025-11-25 connected/,
  });
  open.push(t);
  await t.waitFor(/fs 2025-11-25 connected[\s\S]*everything 2025-11-25 connected/, "every server connected");
  // The conversation only (no side pane), its lines without trailing blanks.
  await t.send("/pane off");

  // Each listing is taller than the terminal: Ink redraws it with a clear-and-rewrite, so a capture
  // can land mid-redraw. Wait for a capture that holds every expected line, and assert on that one.
  const trimmed = (x: string) => x.replace(/ +$/gm, "");
  const whole = (lines: RegExp[]) => (x: string) => lines.every((r) => r.test(trimmed(x)));
  const toolLines = [
    /^read_text_file \(fs, legacy\) → assistant\/content$/m,
    /^get-structured-content \(everything, legacy\) → assistant\/content$/m,
    /^simulate-research-query \(everything, legacy\) → assistant\/content$/m,
    /^ {2}⚠ edge · bad_output_schema \[uncompilable-output-schema\]: outputSchema does not compile/m,
    /edge · task_only unavailable/,
  ];
  t.submit("/tools");
  let s = trimmed(await t.waitFor(whole(toolLines), "the whole /tools listing", { history: 400 }));
  for (const r of toolLines) assert.match(s, r);
  assert.doesNotMatch(s, /✗ fs · /, "no filesystem tool set aside");
  assert.doesNotMatch(s, /✗ everything · /, "no everything tool set aside: the task-only one runs as a task");

  const serverLines = [
    /^everything {2}2025-11-25 {2}connected$/m,
    /^fs {2}2025-11-25 {2}connected$/m,
    // The roots each server was given (the config's; without `roots`, none are offered).
    new RegExp(
      `^fs {2}2025-11-25 {2}connected\\n {2}roots:\\n {4}${pathToFileURL(files.files).href.replace(/[/.]/g, "\\$&")}$`,
      "m",
    ),
    /^edge {2}2025-11-25 {2}connected\n {2}tools: 2 usable, 1 unavailable; set aside:$/m,
  ];
  t.submit("/servers");
  s = trimmed(await t.waitFor(whole(serverLines), "the whole /servers listing", { history: 400 }));
  for (const r of serverLines) assert.match(s, r);

  t.submit("/call breaks_schema {}");
  const cardLines = [
    /✓ edge · breaks_schema[\s\S]*⚠ \[schema-violation\]/,
    /^ {2}⚠ \[schema-violation\] structuredContent dropped: \/n must be number \(outputSchema\); the content is routed$/m,
    /model sees: n is seven/,
  ];
  s = trimmed(
    await t.waitFor((x) => whole(cardLines)(x) && !x.includes("working…"), "the card with its warning", {
      history: 400,
    }),
  );
  for (const r of cardLines) assert.match(s, r);

  // The task-only tool: created, polled (its status on the card while it runs), its report routed.
  t.submit('/call simulate-research-query {"topic":"tides"}');
  await t.waitFor(
    /task working: (Gathering sources|Analyzing content|Synthesizing findings|Generating report)/,
    "the task's status on its card",
    { history: 400 },
  );
  s = trimmed(
    await t.waitFor(/✓ everything · simulate-research-query[\s\S]*Research Report: tides/, "the task's report", {
      history: 400,
    }),
  );
  assert.match(s, /Research Report: tides/);

  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  const dir = join(t.stateDir, "mcp-prism");
  const records = readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
  const call = records.find((r) => r.kind === "tool" && r.tool === "breaks_schema");
  assert.equal(call.warnings[0].rule, "schema-violation");
  assert.deepEqual(call.resultMeta, { "com.example/trace": { id: "t-1" }, "io.example/cost": 3 });
  assert.deepEqual(call.routed.programmatic, []);
});
