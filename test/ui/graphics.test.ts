// Pictures in the terminal's own protocol (src/ui/graphics/): which protocol a terminal gets, and
// the bytes the app writes for each, decoded back to pixels as the terminal would draw them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { chooseGraphics, parseAnswers, queryTerminal, type Graphics } from "../../src/ui/graphics/detect.js";
import { expandMarkers, markerRows, triggerMarker } from "../../src/ui/graphics/markers.js";
import { encodeSixel } from "../../src/ui/graphics/sixel.js";
import { renderImage } from "../../src/ui/image.js";
import { encodePng } from "../../src/protocol/png.js";
import { parseConfig } from "../../src/host/config/config.js";
import { renderImage as renderDemoImage } from "../../src/demo/images.js";
import {
  decodeSixel,
  itermImages,
  kittyImages,
  kittyPlaceholderRows,
  pixelAt,
  sixelImages,
} from "../helpers/terminal-pictures.js";

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

/** A w×h picture in four quadrants: red, green / blue, white. */
function quadrants(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const c = y < h / 2 ? (x < w / 2 ? RED : GREEN) : x < w / 2 ? BLUE : WHITE;
      rgba.set([...c, 255], (y * w + x) * 4);
    }
  return rgba;
}

/** The four quadrants' centre colours of a decoded picture. */
function quadrantColours(p: { width: number; height: number; rgba: Uint8Array }): number[][] {
  const at = (fx: number, fy: number) => pixelAt(p, Math.floor(p.width * fx), Math.floor(p.height * fy)).slice(0, 3);
  return [at(0.25, 0.25), at(0.75, 0.25), at(0.25, 0.75), at(0.75, 0.75)];
}

const PNG_FILE = encodePng(40, 40, quadrants(40, 40));

test("chooseGraphics: setting, environment, tmux, NO_COLOR, then the terminal's answers", async () => {
  const none = async () => undefined;
  const never = async () => assert.fail("the terminal was asked although the setting or environment decided");
  assert.equal((await chooseGraphics("blocks", { TERM: "xterm-kitty" }, never)).protocol, "blocks");
  assert.equal((await chooseGraphics("auto", { TERM: "xterm-kitty" }, never)).protocol, "kitty");
  assert.equal((await chooseGraphics("auto", { TERM_PROGRAM: "ghostty" }, never)).protocol, "kitty");
  assert.equal((await chooseGraphics("auto", { TERM_PROGRAM: "iTerm.app" }, never)).protocol, "iterm");
  assert.equal((await chooseGraphics("auto", { TERM_PROGRAM: "WezTerm" }, never)).protocol, "iterm");
  assert.equal((await chooseGraphics("iterm", { TERM: "xterm" }, never)).protocol, "iterm");
  // NO_COLOR: characters, whatever the setting; an explicit one gets a line saying so.
  assert.deepEqual(await chooseGraphics("auto", { TERM: "xterm-kitty", NO_COLOR: "1" }, never), { protocol: "blocks" });
  const noColour = await chooseGraphics("kitty", { NO_COLOR: "1" }, never);
  assert.equal(noColour.protocol, "blocks");
  assert.match(noColour.note ?? "", /NO_COLOR/);
  // tmux: kitty placeholders with passthrough on; blocks (and why) otherwise; never iTerm2 or sixel.
  const tmux = { TMUX: "/tmp/tmux-1/default,1,0", KITTY_WINDOW_ID: "1" };
  assert.deepEqual(await chooseGraphics("auto", tmux, never, () => true), { protocol: "kitty", tmux: true });
  const off = await chooseGraphics("auto", tmux, never, () => false);
  assert.equal(off.protocol, "blocks");
  assert.match(off.note ?? "", /allow-passthrough on/);
  assert.deepEqual(await chooseGraphics("auto", { TMUX: "x", TERM: "screen" }, never, () => true), {
    protocol: "blocks",
  });
  assert.match((await chooseGraphics("sixel", { TMUX: "x" }, never, () => true)).note ?? "", /inside tmux/);
  // The answers: kitty's OK, sixel in the device attributes (with the cell size it needs).
  const said = (text: string) => async () => parseAnswers(text).answers;
  assert.equal(
    (await chooseGraphics("auto", { TERM: "xterm" }, said("\x1b_Gi=31;OK\x1b\\\x1b[?62;22c"))).protocol,
    "kitty",
  );
  assert.deepEqual(await chooseGraphics("auto", { TERM: "xterm" }, said("\x1b[6;18;9t\x1b[?63;4;22c")), {
    protocol: "sixel",
    cell: { width: 9, height: 18 },
  });
  assert.equal((await chooseGraphics("auto", { TERM: "xterm" }, said("\x1b[?63;4;22c"))).protocol, "blocks");
  // Sixel without a cell size is no use; kitty's answer still counts.
  assert.equal(
    (await chooseGraphics("auto", { TERM: "xterm" }, said("\x1b_Gi=31;OK\x1b\\\x1b[?62;4c"))).protocol,
    "kitty",
  );
  // Konsole answers the kitty query without drawing placeholders.
  const konsole = { TERM: "xterm-256color", KONSOLE_VERSION: "240801" };
  assert.equal((await chooseGraphics("auto", konsole, said("\x1b_Gi=31;OK\x1b\\\x1b[?62;22c"))).protocol, "blocks");
  assert.equal((await chooseGraphics("auto", { TERM: "xterm" }, said("\x1b[?62;22c"))).protocol, "blocks");
  assert.equal((await chooseGraphics("auto", { TERM: "xterm" }, none)).protocol, "blocks");
  const guessed = await chooseGraphics("sixel", { TERM: "xterm" }, none);
  assert.deepEqual(guessed.cell, { width: 10, height: 20 });
  assert.match(guessed.note ?? "", /cell size/);
});

test("queryTerminal: sends the three queries, reads the answers, gives typed keys back", async () => {
  class FakeTty extends EventEmitter {
    isTTY = true;
    isRaw = false;
    given: Buffer[] = [];
    setRawMode(on: boolean) {
      this.isRaw = on;
    }
    resume() {}
    pause() {}
    unshift(b: Buffer) {
      this.given.push(b);
    }
  }
  const tty = new FakeTty();
  let sent = "";
  const answered = queryTerminal(tty as never, (s) => {
    sent += s;
    // The terminal answers in pieces, a key typed in between.
    tty.emit("data", Buffer.from("\x1b_Gi=31;OK\x1b\\h"));
    tty.emit("data", Buffer.from("i\x1b[6;20;10t"));
    tty.emit("data", Buffer.from("\x1b[?62;4c"));
  });
  assert.deepEqual(await answered, { kitty: true, sixel: true, cell: { width: 10, height: 20 } });
  assert.match(sent, /\x1b_G.*a=q.*\x1b\\\x1b\[16t\x1b\[c$/);
  assert.equal(tty.isRaw, false, "raw mode is put back as it was");
  assert.equal(Buffer.concat(tty.given).toString(), "hi");
  assert.equal(tty.listenerCount("data"), 0);
  assert.equal(await queryTerminal(Object.assign(new FakeTty(), { isTTY: false }) as never, () => {}), undefined);
});

async function picture(graphics: Graphics) {
  const r = await renderImage(PNG_FILE, { width: 20, height: 10, graphics });
  assert.ok(r.ok && r.picture, "a picture was prepared");
  return r.picture;
}

test("kitty: the PNG is sent once, placed virtually, and each marker row becomes placeholder cells", async () => {
  const p = await picture({ protocol: "kitty" });
  assert.deepEqual([p.cols, p.rows], [20, 10]);
  // As Ink writes it: inside a card's border, the rows one per line.
  const frame = markerRows(p.slot, p.cols, p.rows)
    .split("\n")
    .map((row) => `\x1b[2m│\x1b[22m ${row} │`)
    .join("\n");
  const out = expandMarkers(frame);
  const [img, ...more] = kittyImages(out);
  assert.equal(more.length, 0);
  assert.deepEqual([img.cols, img.rows], [20, 10]);
  assert.deepEqual([img.pixels.width, img.pixels.height], [40, 40]);
  assert.deepEqual(quadrantColours(img.pixels), [RED, GREEN, BLUE, WHITE]);
  const rows = kittyPlaceholderRows(out);
  assert.deepEqual(
    rows.map((r) => r.row),
    [...Array(10).keys()],
  );
  assert.ok(rows.every((r) => r.id === img.id && r.cells === 20));
  assert.ok(out.includes("\x1b[2m│\x1b[22m "), "the text around the picture is untouched");
  // A redraw (Ink's live frame) sends placeholders only: the picture is not sent twice.
  const again = expandMarkers(frame);
  assert.equal(kittyImages(again).length, 0);
  assert.equal(kittyPlaceholderRows(again).length, 10);
  // After the screen or scrollback is erased (a /clear, a resize, Ink's full redraw), it is sent again, after the erase.
  const cleared = expandMarkers(`\x1b[2J\x1b[3J\x1b[H${frame}`);
  assert.equal(kittyImages(cleared).length, 1);
  assert.ok(cleared.indexOf("\x1b_G") > cleared.indexOf("\x1b[3J"));
});

test("kitty and a JPEG: decoded and re-encoded as PNG in the drawing worker, at the cells' size", async () => {
  const jpeg = renderDemoImage("a sunrise", 1, 64, 32);
  assert.equal(jpeg.mimeType, "image/jpeg");
  const r = await renderImage(jpeg.data, { width: 16, height: 10, graphics: { protocol: "kitty" } });
  assert.ok(r.ok && r.picture);
  const [img] = kittyImages(expandMarkers(markerRows(r.picture.slot, r.picture.cols, r.picture.rows)));
  // 16 columns × 4 rows (half blocks: 16×8 pixels for a 2:1 picture); at 10×20 pixels a cell, a
  // 160×80 box, which the 2:1 picture fills.
  assert.deepEqual([r.picture.cols, r.picture.rows], [16, 4]);
  assert.deepEqual([img.pixels.width, img.pixels.height], [160, 80]);
  assert.ok(
    img.pixels.rgba.some((v, i) => i % 4 !== 3 && v > 0),
    "not a blank picture",
  );
});

test("kitty inside tmux: every sequence goes through tmux's passthrough", async () => {
  const p = await picture({ protocol: "kitty", tmux: true });
  const out = expandMarkers(markerRows(p.slot, p.cols, p.rows));
  const wrapped = [...out.matchAll(/\x1bPtmux;([\s\S]*?)\x1b\\(?!\\)/g)];
  assert.ok(wrapped.length >= 2);
  const unwrapped = out.replace(/\x1bPtmux;((?:[^\x1b]|\x1b\x1b)*)\x1b\\/g, (_m, s: string) =>
    s.replaceAll("\x1b\x1b", "\x1b"),
  );
  assert.deepEqual(quadrantColours(kittyImages(unwrapped)[0].pixels), [RED, GREEN, BLUE, WHITE]);
});

test("iTerm2: the file is drawn into the rows above the label's first cell, the cursor saved and restored", async () => {
  const p = await picture({ protocol: "iterm" });
  const frame = `${markerRows(p.slot, p.cols, p.rows)}\n${triggerMarker(p.slot)}🖼 image/png`;
  const out = expandMarkers(frame);
  const [img, ...more] = itermImages(out);
  assert.equal(more.length, 0);
  assert.equal(img.up, 10, "up over the picture's 10 rows");
  assert.deepEqual([img.args.width, img.args.height, img.args.inline], ["20", "10", "1"]);
  assert.ok(img.file.equals(PNG_FILE), "the file itself is sent");
  assert.deepEqual(quadrantColours(img.pixels), [RED, GREEN, BLUE, WHITE]);
  // The marker rows are blank cells (the picture covers them), the label follows the trigger.
  const text = out.replace(/\x1b7[\s\S]*\x1b8/, "");
  assert.equal(text, `${`${" ".repeat(20)}\n`.repeat(10)} 🖼 image/png`);
});

test("sixel: drawn 1:1 at the terminal's cell size, colours kept, in the rows above the label", async () => {
  const p = await picture({ protocol: "sixel", cell: { width: 8, height: 16 } });
  const out = expandMarkers(`${markerRows(p.slot, p.cols, p.rows)}\n${triggerMarker(p.slot)}label`);
  const [img] = sixelImages(out);
  assert.equal(img.up, 10);
  // 20×10 cells of 8×16 pixels: a 160×160 box; the square picture fills it.
  assert.deepEqual([img.pixels.width, img.pixels.height], [160, 160]);
  assert.deepEqual(quadrantColours(img.pixels), [RED, GREEN, BLUE, WHITE]);
});

test("encodeSixel: transparent pixels stay undrawn, repeats are run-length coded, colours quantised", () => {
  const w = 30;
  const h = 13;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (x >= 10) rgba.set([200, 100, 50, 255], (y * w + x) * 4);
  const seq = encodeSixel({ width: w, height: h, rgba });
  assert.match(seq, /!20/, "a run of twenty is one repeat");
  const back = decodeSixel(seq);
  assert.deepEqual([back.width, back.height], [w, h]);
  assert.equal(pixelAt(back, 5, 5)[3], 0, "transparent stays undrawn");
  assert.deepEqual(pixelAt(back, 20, 12), [204, 102, 51, 255], "the nearest of the 6×6×6 cube");
});

test("a slot nobody holds any more becomes blank cells, never stray characters", () => {
  const out = expandMarkers(`a${markerRows(1000, 3, 1)}b`);
  assert.equal(out, "a   b");
});

test('config "images": one of the five, else one line naming the key and what it takes', () => {
  const servers = { mcpServers: { demo: { command: "node" } } };
  for (const v of ["auto", "kitty", "iterm", "sixel", "blocks"] as const)
    assert.equal(parseConfig(JSON.stringify({ ...servers, images: v }), "/x/c.json").images, v);
  assert.equal(parseConfig(JSON.stringify(servers), "/x/c.json").images, undefined);
  assert.throws(
    () => parseConfig(JSON.stringify({ ...servers, images: "pixels" }), "/x/c.json"),
    /^ConfigError: c\.json: images: expected "auto", "kitty", "iterm", "sixel", "blocks"$/,
  );
});
