// What the host tells a server it can do, built in one place so it never advertises more than it
// implements: in `initialize` (legacy) and in every 2026-07-28+ request's `_meta` envelope.
// Turn a feature on here only once its handler exists: a server (server-everything does) hides
// or shows tools by what the client advertises.
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { app } from "../policy/app.js";
import type { Root } from "../config/roots.js";
import type { LogLevel } from "./server-logs.js";
import type { RpcClient } from "./rpc-client.js";
import { installInputHandlers, type InputProvider } from "../input/input-handlers.js";

type Json = Record<string, unknown>;

export interface ClientFeatures {
  /** roots/list answered (legacy request handler, MRTR `roots/list` input request). */
  roots: boolean;
  /** sampling/createMessage answered. */
  sampling: boolean;
  /** elicitation/create answered, by mode. */
  elicitation: { form: boolean; url: boolean } | false;
  /** The MCP Apps extension, with app mode's settings (app mode, modern eras: legacy results carry no View). */
  ui: boolean;
}

/** What the host implements without anyone to ask. Roots only when configured; sampling and elicitation come with an InputProvider. */
export const HOST_FEATURES: ClientFeatures = { roots: false, sampling: false, elicitation: false, ui: false };

/** The features with what an InputProvider answers (none: neither sampling nor elicitation advertised). */
export function featuresWith(input: InputProvider | undefined, base: ClientFeatures = HOST_FEATURES): ClientFeatures {
  const el = input?.elicitation;
  return {
    ...base,
    sampling: input?.sampling === true,
    elicitation: el && (el.form || el.url) ? { form: el.form, url: el.url } : false,
  };
}

/**
 * ClientCapabilities for these features. `legacy`: a session-bound handshake, where roots can
 * change under the session (`listChanged`); a 2026-07-28 request declares them per request.
 */
/** The Tasks extension (SEP-2663, 2026-07-28): a server may answer tools/call with a task handle. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export function clientCapabilities(features: ClientFeatures, legacy = false): Json {
  const caps: Json = {};
  if (features.roots) caps.roots = legacy ? { listChanged: true } : {};
  if (features.sampling) caps.sampling = {};
  if (features.elicitation) {
    const modes: Json = {};
    if (features.elicitation.form) modes.form = {};
    if (features.elicitation.url) modes.url = {};
    if (Object.keys(modes).length) caps.elicitation = modes;
  }
  // Modern eras: the Tasks extension on every request (tasks.ts follows its handles); a server
  // may return a task only to a request that declares it.
  if (!legacy || features.ui)
    caps.extensions = { ...(features.ui ? app.advertiseExtensions : {}), ...(legacy ? {} : { [TASKS_EXTENSION]: {} }) };
  return caps;
}

/** The client side of every connection: what it advertises and the roots it answers with. */
export interface ClientSide {
  features: ClientFeatures;
  /** The current roots (read at each roots/list). */
  roots: () => Root[];
  /** Answers the server's elicitation and sampling requests (none: not advertised, not answered). */
  input?: InputProvider;
  /** The least severe log message wanted (legacy: logging/setLevel; modern: each request's `_meta`). */
  logLevel?: LogLevel;
  /** A server's log message or list change, as the SDK schema parsed it. */
  onNotification?: (server: string, n: ServerNotice) => void;
}

export type ServerNotice =
  | { kind: "log"; params: unknown }
  | { kind: "list-changed"; list: "tools" | "prompts" | "resources" }
  | { kind: "updated"; uri: string };

export const DEFAULT_CLIENT_SIDE: ClientSide = { features: HOST_FEATURES, roots: () => [] };

/** The requests and notifications a server may send the host, handled on this client. */
export function serveClientRequests(client: RpcClient, side: ClientSide, server: string): void {
  if (side.features.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: side.roots() }));
  if (side.input) installInputHandlers(client, server, side.input);
  const on = side.onNotification;
  if (!on) return;
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => on(server, { kind: "log", params: n.params }));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
    on(server, { kind: "list-changed", list: "tools" }),
  );
  client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
    on(server, { kind: "list-changed", list: "prompts" }),
  );
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
    on(server, { kind: "list-changed", list: "resources" }),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
    on(server, { kind: "updated", uri: n.params.uri }),
  );
}
