// Patches scripts/bundle.js applies to pinned dependencies as esbuild loads them. Each edit
// replaces one exact text (or every match of a global RegExp); a file the filter matches without
// every text (another major version) loads unpatched, and a patch applied to no file fails the
// build. Each keeps what the app uses of the dependency and removes a start-up cost that
// bench/startup.ts measures with and without it (docs/benchmarks.md), or what the first-frame
// CommonJS bundle (tui.cjs) cannot hold, or fixes a bug. Text edits only where no module can be
// swapped whole: an alias to a local module would have to copy string-width, and yoga's WASM
// bytes are reachable only inside its Emscripten loader.
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
    // string-width 8 (Ink, widest-line, cli-truncate) tests every grapheme of a non-ASCII line
    // against /^\p{RGI_Emoji}$/v. V8 runs that huge pattern in its regexp interpreter for the first
    // few hundred calls (~70 µs each): Ink's first layout (box borders, "·", "…") spent ~120 ms
    // there. A cheap character-class test first skips the big one where it cannot match, and the
    // big one is built on first use (building it costs ~25 ms, at module load before this patch).
    id: "string-width",
    name: "string-width: emoji pre-check, RGI pattern built on first use",
    file: /[\\/]string-width[\\/]index\.js$/,
    edits: [
      [
        "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
        `let rgiEmojiPattern;\nconst rgiEmojiRegex = { test: (s) => (rgiEmojiPattern ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(s) };\nconst mayBeRgiEmoji = ${MAY_BE_RGI_EMOJI};`,
      ],
      ["if (rgiEmojiRegex.test(segment) ||", "if ((mayBeRgiEmoji.test(segment) && rgiEmojiRegex.test(segment)) ||"],
    ],
  },
  {
    // yoga-layout inlines its WASM as a data: URL and instantiates it asynchronously: through
    // fetch() when fetch exists (the first fetch loads node's undici, ~80–100 ms, and
    // percent-decodes 100 KB), else after an atob + char-by-char copy; its index then awaits that
    // at the top level (which a CommonJS bundle cannot hold). Here the bytes are decoded with
    // Buffer and compiled and instantiated synchronously (node allows any size), so the module
    // object is ready when the factory returns.
    id: "yoga",
    name: "yoga-layout: instantiate the inlined WASM synchronously",
    file: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
    edits: [
      [
        "var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c",
        'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))',
      ],
      [
        'function c(e){return ya().then(function(f){return WebAssembly.instantiate(f,d)}).then(function(f){return f}).then(e,function(f){v("failed to asynchronously prepare wasm: "+f);x(f)})}',
        'function c(e){try{e({instance:new WebAssembly.Instance(new WebAssembly.Module(wa()),d)})}catch(f){v("failed to prepare wasm: "+f);x(f)}return Promise.resolve()}',
      ],
    ],
  },
  {
    id: "yoga",
    name: "yoga-layout: no top-level await (the factory above fills its module object synchronously)",
    file: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/,
    edits: [
      [
        "const Yoga = wrapAssembly(await loadYoga());",
        "const yogaModule = {};\nloadYoga(yogaModule);\nconst Yoga = wrapAssembly(yogaModule);",
      ],
    ],
  },
  {
    // Ink's React devtools hook (DEV=true) imports react-devtools-core, which is not shipped (the
    // import always fails, and Ink then prints its "not installed" warning), with a top-level
    // await a CommonJS bundle cannot hold. The failure is raised directly instead.
    id: "ink-devtools",
    name: "ink: no devtools import (react-devtools-core is not shipped)",
    file: /[\\/]ink[\\/]build[\\/]reconciler\.js$/,
    edits: [
      [
        "        await import('./devtools.js');",
        '        throw Object.assign(new Error("react-devtools-core is not bundled"), { code: "ERR_MODULE_NOT_FOUND" });',
      ],
      ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
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
