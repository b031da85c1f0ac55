// main()'s way to the chat app: the bundled build runs the app's first-frame bundle with its code
// cache (./cached-app.ts; bin/mcp-prism.js usually gets there first, without main()); a plain tsc
// build (no bundle) runs the app's ES modules as they are.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCachedApp } from "./cached-app.js";

export async function loadApp(): Promise<typeof import("./commands/app.js")> {
  const bundleDir = fileURLToPath(new URL(".", import.meta.url));
  if (!existsSync(join(bundleDir, "app.cjs"))) return import("./commands/app.js");
  return runCachedApp(bundleDir, (await import("./esm-imports.js")).esmImport);
}
