// The commands without the app record sessions too (issue 33): -p, `call` and `run` write the same
// JSON Lines transcript as the app, through the core's recorder observing the call lifecycle.
// A -p session is listed by `sessions` and restores to the model's context it had (so
// --continue goes on with it); `call` and `run` keep their calls; an unwritable state directory
// costs one line and nothing else. The bundled CLI on the built-in demo server, offline model.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restoreSession } from "../../src/ui/session-restore.js";
import { CLI, REPO_ROOT } from "../helpers/raw-stdio.js";

function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ANTHROPIC_API_KEY: "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.end(stdin ?? "");
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function xdg(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-rec-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    XDG_STATE_HOME: join(dir, "state"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_CACHE_HOME: join(dir, "cache"),
  };
  const state = join(dir, "state", "mcp-prism");
  const sessions = () => readdirSync(state).filter((n) => n.startsWith("session-"));
  const records = (name: string) =>
    readFileSync(join(state, name), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, any>);
  return { dir, env, state, sessions, records };
}

test("-p records its session: listed by `sessions`, restored to the context it had", async (t) => {
  const x = xdg(t);
  const r = await runCli(["-p", "search customers Globex", "--model", "offline"], x.env);
  assert.equal(r.code, 0, r.stderr);
  const [name] = x.sessions();
  assert.ok(name, "no session file");
  assert.equal(statSync(join(x.state, name)).mode & 0o777, 0o600);
  const recs = x.records(name);
  assert.deepEqual(
    recs.filter((r) => r.kind !== "context").map((r) => `${r.kind}${r.event ? `:${r.event}` : ""}`),
    ["session:start", "user", "request", "tool", "assistant", "session:end"],
  );
  assert.equal(recs[0].command, "-p");
  assert.deepEqual(recs[0].servers, [{ name: "demo" }]);
  const tool = recs.find((r) => r.kind === "tool")!;
  assert.equal(tool.server, "demo");
  assert.equal(tool.tool, "search_customers");
  assert.deepEqual(
    tool.requestedOutputs.map((s: any) => `${s.audience}/${s.format}`),
    ["assistant/content", "user/structured"],
  );
  assert.ok(recs.find((r) => r.kind === "assistant")!.text.includes("Globex"));

  const listed = await runCli(["sessions", "--json"], x.env);
  const [s] = JSON.parse(listed.stdout) as { id: string; turns: number; firstPrompt: string }[];
  assert.equal(s.turns, 1);
  assert.equal(s.firstPrompt, "search customers Globex");
  const restored = restoreSession(join(x.state, name));
  assert.deepEqual(restored.refused, []);
  assert.deepEqual(
    restored.items.map((i) => i.role),
    ["user", "assistant", "tool", "assistant"],
  );
  assert.deepEqual(restored.servers, ["demo"]);
});

test("`call` and `run` record their calls (not listed: no prompt to go on with)", async (t) => {
  const x = xdg(t);
  const c = await runCli(["call", "lookup_order", "--args", '{"orderId":"ord_5001"}'], x.env);
  assert.equal(c.code, 0, c.stderr);
  const script = 'const r = await tools.lookup_order({ orderId: "ord_5002" }); return r.orderId ?? "done";';
  const r = await runCli(["run", "-"], x.env, script);
  assert.equal(r.code, 0, r.stderr);
  const files = x.sessions().sort();
  assert.equal(files.length, 2);
  const all = files.map((f) => x.records(f));
  const call = all.find((recs) => recs[0].command === "call")!;
  assert.deepEqual(
    call.map((r) => `${r.kind}${r.event ? `:${r.event}` : ""}`),
    ["session:start", "request", "tool", "session:end"],
  );
  assert.equal(call[2].tool, "lookup_order");
  assert.equal(call[2].server, "demo");
  const run = all.find((recs) => recs[0].command === "run")!;
  assert.deepEqual(
    run.map((r) => `${r.kind}${r.event ? `:${r.event}` : ""}`),
    ["session:start", "code:start", "tool", "code:end", "session:end"],
  );
  assert.equal(run[1].script, script);
  assert.equal(run[2].source, "script");
  assert.deepEqual(run[2].arguments, { orderId: "ord_5002" });
  assert.equal(run[3].isError, false);
  const listed = await runCli(["sessions", "--json"], x.env);
  assert.deepEqual(JSON.parse(listed.stdout), []);
});

test("a state directory that cannot be made: one line, and the answer as always", async (t) => {
  const x = xdg(t);
  // A file where the state directory should be: mkdir fails (ENOTDIR) whoever runs the test.
  writeFileSync(join(x.dir, "blocked"), "");
  const env = { ...x.env, XDG_STATE_HOME: join(x.dir, "blocked") };
  const r = await runCli(["-p", "search customers Globex", "--model", "offline"], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Globex/);
  assert.match(
    r.stderr,
    /^mcp-prism: transcript off: cannot write in the state directory .*blocked.*: .*; the command goes on without it$/m,
  );
});
