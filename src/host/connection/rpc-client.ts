// A bare JSON-RPC client on the SDK's Protocol: request ids, timeouts, progress and cancellation
// for free, WITHOUT the SDK Client's automatic `initialize` (era detection decides what to send).
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Notification, Request, Result } from "@modelcontextprotocol/sdk/types.js";

export class RpcClient extends Protocol<Request, Notification, Result> {
  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}
}
