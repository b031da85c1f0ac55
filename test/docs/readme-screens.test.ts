// The README's screens of each mode ("Each mode on the demo server") are the real app's: each is
// played again (the bundled app under tmux at 80×24, the offline model, the block's prompts in
// order) and compared with the block, the scrollback included; only elapsed times may differ.
// UPDATE_README_SCREENS=1 writes the captured screens into the README instead (after a UI change).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";

const README = join(ROOT, "README.md");
const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

/** Each `#### \`--mode M\`` section's first ```text block: where it is and what it says. */
function screens(text: string): { mode: string; start: number; end: number; body: string }[] {
  const found = [];
  for (const m of text.matchAll(/^#### `--mode (\w+)`\n[\s\S]*?^```text\n([\s\S]*?)^```$/gm)) {
    const start = (m.index as number) + m[0].length - m[2].length - 3;
    found.push({ mode: m[1], start, end: start + m[2].length, body: m[2] });
  }
  return found;
}

/**
 * Elapsed times vary from run to run, and so does the clock time a side-pane entry starts with
 * (wrapped across the pane's lines, so the pane's digits are masked); everything else must match.
 */
const normal = (s: string) =>
  s
    .replace(/\b\d+\.\ds\b/g, "N.Ns")
    .replace(/[ \t]+$/gm, "")
    .split("\n")
    .map((l) => (l.length > 50 && l[50] === "│" ? l.slice(0, 50) + l.slice(50).replace(/\d/g, "#") : l))
    .join("\n");

/** The screen from the first prompt on, the scrollback included, trailing blanks dropped. */
async function played(mode: string, prompts: string[]): Promise<string> {
  const t = await startApp({ columns: 80, rows: 24, args: ["--mode", mode] });
  open.push(t);
  for (const [i, p] of prompts.entries()) {
    await t.send(p);
    // Done: the answer is drawn below the prompt's echo and the app is idle again.
    await t.idle(
      (s) => {
        const at = s.lastIndexOf(`› ${p}\n`);
        return (
          at >= 0 &&
          s
            .slice(at)
            .split("\n")
            .filter((l) => l.trim()).length >= 4
        );
      },
      `prompt ${i + 1} of ${mode} answered`,
      { history: 400 },
    );
  }
  const all = t.screen(400);
  const from = all.indexOf(`› ${prompts[0]}\n`);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  return `${all
    .slice(from)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n+$/, "")}\n`;
}

test("the README's mode screens are what the app draws", async () => {
  let text = readFileSync(README, "utf8");
  const blocks = screens(text);
  assert.deepEqual(
    blocks.map((b) => b.mode),
    ["chat", "structured", "code", "app", "minimal"],
  );
  const update = process.env.UPDATE_README_SCREENS === "1";
  // From the last block back, so the earlier offsets stay valid while writing.
  for (const b of [...blocks].reverse()) {
    const prompts = [...b.body.matchAll(/^› (\S.*)$/gm)].map((m) => m[1]);
    const screen = await played(b.mode, prompts);
    if (update) text = text.slice(0, b.start) + screen + text.slice(b.end);
    else assert.equal(normal(screen), normal(b.body), `--mode ${b.mode}: the README's screen is not the app's`);
  }
  if (update) writeFileSync(README, text);
});
