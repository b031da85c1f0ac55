// Runs the chat app from its first-frame bundle (tui.cjs: app.ts, tui-render.ts, Ink, React, the UI,
// as one CommonJS file) with a V8 code cache (./code-cache.ts), written after the app's first
// frame when there was none. What the app imports later (the host with the MCP SDK, zod and Ajv;
// the Anthropic SDK; -p) comes from the ES module chunks through `esmImport`
// (./esm-imports.ts). Run by main() through ./tui-loader.ts.
import { join } from "node:path";
import { runWithCodeCache, type EsmImport } from "./code-cache.js";
import { mark } from "./timings.js";

type AppModule = typeof import("./commands/tui.js");

/** Runs tui.cjs from `bundleDir` with its code cache; returns the app module (its `run`). */
export function runCachedTui(bundleDir: string, esmImport: EsmImport): AppModule {
  const app = runWithCodeCache<AppModule>(join(bundleDir, "tui.cjs"), esmImport);
  mark(app.hit ? "code-cache-hit" : "code-cache-miss");
  if (!app.hit) void app.exports.firstFrame.then(() => setImmediate(app.save));
  return app.exports;
}
