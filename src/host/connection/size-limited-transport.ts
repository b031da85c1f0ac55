// The result-size rule for a transport that hands over messages already parsed (the SDK's legacy
// Streamable HTTP client transport). Each message is measured before the SDK sees it: a reply over
// the limit is answered locally with the same RESULT_TOO_LARGE error the stdio and modern HTTP
// transports give while reading, and any other message over it is dropped with a diagnostic. So
// every transport the host uses enforces limits.maxResultBytes itself, and the call pipeline has
// no size step of its own. (Unlike those two, this one cannot keep the bytes out of memory: the
// SDK has read and parsed the body already. It keeps them out of validation, routing and sinks.)
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { bytesOverLimit, tooLargeError } from "./size-limit.js";

export class SizeLimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly maxBytes: number,
    private readonly onDiagnostic?: (text: string) => void,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onmessage = (message, extra) => this.deliver(message, extra);
    return this.inner.start();
  }

  private deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const bytes = bytesOverLimit(message, this.maxBytes);
    if (bytes === undefined) return this.onmessage?.(message, extra);
    const m = message as { id?: string | number; method?: unknown };
    if (m.id !== undefined && m.method === undefined)
      return this.onmessage?.(tooLargeError(m.id, this.maxBytes, bytes, "parsed"), extra);
    this.onDiagnostic?.(`dropped a ${bytes}-byte message over the ${this.maxBytes}-byte limit`);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Ends the inner transport's session (the SDK's Streamable HTTP one sends DELETE), if it has one. */
  terminateSession(): Promise<void> {
    return (this.inner as { terminateSession?: () => Promise<void> }).terminateSession?.() ?? Promise.resolve();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
