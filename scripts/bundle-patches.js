// Start-up patches scripts/bundle.js applies to pinned dependencies as esbuild loads them. Each
// edit replaces one exact text (`$&` in the replacement is the text found); a file the filter
// matches without every text (another major version) loads unpatched, and a patch applied to no
// file fails the build. Each keeps the dependency's behaviour and only removes a start-up cost.
import { readFile } from "node:fs/promises";

/**
 * A string that can be an RGI emoji sequence has a non-ASCII Emoji code point or is a keycap
 * (`#️⃣` = `#` U+FE0F U+20E3: `#`, `*` and the digits are the only ASCII Emoji code points).
 * Flags are regional indicators, tag sequences start with 🏴, modifier and ZWJ sequences are
 * made of emoji: all Emoji code points above ASCII. test/build/bundle-patches.test.ts checks it.
 */
export const MAY_BE_RGI_EMOJI = /[\p{Emoji}--[#*0-9]]|\u20E3/v;

export const BUNDLE_PATCHES = [
  {
    // string-width 8 (Ink, widest-line, cli-truncate) tests every grapheme of a non-ASCII line
    // against /^\p{RGI_Emoji}$/v. V8 runs that huge pattern in its regexp interpreter for the first
    // few hundred calls (~70 µs each): Ink's first layout (box borders, "·", "…") spent ~120 ms
    // there. A cheap character-class test first skips the big one where it cannot match.
    name: "string-width: emoji pre-check",
    file: /[\\/]string-width[\\/]index\.js$/,
    edits: [
      ["const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;", `$&\nconst mayBeRgiEmoji = ${MAY_BE_RGI_EMOJI};`],
      ["if (rgiEmojiRegex.test(segment) ||", "if ((mayBeRgiEmoji.test(segment) && rgiEmojiRegex.test(segment)) ||"],
    ],
  },
  {
    // yoga-layout inlines its WASM as a data: URL and fetches it when fetch exists: the first
    // fetch() loads node's undici (~80–100 ms) and percent-decodes 100 KB. Its own fallback, taken
    // wherever fetch is missing, decodes the same base64 with atob.
    name: "yoga-layout: decode the inlined WASM without fetch",
    file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    edits: [['function ya(){return w||"function"!=typeof fetch?', "function ya(){return true?"]],
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
          if (!patch.edits.every(([find]) => text.includes(find))) return undefined;
          for (const [find, replace] of patch.edits) text = text.replace(find, replace);
          applied.set(patch, (applied.get(patch) ?? 0) + 1);
          return { contents: text, loader: "js" };
        });
      }
    },
  };
}
