// Asking the client for input from inside a tool (or prompts/get, resources/read): elicitation,
// sampling and roots. One API, two mechanisms:
// - 2026-07-28 and 2026-12-01 (MRTR, SEP-2322): the request ends with an InputRequiredResult
//   (`inputRequests` + a signed `requestState`); the client retries with `inputResponses` and
//   the state echoed, and the handler runs again from the start, getting the earlier answers
//   back from the state. So a handler that asks in several rounds must ask the same way each run.
// - The initialize era: a real server→client request (elicitation/create, sampling/createMessage,
//   roots/list) on the connection, awaited in place.
// Either way a request needs the client's capability (-32021 naming it otherwise) and every
// answer is checked before the handler sees it (-32602 naming the key).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, type Capabilities } from "../protocol/index.js";
import { RpcError, internalError, invalidParams } from "./errors.js";
import { isObject } from "../protocol/is-object.js";

type Json = Record<string, unknown>;
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";
export interface InputRequest {
  method: InputMethod;
  params?: Json;
}
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}
export interface Root {
  uri: string;
  name?: string;
}

export interface InputContext {
  /** What the client declared: the request's `_meta` (modern) or its `initialize` (legacy). */
  clientCapabilities: Capabilities;
  /** 1 on a fresh request; n on the n-th round of an MRTR exchange (counted in the signed state). */
  round: number;
  /** Asks for every request at once; resolves when all are answered (keys are the caller's). */
  input(requests: Record<string, InputRequest>): Promise<Record<string, Json>>;
  elicit(key: string, params: Json): Promise<ElicitAnswer>;
  sample(key: string, params: Json): Promise<Json>;
  listRoots(key?: string): Promise<Root[]>;
}

/** Thrown through the handler when a modern request needs answers: the engine returns it as input_required. */
export class InputRequiredSignal extends Error {
  constructor(
    readonly inputRequests: Record<string, InputRequest>,
    readonly requestState: string,
  ) {
    super("input required");
    this.name = "InputRequiredSignal";
  }
}

const MAX_STATE_BYTES = 64 * 1024;
const STATE_TTL_MS = 60 * 60 * 1000;

/** The capability a request needs, or undefined when the client declared it. */
export function missingCapability(req: InputRequest, caps: Capabilities): Capabilities | undefined {
  if (req.method === "elicitation/create") {
    const el = caps.elicitation;
    if (!isObject(el)) return { elicitation: req.params?.mode === "url" ? { url: {} } : {} };
    // 2025-11-25: an empty `elicitation` object means form mode only.
    if (req.params?.mode === "url" && !isObject(el.url)) return { elicitation: { url: {} } };
    if (req.params?.mode !== "url" && Object.keys(el).length > 0 && !isObject(el.form))
      return { elicitation: { form: {} } };
    return undefined;
  }
  if (req.method === "sampling/createMessage") return isObject(caps.sampling) ? undefined : { sampling: {} };
  return isObject(caps.roots) ? undefined : { roots: {} };
}

function checkCapabilities(requests: Record<string, InputRequest>, caps: Capabilities): void {
  for (const req of Object.values(requests)) {
    const missing = missingCapability(req, caps);
    if (missing) {
      const name = Object.keys(missing)[0];
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: ${name}`,
        { requiredCapabilities: missing },
        400,
      );
    }
  }
}

/** Why an answer is not a valid result of its request's method, or undefined. */
export function answerProblem(method: InputMethod, v: unknown): string | undefined {
  if (!isObject(v)) return "is not an object";
  if (method === "elicitation/create") {
    if (v.action !== "accept" && v.action !== "decline" && v.action !== "cancel")
      return "has no action accept, decline or cancel";
    if (v.content !== undefined && !isObject(v.content)) return "has a content that is not an object";
    return undefined;
  }
  if (method === "sampling/createMessage") {
    if (typeof v.role !== "string") return "has no role";
    if (!isObject(v.content) && !Array.isArray(v.content)) return "has no content";
    if (typeof v.model !== "string") return "has no model";
    return undefined;
  }
  if (!Array.isArray(v.roots) || !v.roots.every((r) => isObject(r) && typeof r.uri === "string"))
    return "has no roots array of {uri}";
  return undefined;
}

function checked(key: string, req: InputRequest, v: unknown): Json {
  const why = answerProblem(req.method, v);
  if (why !== undefined)
    throw invalidParams(
      `the answer to input request ${JSON.stringify(key)} ${why} (expected the result of ${req.method})`,
    );
  return v as Json;
}

function helpers(input: InputContext["input"]): Pick<InputContext, "elicit" | "sample" | "listRoots"> {
  return {
    elicit: async (key, params) =>
      (await input({ [key]: { method: "elicitation/create", params } }))[key] as unknown as ElicitAnswer,
    sample: async (key, params) => (await input({ [key]: { method: "sampling/createMessage", params } }))[key],
    listRoots: async (key = "roots") =>
      (await input({ [key]: { method: "roots/list", params: {} } }))[key].roots as Root[],
  };
}

interface State {
  /** What the state belongs to: method, name or uri, and a hash of the arguments. */
  b: string;
  /** Answers of the earlier rounds. */
  a: Json;
  /** The keys the last round asked for. */
  p: string[];
  r: number;
  t: number;
}

export class StateSealer {
  private readonly key: Buffer;
  constructor(secret?: string) {
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret, "utf8");
  }
  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
  seal(state: State): string {
    const body = Buffer.from(JSON.stringify(state)).toString("base64url");
    const sealed = `${body}.${this.mac(body)}`;
    if (sealed.length > MAX_STATE_BYTES)
      throw internalError("server bug: the answers collected so far do not fit in a requestState");
    return sealed;
  }
  open(sealed: unknown, binding: string): State {
    const bad = (why: string) => invalidParams(`requestState ${why}`);
    if (typeof sealed !== "string" || sealed.length > MAX_STATE_BYTES) throw bad("is not a string this server issued");
    const [body, mac, extra] = sealed.split(".");
    const want = Buffer.from(this.mac(body ?? ""));
    const got = Buffer.from(mac ?? "");
    if (extra !== undefined || got.length !== want.length || !timingSafeEqual(got, want))
      throw bad("failed its integrity check (altered, or not from this server)");
    const state = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as State;
    if (state.b !== binding) throw bad("belongs to another request (method, name or arguments differ)");
    if (Date.now() - state.t > STATE_TTL_MS) throw bad("has expired: start the request again without it");
    return state;
  }
}

/** The modern (MRTR) input context of one request; reads and checks inputResponses and requestState. */
export function mrtrInput(p: Json, caps: Capabilities, binding: string, sealer: StateSealer): InputContext {
  const responses = p.inputResponses;
  if (responses !== undefined && !isObject(responses))
    throw invalidParams("inputResponses must be an object keyed by the input request keys");
  const state = p.requestState === undefined ? undefined : sealer.open(p.requestState, binding);
  // Null-prototype maps: a client's key like "__proto__" or "toString" is just a key.
  const answers: Json = Object.assign(Object.create(null) as Json, state?.a ?? {});
  for (const [key, value] of Object.entries(responses ?? {})) {
    // With a state, only the keys the last round asked for count; anything else is ignored.
    if (!state || state.p.includes(key))
      Object.defineProperty(answers, key, { value, enumerable: true, writable: true });
  }
  const used: Json = Object.create(null) as Json;
  const round = state ? state.r : 1;
  const input: InputContext["input"] = async (requests) => {
    checkCapabilities(requests, caps);
    const out: Record<string, Json> = {};
    const missing: Record<string, InputRequest> = {};
    for (const [key, req] of Object.entries(requests)) {
      if (Object.hasOwn(answers, key)) out[key] = used[key] = checked(key, req, answers[key]);
      else missing[key] = req;
    }
    if (Object.keys(missing).length > 0) {
      const sealed = sealer.seal({ b: binding, a: used, p: Object.keys(missing), r: round + 1, t: Date.now() });
      throw new InputRequiredSignal(missing, sealed);
    }
    return out;
  };
  return { clientCapabilities: caps, round, input, ...helpers(input) };
}

/** Sends one server→client request on the connection (legacy sessions); rejects on error or cancel. */
export type ClientRequester = (method: string, params: Json) => Promise<unknown>;

/** The initialize-era input context: real requests to the client, awaited in place. */
export function legacyInput(caps: Capabilities, request: ClientRequester | undefined): InputContext {
  const input: InputContext["input"] = async (requests) => {
    checkCapabilities(requests, caps);
    if (!request) throw internalError("this connection cannot carry requests to the client");
    const entries = Object.entries(requests);
    const results = await Promise.all(entries.map(([, req]) => request(req.method, req.params ?? {})));
    return Object.fromEntries(entries.map(([key, req], i) => [key, checked(key, req, results[i])]));
  };
  // Each request is answered in place, so every run of the handler is its first round.
  return { clientCapabilities: caps, round: 1, input, ...helpers(input) };
}
