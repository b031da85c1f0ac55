// Bad and big images through the built CLI (`node bin/mcp-prism.js call --json`, dist/bundle)
// from a real stdio server (test/fixtures/hostile-image-server.ts): the host refuses each
// untrustworthy header with its rule and routes nothing, routes a 3.6 MB screenshot whole (its
// 4.8M base64 characters once overflowed the stack of the base64 check), and routes the formats
// the terminal draws (16-bit, interlaced, 2-bit palette PNG, GIF, a JPEG whose header is 400 KB in).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { IMAGES } from "../fixtures/image-forge-images.js";
import { ResultValidationError, validateLegacyResult } from "../../src/host/result/validate.js";

const config = join(tempDir(), "images.json");
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: {
      images: {
        command: process.execPath,
        args: ["--import", "tsx", join(ROOT, "test/fixtures/hostile-image-server.ts")],
        cwd: ROOT,
      },
    },
    limits: { callTimeoutMs: 60_000 },
  }),
);

interface CallJson {
  routed: { user: { content: { type: string; data?: string; mimeType?: string }[] }[]; model: unknown[] };
  error?: { rule: string; message: string };
}

function call(tool: string): Promise<{ code: number | null; json: CallJson; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "call", tool, "--config", config, "--json"], {
      cwd: tempDir(),
      env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, json: JSON.parse(out) as CallJson, err });
      } catch (e) {
        reject(new Error(`${tool}: not one JSON document (${(e as Error).message}); stderr: ${err}`));
      }
    });
  });
}

describe("bad and big images through `mcp-prism call`", { concurrency: 3 }, () => {
  for (const [tool, rule, why] of [
    ["double_ihdr", "malformed-content", /outputs\[1\] \(user\/content\) content\[0\]: PNG has two IHDR chunks/],
    ["gif_huge_frame", "image-too-large", /GIF header claims 20000×20000 pixels \(400\.0 MP; limit 40\.0 MP\)/],
    ["jpeg_hidden_huge", "image-too-large", /JPEG header claims 40000×30000 pixels/],
  ] as const) {
    test(`${tool}: refused with ${rule}, nothing routed`, async () => {
      const { code, json } = await call(tool);
      assert.equal(code, 1);
      assert.equal(json.error?.rule, rule);
      assert.match(json.error!.message, why);
      assert.deepEqual(json.routed.user, []);
      assert.deepEqual(json.routed.model, []);
    });
  }
  for (const tool of ["screenshot", "png16", "png_interlaced", "png_palette_2bit", "gif", "jpeg_big_app"]) {
    test(`${tool}: routed to the user whole`, async () => {
      const { code, json, err } = await call(tool);
      assert.equal(code, 0, err);
      assert.equal(json.error, undefined);
      const [block] = json.routed.user[0].content;
      assert.equal(block.type, "image");
      assert.equal(block.mimeType, IMAGES[tool].mimeType);
      assert.equal(block.data, IMAGES[tool].make().toString("base64"));
      if (tool === "screenshot") assert.ok(block.data!.length > 4_700_000, `${block.data!.length} base64 characters`);
    });
  }
});

test("a legacy result's content goes through the same header reader (refused or passed, never a window)", () => {
  const content = (name: string) => ({
    content: [
      { type: "text", text: "x" },
      { type: "image", data: IMAGES[name].make().toString("base64"), mimeType: IMAGES[name].mimeType },
    ],
  });
  const rule = (name: string) => {
    try {
      validateLegacyResult(content(name), undefined, { maxImagePixels: 40_000_000 });
      return "passed";
    } catch (e) {
      assert.ok(e instanceof ResultValidationError);
      return `${e.rule}: ${e.message}`;
    }
  };
  assert.match(rule("double_ihdr"), /^malformed-content: result content\[1\]: PNG has two IHDR chunks/);
  assert.match(rule("jpeg_hidden_huge"), /^image-too-large: result content\[1\]: JPEG header claims 40000×30000/);
  assert.equal(rule("screenshot"), "passed");
  assert.equal(rule("jpeg_big_app"), "passed");
});
