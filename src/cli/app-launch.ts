// The CommonJS entry bin/mcp-prism.js requires for the chat app (built to
// dist/bundle/app-launch.cjs): runs app.cjs with its code cache at once, and loads the ES module
// side (dist/bundle/esm-imports.js) only when the app first imports from it, after its first frame.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runCachedApp } from "./cached-app.js";

type EsmImports = typeof import("./esm-imports.js");

export function launchApp(bundleDir: string, argv: string[]): Promise<number> {
  let side: Promise<EsmImports> | undefined;
  const esmImport = async (specifier: string) => {
    side ??= import(pathToFileURL(join(bundleDir, "esm-imports.js")).href) as Promise<EsmImports>;
    return (await side).esmImport(specifier);
  };
  return runCachedApp(bundleDir, esmImport).run(argv);
}

export { runsApp } from "./dispatch.js";
