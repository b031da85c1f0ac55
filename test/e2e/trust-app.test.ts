// Trust in the real app under tmux: with two servers whose names would collide (a: x; b: x and
// a__x), the approval prompt for a__x names server a and the call runs there; cut arguments can be
// viewed whole before answering; a hostile server's start-up text never acts on the terminal.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";
import { TRUST_SERVER } from "../helpers/trust.js";

const open: AppTerminal[] = [];
const dirs: string[] = [];
after(() => {
  open.forEach((t) => t.close());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const server = (label: string, tools: string[], mode = "") => ({
  command: process.execPath,
  args: [TRUST_SERVER, "--label", label, "--tools", tools.join(","), "--mode", mode],
  cwd: ROOT,
});

function configFile(servers: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "prism-trust-"));
  dirs.push(dir);
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

test("approval names the server that runs; the whole arguments can be viewed first", async () => {
  const config = configFile({ a: server("a", ["x"]), b: server("b", ["x", "a__x"]) });
  const t = await startApp({ args: ["--config", config], columns: 120, rows: 40, ready: /b 2025-06-18 connected/ });
  open.push(t);
  await t.waitFor(/a 2025-06-18 connected/, "server a");
  const long = `${"harmless ".repeat(60)}; TAIL-ONLY-IN-FULL-VIEW`;
  t.submit(`call a__x {"cmd":"${long}"}`);
  let s = await t.waitFor(/\[y\]es \/ \[n\]o/, "the approval prompt");
  assert.match(s.replace(/[│\s]+/g, " "), /Run tool x on server a with/);
  // The prompt box only (the typed line above it shows the whole text anyway).
  const box = (screen: string) => screen.slice(screen.indexOf("Run tool"));
  assert.doesNotMatch(box(s), /TAIL-ONLY-IN-FULL-VIEW/, "cut in the one-line prompt");
  t.keys("v");
  s = await t.waitFor(/with these arguments\?/, "the expanded arguments");
  assert.match(box(s).replace(/[│\s]+/g, ""), /TAIL-ONLY-IN-FULL-VIEW/);
  t.keys("y");
  s = await t.idle(/answered-by=a tool=x/, "the call ran on server a");
  assert.doesNotMatch(s, /answered-by=b/);
  // b's own tool named a__x is b__a__x, and approving it names server b.
  t.submit('call b__a__x {"k":1}');
  s = await t.waitFor(/\[y\]es \/ \[n\]o/, "the second approval prompt");
  assert.match(s.replace(/[│\s]+/g, " "), /Run tool a__x on server b with/);
  t.keys("y");
  await t.idle(/answered-by=b tool=a__x/, "b's tool ran on b");
});

test("a hostile server's name, version, instructions and stderr never act on the terminal", async () => {
  const config = configFile({ h: server("h", ["x"], "hostile"), c: server("c", ["y"], "crash") });
  const t = await startApp({ args: ["--config", config], columns: 140, rows: 60, ready: /h 2025-06-18 connected/ });
  open.push(t);
  const title = t.format("#{pane_title}");
  t.submit("/marker-before");
  await t.idle(/unknown command \/marker-before/, "the marker");
  t.submit("/servers");
  await t.idle(/servers|h /, "/servers");
  t.submit('call x {"a":1}');
  await t.waitFor(/\[y\]es \/ \[n\]o/, "approval");
  t.keys("y");
  const s = await t.idle(/error: /, "the hostile error");
  if (process.env.SHOW_SCREEN) console.log(s);
  assert.equal(t.format("#{pane_title}"), title, "the pane title never changed");
  assert.match(s, /unknown command \/marker-before/, "the screen was never cleared");
  assert.doesNotMatch(s, /\p{M}{5}/u, "no combining-mark flood drawn");
  assert.doesNotMatch(s, /[\u3164\u115f\u1160\uffa0]/u, "no invisible filler drawn");
});
