// The checker's own raw JSON-RPC view of a server: replies exactly as they came off the wire,
// no SDK in between (an SDK would reshape or reject the very deviations the checks look for).
import { isObject } from "../protocol/is-object.js";

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcReply =
  | { kind: "result"; result: Record<string, unknown>; httpStatus?: number }
  | { kind: "error"; error: RpcErrorObject; httpStatus?: number };

/** The server did not answer within the time limit. */
export class NoAnswerError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`no answer to ${method} within ${formatSeconds(timeoutMs)}`);
    this.name = "NoAnswerError";
  }
}

/** The transport broke: the process could not start or exited, the URL is unreachable, the bytes are not JSON-RPC. */
export class TransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransportError";
  }
}

export interface RequestOptions {
  /** Extra HTTP headers (ignored on stdio). */
  headers?: Record<string, string>;
  /** Overrides the connection's default timeout. */
  timeoutMs?: number;
}

export interface RawConnection {
  readonly transport: "stdio" | "http";
  request(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<RpcReply>;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
}

export { isObject };

/** Reads one JSON-RPC response object into an RpcReply; undefined when it is not one. */
export function toReply(msg: unknown, httpStatus?: number): RpcReply | undefined {
  if (!isObject(msg)) return undefined;
  if (isObject(msg.result)) return { kind: "result", result: msg.result, httpStatus };
  const e = msg.error;
  if (isObject(e) && typeof e.code === "number") {
    const error: RpcErrorObject = { code: e.code, message: typeof e.message === "string" ? e.message : "" };
    if ("data" in e) error.data = e.data;
    return { kind: "error", error, httpStatus };
  }
  return undefined;
}
