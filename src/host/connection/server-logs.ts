// A server's log messages (`notifications/message`), kept per server in a bounded ring for the
// user (/logs, a one-line notice from `warning` up, the transcript). Never a model input: the
// model context accepts only assistant outputs, and nothing here is one.
import { exceedsJsonDepth } from "../../protocol/json-depth.js";
import { isObject } from "../../protocol/is-object.js";
import { sanitizeInline, sanitizeName, truncateChars } from "../../protocol/sanitize.js";
import type { Connection } from "./connection.js";

/** RFC 5424 severities, least severe first (the MCP LoggingLevel). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = "info";

/** Messages kept per server (the oldest dropped first). */
export const LOG_RING = 200;
/** Characters kept of one message's text. */
export const LOG_TEXT_MAX = 2000;
const MAX_DATA_DEPTH = 16;

export interface LogEntry {
  server: string;
  level: LogLevel;
  logger?: string;
  /** The message's data as one sanitized line, cut to LOG_TEXT_MAX. */
  text: string;
  at: string;
}

export function isLogLevel(v: unknown): v is LogLevel {
  return typeof v === "string" && (LOG_LEVELS as readonly string[]).includes(v);
}

/** `warning` and above: shown to the user as a notice when they come. */
export function isNoticeLevel(level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf("warning");
}

/** A notification's params as an entry, or undefined when they are no log message. */
export function logEntryOf(server: string, params: unknown): LogEntry | undefined {
  if (!isObject(params) || !isLogLevel(params.level)) return undefined;
  const data = params.data;
  let text: string;
  if (typeof data === "string") text = data;
  else if (exceedsJsonDepth(data, MAX_DATA_DEPTH)) text = `⟨data nested deeper than ${MAX_DATA_DEPTH} levels⟩`;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = "⟨unprintable data⟩";
    }
  }
  const entry: LogEntry = {
    server,
    level: params.level,
    text: sanitizeInline(truncateChars(text, LOG_TEXT_MAX)),
    at: new Date().toISOString(),
  };
  if (typeof params.logger === "string") entry.logger = sanitizeName(params.logger);
  return entry;
}

/** Every server's ring. */
export class ServerLogs {
  private readonly rings = new Map<string, LogEntry[]>();

  add(entry: LogEntry): void {
    let ring = this.rings.get(entry.server);
    if (!ring) this.rings.set(entry.server, (ring = []));
    ring.push(entry);
    if (ring.length > LOG_RING) ring.splice(0, ring.length - LOG_RING);
  }

  /** One server's messages, or every server's, oldest first. */
  entries(server?: string): LogEntry[] {
    if (server !== undefined) return [...(this.rings.get(server) ?? [])];
    return [...this.rings.values()].flat().sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }
}

/** Per connection, the capabilities object (one per connect) logging/setLevel was sent for. */
const levelSent = new WeakMap<Connection, object>();

/** logging/setLevel once per connect of a legacy session offering logging (modern: `_meta`); a refusal is ignored. */
export function sendLogLevel(level: LogLevel, conn: Connection): void {
  if (conn.era !== "legacy" || !conn.serverCapabilities.logging || levelSent.get(conn) === conn.serverCapabilities)
    return;
  levelSent.set(conn, conn.serverCapabilities);
  conn.request("logging/setLevel", { level }).catch(() => {});
}
