// Legacy profiles: how a host reads a 2026-07-28-or-earlier result. Each turns the legacy
// content/structuredContent into audience-tagged outputs; then the same router runs.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { LegacyProfile } from "../types.js";
import type { ValidatedLegacyResult } from "../validate.js";
import { annotationAudience } from "./annotation-audience.js";
import { both } from "./both.js";
import { contentOnly } from "./content-only.js";
import { sep } from "./sep.js";
import { structuredReplacesContent } from "./structured-replaces-content.js";

export type LegacyProfileFn = (r: ValidatedLegacyResult) => ToolResultOutput[];

export const LEGACY_PROFILE_FNS: Record<LegacyProfile, LegacyProfileFn> = {
  sep,
  "content-only": contentOnly,
  "structured-replaces-content": structuredReplacesContent,
  both,
  "annotation-audience": annotationAudience,
};

/** Which clients read legacy results this way (for compare's table). */
export const PROFILE_CLIENTS: Record<LegacyProfile, string> = {
  sep: "mcp-prism",
  "content-only": "gemini-cli",
  "structured-replaces-content": "Claude Code, Codex, opencode",
  both: "content + JSON mirror",
  "annotation-audience": "goose",
};

export function applyLegacyProfile(profile: LegacyProfile, r: ValidatedLegacyResult): ToolResultOutput[] {
  return LEGACY_PROFILE_FNS[profile](r);
}
