// Patches scripts/bundle.js applies to pinned dependencies as esbuild loads them: bug fixes only
// (the start-up patches went with decision D3, docs/decisions.md). Each edit replaces one exact
// text; a file the filter matches without every text (another major version) loads unpatched, and
// a patch applied to no file fails the build.
import { readFile } from "node:fs/promises";

export const BUNDLE_PATCHES = [
  {
    // Ink 6.8 bug, not a start-up cost: after a frame at least as tall as the terminal, Ink clears
    // the screen and writes the static output and the frame without the frame's trailing newline,
    // but records the frame with it, so the next frame erases one line too many (the last line
    // above the live area). test/build/ink-rewrite.test.ts shows it under tmux.
    id: "ink-clear-rewrite",
    name: "ink: the frame after a clear-and-rewrite erases only what was written",
    file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
    edits: [
      [
        "ansiEscapes.clearTerminal + this.fullStaticOutput + output)",
        "ansiEscapes.clearTerminal + this.fullStaticOutput + outputToRender)",
      ],
    ],
  },
];

/**
 * esbuild plugin applying `patches` as the files load; `applied` counts the files each patch
 * changed (a file the filter matches without every text, such as another major version, loads
 * as it is).
 */
export function patchPlugin(patches, applied = new Map()) {
  return {
    name: "mcp-prism-patches",
    setup(b) {
      for (const patch of patches) {
        b.onLoad({ filter: patch.file }, async (args) => {
          let text = await readFile(args.path, "utf8");
          const found = (find) => (typeof find === "string" ? text.includes(find) : text.search(find) >= 0);
          if (!patch.edits.every(([find]) => found(find))) return undefined;
          for (const [find, replace] of patch.edits) text = text.replace(find, replace);
          applied.set(patch, (applied.get(patch) ?? 0) + 1);
          return { contents: text, loader: "js" };
        });
      }
    },
  };
}
