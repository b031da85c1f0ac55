// Raw newline-delimited JSON-RPC over a child process's stdin/stdout.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { GROUPS, stopGroup, trackGroup } from "../host/connection/process-group.js";
import { serverEnv } from "../host/connection/spawn-server.js";
import { DEFAULT_MAX_RESULT_BYTES } from "../protocol/limits.js";
import {
  NoAnswerError,
  TransportError,
  isObject,
  toReply,
  type RawConnection,
  type RequestOptions,
  type RpcReply,
} from "./wire.js";

interface Pending {
  method: string;
  resolve: (r: RpcReply) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

const STDERR_TAIL = 2000;
/** The longest line read (the host's default result limit): a longer one fails the server. */
export const MAX_LINE_BYTES = DEFAULT_MAX_RESULT_BYTES;

export class StdioConnection implements RawConnection {
  readonly transport = "stdio" as const;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = "";
  private failure: TransportError | undefined;

  private constructor(
    readonly command: string,
    readonly args: readonly string[],
    private readonly timeoutMs: number,
    maxLineBytes: number,
  ) {
    // Its own process group: closing stops what a wrapper command started too (process-group.ts).
    // The host's minimal environment, so a check sees the server as the host runs it (and a
    // server under test never reads the user's API keys).
    this.child = spawn(command, [...args], { stdio: ["pipe", "pipe", "pipe"], detached: GROUPS, env: serverEnv() });
    trackGroup(this.child);
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (d: string) => {
      this.stderrTail = (this.stderrTail + d).slice(-STDERR_TAIL);
    });
    this.child.stdin.on("error", () => {}); // EPIPE after exit is reported through 'exit'
    this.readLines(maxLineBytes);
    this.child.once("error", (e) => this.fail(new TransportError(`cannot start ${command}: ${e.message}`)));
    this.child.once("exit", (code, signal) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      const last = lastLine(this.stderrTail);
      this.fail(new TransportError(`server exited (${how})${last ? `: ${last}` : ""}`));
    });
  }

  /** Spawns the server; rejects with TransportError when the command cannot be started. */
  static async start(
    command: string,
    args: readonly string[],
    timeoutMs: number,
    maxLineBytes = MAX_LINE_BYTES,
  ): Promise<StdioConnection> {
    const c = new StdioConnection(command, args, timeoutMs, maxLineBytes);
    await new Promise<void>((resolve, reject) => {
      c.child.once("spawn", () => resolve());
      c.child.once("error", (e) => reject(new TransportError(`cannot start ${command}: ${e.message}`)));
    });
    return c;
  }

  /**
   * Newline-delimited messages, bounded: a line longer than `max` bytes (a server flooding stdout
   * without a newline) fails the connection at once and reading stops, so memory stays bounded.
   */
  private readLines(max: number): void {
    const stdout = this.child.stdout;
    let parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        if (size + piece.length > max) return overflow();
        const line = parts.length ? Buffer.concat([...parts, piece]).toString("utf8") : piece.toString("utf8");
        parts = [];
        size = 0;
        start = nl + 1;
        this.onLine(line);
      }
      const rest = chunk.subarray(start);
      if (size + rest.length > max) return overflow();
      if (rest.length) {
        parts.push(rest);
        size += rest.length;
      }
    };
    const overflow = () => {
      stdout.off("data", onData);
      parts = [];
      stdout.resume(); // drained and dropped: the server is not blocked on a full pipe, nothing kept
      this.fail(new TransportError(`server wrote a line over ${max} bytes without a newline; stopped reading it`));
    };
    stdout.on("data", onData);
  }

  private fail(e: TransportError): void {
    this.failure ??= e;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(this.failure);
    }
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not a JSON-RPC message; a stray log line must not abort the checks
    }
    if (!isObject(msg)) return;
    if (typeof msg.method === "string") {
      // A server→client request: this client offers no methods.
      if (msg.id !== undefined)
        this.write({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
      return;
    }
    const id = typeof msg.id === "number" ? msg.id : Number(msg.id);
    const p = this.pending.get(id);
    if (!p) return;
    const reply = toReply(msg);
    clearTimeout(p.timer);
    this.pending.delete(id);
    if (reply) p.resolve(reply);
    else p.reject(new TransportError(`reply to ${p.method} is neither a result object nor an error`));
  }

  private write(msg: unknown): void {
    if (!this.child.stdin.writable) return;
    this.child.stdin.write(JSON.stringify(msg) + "\n");
  }

  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions = {},
  ): Promise<RpcReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new NoAnswerError(method, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.write(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    });
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    this.write(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Closes stdin, then escalates to SIGTERM and SIGKILL (to the whole group) if the server lingers. */
  async close(): Promise<void> {
    await stopGroup(this.child, { stdinGraceMs: 1000, termGraceMs: 1000 });
  }
}

function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines[lines.length - 1] : "";
}
