// Builds dist/ when it is missing or older than any source file (used by `npm start`).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const marker = "dist/bundle/main.js";
const stale = !existsSync(marker) || newest("src") > statSync(marker).mtimeMs;
if (stale) {
  process.stderr.write("mcp-prism: building (tsc, the declarations, then the bundle)…\n");
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
    stdio: "inherit",
  });
  // The public entries' .d.ts files (package.json exports).
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.types.json"], {
    stdio: "inherit",
  });
  execFileSync(process.execPath, ["scripts/bundle.js"], { stdio: "inherit" });
}
