// Legacy client profiles: how other hosts read a 2026-07-28-or-earlier result. Each turns the
// legacy content/structuredContent into audience-tagged outputs; then the host's router runs.
// The host reads legacy results one way (legacyOutputs, the `sep` profile) and hands the
// validated result on (CallSuccess.legacyResult): a profile is a second reading, no second call.
import type { ToolResultOutput } from "../../protocol/index.js";
import { legacyOutputs } from "../../host/result/legacy-outputs.js";
import { route, sinkBytes } from "../../host/result/router.js";
import type { CallOutcome, LegacyProfile } from "../../host/types.js";
import type { ValidatedLegacyResult } from "../../host/result/validate.js";
import { annotationAudience } from "./annotation-audience.js";
import { both } from "./both.js";
import { contentOnly } from "./content-only.js";
import { structuredReplacesContent } from "./structured-replaces-content.js";

export type LegacyProfileFn = (r: ValidatedLegacyResult) => ToolResultOutput[];

export const LEGACY_PROFILE_FNS: Record<LegacyProfile, LegacyProfileFn> = {
  sep: legacyOutputs,
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

/**
 * The outcome as a client with this profile sees it: a legacy-shaped result read again and
 * routed; a failure, or a 2026-12-01 result (no legacy shape), is returned as it is. Every
 * profile gives the model an output, so no receipt is ever needed.
 */
export function readAs(profile: LegacyProfile, outcome: CallOutcome): CallOutcome {
  if (!outcome.ok || outcome.legacyResult === undefined) return outcome;
  const routed = route(LEGACY_PROFILE_FNS[profile](outcome.legacyResult), { appExtensions: [] });
  return { ...outcome, plan: { ...outcome.plan, legacyProfile: profile }, routed, bytes: sinkBytes(routed) };
}
