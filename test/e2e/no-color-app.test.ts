// NO_COLOR in the real built app under tmux (the screen captured WITH its escapes, capture-pane -e):
// no SGR sequence at all, whether markdown, highlighted code, a drawn image, the status bar or the
// prompt's cursor; FORCE_COLOR still forces colour. The CLI writes none either.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";

const open: AppTerminal[] = [];
const fakes: FakeAnthropic[] = [];
after(async () => {
  open.forEach((t) => t.close());
  for (const f of fakes) await f.stop();
});

const REPLY = [
  "## Globex summary",
  "",
  "There are **37** customers, *all* active.",
  "",
  "```ts",
  "const total = 37; // all regions",
  "```",
  "",
  "| region | n |",
  "|---|--:|",
  "| NA | 16 |",
  "",
  "Done.",
].join("\n");
/** Any Select Graphic Rendition sequence (colour, bold, dim, inverse, reset). */
const SGR = /\x1b\[[0-9;:]*m/;

async function run(env: Record<string, string>) {
  const fake = await new FakeAnthropic().start();
  fakes.push(fake);
  fake.script({ kind: "reply", blocks: [{ type: "text", text: REPLY }] });
  const t = await startApp({
    args: ["--model", "anthropic:fake-model", "--yes"],
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url, ...env },
    columns: 80,
    rows: 24,
  });
  open.push(t);
  const withEscapes = () => t.tmux("capture-pane", "-e", "-p", "-t", "e2e", "-S", "-300");
  t.submit("summarise Globex");
  await t.idle(/Done\./, "the markdown reply", { history: 300 });
  const markdown = withEscapes();
  t.submit("/pane off");
  t.submit(`/call generate_images {"prompt": "a cat"}`);
  await t.idle(/🖼 image\/png/, "an image drawn", { history: 300 });
  t.keys("a", "b");
  await t.waitFor(/› ab/, "typed text with the cursor");
  const image = withEscapes();
  t.keys("C-u");
  await t.waitFor((x) => !/› ab/.test(x), "the prompt emptied");
  return { t, markdown, image };
}

test("NO_COLOR=1: no SGR sequence on the screen (markdown, highlighting, an image, status bar, cursor)", async () => {
  const { t, markdown, image } = await run({ NO_COLOR: "1" });
  assert.match(markdown, /^Globex summary\s*$/m, "the markdown is still drawn (without ##)");
  assert.match(markdown, /const total = 37;/);
  assert.doesNotMatch(markdown, SGR, "no SGR after the markdown reply");
  assert.doesNotMatch(image, SGR, "no SGR once an image is drawn");
  // The image is drawn in characters of the brightness ramp, not colourless half blocks.
  assert.match(image, /[.:\-=+*#%@]{8}/, "the image as brightness characters");
  assert.match(image, /› ab█/, "the cursor drawn without inverse video");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});

test("FORCE_COLOR wins over NO_COLOR: colour is drawn", async () => {
  const { t, markdown, image } = await run({ NO_COLOR: "1", FORCE_COLOR: "3" });
  assert.match(markdown, /\x1b\[[0-9;]*3\d/, "a foreground colour in the markdown or the status bar");
  assert.match(image, /\x1b\[[0-9;]*48;[25];/, "the image in half blocks with a background colour");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});

test("the CLI writes no SGR under NO_COLOR (nor otherwise)", () => {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/mcp-prism.js"), "tools", "--server", "demo"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /search_customers/);
  assert.doesNotMatch(r.stdout + r.stderr, SGR);
});
