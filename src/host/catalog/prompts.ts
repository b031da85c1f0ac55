// Server prompts: prompts/list (paginated, bounded), prompts/get with string arguments (a
// 2026-07-28 input_required answered like a tool call's) and completion/complete for prompt
// arguments. Both eras: Connection.request adds the modern `_meta` envelope. Everything a server
// sends is bounded here (counts, lengths, depth); the terminal sanitizes it where it is shown.
import { ContentBlockSchema, exceedsJsonDepth, tooDeepDetail, type ContentBlock } from "../../protocol/index.js";
import { isObject } from "../../protocol/is-object.js";
import { firstIssueText } from "../../protocol/issue-text.js";
import { wireError } from "../call/call-errors.js";
import type { Connection } from "../connection/connection.js";
import { withInputRounds, type Retry } from "../call/input-required.js";

const MAX_PAGES = 100;
/** Prompts kept per server; the rest are named in one error. */
export const MAX_PROMPTS = 1000;
const MAX_ARGUMENTS = 32;
const MAX_NAME = 200;
const MAX_TEXT = 2000;
/** Messages one prompts/get may return. */
const MAX_MESSAGES = 200;
/** Completion values kept (the spec allows at most 100 per reply). */
const MAX_VALUES = 100;
const MAX_VALUE = 1000;
/** One argument value the user gives (kept short: it goes into a request the server templates). */
export const MAX_ARGUMENT_VALUE = 16_384;

type Json = Record<string, unknown>;

/** A prompt failure as data: which server and prompt, the rule broken, what was wrong, and its line. */
export interface PromptError {
  server: string;
  prompt: string;
  rule: string;
  detail: string;
  message: string;
}

export function promptError(server: string, prompt: string, rule: string, detail: string): PromptError {
  const who = [server && `server ${server}`, prompt && `prompt ${prompt}`].filter(Boolean).join(", ");
  return { server, prompt, rule, detail, message: who ? `${who}: ${detail}` : detail };
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export interface PromptEntry {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
}

export interface PromptListing {
  prompts: PromptEntry[];
  errors: PromptError[];
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface GotPrompt {
  server: string;
  name: string;
  description?: string;
  messages: PromptMessage[];
}

export type PromptResult = { ok: true; prompt: GotPrompt } | { ok: false; error: PromptError };

export interface Completion {
  values: string[];
  hasMore: boolean;
  total?: number;
}

function text(v: unknown, max = MAX_TEXT): string | undefined {
  if (typeof v !== "string") return undefined;
  return v.length > max ? `${v.slice(0, max - 1)}…` : v;
}

/** Whether the server offers prompts (its capabilities, either era). */
export function offersPrompts(conn: Connection): boolean {
  return isObject(conn.serverCapabilities.prompts);
}

/** Whether the server offers completion/complete. */
export function offersCompletions(conn: Connection): boolean {
  return isObject(conn.serverCapabilities.completions);
}

/** One raw prompts/list entry, or why it is not usable. */
export function toPromptEntry(server: string, raw: unknown): PromptEntry | PromptError {
  const name = isObject(raw) && typeof raw.name === "string" ? raw.name : "";
  const reject = (detail: string) =>
    promptError(server, name.slice(0, MAX_NAME) || "(unnamed)", "malformed-prompt", detail);
  if (!isObject(raw)) return reject("a prompts/list entry is not an object");
  if (!name) return reject("a prompt without a name");
  if (name.length > MAX_NAME) return reject(`a name of ${name.length} characters (at most ${MAX_NAME})`);
  if (/\s/.test(name)) return reject("the name contains white space (it could not be typed as a command)");
  const rawArgs = raw.arguments ?? [];
  if (!Array.isArray(rawArgs)) return reject("arguments is not an array");
  if (rawArgs.length > MAX_ARGUMENTS) return reject(`${rawArgs.length} arguments (at most ${MAX_ARGUMENTS})`);
  const args: PromptArgument[] = [];
  for (const a of rawArgs) {
    if (!isObject(a) || typeof a.name !== "string" || !a.name || a.name.length > MAX_NAME)
      return reject("an argument without a usable name");
    if (args.some((b) => b.name === a.name)) return reject(`argument ${JSON.stringify(a.name)} is declared twice`);
    args.push({
      name: a.name,
      title: text(a.title, MAX_NAME),
      description: text(a.description),
      required: a.required === true,
    });
  }
  return { server, name, title: text(raw.title, MAX_NAME), description: text(raw.description), arguments: args };
}

/** Every prompt of one server (paginated, at most MAX_PROMPTS); none when it does not offer prompts. */
export async function listPrompts(conn: Connection, maxJsonDepth: number, timeoutMs?: number): Promise<PromptListing> {
  await conn.ensureConnected();
  const listing: PromptListing = { prompts: [], errors: [] };
  if (!offersPrompts(conn)) return listing;
  const fail = (rule: string, detail: string) => listing.errors.push(promptError(conn.name, "", rule, detail));
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) {
      fail("too-many-pages", `prompts/list still had a next page after ${MAX_PAGES} pages; the rest is not listed`);
      break;
    }
    let raw: Json;
    try {
      raw = await conn.request("prompts/list", cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
    } catch (e) {
      const w = wireError(e, conn, "", timeoutMs ?? 60_000);
      fail(w.rule, `prompts/list failed: ${w.detail}`);
      break;
    }
    if (exceedsJsonDepth(raw, maxJsonDepth)) {
      fail("too-deep", `${tooDeepDetail("the prompts/list result", maxJsonDepth)}; not read`);
      break;
    }
    if (!Array.isArray(raw.prompts)) {
      fail("malformed-result", "the prompts/list result has no prompts array");
      break;
    }
    for (const p of raw.prompts) {
      if (listing.prompts.length >= MAX_PROMPTS) {
        fail("too-many-prompts", `more than ${MAX_PROMPTS} prompts; the rest are not listed`);
        return listing;
      }
      const entry = toPromptEntry(conn.name, p);
      if ("rule" in entry) listing.errors.push(entry);
      else if (seen.has(entry.name))
        listing.errors.push(promptError(conn.name, entry.name, "duplicate-prompt", "listed twice; the first is kept"));
      else {
        seen.add(entry.name);
        listing.prompts.push(entry);
      }
    }
    const next = raw.nextCursor;
    if (typeof next !== "string" || next === "") break;
    if (next === cursor) {
      fail("repeated-cursor", "prompts/list returned the same nextCursor again; the rest is not listed");
      break;
    }
    cursor = next;
  }
  return listing;
}

/** The arguments checked against the declaration before anything is sent; an error when one is wrong. */
export function checkArguments(
  entry: PromptEntry,
  args: Record<string, unknown>,
): PromptError | Record<string, string> {
  const fail = (rule: string, detail: string) => promptError(entry.server, entry.name, rule, detail);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (!entry.arguments.some((a) => a.name === k)) {
      const known = entry.arguments.map((a) => a.name).join(", ") || "none";
      return fail("unknown-argument", `no argument named ${JSON.stringify(k)} (arguments: ${known})`);
    }
    if (typeof v !== "string")
      return fail("invalid-argument", `argument ${k}: expected a string (prompt arguments are strings)`);
    if (v.length > MAX_ARGUMENT_VALUE)
      return fail("invalid-argument", `argument ${k}: ${v.length} characters (at most ${MAX_ARGUMENT_VALUE})`);
    out[k] = v;
  }
  const missing = entry.arguments.filter((a) => a.required && !(a.name in out)).map((a) => a.name);
  if (missing.length > 0)
    return fail("missing-argument", `missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
  return out;
}

/** The messages of a prompts/get result, each checked; or why the result is not usable. */
export function readPromptResult(server: string, name: string, raw: Json, maxJsonDepth: number): PromptResult {
  const fail = (rule: string, detail: string): PromptResult => ({
    ok: false,
    error: promptError(server, name, rule, detail),
  });
  if (exceedsJsonDepth(raw, maxJsonDepth))
    return fail("too-deep", `${tooDeepDetail("the prompts/get result", maxJsonDepth)}; not read`);
  if (!Array.isArray(raw.messages)) return fail("malformed-result", "the prompts/get result has no messages array");
  if (raw.messages.length > MAX_MESSAGES)
    return fail("too-many-messages", `${raw.messages.length} messages (at most ${MAX_MESSAGES})`);
  const messages: PromptMessage[] = [];
  for (const [i, m] of raw.messages.entries()) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant"))
      return fail("malformed-result", `message ${i}: role is not "user" or "assistant"`);
    const content = ContentBlockSchema.safeParse(m.content);
    if (!content.success) return fail("malformed-result", `message ${i}: ${firstIssueText(content.error)}`);
    messages.push({ role: m.role, content: content.data });
  }
  return { ok: true, prompt: { server, name, description: text(raw.description), messages } };
}

/** prompts/get for a listed prompt with checked arguments (modern: input_required rounds answered, bounded). */
export async function getPrompt(
  conn: Connection,
  entry: PromptEntry,
  args: Record<string, unknown>,
  opts: { maxJsonDepth: number; timeoutMs: number; signal?: AbortSignal },
): Promise<PromptResult> {
  const checked = checkArguments(entry, args);
  if ("rule" in checked) return { ok: false, error: checked as PromptError };
  const fail = (rule: string, detail: string): PromptResult => ({
    ok: false,
    error: promptError(conn.name, entry.name, rule, detail),
  });
  const send = (retry?: Retry) =>
    conn.request(
      "prompts/get",
      { name: entry.name, arguments: checked, ...retry },
      { timeout: opts.timeoutMs, signal: opts.signal },
    );
  try {
    const got = await withInputRounds(send, () => conn.era === "legacy", conn.inputAsker(opts.signal));
    if (!got.ok) return fail(got.rule, got.detail);
    return readPromptResult(conn.name, entry.name, got.raw, opts.maxJsonDepth);
  } catch (e) {
    const w = wireError(e, conn, entry.name, opts.timeoutMs, opts.signal);
    return fail(w.rule, w.detail);
  }
}

/**
 * completion/complete for one argument of a prompt: the server's suggestions (bounded), or none
 * when it does not offer completions or fails (completion is a convenience: never an error line).
 */
export async function completePromptArgument(
  conn: Connection,
  prompt: string,
  argument: { name: string; value: string },
  context: Record<string, string>,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<Completion> {
  const none: Completion = { values: [], hasMore: false };
  if (conn.state !== "connected" || !offersCompletions(conn)) return none;
  const params: Json = {
    ref: { type: "ref/prompt", name: prompt },
    argument: { name: argument.name, value: argument.value.slice(0, MAX_ARGUMENT_VALUE) },
  };
  if (Object.keys(context).length > 0) params.context = { arguments: context };
  let raw: Json;
  try {
    raw = await conn.request("completion/complete", params, { timeout: opts.timeoutMs, signal: opts.signal });
  } catch {
    return none;
  }
  const c = raw.completion;
  if (!isObject(c) || !Array.isArray(c.values)) return none;
  const values = c.values
    .filter((v): v is string => typeof v === "string" && v.length <= MAX_VALUE && !/[\r\n]/.test(v))
    .slice(0, MAX_VALUES);
  const total = typeof c.total === "number" && Number.isSafeInteger(c.total) && c.total >= 0 ? c.total : undefined;
  return { values, hasMore: c.hasMore === true || c.values.length > values.length, total };
}
