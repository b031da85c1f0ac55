// The seam through which a server's questions reach the user: an InputProvider (the app's dialogs,
// the one-shot flags) answers an elicitation (form or URL mode) or a sampling request. The same
// answer serves the legacy server→client request (input-handlers.ts) and the 2026-07-28 MRTR
// round (input-required.ts). Everything a server asks is parsed here first: bounded, sanitized,
// one clear line when malformed. Nothing asked reaches the model's conversation: a sampling
// request is its own model request and its text goes back only to the server.
import type { Rule } from "../../protocol/rules.js";
import { isObject } from "../../protocol/is-object.js";
import { sanitizeInline, sanitizeText, truncateChars } from "../../protocol/sanitize.js";
import { checkAnswer, parseForm, type FormField, type FormValue, type Parsed } from "./input-form.js";

const MAX_MESSAGE = 2_000;
const MAX_URL = 2_048;
const MAX_SAMPLE_MESSAGES = 50;
const MAX_SAMPLE_TEXT = 50_000;
const MAX_STOP_SEQUENCES = 8;
const MAX_STOP_LENGTH = 200;
/** The most tokens a server may ask one sampling request for. */
export const MAX_SAMPLE_TOKENS = 8_192;

export type ElicitRequest =
  | { mode: "form"; server: string; message: string; fields: FormField[] }
  | { mode: "url"; server: string; message: string; url: string; elicitationId: string };

export type ElicitAnswer =
  | { action: "accept"; content?: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" };

export interface SampleMessage {
  role: "user" | "assistant";
  /** Text blocks joined; other content is named in brackets ([image]). */
  text: string;
}
export interface SampleRequest {
  server: string;
  messages: SampleMessage[];
  systemPrompt?: string;
  maxTokens: number;
  /** 0 to 1 (a larger one is lowered to 1). */
  temperature?: number;
  stopSequences?: string[];
  /** What of the request the host does not honour, as one line ("includeContext thisServer"): shown with the approval. */
  ignored?: string;
}
export type SampleAnswer = { action: "accept"; text: string; model: string } | { action: "decline"; detail: string };

import type { IssuerQuestion } from "../auth/server-auth.js";

export interface InputProvider {
  /** Which kinds it answers (advertised as client capabilities exactly so). */
  readonly elicitation: { form: boolean; url: boolean } | false;
  readonly sampling: boolean;
  elicit(req: ElicitRequest, signal?: AbortSignal): Promise<ElicitAnswer>;
  sample(req: SampleRequest, signal?: AbortSignal): Promise<SampleAnswer>;
  /** The host's own question before a configured OAuth client first goes to a new issuer (absent: refused). */
  confirmIssuer?(q: IssuerQuestion): Promise<boolean>;
}

/** What the host answers a server, or why it refuses the request (a JSON-RPC error / a failed round). */
export type InputResult = { ok: true; result: Record<string, unknown> } | { ok: false; rule: Rule; detail: string };

const line = (v: unknown, max: number) => (typeof v === "string" ? truncateChars(sanitizeInline(v), max) : undefined);

export function parseElicit(server: string, params: unknown): Parsed<ElicitRequest> {
  if (!isObject(params)) return { ok: false, detail: "elicitation params are not an object" };
  const message =
    typeof params.message === "string" ? truncateChars(sanitizeText(params.message), MAX_MESSAGE) : undefined;
  if (message === undefined) return { ok: false, detail: "an elicitation without a message" };
  if (params.mode === "url") {
    const url = typeof params.url === "string" && params.url.length <= MAX_URL ? params.url : undefined;
    let parsed: URL | undefined;
    try {
      parsed = url === undefined ? undefined : new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:"))
      return { ok: false, detail: "a URL elicitation without an http(s) URL" };
    const elicitationId = line(params.elicitationId, 200) ?? "";
    return { ok: true, value: { mode: "url", server, message, url: parsed.href, elicitationId } };
  }
  if (params.mode !== undefined && params.mode !== "form")
    return {
      ok: false,
      detail: `elicitation mode ${JSON.stringify(line(params.mode, 20) ?? null)} is not form or url`,
    };
  const form = parseForm(params.requestedSchema);
  if (!form.ok) return { ok: false, detail: `requestedSchema: ${form.detail}` };
  return { ok: true, value: { mode: "form", server, message, fields: form.value } };
}

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) =>
      isObject(b)
        ? b.type === "text" && typeof b.text === "string"
          ? b.text
          : `[${line(b.type, 20) ?? "content"}]`
        : "[content]",
    )
    .join("\n");
}

export function parseSample(server: string, params: unknown): Parsed<SampleRequest> {
  if (!isObject(params) || !Array.isArray(params.messages))
    return { ok: false, detail: "sampling params without messages" };
  if (params.messages.length === 0 || params.messages.length > MAX_SAMPLE_MESSAGES)
    return { ok: false, detail: `${params.messages.length} sampling messages (1 to ${MAX_SAMPLE_MESSAGES})` };
  const messages: SampleMessage[] = [];
  let size = 0;
  for (const m of params.messages) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant"))
      return { ok: false, detail: "a sampling message without role user or assistant" };
    const text = textOf(m.content);
    size += text.length;
    if (size > MAX_SAMPLE_TEXT)
      return { ok: false, detail: `sampling messages longer than ${MAX_SAMPLE_TEXT} characters` };
    messages.push({ role: m.role, text });
  }
  const maxTokens = params.maxTokens;
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1)
    return { ok: false, detail: "sampling maxTokens is not a positive integer" };
  // The host does not advertise sampling.tools: a request with tools MUST get an error.
  if (params.tools !== undefined || params.toolChoice !== undefined)
    return {
      ok: false,
      detail: "sampling with tools is not supported by mcp-prism (it does not advertise sampling.tools)",
      rule: "sampling-tools-unsupported",
    };
  const req: SampleRequest = { server, messages, maxTokens: Math.min(maxTokens, MAX_SAMPLE_TOKENS) };
  if (typeof params.systemPrompt === "string") req.systemPrompt = truncateChars(params.systemPrompt, MAX_SAMPLE_TEXT);
  const ignored: string[] = [];
  if (params.includeContext !== undefined && params.includeContext !== "none")
    ignored.push(`includeContext ${line(params.includeContext, 20) ?? "?"} (no server context is sent)`);
  if (params.temperature !== undefined) {
    const t = params.temperature;
    if (typeof t !== "number" || !Number.isFinite(t) || t < 0)
      return { ok: false, detail: "sampling temperature is not a number of at least 0" };
    req.temperature = Math.min(t, 1);
  }
  if (params.stopSequences !== undefined) {
    const stops = params.stopSequences;
    if (!Array.isArray(stops) || !stops.every((x) => typeof x === "string" && x !== "" && x.length <= MAX_STOP_LENGTH))
      return {
        ok: false,
        detail: `sampling stopSequences is not a list of non-empty strings (each at most ${MAX_STOP_LENGTH} characters)`,
      };
    if (stops.length > MAX_STOP_SEQUENCES)
      return { ok: false, detail: `${stops.length} sampling stopSequences (at most ${MAX_STOP_SEQUENCES})` };
    req.stopSequences = stops as string[];
  }
  if (params.modelPreferences !== undefined) ignored.push("modelPreferences (the active model answers)");
  if (params.metadata !== undefined) ignored.push("metadata");
  if (ignored.length) req.ignored = `ignored: ${ignored.join(", ")}`;
  return { ok: true, value: req };
}

/**
 * The answer to one server request (`elicitation/create` or `sampling/createMessage`) from the
 * provider. An accepted form is checked against its schema (defaults filled in) before it is sent.
 */
export async function answerInput(
  server: string,
  method: string,
  params: unknown,
  provider: InputProvider,
  signal?: AbortSignal,
): Promise<InputResult> {
  if (method === "elicitation/create") {
    const req = parseElicit(server, params);
    if (!req.ok) return { ok: false, rule: "elicitation-malformed", detail: req.detail };
    const el = provider.elicitation;
    if (!el || !el[req.value.mode])
      return { ok: false, rule: "elicitation-unsupported", detail: `${req.value.mode} elicitation is not offered` };
    const answer = await provider.elicit(req.value, signal);
    if (answer.action !== "accept") return { ok: true, result: { action: answer.action } };
    if (req.value.mode === "url") return { ok: true, result: { action: "accept" } };
    const checked = checkAnswer(req.value.fields, answer.content ?? {});
    if (!checked.ok)
      return { ok: false, rule: "elicitation-answer", detail: `the answer does not fit the form: ${checked.detail}` };
    return { ok: true, result: { action: "accept", content: checked.value satisfies Record<string, FormValue> } };
  }
  if (method === "sampling/createMessage") {
    if (!provider.sampling) return { ok: false, rule: "sampling-unsupported", detail: "sampling is not offered" };
    const req = parseSample(server, params);
    if (!req.ok) return { ok: false, rule: req.rule ?? "sampling-malformed", detail: req.detail };
    const answer = await provider.sample(req.value, signal);
    if (answer.action === "decline") return { ok: false, rule: "sampling-declined", detail: answer.detail };
    return {
      ok: true,
      result: {
        role: "assistant",
        content: { type: "text", text: answer.text },
        model: answer.model,
        stopReason: "endTurn",
      },
    };
  }
  return {
    ok: false,
    rule: "input-unsupported",
    detail: `${line(method, 60) ?? "a malformed request"} is not answered`,
  };
}
