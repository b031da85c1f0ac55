// A session's transcript records turned back into what a resumed session starts from: the
// conversation as it was shown, the mode, the servers, and the model's context. The context is
// rebuilt ONLY from `context` records (the items that had reached the model, written as they
// were appended: transcript.ts recordContext), never from the `tool` records' user, programmatic or App
// sinks; a record of the wrong shape is refused with one line and the rest is kept.
import type { Mode } from "../host/types.js";
import { MODES } from "../host/types.js";
import type { ConversationItem, ToolResultItem } from "../model/conversation.js";
import { parseContextItem, parseNotes } from "../model/context-parse.js";
import { isObject } from "../protocol/is-object.js";
import { readTranscript } from "./transcript-read.js";
import { isPromptRecord, recordedServers, sessionId } from "./sessions.js";
import type { TurnItem } from "./state.js";
import type { TranscriptRecord } from "../host/transcript/record.js";

/** Turns drawn on resume (the context keeps every item). */
export const MAX_SHOWN_TURNS = 100;
/** Characters of one restored line drawn. */
const MAX_SHOWN_CHARS = 20_000;

export interface RestoredSession {
  id: string;
  path: string;
  /** The conversation as it was shown, one list of items per turn (the newest MAX_SHOWN_TURNS). */
  turns: TurnItem[][];
  /** Turns not drawn (older than the newest MAX_SHOWN_TURNS). */
  hiddenTurns: number;
  /** The model's context as it was, from the last /clear on. */
  items: ConversationItem[];
  mode?: Mode;
  /** The model it last ran with ("ollama:qwen3"), from its start/resume records and /model switches. */
  model?: string;
  servers?: string[];
  cwd?: string;
  /** One line per refused line or record. */
  refused: string[];
  /** Prompts to the model (not slash commands) since the last /clear. */
  prompts: number;
  /** Prompts in the file with no context records (an older mcp-prism wrote it): the model starts afresh. */
  noContext: boolean;
}

const shown = (s: string) =>
  s.length > MAX_SHOWN_CHARS
    ? `${s.slice(0, MAX_SHOWN_CHARS)}… (${s.length - MAX_SHOWN_CHARS} more characters in the transcript)`
    : s;

/** What one tool record said, in one line (a card is not rebuilt from a file: only its outcome). */
function toolLine(r: TranscriptRecord): string {
  const name = `${String(r.server ?? "?").slice(0, 100)} · ${String(r.tool ?? "?").slice(0, 100)}`;
  if (isObject(r.error)) return `✗ ${name} failed [${String(r.error.rule ?? "error").slice(0, 60)}] (earlier session)`;
  const b = isObject(r.bytes) ? r.bytes : {};
  const sizes = ["model", "user", "programmatic", "app"]
    .filter((k) => typeof b[k] === "number" && (b[k] as number) > 0)
    .map((k) => `${k} ${b[k]} B`);
  return `${r.isError === true ? "✗" : "✓"} ${name}${sizes.length ? ` — ${sizes.join(", ")}` : ""} (earlier session)`;
}

/** Reads the session file at `path` back. Throws only when it cannot be opened. */
export function restoreSession(path: string): RestoredSession {
  const out: RestoredSession = {
    id: sessionId(path),
    path,
    turns: [],
    hiddenTurns: 0,
    items: [],
    refused: [],
    prompts: 0,
    noContext: false,
  };
  let turn: TurnItem[] | undefined;
  let prompts = 0;
  let contexts = 0;
  const push = (item: TurnItem) => {
    if (!turn) out.turns.push((turn = []));
    turn.push(item);
  };
  const read = readTranscript(path, (r, line) => {
    switch (r.kind) {
      case "session":
        if (
          typeof r.model === "string" &&
          r.model.length <= 300 &&
          (r.event === "start" || r.event === "resume" || r.event === "model")
        )
          out.model = r.model;
        if (r.event === "start" || r.event === "resume") {
          if (typeof r.mode === "string" && (MODES as readonly string[]).includes(r.mode)) out.mode = r.mode as Mode;
          out.servers = recordedServers(r) ?? out.servers;
          if (typeof r.cwd === "string") out.cwd = r.cwd;
        }
        return;
      case "mode":
        if (typeof r.mode === "string" && (MODES as readonly string[]).includes(r.mode)) out.mode = r.mode as Mode;
        return;
      case "clear":
        out.turns = [];
        out.items = [];
        out.prompts = 0;
        turn = undefined;
        return;
      case "user":
        if (typeof r.text !== "string")
          return void out.refused.push(`line ${line}: a user record without text; skipped`);
        if (isPromptRecord(r)) {
          prompts++;
          out.prompts++;
        }
        out.turns.push((turn = [{ kind: "user", text: shown(r.text) }]));
        return;
      case "assistant":
        if (typeof r.text === "string") push({ kind: "assistant", text: shown(r.text) });
        return;
      case "tool":
        push({ kind: "notice", level: isObject(r.error) || r.isError === true ? "error" : "info", text: toolLine(r) });
        return;
      case "model-note":
        if (typeof r.text === "string")
          push({ kind: "notice", level: "info", text: `  ⚠ for the model: ${shown(r.text)}` });
        return;
      case "notice":
        if (typeof r.text === "string" && !r.text.startsWith("session transcript: "))
          push({ kind: "notice", level: r.level === "error" ? "error" : "info", text: shown(r.text) });
        return;
      case "context":
        contexts++;
        return context(r, line);
    }
  });
  out.refused.unshift(...read.refused);
  out.noContext = prompts > 0 && contexts === 0;
  if (out.turns.length > MAX_SHOWN_TURNS) {
    out.hiddenTurns = out.turns.length - MAX_SHOWN_TURNS;
    out.turns = out.turns.slice(-MAX_SHOWN_TURNS);
  }
  return out;

  function context(r: TranscriptRecord, line: number): void {
    if (r.item !== undefined) {
      const p = parseContextItem(r.item);
      if (p.ok) out.items.push(p.value);
      else out.refused.push(`line ${line}: a model-context record with ${p.why}; skipped`);
      return;
    }
    const rep = isObject(r.replaced) ? r.replaced : undefined;
    const notes = rep ? parseNotes(rep.notes) : undefined;
    const target =
      rep && typeof rep.callId === "string"
        ? out.items.findLast((i): i is ToolResultItem => i.role === "tool" && i.callId === rep.callId)
        : undefined;
    if (notes?.ok && target) target.replaced = notes.value;
    else if (typeof r.rollback === "number" && Number.isInteger(r.rollback) && r.rollback >= 0)
      out.items.length = Math.min(out.items.length, r.rollback);
    else if (
      isObject(r.compacted) &&
      Number.isInteger(r.compacted.removed) &&
      (r.compacted.removed as number) >= 0 &&
      Array.isArray(r.compacted.items)
    ) {
      // A compaction: the summary items replace the first `removed` (each parsed like any item).
      const parsed = r.compacted.items.slice(0, 16).map((i) => parseContextItem(i));
      const bad = parsed.find((p) => !p.ok);
      if (bad && !bad.ok) out.refused.push(`line ${line}: a compaction record with ${bad.why}; skipped`);
      else
        out.items.splice(
          0,
          Math.min(out.items.length, r.compacted.removed as number),
          ...parsed.flatMap((p) => (p.ok ? [p.value] : [])),
        );
    } else out.refused.push(`line ${line}: a model-context record of the wrong shape; skipped`);
  }
}
