// The host's transport seam: a Connection asks a TransportFactory for each transport it opens.
// The default builds the real ones, each enforcing limits.maxResultBytes and the reply guard
// itself: stdio (one pipe carries the era probe and the legacy fallback), the modern Streamable
// HTTP binding, and the SDK's legacy Streamable HTTP client wrapped in the size rule. Tests and the
// benchmark pass their own (e.g. an in-memory pair to a server in the same process, test/helpers/
// in-memory.ts): everything after the transport — era detection, envelope, the call pipeline — is
// the host's own code either way.
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Limits, ServerConfig } from "../config/config.js";
import { authorizedFetch } from "../auth/auth-fetch.js";
import type { HttpAuth } from "../auth/server-auth.js";
import { ModernHttpTransport } from "./http-transport.js";
import { guardRepliesFetch } from "./reply-guard-fetch.js";
import { SizeLimitedTransport } from "./size-limited-transport.js";
import { LimitedStdioTransport } from "./stdio-transport.js";

export interface TransportContext {
  /** The server's name in the config. */
  name: string;
  limits: Limits;
  /**
   * The era the transport is opened for. A stdio config gets one transport for both ("any": the
   * probe and, if it fails, initialize go down the same pipe); an HTTP config gets a modern
   * transport for the probe and, for a legacy server, a fresh legacy one.
   */
  era: "any" | "modern" | "legacy";
  /** The server's stderr text (kept as a bounded tail for the user). */
  onStderr: (text: string) => void;
  /** A host diagnostic about the server (an ignored line, a dropped message). */
  onDiagnostic: (text: string) => void;
  /** A legacy HTTP 401/403 reply's WWW-Authenticate header (the SDK's transport keeps it to itself) and why signing in did not pass it. */
  onChallenge: (challenge: string | undefined, signIn?: string) => void;
  /** The server's sign-in (HTTP only; the host gives one to every HTTP server). */
  auth?: HttpAuth;
}

export type TransportFactory = (config: ServerConfig, ctx: TransportContext) => Transport;

export const defaultTransport: TransportFactory = (config, ctx) => {
  const maxBytes = ctx.limits.maxResultBytes;
  if (config.kind === "stdio") {
    return new LimitedStdioTransport(
      { command: config.command, args: config.args, env: config.env, cwd: config.cwd },
      {
        maxLineBytes: maxBytes,
        onStderr: (chunk) => ctx.onStderr(chunk.toString("utf8")),
        onDiagnostic: ctx.onDiagnostic,
      },
    );
  }
  const url = new URL(config.url);
  if (ctx.era !== "legacy") return new ModernHttpTransport(url, config.headers, maxBytes, ctx.auth);
  const challenged = (res: Response, why?: string) =>
    ctx.onChallenge(res.headers.get("www-authenticate") ?? undefined, why);
  const fetchSeen: typeof fetch = ctx.auth
    ? authorizedFetch(fetch, ctx.auth, challenged)
    : async (input, init) => {
        const res = await fetch(input, init);
        if (res.status === 401 || res.status === 403) challenged(res);
        return res;
      };
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: config.headers },
    fetch: guardRepliesFetch(fetchSeen),
  });
  // The SDK's transport parses whole bodies: the size rule is applied to what it delivers, and
  // malformed replies are refused before it reads them (reply-guard-fetch.ts).
  return new SizeLimitedTransport(transport, maxBytes, ctx.onDiagnostic);
};

/** The HTTP status of a legacy HTTP transport's failure, if it was one. */
export function httpStatusOf(e: unknown): number | undefined {
  return e instanceof StreamableHTTPError ? e.code : e instanceof UnauthorizedError ? 401 : undefined;
}
