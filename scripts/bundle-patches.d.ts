// Types for scripts/bundle-patches.js (plain JS: `npm run build` runs it without a TypeScript loader).
import type { Plugin } from "esbuild";

export interface BundlePatch {
  /** What PRISM_BUNDLE_WITHOUT names it by (scripts/bundle.js). */
  id: string;
  name: string;
  file: RegExp;
  edits: [find: string | RegExp, replace: string][];
}
export const MAY_BE_RGI_EMOJI: RegExp;
export const BUNDLE_PATCHES: BundlePatch[];
export function patchPlugin(patches: BundlePatch[], applied?: Map<BundlePatch, number>): Plugin;
