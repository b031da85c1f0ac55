// The demo's own assets: the PNG encoder (decoded back), the drawn images, and the
// deterministic customer data (regenerated and compared with the committed file).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import jpeg from "jpeg-js";
import { crc32, encodePng, PNG_SIGNATURE } from "../../src/protocol/png.js";
import { renderImage } from "../../src/demo/images.js";
import { loadDataset, searchCustomers, decodeCursor, encodeCursor } from "../../src/demo/customers.js";
import { generate, serialize } from "../../scripts/gen-demo-data.js";

function chunks(png: Buffer) {
  const out: { type: string; data: Buffer; crc: number }[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString("ascii");
    out.push({ type, data: png.subarray(at + 8, at + 8 + len), crc: png.readUInt32BE(at + 8 + len) });
    at += 12 + len;
  }
  return out;
}

describe("PNG encoder", () => {
  it("crc32 matches the standard check value", () => {
    assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
  });
  it("writes signature, IHDR with dimensions, valid chunk CRCs, and pixels that inflate back", () => {
    const w = 3;
    const h = 2;
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i % 4 === 3 ? 255 : i * 10));
    const png = encodePng(w, h, rgba);
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    const cs = chunks(png);
    assert.deepEqual(
      cs.map((c) => c.type),
      ["IHDR", "IDAT", "IEND"],
    );
    for (const c of cs)
      assert.equal(c.crc, crc32(Buffer.concat([Buffer.from(c.type, "ascii"), c.data])), `${c.type} CRC`);
    const ihdr = cs[0].data;
    assert.deepEqual([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[12]], [w, h, 8, 2, 0]);
    const raw = inflateSync(cs[1].data);
    assert.equal(raw.length, h * (1 + w * 3));
    assert.equal(raw[0], 0, "filter type none");
    assert.deepEqual([...raw.subarray(1, 4)], [0, 10, 20]); // first pixel RGB
    assert.deepEqual([...raw.subarray(1 + w * 3 + 1, 1 + w * 3 + 4)], [120, 130, 140]); // second row, first pixel
  });
  it("refuses mismatched pixel buffers", () => {
    assert.throws(() => encodePng(2, 2, new Uint8Array(3)), /expected 16 bytes/);
  });
});

describe("drawn images", () => {
  it("are deterministic per prompt, alternate PNG and JPEG, and differ between prompts", () => {
    const a = renderImage("A sunrise over Puget Sound", 0, 64, 40);
    assert.deepEqual(a.data, renderImage("A sunrise over Puget Sound", 0, 64, 40).data);
    assert.notDeepEqual(a.data, renderImage("Another prompt", 0, 64, 40).data);
    assert.equal(a.mimeType, "image/png");
    const j = renderImage("A sunrise over Puget Sound", 1, 64, 40);
    assert.equal(j.mimeType, "image/jpeg");
    assert.deepEqual([...j.data.subarray(0, 2)], [0xff, 0xd8]);
    const decoded = jpeg.decode(j.data);
    assert.deepEqual([decoded.width, decoded.height], [64, 40]);
  });
  it("shows a sky above water: the top row is darker than the sun-lit horizon", () => {
    const raw = inflateSync(chunks(renderImage("p", 0, 64, 40).data)[1].data);
    const brightness = (y: number) => {
      let sum = 0;
      for (let x = 0; x < 64; x++) for (let c = 0; c < 3; c++) sum += raw[y * (1 + 64 * 3) + 1 + x * 3 + c];
      return sum;
    };
    assert.ok(brightness(0) < brightness(20));
  });
});

describe("demo data", () => {
  it("the committed customers.json is exactly what the seeded generator produces", () => {
    const committed = readFileSync(new URL("../../src/demo/data/customers.json", import.meta.url), "utf8");
    assert.equal(committed, serialize(generate()));
    assert.notEqual(serialize(generate(1)), committed, "the seed matters");
  });
  it("has exactly 37 Globex records; the three most recently active are Retail, Energy, Labs", () => {
    const d = loadDataset();
    assert.equal(d.customers.length, 640);
    assert.equal(new Set(d.customers.map((c) => c.customerId)).size, 640);
    const g = searchCustomers("Globex", 0, 100);
    assert.equal(g.total, 37);
    assert.deepEqual(
      g.all.slice(0, 3).map((c) => c.displayName),
      ["Globex Retail", "Globex Energy", "Globex Labs"],
    );
    assert.ok(
      d.customers.every((c) => /^cust_\d{4}$/.test(c.customerId) && ["NA", "EMEA", "APAC", "LATAM"].includes(c.region)),
    );
  });
  it("offers a ~300-record query for benchmarks (region NA)", () => {
    assert.equal(searchCustomers("NA", 0, 1000).total, 300);
  });
  it("cursors round-trip and reject garbage", () => {
    assert.equal(encodeCursor(2), "eyJvZmZzZXQiOjJ9");
    assert.equal(decodeCursor(encodeCursor(25)), 25);
    assert.equal(decodeCursor("garbage"), undefined);
  });
});
