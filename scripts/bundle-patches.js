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
  {
    // Ink 6.8 keeps every <Static> line it ever wrote, to write them all again after a frame as
    // tall as the terminal. The app clears screen and scrollback (/clear, a resize) and draws
    // <Static> anew; without this, such a frame brought the cleared lines back, twice over after
    // a resize. A write through Ink that clears the scrollback (ED 3) starts the record afresh.
    id: "ink-static-after-clear",
    name: "ink: a write that clears the scrollback forgets the static lines it held",
    file: /[\\/]ink[\\/]build[\\/]ink\.js$/,
    edits: [
      [
        "this.options.stdout.write(data);\n        this.restoreLastOutput();",
        "if (data.includes('\\u001B[3J')) this.fullStaticOutput = '';\n        this.options.stdout.write(data);\n        this.restoreLastOutput();",
      ],
    ],
  },
];

/**
 * esbuild plugin applying `patches` as the files load (every patch whose filter matches, in
 * order: esbuild takes the first onLoad that answers, so there is one); `applied` counts the files
 * each patch changed (a file the filter matches without every text, such as another major
 * version, loads as it is for that patch).
 */
export function patchPlugin(patches, applied = new Map()) {
  const filter = new RegExp(patches.map((p) => `(?:${p.file.source})`).join("|"));
  return {
    name: "mcp-prism-patches",
    setup(b) {
      b.onLoad({ filter }, async (args) => {
        let text = await readFile(args.path, "utf8");
        let changed = false;
        for (const patch of patches) {
          if (!patch.file.test(args.path)) continue;
          const found = (find) => (typeof find === "string" ? text.includes(find) : text.search(find) >= 0);
          if (!patch.edits.every(([find]) => found(find))) continue;
          for (const [find, replace] of patch.edits) text = text.replace(find, replace);
          applied.set(patch, (applied.get(patch) ?? 0) + 1);
          changed = true;
        }
        return changed ? { contents: text, loader: "js" } : undefined;
      });
    },
  };
}
