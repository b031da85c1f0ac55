// The Host's public shapes: its options, a server's status, the events it emits, a planned
// request. Kept apart from host.ts so the pipeline file holds the pipeline.
import type { ToolResultOutputSelector } from "../protocol/index.js";
import type { HostConfig } from "./config.js";
import type { Connection } from "./connection.js";
import type { EraCache } from "./era-cache.js";
import type { ToolError } from "./tools.js";
import type { TransportFactory } from "./transport-factory.js";
import type { CallOutcome, CallPlan, LegacyProfile, Mode, ProgressUpdate } from "./types.js";

export interface HostOptions {
  config: HostConfig;
  mode?: Mode;
  /** Force one protocol version on every connection. */
  protocol?: string;
  profile?: LegacyProfile;
  /** Only these servers (by config name). */
  servers?: string[];
  /** Where detected eras are remembered (default: $XDG_STATE_HOME/mcp-prism unless MCP_PRISM_ERA_CACHE=0; false: none). */
  eraCache?: EraCache | false;
  /** Builds each server's transports (default: stdio / Streamable HTTP; tests pass an in-memory one). */
  transport?: TransportFactory;
}

export interface ServerStatus {
  name: string;
  state: Connection["state"];
  era?: string;
  protocolVersion?: string;
  error?: string;
  toolErrors: ToolError[];
  stderr: string[];
  /** Host diagnostics about the server (e.g. ignored non-JSON stdout lines). */
  diagnostics: string[];
}

/** A call's wire request as a mode would make it (see Host.requestFor). */
export interface PlannedRequest {
  requested: ToolResultOutputSelector[] | undefined;
  /** Client extension ids advertised on the request (modern eras only). */
  advertised: string[];
}

/** A failed call in a transcript-ready shape: which server, which tool, which rule, one line. */
export interface CallFailure {
  server: string;
  tool: string;
  rule: string;
  message: string;
}

/** A server's first connect settled (Host.open): connected (tools listed) or failed (`servers()` has the error). */
export interface ServerEvent {
  name: string;
  state: "connected" | "failed";
}

export type HostEvent =
  | { type: "call-start"; id: number; plan: CallPlan }
  | { type: "call-progress"; id: number; progress: ProgressUpdate }
  | { type: "call-end"; id: number; outcome: CallOutcome; failure?: CallFailure };
