// The reviewer's guide cannot drift: every `P …` command in it runs against the real demo server
// (and the misbehaving fixture), none is a usage error, and every `[rule]` a step promises shows up
// in that step's output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";

const guide = readFileSync("docs/reviewer-guide.md", "utf8");

/** Splits a command line into words; single-quoted parts are literal (the guide quotes JSON so). */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let any = false;
  for (const ch of line) {
    if (ch === "'") {
      quoted = !quoted;
      any = true;
    } else if (ch === " " && !quoted) {
      if (any || cur) out.push(cur);
      cur = "";
      any = false;
    } else cur += ch;
  }
  if (any || cur) out.push(cur);
  return out;
}

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["bin/mcp-prism.js", ...args], { timeout: 240_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === "number" ? code : 1, out: stdout + stderr });
    });
  });
}

// Steps of section 1: "N. **title** …" up to the next step.
const section = guide.slice(guide.indexOf("## 1."), guide.indexOf("## 2."));
const steps = section.split(/\n(?=\d+\. \*\*)/).filter((s) => /^\d+\. \*\*/.test(s));

test("the guide has every step of the SEP testing plan", () => {
  assert.equal(steps.length, 17);
});

for (const step of steps) {
  const title = step.slice(0, step.indexOf("\n")).replace(/\*\*/g, "");
  // Commands that need the reviewer's own /tmp files are shown, not run here.
  // `P view …` serves until a signal: reviewer-guide-views.test.ts renders those in a browser.
  const commands = [...step.matchAll(/`P ([^`]+)`/g)]
    .map((m) => m[1])
    .filter((c) => !c.includes("/tmp/") && !c.startsWith("view "));
  const rules = [...step.matchAll(/\[([a-z]+(?:-[a-z]+)+)\]/g)].map((m) => m[1]);
  test(`guide step ${title}`, async () => {
    let outputs = "";
    for (const c of commands) {
      const r = await run(words(c));
      assert.notEqual(r.code, 2, `usage error for \`P ${c}\`: ${r.out}`);
      assert.ok(r.out.trim().length > 0, `no output for \`P ${c}\``);
      assert.doesNotMatch(r.out, /unknown (tool|option|command)|cannot start/i, `\`P ${c}\`: ${r.out}`);
      outputs += r.out;
    }
    for (const rule of rules) assert.match(outputs, new RegExp(`\\b${rule}\\b`), `step promises [${rule}]`);
  });
}

// Step 16 as written: the demo passes with nothing untested, the broken server shows the FAIL the guide prints.
test("guide step 16: check passes the demo and fails the broken server, exit codes included", async () => {
  const step = steps.find((s) => s.startsWith("16."))!;
  const [demo, broken] = [...step.matchAll(/`P (check [^`]+)`/g)].map((m) => m[1]);
  const d = await run(words(demo));
  assert.equal(d.code, 0, d.out);
  assert.match(d.out, /^\d+ passed, 0 failed, 1 warned, 2 not applicable$/m);
  assert.doesNotMatch(d.out, /^untested/m);
  const b = await run(words(broken));
  assert.equal(b.code, 1, b.out);
  const promised = step.match(/prints `(FAIL +[a-z0-9-]+ — [^`…]+)/)![1];
  assert.ok(b.out.includes(promised), `the guide prints ${promised}; got ${b.out}`);
});

// Step 17 as written: mcp-prism passes check-client with the tally the guide prints; the stand-in fails.
test("guide step 17: check-client passes mcp-prism and fails the legacy stand-in, exit codes included", async () => {
  const step = steps.find((s) => s.startsWith("17."))!;
  const [prism, standin] = [...step.matchAll(/`P (check-client [^`]+)`/g)].map((m) => m[1]);
  const tally = step.match(/`(\d+ passed, 0 failed, \d+ not applicable)`/)![1];
  const p = await run(words(prism));
  assert.equal(p.code, 0, p.out);
  assert.ok(p.out.includes(`${tally}\n`), `the guide prints ${tally}; got ${p.out}`);
  const s = await run(words(standin));
  assert.equal(s.code, 1, s.out);
  const promised = step.match(/prints `(FAIL +[a-z0-9-]+ — [^`]+)`/)![1];
  assert.ok(s.out.includes(promised), `the guide prints ${promised}; got ${s.out}`);
  assert.equal((s.out.match(/^FAIL /gm) ?? []).length, 7, s.out);
});

// Every "`P command` → `what you will see`" (or "prints `…`") pair: each piece of the promised
// text between `…` marks is in that command's output (spaces squeezed on both sides).
const squeeze = (t: string) => t.replace(/\s+/g, " ").trim();
const promises = [...section.matchAll(/`P ([^`]+)`\s*(?:→|prints)\s*`([^`]+)`/g)]
  .map((m) => ({ command: m[1], promised: m[2] }))
  .filter((p) => !p.command.startsWith("view ") && !p.command.includes("/tmp/"));

test("the guide's promised outputs: each comes out of its command as written", async () => {
  assert.ok(promises.length >= 5, `found ${promises.length} promises`);
  for (const { command, promised } of promises) {
    const r = await run(words(command));
    const out = squeeze(r.out);
    for (const piece of promised
      .split("…")
      .map(squeeze)
      .filter((p) => p.length >= 4))
      assert.ok(out.includes(piece), `\`P ${command}\` promises ${JSON.stringify(piece)}; got ${r.out.slice(0, 2000)}`);
  }
});
