// The result-size rules: the one local RESULT_TOO_LARGE error every transport (stdio, modern
// HTTP, size-limited) answers an oversized reply with, and the rule for connections whose transport does not stop an oversized reply while
// reading it (legacy HTTP through the SDK, in-process): the host must decide "over the limit or
// not" for a result it already holds. Serializing every result to count its bytes costs more than
// the rest of the call path for a few-kB result, so a cheap walk first bounds the size from above:
// a string of n UTF-16 units is at most 6n+2 bytes of JSON (every unit escaped as \uXXXX), a
// number at most 25, punctuation a few per member. Only a result whose bound reaches the limit is
// serialized, and the verdict and the reported size are always the exact ones.

import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { jsonBytes } from "../result/measure.js";

/** Marks the local error that stands in for a reply over the size limit (never sent by a server). */
export const RESULT_TOO_LARGE_MARK = "mcp-prism/resultTooLarge";
export const RESULT_TOO_LARGE_CODE = -32099;

/** How far a refused reply got: its read stopped at the limit, or it was measured once parsed. */
export type TooLargeStage = "read" | "parsed";

/** The local RESULT_TOO_LARGE error that every transport answers an oversized reply with. */
export function tooLargeError(
  id: string | number,
  limit: number,
  bytes?: number,
  stage: TooLargeStage = "read",
): JSONRPCMessage {
  const size = bytes === undefined ? `over ${limit} bytes` : `${bytes} bytes`;
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: RESULT_TOO_LARGE_CODE,
      message: `reply is ${size} (limit ${limit})`,
      data: { [RESULT_TOO_LARGE_MARK]: { limit, bytes, stage } },
    },
  };
}

const DEEP = 256;

/** Upper bound of JSON.stringify(value)'s UTF-8 length added to `total`; Infinity past `cap`. */
function bound(v: unknown, total: number, cap: number, depth: number): number {
  if (typeof v === "string") return total + 6 * v.length + 2;
  if (typeof v === "number" || typeof v === "boolean" || v === null || v === undefined) return total + 25;
  // bigint, symbol, function, cycles and absurd nesting: leave them to JSON.stringify (which
  // throws on a cycle or a bigint).
  if (typeof v !== "object" || depth > DEEP) return Number.POSITIVE_INFINITY;
  if (Array.isArray(v)) {
    total += 2 + v.length;
    for (let i = 0; i < v.length && total <= cap; i++) total = bound(v[i], total, cap, depth + 1);
    return total;
  }
  // toJSON or other non-plain objects: no bound from a walk.
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return Number.POSITIVE_INFINITY;
  // for-in allocates no key array. It also visits inherited enumerable keys, which
  // JSON.stringify skips: counting them only raises the bound, so it stays an upper bound.
  total += 2;
  for (const key in v) {
    if (total > cap) break;
    total = bound((v as Record<string, unknown>)[key], total + 6 * key.length + 4, cap, depth + 1);
  }
  return total;
}

/** The exact JSON byte size of `value` when it is over `limit`; undefined when it is not. */
export function bytesOverLimit(value: unknown, limit: number): number | undefined {
  if (bound(value, 0, limit, 0) <= limit) return undefined;
  const size = jsonBytes(value);
  return size > limit ? size : undefined;
}
