import type { LogEntry } from "./connection/server-logs.js";
// The Host's public shapes: its options, a server's status, the `server` event it emits, a planned
// request. Kept apart from host.ts so the pipeline file holds the pipeline.
import type { Rule } from "../protocol/rules.js";
import type { ToolResultOutputSelector } from "../protocol/index.js";
import type { SignInSettings } from "./auth/sign-ins.js";
import type { HostConfig } from "./config/config.js";
import type { Connection } from "./connection/connection.js";
import type { EraCache } from "./connection/era-cache.js";
import type { InputProvider } from "./input/input-provider.js";
import type { ToolError } from "./catalog/tools.js";
import type { TransportFactory } from "./connection/transport-factory.js";
import type { Mode } from "./types.js";

export interface HostOptions {
  config: HostConfig;
  mode?: Mode;
  /** Force one protocol version on every connection. */
  protocol?: string;
  /** Only these servers (by config name). */
  servers?: string[];
  /** Where detected eras are remembered (default: $XDG_STATE_HOME/mcp-prism unless MCP_PRISM_ERA_CACHE=0; false: none). */
  eraCache?: EraCache | false;
  /** Builds each server's transports (default: stdio / Streamable HTTP; tests pass an in-memory one). */
  transport?: TransportFactory;
  /** Answers servers' elicitation and sampling requests (none: those capabilities are not advertised). */
  input?: InputProvider;
  /** OAuth sign-in for HTTP servers: interactive (a 401 opens the browser: the CLI) or only on login (the app, the default). */
  signIn?: SignInSettings;
}

export interface ServerStatus {
  name: string;
  state: Connection["state"];
  era?: string;
  protocolVersion?: string;
  /** The line for `failure`: `server S: detail`. */
  error?: string;
  /** Why the server is not connected, as data. */
  failure?: { rule: Rule; detail: string };
  toolErrors: ToolError[];
  /** Turned off for this session (Host.setEnabled). */
  disabled?: true;
  stderr: string[];
  /** The first error line of the server process's stderr (its cause when it crashed), kept after the tail dropped it. */
  stderrFirstError?: string;
  /** Host diagnostics about the server (e.g. ignored non-JSON stdout lines). */
  diagnostics: string[];
  /** The roots the server is offered (`file://` URIs); undefined: none, no roots capability. */
  roots?: string[];
}

/** A call's wire request as a mode would make it (see Host.requestFor). */
export interface PlannedRequest {
  requested: ToolResultOutputSelector[] | undefined;
  /** Client extension ids advertised on the request (modern eras only). */
  advertised: string[];
}

/** A server's first connect settled (Host.open): connected (tools listed) or failed (`servers()` has the error). */
export interface ServerEvent {
  name: string;
  state: "connected" | "failed";
}

/** The Host's events: what Host (an EventEmitter) emits, each with one argument; the app listens to them. */
export interface HostEvents {
  /** A server's first connect settled (Host.open). */
  server: ServerEvent;
  /** A server's tools, prompts or resources changed (and were listed again). */
  "list-changed": { server: string; list: string };
  /** A subscribed resource changed on its server. */
  "resource-updated": { server: string; uri: string };
  /** A sampling cap was reached (said once per cap; the refused samples are the server's to handle). */
  "sampling-limit": { server: string; line: string };
  /** A server's log message (`notifications/message`), as kept in Host.logs. */
  log: LogEntry;
  /** Tasks still running when the host closed, cancelled on their servers. */
  "tasks-cancelled": { server: string; tool: string; taskId: string }[];
}
