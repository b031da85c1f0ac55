// read_result: the host tool that pages through a tool result the budget cut for the model
// (result-budget.ts). It reads the conversation's own item (so after --resume, the transcript's),
// the same assistant outputs the model got the head of; nothing another audience received.
import { isReceipt, type Conversation, type ToolResultItem } from "./conversation.js";
import { toolResultBlocks, type ModelCapabilities } from "./context.js";
import type { HostTool, HostToolRun } from "./host-tool.js";
import type { ModelSinkEntry } from "../host/types.js";
import { resultText } from "./result-budget.js";
import { charsWithin } from "./tokens.js";

export const READ_RESULT_TOOL = "read_result";
const MAX_PATH = 1000;
const MAX_SEGMENTS = 64;

const SCHEMA = {
  type: "object" as const,
  properties: {
    handle: { type: "string", description: "The handle named in the note of a cut result." },
    offset: { type: "integer", minimum: 0, description: "First character to read (text), default 0." },
    length: { type: "integer", minimum: 1, description: "How many characters (at most one budget's worth)." },
    path: {
      type: "string",
      description: 'A JSON path into a structured result: "$", "$.rows[3].name", "rows.3" or "/rows/3".',
    },
  },
  required: ["handle"],
};

const fail = (text: string): HostToolRun => ({ isError: true, text });

/** The host tool over `conversation`; each answer is at most `budget` tokens (minus its header line). */
export function readResultTool(conversation: Conversation, caps: ModelCapabilities, budget: number): HostTool {
  return {
    name: READ_RESULT_TOOL,
    description:
      "Read more of a tool result that was cut to fit your context: by character offset through its text, or by JSON path through a structured result. The cut result's last line names its handle and where to go on.",
    inputSchema: SCHEMA,
    async run(args) {
      const handle = args.handle;
      if (typeof handle !== "string" || handle.length > 512)
        return fail("read_result needs a handle (a string, as the cut result's note gives it).");
      const item = conversation.items.find((i): i is ToolResultItem => i.role === "tool" && i.callId === handle);
      if (!item)
        return fail(
          `No tool result has the handle ${JSON.stringify(handle.slice(0, 100))}; a cut result's note names its handle.`,
        );
      const offset = args.offset ?? 0;
      if (!Number.isInteger(offset) || (offset as number) < 0)
        return fail("read_result: offset must be a non-negative integer.");
      if (args.length !== undefined && (!Number.isInteger(args.length) || (args.length as number) < 1))
        return fail("read_result: length must be a positive integer.");
      let text: string;
      let what: string;
      if (args.path !== undefined) {
        if (typeof args.path !== "string" || args.path.length > MAX_PATH)
          return fail(`read_result: path must be a string of at most ${MAX_PATH} characters.`);
        const found = atPath(structuredOf(item), args.path);
        if (!found.ok) return fail(`read_result: ${found.why}`);
        text = JSON.stringify(found.value) ?? "null";
        what = `JSON at ${args.path}`;
      } else {
        text = resultText(toolResultBlocks(item.result, caps, item.replaced));
        what = "text";
      }
      const from = offset as number;
      if (from > text.length) return fail(`read_result: offset ${from} is past the end (${text.length} characters).`);
      const fits = charsWithin(text, budget - 200, from);
      const n = Math.min(fits, (args.length as number | undefined) ?? fits);
      const to = Math.min(text.length, from + n);
      const more =
        to < text.length
          ? ` Next: ${JSON.stringify({ handle, ...(args.path !== undefined ? { path: args.path } : {}), offset: to })}`
          : " (the end)";
      return {
        isError: false,
        text: `[read_result ${handle}, ${what}: characters ${from}–${to} of ${text.length}.${more}]\n${text.slice(from, to)}`,
      };
    },
  };
}

/** The structured outputs of a result: the one there is, or all of them as a list. */
function structuredOf(item: ToolResultItem): unknown {
  if (isReceipt(item.result)) return undefined;
  const values = (item.result as readonly ModelSinkEntry[])
    .filter((o) => o.format === "structured")
    .map((o) => (o as { structuredContent: unknown }).structuredContent);
  return values.length === 1 ? values[0] : values.length ? values : undefined;
}

/** `$`, `$.a.b[0]`, `a.b.0` or a JSON pointer `/a/b/0`. */
export function parsePath(path: string): string[] | undefined {
  const p = path.trim();
  if (p.startsWith("/"))
    return p
      .slice(1)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const body = p.startsWith("$") ? p.slice(1) : p;
  const segs: string[] = [];
  const re = /\.?([^.[\]]+)|\[(\d+)\]|\[["']([^"']*)["']\]/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < body.length) {
    m = re.exec(body);
    if (!m) return undefined;
    segs.push(m[1] ?? m[2] ?? m[3]);
  }
  return segs;
}

function atPath(root: unknown, path: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (root === undefined) return { ok: false, why: "this result has no structured output; read it by offset." };
  const segs = parsePath(path);
  if (!segs)
    return {
      ok: false,
      why: `${JSON.stringify(path.slice(0, 100))} is not a path ("$.rows[3].name", "rows.3" or "/rows/3").`,
    };
  if (segs.length > MAX_SEGMENTS) return { ok: false, why: `the path has more than ${MAX_SEGMENTS} steps.` };
  let v: unknown = root;
  for (const s of segs) {
    const ok = Array.isArray(v)
      ? /^\d+$/.test(s) && Number(s) < v.length
      : v !== null && typeof v === "object" && Object.hasOwn(v, s);
    if (!ok)
      return {
        ok: false,
        why: `nothing at ${JSON.stringify(s.slice(0, 100))} in ${JSON.stringify(path.slice(0, 100))}.`,
      };
    v = (v as Record<string, unknown>)[s];
  }
  return { ok: true, value: v };
}
