// main()'s way to the chat app: the bundled build runs the app's first-frame bundle with its code
// cache (./cached-tui.ts); a plain tsc build (no bundle) runs the app's ES modules as they are.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCachedTui } from "./cached-tui.js";

export async function loadTui(): Promise<typeof import("./commands/tui.js")> {
  const bundleDir = fileURLToPath(new URL(".", import.meta.url));
  if (!existsSync(join(bundleDir, "tui.cjs"))) return import("./commands/tui.js");
  // The ES module side loads when the app first asks for it, after its first frame.
  return runCachedTui(bundleDir, async (specifier) => (await import("./esm-imports.js")).esmImport(specifier));
}
