// The code layer (QuickJS, the sandbox worker, the declarations) is loaded lazily: no module outside
// src/code imports it statically (type-only imports erase), so start-up and every mode other than
// code never pay for it; the CLI and the app import it with import() when code mode first needs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "../helpers/host-fixtures.js";

const SRC = join(ROOT, "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

test("nothing outside src/code imports the code layer statically; its users import() it", () => {
  const dynamic: string[] = [];
  for (const file of files(SRC)) {
    const rel = relative(SRC, file);
    if (rel.startsWith("code/")) continue;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gm)) {
      if (/(^|\/)code\//.test(m[2]) && !m[1]) assert.fail(`${rel} imports ${m[2]} statically`);
    }
    if (/import\("[./]*\/?code\//.test(text)) dynamic.push(rel);
  }
  assert.ok(dynamic.length >= 3, `the CLI and the app load it with import(): ${dynamic.join(", ")}`);
  // Nor the QuickJS packages themselves.
  for (const file of files(SRC))
    if (!relative(SRC, file).startsWith("code/"))
      assert.doesNotMatch(readFileSync(file, "utf8"), /from "(quickjs-emscripten-core|@jitl\/)/, file);
});
