// Client stdio transport with limits. Unlike the SDK's (whose ReadBuffer concatenates every chunk
// until a newline), a line is read in pieces and never buffered past `maxLineBytes`: an oversized
// reply is answered locally with a RESULT_TOO_LARGE error for its request and the rest of the line
// is skipped, so the connection stays usable and memory stays flat. A malformed reply to a pending
// request fails it at once (reply-guard.ts); other lines that are not JSON-RPC are reported as
// diagnostics and ignored. A UTF-8 BOM before a line is no content and is dropped.
import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MALFORMED_REPLY, stripBom } from "../../protocol/reply-check.js";
import { guardIncoming } from "./reply-guard.js";
import { tooLargeError } from "./size-limit.js";
import { stopGroup } from "./process-group.js";
import { adoptEarly, spawnServer, type StdioParams } from "./spawn-server.js";

export type { StdioParams };

export interface StdioLimits {
  maxLineBytes: number;
  onDiagnostic?: (text: string) => void;
  onStderr?: (chunk: Buffer) => void;
}

/** Bytes of an oversized line kept to find its request id (at the start or at the end). */
const ID_WINDOW = 256;

type Id = string | number;

/** The top-level id of a JSON-RPC reply, from the start or the end of its text. */
export function findReplyId(head: string, tail: string): Id | undefined {
  const lit = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const m =
    new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${lit}`).exec(head) ??
    new RegExp(String.raw`"id"\s*:\s*${lit}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`).exec(tail);
  return m ? (JSON.parse(m[1]) as Id) : undefined;
}

/** A request or notification from the server (a "method" key among the first top-level keys). */
function startsAsCall(head: string): boolean {
  return /^\s*\{[^{}[\]]*"method"\s*:/.test(head);
}

export class LimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  /** The process has exited (a request now fails saying so). */
  private exited = false;
  private pieces: Buffer[] = [];
  private size = 0;
  /** Set while skipping the rest of an oversized line. */
  private skipping: { head: string; tail: string; answered: boolean } | undefined;
  private readonly pending = new Set<Id>();

  constructor(
    private readonly params: StdioParams,
    private readonly limits: StdioLimits,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // A process the app spawned early (spawn-server.ts) is adopted with what it did meanwhile.
      const early = adoptEarly(this.params);
      const child = early?.child ?? spawnServer(this.params);
      this.child = child;
      const failed = (e: Error) => {
        reject(e);
        this.onerror?.(e);
      };
      const closed = () => {
        this.child = undefined;
        this.exited = true;
        this.onclose?.();
      };
      if (early?.error) failed(early.error);
      else child.once("error", failed);
      if (early?.spawned) resolve();
      else child.once("spawn", () => resolve());
      // What it wrote on stderr before adoption (why it died, maybe), before anything can fail.
      if (early) {
        early.stopCollecting();
        for (const c of early.stderr) this.limits.onStderr?.(c);
      }
      if (early?.closed) queueMicrotask(closed);
      else child.once("close", closed);
      child.stdin?.on("error", (e) => this.onerror?.(e));
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr?.on("data", (chunk: Buffer) => this.limits.onStderr?.(chunk));
    });
  }

  private read(chunk: Buffer): void {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); ; nl = chunk.indexOf(10, from)) {
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(from, end));
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.skipping) {
      this.skipping.tail = (this.skipping.tail + part.toString("latin1")).slice(-ID_WINDOW);
      return;
    }
    this.pieces.push(part);
    if (this.size <= this.limits.maxLineBytes) return;
    // Over the limit: keep only the ends (for the id) and answer now if the request is known.
    const all = Buffer.concat(this.pieces);
    this.pieces = [];
    this.skipping = {
      head: all.toString("latin1", 0, ID_WINDOW),
      tail: all.toString("latin1", all.length - ID_WINDOW),
      answered: false,
    };
    // With one request in flight, a reply whose id comes last (SDK servers) is that request's, unless it
    // starts like a request or notification.
    if (startsAsCall(this.skipping.head)) return;
    const id = findReplyId(this.skipping.head, "") ?? (this.pending.size === 1 ? [...this.pending][0] : undefined);
    if (id !== undefined && this.pending.has(id)) this.answerTooLarge(id);
  }

  private endLine(): void {
    const size = this.size;
    this.size = 0;
    if (this.skipping) {
      const { head, tail, answered } = this.skipping;
      this.skipping = undefined;
      const id = startsAsCall(head) ? undefined : findReplyId(head, tail);
      if (!answered && id !== undefined && this.pending.has(id)) this.answerTooLarge(id, size);
      else if (!answered)
        this.limits.onDiagnostic?.(
          `stdout: skipped a ${size}-byte line over the ${this.limits.maxLineBytes}-byte limit`,
        );
      return;
    }
    // (Replies can be megabytes: no regex over the whole line, no trimmed copy of it.)
    let text = (this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces)).toString("utf8");
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    this.pieces = [];
    if (!/\S/.test(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(stripBom(text));
    } catch {
      this.limits.onDiagnostic?.(`stdout: ignored a line that is not JSON-RPC: ${text.slice(0, 120)}`);
      return;
    }
    // A malformed reply fails its request now (reply-guard.ts); junk that answers nothing is logged.
    const { deliver, ignored, refused } = guardIncoming(value, { pending: this.pending });
    if (ignored)
      this.limits.onDiagnostic?.(`stdout: ignored a line that is not JSON-RPC: ${text.slice(0, 120)} (${ignored})`);
    if (refused)
      this.limits.onDiagnostic?.(`stdout: refused a reply (${MALFORMED_REPLY}: ${refused}): ${text.slice(0, 120)}`);
    for (const message of deliver) {
      if ("id" in message && message.id !== undefined && !("method" in message)) this.pending.delete(message.id);
      this.onmessage?.(message);
    }
  }

  private answerTooLarge(id: Id, bytes?: number): void {
    if (this.skipping) this.skipping.answered = true;
    this.pending.delete(id);
    this.onmessage?.(tooLargeError(id, this.limits.maxLineBytes, bytes));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed)
        return reject(new Error(this.exited ? "the server exited before answering" : "Not connected"));
      const m = message as { id?: Id; method?: string; params?: { requestId?: Id } };
      if (m.method !== undefined && m.id !== undefined) this.pending.add(m.id);
      // A cancelled request's reply may never come: stop expecting it.
      if (m.method === "notifications/cancelled" && m.params?.requestId !== undefined)
        this.pending.delete(m.params.requestId);
      if (stdin.write(JSON.stringify(message) + "\n")) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** The MCP stdio shutdown, applied to the server's whole process group (process-group.ts). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    await stopGroup(child, { stdinGraceMs: 2000, termGraceMs: 2000 });
    this.pieces = [];
    this.skipping = undefined;
  }
}
