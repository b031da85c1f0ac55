// What the chat app's first-frame bundle (dist/bundle/tui.cjs) imports from the ES module chunks,
// by the specifiers its dynamic imports name: scripts/bundle.js makes exactly these external and
// rewrites their import() calls to the loader's stand-in, and fails the build on any other.
export const ESM_IMPORTS: Record<string, () => Promise<unknown>> = {
  "../start-host.js": () => import("./start-host.js"),
  "./oneshot.js": () => import("./commands/oneshot.js"),
  "@anthropic-ai/sdk": () => import("@anthropic-ai/sdk"),
  openai: () => import("openai"),
  "../view/session.js": () => import("../view/session.js"),
  "../../ui/session-restore.js": () => import("../ui/session-restore.js"),
};

export function esmImport(specifier: string): Promise<unknown> {
  const load = ESM_IMPORTS[specifier];
  return load
    ? load()
    : Promise.reject(
        new Error(`mcp-prism: tui.cjs imports ${JSON.stringify(specifier)}, which the loader does not provide`),
      );
}
