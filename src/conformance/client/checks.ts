// The client checks of `mcp-prism check-client`: what a 2026-12-01 client does that a server and a
// model endpoint can observe. Each id is traced in conformance/sep-3279.yaml (`client_check`);
// its level is the keyword of that sentence. The selection checks read what the scenario server
// saw; the routing checks search every model request for the canaries of the outputs that must
// not reach the model, and count only when the assistant output's own canary did reach it (else
// nothing shows the client routed the result anywhere: NOT-TESTED, never a pass).
import { extensionOfAudience, isExtensionAudience } from "../../protocol/index.js";
import { fail, notApplicable, notTested, pass, type CheckResult, type Level, type Verdict } from "../check.js";
import type { ModelRequest } from "./fake-model.js";
import { CLIENT_PROTOCOL_VERSION, type Canaries, type ClientScenario, type Observation } from "./scenarios.js";

export type Transport = "stdio" | "http";

/** One run of the client command against one scenario over one transport. */
export interface ScenarioRun {
  scenario: ClientScenario;
  transport: Transport;
  canaries: Canaries;
  /** Extensions the scenario server advertised. */
  serverExtensions: string[];
  observations: Observation[];
  model: ModelRequest[];
  exit: { code: number | null; signal: string | null; timedOut: boolean; output: string };
}

export interface ClientCheck {
  id: string;
  level: Level;
  proposed: boolean;
  /** The scenarios the check reads (a run of another scenario is not asked). */
  scenarios: string[];
  evaluate(run: ScenarioRun): Verdict;
}

type Call = Extract<Observation, { kind: "request" }>;
type Result = Extract<Observation, { kind: "result" }>;

const calls = (run: ScenarioRun): Call[] =>
  run.observations.filter((o): o is Call => o.kind === "request" && o.method === "tools/call");
const modernCalls = (run: ScenarioRun) => calls(run).filter((c) => c.version === CLIENT_PROTOCOL_VERSION);
const modernResults = (run: ScenarioRun) =>
  run.observations.filter((o): o is Result => o.kind === "result" && o.version === CLIENT_PROTOCOL_VERSION);
const modelSaw = (run: ScenarioRun, canary: string) => run.model.some((r) => r.raw.includes(canary));
const toolResultReachedModel = (run: ScenarioRun) => run.model.some((r) => r.hasToolResult);

/** The selectors the server declared for `tool` in its 2026-12-01 tools/list answers. */
function declared(run: ScenarioRun, tool: string): Set<string> {
  const out = new Set<string>();
  for (const o of run.observations)
    if (o.kind === "listed" && o.version === CLIENT_PROTOCOL_VERSION) for (const s of o.tools[tool] ?? []) out.add(s);
  return out;
}

/** Why nothing could be judged when the client made no 2026-12-01 tools/call. */
function noModernCall(run: ScenarioRun): Verdict {
  const n = calls(run).length;
  return notTested(
    n > 0
      ? `the client called tools only under earlier versions (${n} call${n === 1 ? "" : "s"})`
      : `the client made no tools/call${run.model.length === 0 ? " and no model request" : ""}`,
  );
}

/** Folds per-call problems: FAIL names the first; PASS says how many calls were read. */
function overCalls(run: ScenarioRun, problems: (c: Call) => string[], what: string): Verdict {
  const modern = modernCalls(run);
  if (modern.length === 0) return noModernCall(run);
  const found = modern.flatMap(problems);
  if (found.length > 0) return fail(found[0] + (found.length > 1 ? ` (+${found.length - 1} more)` : ""));
  return pass(`${modern.length} tools/call under ${CLIENT_PROTOCOL_VERSION}: ${what}`);
}

/**
 * The routing precondition: a 2026-12-01 result of the tool came back and its assistant output
 * reached the model. Undefined when it holds, else the NOT-TESTED verdict.
 */
function routed(run: ScenarioRun): Verdict | undefined {
  const results = modernResults(run).filter((r) => !r.isError);
  if (results.length === 0)
    return modernCalls(run).length === 0 ? noModernCall(run) : notTested("no tool result came back");
  if (!modelSaw(run, run.canaries.assistant))
    return notTested(
      "the assistant output never reached the model, so no model request shows how the result was routed",
    );
  return undefined;
}

/**
 * A check on one bent output the server offered: N/A when the client's request left no room for
 * it, NOT-TESTED when the result never reached the model, else whether its canary did.
 */
function offered(
  run: ScenarioRun,
  present: boolean,
  canary: string,
  say: { none: string; leaked: string; kept: string },
): Verdict {
  if (!present) return modernCalls(run).length === 0 ? noModernCall(run) : notApplicable(say.none);
  if (!toolResultReachedModel(run)) return notTested("the result was never reported to the model");
  return modelSaw(run, canary) ? fail(say.leaked) : pass(say.kept);
}

/** A canary-leak check over outputs of the given selectors. */
function leak(selectors: Record<string, keyof Canaries>, audience: string): (run: ScenarioRun) => Verdict {
  return (run) => {
    const pre = routed(run);
    if (pre) return pre;
    const returned = new Set(modernResults(run).flatMap((r) => r.outputs));
    const present = Object.keys(selectors).filter((s) => returned.has(s));
    if (present.length === 0) return notApplicable(`the client requested no ${audience} output`);
    const leaked = present.filter((s) => modelSaw(run, run.canaries[selectors[s]]));
    if (leaked.length > 0) return fail(`the ${leaked.join(" and ")} output reached a model request`);
    return pass(`${present.join(", ")} returned; none reached the ${run.model.length} model requests`);
  };
}

export const CLIENT_CHECKS: ClientCheck[] = [
  {
    id: "sep-3279-client-selects-declared",
    level: "MUST",
    proposed: false,
    scenarios: ["routing", "error-output", "unrequested-output"],
    evaluate: (run) =>
      overCalls(
        run,
        (c) => {
          const ok = declared(run, c.tool ?? "");
          return (c.requestedOutputs ?? [])
            .filter((s) => !ok.has(s))
            .map((s) => `requested ${s}, which ${c.tool} does not declare`);
        },
        "every requested selector was declared by the tool",
      ),
  },
  {
    id: "sep-3279-client-no-duplicate-selector",
    level: "MUST",
    proposed: false,
    scenarios: ["routing", "error-output", "unrequested-output"],
    evaluate: (run) =>
      overCalls(
        run,
        (c) => {
          const sent = c.requestedOutputs ?? [];
          const twice = sent.filter((s, i) => sent.indexOf(s) !== i);
          return twice.length > 0 ? [`requested ${twice[0]} more than once`] : [];
        },
        "no selector twice",
      ),
  },
  {
    id: "sep-3279-client-no-unnegotiated-extension-audience",
    level: "MUST",
    proposed: false,
    scenarios: ["unnegotiated-extension", "routing"],
    evaluate: (run) => {
      // A client may hold back a tool whose declaration breaks the server's rules: it then requests
      // nothing of it, which keeps this rule, once the tool was listed and the model was asked.
      if (
        modernCalls(run).length === 0 &&
        run.scenario.name === "unnegotiated-extension" &&
        run.model.length > 0 &&
        run.observations.some((o) => o.kind === "listed" && o.version === CLIENT_PROTOCOL_VERSION)
      )
        return pass(`the tool was listed under ${CLIENT_PROTOCOL_VERSION}; the client never called it (held back)`);
      return overCalls(
        run,
        (c) =>
          (c.requestedOutputs ?? [])
            .filter((s) => {
              const audience = s.slice(0, s.lastIndexOf("/"));
              if (!isExtensionAudience(audience)) return false;
              const id = extensionOfAudience(audience);
              return !(run.serverExtensions.includes(id) && c.extensions.includes(id));
            })
            .map(
              (s) =>
                `requested ${s} although ${run.serverExtensions.length ? "the extension was not advertised by both sides" : "the server advertised no extension"}`,
            ),
        run.serverExtensions.length
          ? `extension audiences requested only when both sides advertised them (server: ${run.serverExtensions.join(", ")})`
          : "no extension audience requested (the server advertised none)",
      );
    },
  },
  {
    id: "sep-3279-client-no-requested-outputs-before-2026-12-01",
    level: "MUST",
    proposed: false,
    scenarios: ["earlier-version"],
    evaluate: (run) => {
      const older = calls(run).filter((c) => c.version !== CLIENT_PROTOCOL_VERSION);
      if (older.length === 0)
        return notTested(
          modernCalls(run).length > 0
            ? "the client called under 2026-12-01 although the server refused that version"
            : "the client made no tools/call",
        );
      const bad = older.filter((c) => c.sentRequestedOutputs);
      if (bad.length > 0)
        return fail(`tools/call under ${bad[0].version ?? "an earlier version"} carried requestedOutputs`);
      const versions = [...new Set(older.map((c) => c.version ?? "?"))].join(", ");
      return pass(`${older.length} tools/call under ${versions}, none with requestedOutputs`);
    },
  },
  {
    id: "sep-3279-client-rejects-tool-without-variants",
    level: "MUST",
    proposed: false,
    scenarios: ["tool-without-variants"],
    evaluate: (run) => {
      const listedBare = run.observations.some(
        (o) => o.kind === "listed" && o.version === CLIENT_PROTOCOL_VERSION && Object.values(o.tools).includes(null),
      );
      if (!listedBare) return notTested(`the client never listed tools under ${CLIENT_PROTOCOL_VERSION}`);
      const modern = modernCalls(run).filter((c) => c.tool === run.scenario.tool);
      if (modern.length > 0)
        return fail(
          `called ${run.scenario.tool} under ${CLIENT_PROTOCOL_VERSION} after it was listed without outputVariants`,
        );
      const older = calls(run).length;
      return pass(
        `listed without outputVariants, never called under ${CLIENT_PROTOCOL_VERSION}${older ? ` (${older} call(s) under an earlier version)` : ""}`,
      );
    },
  },
  {
    id: "sep-3279-client-user-outputs-not-in-model-context",
    level: "MUST",
    proposed: false,
    scenarios: ["routing"],
    evaluate: leak({ "user/content": "userContent", "user/structured": "userStructured" }, "user"),
  },
  {
    id: "sep-3279-client-programmatic-outputs-not-in-model-context",
    level: "MUST",
    proposed: false,
    scenarios: ["routing"],
    evaluate: leak({ "programmatic/structured": "programmatic" }, "programmatic"),
  },
  {
    id: "sep-3279-client-result-meta-not-forwarded",
    level: "MUST",
    proposed: false,
    scenarios: ["routing"],
    evaluate: (run) => {
      const pre = routed(run);
      if (pre) return pre;
      if (!modernResults(run).some((r) => r.outputs.includes("assistant/content")))
        return notApplicable("no assistant/content was requested, so the result carried no _meta entry");
      if (modelSaw(run, run.canaries.meta)) return fail("the result's _meta entry reached a model request");
      return pass("the result's _meta entry reached no model request");
    },
  },
  {
    id: "sep-3279-client-no-error-substitution",
    level: "MUST",
    proposed: false,
    scenarios: ["error-output"],
    evaluate: (run) => {
      const errors = modernResults(run).filter((r) => r.isError && r.outputs.length > 0);
      return offered(run, errors.length > 0, run.canaries.userError, {
        none: "the client requested no user output, so no error output of another audience came back",
        leaked: "the user audience's error output reached a model request",
        kept: `error outputs ${errors[0]?.outputs.join(", ")} returned; none reached the model`,
      });
    },
  },
  {
    id: "sep-3279-proposed-client-app-outputs-not-in-model-context",
    level: "MUST",
    proposed: true,
    scenarios: ["routing"],
    evaluate: leak({ "io.modelcontextprotocol/ui/structured": "app" }, "App (io.modelcontextprotocol/ui)"),
  },
  {
    id: "sep-3279-proposed-client-ignores-unrequested-output",
    level: "MUST",
    proposed: true,
    scenarios: ["unrequested-output"],
    evaluate: (run) => {
      const bent = modernResults(run).filter((r) => {
        const asked = calls(run).find((c) => c.version === CLIENT_PROTOCOL_VERSION)?.requestedOutputs ?? [
          "assistant/content",
        ];
        return r.outputs.some((o) => !asked.includes(o));
      });
      return offered(run, bent.length > 0, run.canaries.unrequested, {
        none: "the client requested every variant, so no unrequested output could be added",
        leaked: "an output the client did not request reached a model request",
        kept: "the unrequested output reached no model request",
      });
    },
  },
];

const ORDER: Record<string, number> = { FAIL: 0, "NOT-TESTED": 1, PASS: 2, "N/A": 3 };

/** Every check over every run of its scenarios: the worst verdict wins, named by scenario/transport. */
export function judge(runs: ScenarioRun[], checks: ClientCheck[] = CLIENT_CHECKS): CheckResult[] {
  return checks.map((check) => {
    const verdicts = runs
      .filter((r) => check.scenarios.includes(r.scenario.name))
      .map((r) => ({ where: `${r.scenario.name}/${r.transport}`, v: check.evaluate(r) }));
    let result: Verdict;
    if (verdicts.length === 0) result = notApplicable("none of its scenarios ran");
    else {
      const worst = [...verdicts].sort((a, b) => ORDER[a.v.status] - ORDER[b.v.status])[0];
      const same = verdicts.filter((x) => x.v.status === worst.v.status).map((x) => x.where);
      result = { status: worst.v.status, detail: `${same.join(", ")}: ${worst.v.detail}` };
    }
    const softened = result.status === "FAIL" && (check.level === "SHOULD" || check.proposed);
    return {
      id: check.id,
      level: check.level,
      proposed: check.proposed,
      status: softened ? "WARN" : result.status,
      detail: result.detail,
    };
  });
}
