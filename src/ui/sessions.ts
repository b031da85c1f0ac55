// The saved sessions: one transcript file each in the state directory (transcript.ts), listed
// with what identifies them (id, time, directory, first prompt, turn count), and a session's
// records turned back into the conversation shown, the mode, the servers and the model's context.
// A resumed session appends to its own file (a `session` record with event `resume` marks where),
// so one session is always one file and --continue finds it again by its directory.
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { MODES, type Mode } from "../host/types.js";
import { isObject } from "../protocol/is-object.js";
import { sanitizeInline } from "../protocol/sanitize.js";
import { readTranscript, type ReadLimits } from "./transcript-read.js";
import type { TranscriptRecord } from "../host/transcript/record.js";

/** Newest files looked at when listing (each is read whole to count its turns). */
export const MAX_LISTED = 200;

export interface SessionSummary {
  id: string;
  path: string;
  /** The first record's time (ISO). */
  startedAt: string;
  /** The last record's time (ISO). */
  lastAt: string;
  /** The directory it last ran in (its start, or its latest resume). */
  cwd: string;
  mode?: Mode;
  servers: string[];
  /** The first prompt to the model (not a slash command), bounded. */
  firstPrompt: string;
  /** Prompts to the model. */
  turns: number;
}

export const sessionId = (path: string): string =>
  basename(path)
    .replace(/^session-/, "")
    .replace(/\.jsonl$/, "");

const isMode = (v: unknown): v is Mode => typeof v === "string" && (MODES as readonly string[]).includes(v);

/** The names in a session record's `servers` list. */
export function recordedServers(r: TranscriptRecord): string[] | undefined {
  if (!Array.isArray(r.servers)) return undefined;
  const names = r.servers
    .map((s) => (isObject(s) && typeof s.name === "string" ? s.name.slice(0, 200) : undefined))
    .filter((n): n is string => n !== undefined);
  return names.slice(0, 100);
}

/** A user record that was a prompt to the model (slash commands are recorded as user records too). */
export const isPromptRecord = (r: TranscriptRecord): r is TranscriptRecord & { text: string } =>
  r.kind === "user" && typeof r.text === "string" && !r.text.trimStart().startsWith("/");

/** One file's summary, or undefined when it holds no session start. */
export function summarize(path: string, limits?: ReadLimits): SessionSummary | undefined {
  let s: SessionSummary | undefined;
  readTranscript(
    path,
    (r) => {
      if (r.kind === "session" && (r.event === "start" || r.event === "resume")) {
        s ??= {
          id: sessionId(path),
          path,
          startedAt: r.at,
          lastAt: r.at,
          cwd: "",
          servers: [],
          firstPrompt: "",
          turns: 0,
        };
        if (typeof r.cwd === "string") s.cwd = r.cwd;
        if (isMode(r.mode)) s.mode = r.mode;
        s.servers = recordedServers(r) ?? s.servers;
      }
      if (!s) return;
      s.lastAt = r.at;
      if (r.kind === "mode" && isMode(r.mode)) s.mode = r.mode;
      if (isPromptRecord(r)) {
        s.turns++;
        if (!s.firstPrompt) s.firstPrompt = r.text.slice(0, 200);
      }
    },
    limits,
  );
  return s;
}

/** The sessions in `dir` with at least one prompt, the most recently used first. */
export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^session-.*\.jsonl$/.test(n));
  } catch {
    return [];
  }
  const files = names
    .map((n) => {
      try {
        return { path: join(dir, n), mtime: statSync(join(dir, n)).mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((f): f is { path: string; mtime: number } => f !== undefined)
    .sort((a, b) => b.mtime - a.mtime)
    .slice(0, MAX_LISTED);
  const out: SessionSummary[] = [];
  for (const f of files) {
    try {
      const s = summarize(f.path);
      if (s && s.turns > 0) out.push(s);
    } catch {
      // unreadable: not listed
    }
  }
  return out.sort((a, b) => (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : 0));
}

/** The session `id` names: exactly, or the only one it is a prefix of; else why not. */
export function findSession(sessions: readonly SessionSummary[], id: string): SessionSummary | string {
  const exact = sessions.find((s) => s.id === id);
  if (exact) return exact;
  const hits = sessions.filter((s) => s.id.startsWith(id));
  if (hits.length === 1) return hits[0];
  if (hits.length > 1)
    return `${JSON.stringify(id)} names ${hits.length} sessions (${hits
      .slice(0, 3)
      .map((s) => s.id)
      .join(", ")}…): give more of the id`;
  return `no session ${JSON.stringify(id.slice(0, 80))} (mcp-prism sessions lists them)`;
}

/** The most recently used session run in `cwd`. */
export function lastSessionIn(sessions: readonly SessionSummary[], cwd: string): SessionSummary | undefined {
  return sessions.find((s) => s.cwd === cwd);
}

/** One line of a session list: id, when, where, turns, first prompt. */
export function summaryLine(s: SessionSummary, width = 120): string {
  const when = sanitizeInline(s.lastAt.replace("T", " ").replace(/\.\d+Z$/, "Z"));
  const head = `${sanitizeInline(s.id)}  ${when}  ${sanitizeInline(s.cwd)}  ${s.turns} turn${s.turns === 1 ? "" : "s"}  `;
  const prompt = sanitizeInline(s.firstPrompt.replace(/\s+/g, " "));
  const room = Math.max(10, width - head.length);
  return head + (prompt.length > room ? `${prompt.slice(0, room - 1)}…` : prompt);
}
