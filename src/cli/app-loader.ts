// main()'s way to the chat app: the bundled build runs the app's first-frame bundle with its code
// cache (./cached-app.ts); a plain tsc build (no bundle) runs the app's ES modules as they are.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCachedApp } from "./cached-app.js";

export async function loadApp(): Promise<typeof import("./commands/app.js")> {
  const bundleDir = fileURLToPath(new URL(".", import.meta.url));
  if (!existsSync(join(bundleDir, "app.cjs"))) return import("./commands/app.js");
  // The ES module side loads when the app first asks for it, after its first frame.
  return runCachedApp(bundleDir, async (specifier) => (await import("./esm-imports.js")).esmImport(specifier));
}
