// Loads the chat app. The bundled build runs its first-frame code (app.ts, app-ui.ts, Ink, React,
// the UI: dist/bundle/app.cjs, CommonJS) with a V8 code cache (./code-cache.ts), written after
// the app's first frame when there was none; everything loaded later (the host with the MCP SDK,
// zod and Ajv; terminal-image; the Anthropic SDK; -p) comes from the ES module chunks through
// ESM_IMPORTS. Without the bundle (a plain tsc build) the app's ES modules run as they are.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runWithCodeCache } from "./code-cache.js";
import { mark } from "./timings.js";

type AppModule = typeof import("./commands/app.js");

/**
 * What app.cjs imports from the ES module chunks: the specifiers its dynamic imports name,
 * exactly (scripts/bundle.js makes these external and fails the build on any other).
 */
export const ESM_IMPORTS: Record<string, () => Promise<unknown>> = {
  "./call.js": () => import("./commands/call.js"),
  "./oneshot.js": () => import("./commands/oneshot.js"),
  "terminal-image": () => import("terminal-image"),
  "jpeg-js": () => import("jpeg-js"),
  "@anthropic-ai/sdk": () => import("@anthropic-ai/sdk"),
};

function esmImport(specifier: string): Promise<unknown> {
  const load = ESM_IMPORTS[specifier];
  return load ? load() : Promise.reject(new Error(`mcp-prism: app.cjs imports ${JSON.stringify(specifier)}, which the loader does not provide`));
}

export async function loadApp(): Promise<AppModule> {
  const bundle = fileURLToPath(new URL("./app.cjs", import.meta.url));
  if (!existsSync(bundle)) return import("./commands/app.js");
  const app = runWithCodeCache<AppModule>(bundle, esmImport);
  mark(app.hit ? "code-cache-hit" : "code-cache-miss");
  if (!app.hit) void app.exports.firstFrame.then(() => setImmediate(app.save));
  return app.exports;
}
