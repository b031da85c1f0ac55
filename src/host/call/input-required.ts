// Multi round-trip requests (2026-07-28, SEP-2322): a tools/call answered with an
// InputRequiredResult is retried with `inputResponses` and, when the server sent one, its
// `requestState` echoed byte for byte (never parsed or changed). Elicitation and sampling are
// answered through the InputProvider (input-provider.ts), the same answers as the legacy requests;
// without one an elicitation is `cancel`led (no choice was made) and sampling fails the call with a
// rule. roots/list gets the host's roots. A sampling request the user declines is left unanswered
// in the retry (the schema has no decline result for it; SEP-2322: the server then decides, and may
// ask again): asked again for the same key in the same request, the host gives up with a rule.
import type { Rule } from "../../protocol/rules.js";
import { isObject } from "../../protocol/is-object.js";
import { answerInput, type InputProvider } from "../input/input-provider.js";
import type { Root } from "../config/roots.js";

/** Rounds one call may take before the host gives up (a server may keep asking). */
export const MAX_INPUT_ROUNDS = 8;
/** Input requests one round may carry. */
const MAX_INPUT_REQUESTS = 32;

type Json = Record<string, unknown>;

export interface Retry {
  inputResponses: Record<string, Json>;
  requestState?: string;
}

export type InputAnswer = { ok: true; retry: Retry } | { ok: false; rule: Rule; detail: string };

export function isInputRequired(raw: Json): boolean {
  return raw.resultType === "input_required";
}

const NO_INPUT: InputProvider = {
  elicitation: false,
  sampling: false,
  elicit: async () => ({ action: "cancel" }),
  sample: async () => ({ action: "decline", detail: "no one to ask" }),
};

/** Who answers: the server asking (named in prompts), its provider, the roots, the call's signal. */
export interface InputAsker {
  server: string;
  provider?: InputProvider;
  /** The roots offered; undefined: none (a roots/list request fails the call: `roots-not-offered`). */
  roots?: readonly Root[];
  signal?: AbortSignal;
  /** The keys of this request's sampling requests the user declined (kept across its rounds). */
  declined?: Set<string>;
}

/** The retry for one InputRequiredResult, or why the host cannot answer it. Requests are asked one at a time. */
export async function answerInputRequests(raw: Json, asker: InputAsker = { server: "" }): Promise<InputAnswer> {
  const { server, provider, roots, signal, declined } = asker;
  const fail = (detail: string, rule: Rule = "input-required-unanswerable"): InputAnswer => ({
    ok: false,
    rule,
    detail,
  });
  const requests = raw.inputRequests;
  const state = raw.requestState;
  if (requests !== undefined && !isObject(requests)) return fail("inputRequests is not an object");
  if (state !== undefined && typeof state !== "string") return fail("requestState is not a string");
  if (requests === undefined && state === undefined)
    return fail("an input_required result with neither inputRequests nor requestState");
  const entries = Object.entries(requests ?? {});
  if (entries.length > MAX_INPUT_REQUESTS)
    return fail(`${entries.length} input requests in one round (at most ${MAX_INPUT_REQUESTS})`);
  const inputResponses: Record<string, Json> = {};
  for (const [key, req] of entries) {
    const method = isObject(req) ? req.method : undefined;
    const params = isObject(req) ? req.params : undefined;
    if (method === "roots/list") {
      if (!roots)
        return fail(
          `server ${server} asked for the client's roots; none are offered (config "roots" or --root DIR)`,
          "roots-not-offered",
        );
      inputResponses[key] = { roots: [...roots] };
    } else if (method === "elicitation/create" && !provider?.elicitation) inputResponses[key] = { action: "cancel" };
    else if (method === "elicitation/create" || (method === "sampling/createMessage" && provider?.sampling)) {
      if (method === "sampling/createMessage" && declined?.has(key))
        return fail(`server ${server} asked again for the sampling request the user declined`, "sampling-declined");
      const answer = await answerInput(server, method, params, provider ?? NO_INPUT, signal);
      if (!answer.ok && answer.rule === "sampling-declined" && declined) {
        declined.add(key);
        continue;
      }
      if (!answer.ok) return fail(answer.detail, answer.rule);
      inputResponses[key] = answer.result;
    } else {
      const what =
        typeof method === "string" ? method.replace(/[^\x20-\x7E]/g, "?").slice(0, 60) : "a malformed input request";
      return fail(`the server asked for ${what} input, which mcp-prism does not answer`);
    }
  }
  const retry: Retry = { inputResponses };
  if (state !== undefined) retry.requestState = state;
  return { ok: true, retry };
}

export type Answered = { ok: true; raw: Json } | { ok: false; rule: Rule; detail: string };

/**
 * Sends a request and, while a modern server answers input_required, answers it and sends again
 * (at most MAX_INPUT_ROUNDS rounds): tools/call, prompts/get and resources/read alike. `send`'s
 * errors propagate; what the host cannot answer is a rule.
 */
export async function withInputRounds(
  send: (retry?: Retry) => Promise<Json>,
  legacy: () => boolean,
  asker: InputAsker,
): Promise<Answered> {
  const withDeclines: InputAsker = { ...asker, declined: asker.declined ?? new Set() };
  let raw = await send();
  for (let round = 1; !legacy() && isInputRequired(raw); round++) {
    if (round > MAX_INPUT_ROUNDS)
      return {
        ok: false,
        rule: "input-required-rounds",
        detail: `still input_required after ${MAX_INPUT_ROUNDS} rounds`,
      };
    const answer = await answerInputRequests(raw, withDeclines);
    if (!answer.ok) return answer;
    raw = await send(answer.retry);
  }
  return { ok: true, raw };
}
