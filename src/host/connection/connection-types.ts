// What a Connection's users see of it besides the class: its error (fields and the one line
// `server S: detail`), its states, the options of one request, and how it detects its era.
import type { Rule } from "../../protocol/rules.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ProbeOutcome } from "./era-classifier.js";
import type { RpcClient } from "./rpc-client.js";

type Json = Record<string, unknown>;

/** A server that could not be reached or used: fields (server, rule, detail) and the line `server S: detail`. */
export class ConnectionError extends Error {
  /** The server's last stderr lines when it failed, for the user only (never in `message`). */
  stderr?: string[];
  constructor(
    readonly rule: Rule,
    /** The server's config name; "" when the name is not a configured server. */
    readonly server: string,
    readonly detail: string,
  ) {
    super(server ? `server ${server}: ${detail}` : detail);
    this.name = "ConnectionError";
  }
}

export type ConnectionState = "idle" | "connecting" | "connected" | "disconnected" | "failed";

export interface RequestOpts {
  /** Client extensions advertised on this (modern) request. */
  extensions?: Record<string, Record<string, unknown>>;
  timeout?: number;
  signal?: AbortSignal;
  onprogress?: RequestOptions["onprogress"];
  /** With `onprogress`: each progress notification restarts the timeout, up to this total (ms). */
  maxTotalTimeout?: number;
}

/** How one connection detects its era: the probe's client and time, and the legacy handshake. */
export interface Detection {
  probeTimeout: number;
  /** The client to probe on (HTTP: a fresh modern one, replacing a legacy one that failed). */
  probeClient: () => Promise<RpcClient>;
  /** The legacy handshake, reusing an initialize already in flight. */
  legacy: (pendingInitialize?: Promise<Json>) => Promise<void>;
}

/** One probe's outcome and, on stdio after the probe timeout, the initialize sent meanwhile. */
export interface Probed {
  outcome: ProbeOutcome;
  initialize?: Promise<Json>;
}
