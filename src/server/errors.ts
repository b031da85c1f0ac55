// JSON-RPC errors raised by the toolkit server. `httpStatus` lets the HTTP binding pick the
// status the 2026-07-28 transport page requires (400 for envelope and version errors, 404 for
// unknown methods); stdio ignores it.
import { ErrorCode } from "../protocol/index.js";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, httpStatus = 200) =>
  new RpcError(ErrorCode.InvalidParams, message, undefined, httpStatus);
export const internalError = (message: string) => new RpcError(ErrorCode.InternalError, message);
export const methodNotFound = (method: string, httpStatus = 200) =>
  new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`, undefined, httpStatus);
