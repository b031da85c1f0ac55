// The steps of one call that need no connection state: the checks before it is sent (the tool still
// the approved one, arguments' depth, the era and the selection), and the whole result validated,
// then routed, into its outcome. Host.call runs them around the request.
import { sameSelector, selectorKey, exceedsJsonDepth, tooDeepDetail, UI_EXTENSION } from "../../protocol/index.js";
import { appResourceUri } from "../catalog/app-only.js";
import type { HostConfig } from "../config/config.js";
import { callError } from "../host-error.js";
import { legacyOutputs } from "../result/legacy-outputs.js";
import type { PendingCall } from "./pending-call.js";
import { policyFor } from "../policy/index.js";
import { writeReceipt } from "../result/receipt.js";
import { route, RoutingError, sinkBytes } from "../result/router.js";
import { modeSelection, selectionOf } from "./selections.js";
import type { CallError, CallOutcome, CallSuccess, HostWarning, Routed, SinkBytes } from "../types.js";
import { ResultValidationError, validateLegacyResult, validateVariantResult } from "../result/validate.js";

type Limits = HostConfig["limits"];

export function checkCall(call: PendingCall, maxDepth: number): CallError | undefined {
  const { plan, opts, entry, conn } = call;
  // A call approved (and drawn) for one server's tool never runs another's, even when names
  // moved between the approval and the call (a server connected or restarted meanwhile).
  const target = opts.target;
  if (target !== undefined && (target.server !== entry.server || target.tool !== entry.name)) {
    return callError(
      target.server,
      target.tool,
      "tool-moved",
      `the name ${JSON.stringify(entry.qualifiedName)} now means server ${entry.server}, tool ${entry.name}; not run`,
    );
  }
  if (entry.unavailable !== undefined)
    return callError(plan.server, plan.tool, entry.unavailable.rule, entry.unavailable.detail);
  // Arguments (from the model, --args or a UI form) are untrusted JSON like a result.
  if (exceedsJsonDepth(plan.args, maxDepth))
    return callError(plan.server, plan.tool, "too-deep", `${tooDeepDetail("the arguments", maxDepth)}; not sent`);
  if (entry.era !== "2026-12-01") {
    if (!opts.select) return undefined;
    return callError(
      plan.server,
      plan.tool,
      "selection-unsupported",
      `the server speaks ${plan.protocolVersion}: output selection needs protocol 2026-12-01`,
    );
  }
  const declined = opts.select && entry.declined?.find((d) => opts.select!.some((s) => sameSelector(s, d)));
  if (declined) {
    plan.requested = opts.select;
    return callError(
      plan.server,
      plan.tool,
      "declined-variant",
      `${selectorKey(declined)} is declined: ${declined.detail} [${declined.rule}]`,
    );
  }
  const negotiated = conn.negotiated(policyFor(plan.mode).advertiseExtensions);
  const chosen = opts.select
    ? selectionOf(opts.select, entry, negotiated)
    : modeSelection(entry, plan.mode, negotiated);
  call.appExtensions = chosen.extensions;
  call.effective = chosen.effective;
  plan.requested = chosen.requested;
  const issue = chosen.issue;
  if (!issue) return undefined;
  // Extensions are advertised per mode: the Apps one (and, by default, a registered client extension) with app mode only.
  const hint =
    issue.rule === "unnegotiated-selector" && plan.mode !== "app"
      ? " (extensions are advertised only with --mode app)"
      : "";
  return callError(plan.server, plan.tool, issue.rule, `${issue.message}${hint}`);
}

/** The whole result validated before anything is routed. */
export function finishCall(call: PendingCall, raw: Record<string, unknown>, limits: Limits): CallOutcome {
  const { plan, entry } = call;
  // No size step here: every transport refused a reply over limits.maxResultBytes already.
  let outcome: CallOutcome;
  try {
    if (entry.era === "2026-12-01") {
      const v = validateVariantResult(raw, call.effective, entry.variants, limits);
      outcome = succeeded(call, route(v.outputs, { appExtensions: call.appExtensions, meta: v.meta }), v.isError);
    } else {
      const v = validateLegacyResult(raw, entry.legacyOutputSchema, limits);
      // A legacy App tool in app mode: its structuredContent is the View's data (legacy-outputs.ts).
      const view = plan.mode === "app" && appResourceUri(entry) !== undefined ? [UI_EXTENSION] : [];
      outcome = succeeded(call, route(legacyOutputs(v, view[0]), { appExtensions: view, meta: v.meta }), v.isError);
      outcome.legacyResult = v;
      if (v.warnings)
        outcome.warnings = v.warnings.map(
          (w): HostWarning => ({ server: plan.server, tool: plan.tool, rule: w.rule, detail: w.detail }),
        );
      if (v.meta !== undefined && Object.keys(v.meta).length > 0) outcome.resultMeta = v.meta;
    }
  } catch (e) {
    if (e instanceof ResultValidationError)
      return failedCall(call, callError(plan.server, plan.tool, e.rule, `invalid result: ${e.message}`));
    if (e instanceof RoutingError)
      return failedCall(call, callError(plan.server, plan.tool, "unroutable-output", e.message));
    throw e;
  }
  return outcome;
}

export function failedCall(call: Pick<PendingCall, "started" | "plan">, error: CallError): CallOutcome {
  const { plan } = call;
  const outcome: CallOutcome = { ok: false, plan, error, durationMs: performance.now() - call.started };
  return outcome;
}

function succeeded(call: PendingCall, routed: Routed, isError: boolean): CallSuccess {
  // `bytes` serializes every output: computed when first read (the app reads it when it draws
  // the call; a script calling in a loop may never), then kept.
  let bytes: SinkBytes | undefined;
  const outcome: CallSuccess = {
    ok: true,
    plan: call.plan,
    isError,
    routed,
    get bytes() {
      return (bytes ??= sinkBytes(routed));
    },
    durationMs: performance.now() - call.started,
  };
  if (routed.model.length === 0)
    outcome.receipt = writeReceipt(call.entry.name, routed, outcome.bytes, call.entry.variants, isError);
  return outcome;
}
