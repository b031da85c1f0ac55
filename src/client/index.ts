// mcp-prism/client: the pure rules another host needs to speak SEP-3279 — which
// requestedOutputs to send in a mode, whether a result answers the request, and which audience
// each output belongs to (with the legacy rule for older results). No I/O: these are the very
// functions mcp-prism's own host runs (src/host/policy, validate.ts, legacy-outputs.ts, router.ts).
import {
  checkSelection,
  effectiveSelection,
  negotiatedExtensions,
  type ToolResultOutput,
  type ToolResultOutputSelector,
  type ToolResultVariant,
} from "../protocol/index.js";
import { legacyOutputs } from "../host/result/legacy-outputs.js";
import { policyFor, selectOutputs } from "../host/policy/index.js";
import { route } from "../host/result/router.js";
import { MODES, type Mode } from "../host/types.js";
import {
  validateLegacyResult,
  validateVariantResult,
  type ValidatedLegacyResult,
  type ValidatedVariantResult,
  type ValidationLimits,
} from "../host/result/validate.js";

export { MODES, type Mode };
export { checkSelection, effectiveSelection, negotiatedExtensions, legacyOutputs, validateLegacyResult };
export {
  ResultValidationError,
  type ValidationRule,
  type ValidationLimits,
  type ValidatedLegacyResult,
  type ValidatedVariantResult,
  type LegacyResultWarning,
} from "../host/result/validate.js";
export { RoutingError } from "../host/result/router.js";
export type { ModePolicy, Preference } from "../host/policy/index.js";

/** What a host needs to know of a listed 2026-12-01 tool. */
export interface DeclaredTool {
  outputVariants: readonly ToolResultVariant[];
}

export interface SelectionOptions {
  /** Extensions both sides advertised (see negotiatedExtensions); extension audiences need them. */
  negotiatedExtensions?: ReadonlySet<string>;
  /** Declared variants the host will not request (e.g. a schema it cannot compile). */
  declined?: readonly ToolResultOutputSelector[];
}

/** The extensions a host advertises in its capabilities in this mode (only `app` adds MCP Apps). */
export function extensionsFor(mode: Mode): Record<string, Record<string, unknown>> {
  return structuredClone(policyFor(mode).advertiseExtensions);
}

/**
 * The `requestedOutputs` to send for a tool in a mode: only declared selectors, extension
 * audiences only when negotiated, none twice. undefined means send none (the server answers
 * with the assistant/content fallback), as the `minimal` mode does.
 */
export function requestedOutputsFor(
  mode: Mode,
  tool: DeclaredTool,
  options: SelectionOptions = {},
): ToolResultOutputSelector[] | undefined {
  return selectOutputs(
    policyFor(mode),
    tool.outputVariants,
    options.negotiatedExtensions ?? new Set(),
    options.declined,
  );
}

/**
 * Checks a 2026-12-01 result against what was requested (undefined = nothing sent: the fallback)
 * and the tool's variant schemas, before anything is routed. Throws ResultValidationError with a
 * named rule; the message never quotes the rejected output.
 */
export function validateResult(
  raw: unknown,
  requested: readonly ToolResultOutputSelector[] | undefined,
  tool: DeclaredTool,
  limits?: ValidationLimits,
): ValidatedVariantResult {
  return validateVariantResult(raw, effectiveSelection(requested), tool.outputVariants, limits);
}

/** Outputs split by audience: assistant → the model, user → the person, programmatic → code, each extension → its own surface. */
export interface AudienceSplit {
  assistant: ToolResultOutput<"assistant">[];
  user: ToolResultOutput<"user">[];
  programmatic: ToolResultOutput<"programmatic">[];
  /** Keyed by extension identifier (e.g. io.modelcontextprotocol/ui). */
  extensions: Record<string, ToolResultOutput[]>;
}

/**
 * Splits validated outputs by audience, never mixing them. `extensions`: those negotiated and
 * requested for this call; an output of any other audience throws RoutingError (validation
 * should have refused it: nothing is dropped silently).
 */
export function splitByAudience(
  outputs: readonly ToolResultOutput[],
  extensions: readonly string[] = [],
): AudienceSplit {
  const routed = route(outputs, { appExtensions: extensions });
  const byExtension: Record<string, ToolResultOutput[]> = Object.create(null);
  for (const o of routed.app) (byExtension[o.audience] ??= []).push(o);
  return {
    assistant: [...routed.model],
    user: [...routed.user],
    programmatic: [...routed.programmatic],
    extensions: byExtension,
  };
}

/**
 * A 2026-07-28-or-older result (content + structuredContent), checked and split by the SEP's
 * legacy reading: content to the assistant, structuredContent to program logic — never both to
 * the model. `outputSchema`: the legacy tool's, if any (a violating structuredContent is dropped
 * with a warning).
 */
export function splitLegacyResult(
  raw: unknown,
  outputSchema?: Record<string, unknown>,
  limits?: ValidationLimits,
): AudienceSplit & { result: ValidatedLegacyResult } {
  const result = validateLegacyResult(raw, outputSchema, limits);
  return { ...splitByAudience(legacyOutputs(result)), result };
}
