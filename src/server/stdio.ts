// stdio binding: the SDK's StdioServerTransport for framing and its Protocol base for request
// correlation and notifications/cancelled. Every request goes to ToolkitServer through the
// fallback handler, so no SDK result schema reshapes what is written: the wire carries exactly
// the result the toolkit built.
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  Notification as SdkNotification,
  Request as SdkRequest,
  Result as SdkResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ErrorCode } from "../protocol/index.js";
import type { LegacySession, ToolkitServer } from "./engine.js";

/** Server→client answers are checked by the toolkit (input.ts), not reshaped by an SDK schema. */
const ANY_RESULT = z.object({}).passthrough();
/** How long a legacy client may take to answer elicitation/sampling/roots (a person may be typing). */
const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** One connection (a stdio process): one legacy session if the client chooses `initialize`. */
export class ToolkitConnection extends Protocol<SdkRequest, SdkNotification, SdkResult> {
  private readonly session: LegacySession = {};

  constructor(private readonly server: ToolkitServer) {
    super();
    // The SDK answers ping itself; in the modern era ping is not a method, so the toolkit decides.
    this.removeRequestHandler("ping");
    this.fallbackRequestHandler = async (request, extra) =>
      (await this.server.handle(request.method, request.params, {
        signal: extra.signal,
        session: this.session,
        requestId: extra.requestId,
        push: (n) => void this.notification(n as SdkNotification).catch(() => {}),
        notify: (n) => extra.sendNotification(n as SdkNotification),
        request: (method, params) =>
          extra.sendRequest({ method, params } as SdkRequest, ANY_RESULT, {
            signal: extra.signal,
            timeout: CLIENT_REQUEST_TIMEOUT_MS,
          }),
      })) as SdkResult;
  }

  override async close(): Promise<void> {
    this.session.unlisten?.();
    await super.close();
  }

  protected override assertCapabilityForMethod(): void {}
  protected override assertNotificationCapability(): void {}
  protected override assertRequestHandlerCapability(): void {}
  protected override assertTaskCapability(): void {}
  protected override assertTaskHandlerCapability(): void {}
}

/** Serves the toolkit server on this process's stdin/stdout until stdin ends. */
export async function serveStdio(
  server: ToolkitServer,
  transport: Transport = new StdioServerTransport(),
): Promise<void> {
  const connection = new ToolkitConnection(server);
  connection.onerror = (e) => {
    process.stderr.write(`stdio: ${e.message.split("\n")[0]}\n`);
    // A line that is not JSON, or not a JSON-RPC message, still gets a JSON-RPC error. Without an
    // id: MCP's schema (2025-11-25 and 2026-07-28) allows none there, and never a null one.
    const code =
      e instanceof SyntaxError ? ErrorCode.ParseError : e.name === "ZodError" ? ErrorCode.InvalidRequest : undefined;
    if (code !== undefined) {
      const message =
        code === ErrorCode.ParseError
          ? "Parse error: the line is not JSON"
          : "Invalid Request: not a JSON-RPC 2.0 message";
      void transport.send({ jsonrpc: "2.0", error: { code, message } } as unknown as JSONRPCMessage).catch(() => {});
    }
  };
  await connection.connect(transport);
  await new Promise<void>((resolve) => {
    connection.onclose = () => resolve();
    process.stdin.once("end", () => void connection.close().then(resolve, resolve));
  });
}
