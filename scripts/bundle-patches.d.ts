// Types for scripts/bundle-patches.js (plain JS: `npm run build` runs it without a TypeScript loader).
import type { Plugin } from "esbuild";

export interface BundlePatch {
  id: string;
  name: string;
  file: RegExp;
  edits: [find: string | RegExp, replace: string][];
}
export const BUNDLE_PATCHES: BundlePatch[];
export function patchPlugin(patches: BundlePatch[], applied?: Map<BundlePatch, number>): Plugin;
