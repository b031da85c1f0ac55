// The real app (the bundled build) in a pseudo-terminal (script(1)) that answers like kitty, like a
// sixel terminal, or says it is iTerm2: a picture read with /read reaches the terminal in that
// terminal's own protocol, and the bytes it wrote are decoded back to the picture's pixels.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../helpers/host-fixtures.js";
import { ROOT } from "../helpers/tmux.js";
import { itermImages, kittyImages, kittyPlaceholderRows, pixelAt, sixelImages } from "../helpers/terminal-pictures.js";
import { renderImage } from "../../src/demo/images.js";

const open: { child: ChildProcessWithoutNullStreams; dir: string }[] = [];
after(() => {
  for (const o of open) {
    o.child.kill("SIGKILL");
    rmSync(o.dir, { recursive: true, force: true });
  }
});

/** The badge the demo serves for cust_1005 (Monarch Hotels): the file the terminal must get. */
const BADGE = renderImage("Monarch Hotels", 0, 48, 48).data as Buffer;
const READ = "/read customers://cust_1005/badge.png demo\r";
const DA1 = "\x1b[c";

interface Pty {
  out: () => string;
  write: (s: string) => void;
  waitFor: (test: (out: string) => boolean, what: string) => Promise<string>;
  quit: () => Promise<number | null>;
}

/** The app in a 100×30 pseudo-terminal; `answer` is what the terminal says to the start-up queries. */
function startInPty(env: Record<string, string>, answer?: string): Pty {
  const dir = mkdtempSync(join(tmpdir(), "prism-pictures-"));
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ["CI", "TMUX", "TERM_PROGRAM", "KITTY_WINDOW_ID", "NO_COLOR", "GHOSTTY_RESOURCES_DIR"])
    delete base[k];
  const cmd = `stty cols 100 rows 30; exec '${process.execPath}' '${BIN}'`;
  const child = spawn("script", ["-qefc", cmd, "/dev/null"], {
    cwd: ROOT,
    env: {
      ...base,
      TERM: "xterm-256color",
      COLORTERM: "truecolor",
      XDG_STATE_HOME: join(dir, "state"),
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_CACHE_HOME: join(dir, "cache"),
      ...env,
    },
  });
  open.push({ child, dir });
  let out = "";
  let answered = false;
  const waiters = new Set<() => void>();
  // Decoded as a stream: a character split between two reads stays whole.
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    out += text;
    if (answer !== undefined && !answered && out.includes(DA1)) {
      answered = true;
      child.stdin.write(answer);
    }
    for (const w of waiters) w();
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const pty: Pty = {
    out: () => out,
    write: (s) => child.stdin.write(s),
    waitFor: (test, what) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (test(out)) {
            waiters.delete(check);
            resolve(out);
          }
        };
        waiters.add(check);
        void exited.then(() => {
          waiters.delete(check);
          if (!test(out))
            reject(new Error(`the app exited before ${what}; it wrote:\n${JSON.stringify(out.slice(-3000))}`));
        });
        check();
      }),
    quit: async () => {
      child.stdin.write("/quit\r");
      return exited;
    },
  };
  return pty;
}

/** Once the app is up (its status bar names the demo's era), reads the badge and waits for `drawn`. */
async function readBadge(pty: Pty, drawn: (out: string) => boolean, what: string): Promise<string> {
  await pty.waitFor((o) => o.includes("2026-12-01"), "the status bar");
  const before = pty.out().length;
  pty.write(READ);
  return (await pty.waitFor((o) => drawn(o.slice(before)), what)).slice(before);
}

test("kitty (it answers the graphics query): the badge file is sent once and shown by placeholders", async () => {
  const pty = startInPty({}, "\x1b_Gi=31;OK\x1b\\\x1b[?62;22c");
  const out = await readBadge(pty, (o) => /\x1b_Ga=p,U=1[\s\S]*48×48/.test(o), "the picture and its label");
  const [img, ...more] = kittyImages(out);
  assert.equal(more.length, 0, "sent once");
  assert.deepEqual([img.pixels.width, img.pixels.height], [48, 48]);
  const rows = kittyPlaceholderRows(out).filter((r) => r.id === img.id);
  assert.ok(rows.length >= img.rows!, "every row of the placement is drawn");
  assert.deepEqual(
    [...new Set(rows.map((r) => r.row))].sort((a, b) => a - b),
    [...Array(img.rows).keys()],
  );
  assert.ok(rows.every((r) => r.cells === img.cols));
  // The terminal got the badge's own bytes back: decoded, its pixels are the demo's.
  const expected = kittyImages(`\x1b_Ga=t,i=1;${BADGE.toString("base64")}\x1b\\`)[0].pixels;
  assert.deepEqual(img.pixels.rgba, expected.rgba);
  assert.equal(await pty.quit(), 0);
});

test("iTerm2 (TERM_PROGRAM): no query; the badge file is drawn into the rows above its label", async () => {
  const pty = startInPty({ TERM_PROGRAM: "iTerm.app" });
  const out = await readBadge(pty, (o) => itermImages(o).length > 0, "the picture");
  assert.ok(!pty.out().includes(DA1), "the environment decided: the terminal was not asked");
  const [img] = itermImages(out);
  assert.ok(img.file.equals(BADGE), "the file itself");
  assert.equal(String(img.up), img.args.height, "the cursor goes up over exactly the picture's rows");
  assert.match(out.slice(out.indexOf("\x1b8")), /^\x1b8 ?\S*🖼 image\/png/u, "its label follows");
  assert.equal(await pty.quit(), 0);
});

test("sixel (device attributes say 4, the cell is 10×20): the badge drawn 1:1 at that size", async () => {
  const pty = startInPty({}, "\x1b[6;20;10t\x1b[?62;4;22c");
  const out = await readBadge(pty, (o) => sixelImages(o).length > 0, "the picture");
  const [img] = sixelImages(out);
  // The picture's rows × 20 pixels tall; its width in cells × 10 pixels wide (square: the smaller).
  assert.equal(img.pixels.height, img.up * 20);
  const src = kittyImages(`\x1b_Ga=t,i=1;${BADGE.toString("base64")}\x1b\\`)[0].pixels;
  let close = 0;
  for (let y = 0; y < img.pixels.height; y++)
    for (let x = 0; x < img.pixels.width; x++) {
      const got = pixelAt(img.pixels, x, y);
      const want = pixelAt(src, Math.floor((x * 48) / img.pixels.width), Math.floor((y * 48) / img.pixels.height));
      if (got[3] === 255 && [0, 1, 2].every((c) => Math.abs(got[c] - want[c]) <= 40)) close++;
    }
  assert.ok(close / (img.pixels.width * img.pixels.height) > 0.95, `${close} pixels close to the badge's`);
  assert.equal(await pty.quit(), 0);
});

test("a terminal that answers neither: half blocks, as before", async () => {
  const pty = startInPty({}, "\x1b[?62;22c");
  const out = await readBadge(pty, (o) => /🖼 image\/png [\d.]+ k?B 48×48/.test(o), "the picture");
  assert.match(out, /▄/);
  assert.doesNotMatch(out, /\x1b_G|\x1b\]1337|\x1bP0;1;0q/);
  assert.equal(await pty.quit(), 0);
});
