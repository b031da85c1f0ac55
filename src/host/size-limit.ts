// The result-size rule for connections whose transport does not stop an oversized reply while
// reading it (legacy HTTP through the SDK, in-process): the host must decide "over the limit or
// not" for a result it already holds. Serializing every result to count its bytes costs more than
// the rest of the call path for a few-kB result, so a cheap walk first bounds the size from above:
// a string of n UTF-16 units is at most 6n+2 bytes of JSON (every unit escaped as \uXXXX), a
// number at most 25, punctuation a few per member. Only a result whose bound reaches the limit is
// serialized, and the verdict and the reported size are always the exact ones.

/** Upper bound of JSON.stringify(value)'s UTF-8 length; Infinity past `cap` or a deep nesting. */
// The walk's work lists, reused across calls (the walk is synchronous).
const stack: unknown[] = [];
const depths: number[] = [];

function jsonBytesBound(value: unknown, cap: number): number {
  try {
    stack.push(value);
    depths.push(0);
    return walk(cap);
  } finally {
    stack.length = 0;
    depths.length = 0;
  }
}

function walk(cap: number): number {
  let total = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    const depth = depths.pop() as number;
    if (typeof v === "string") total += 6 * v.length + 2;
    else if (typeof v === "number" || typeof v === "boolean" || v === null || v === undefined) total += 25;
    else if (typeof v === "object") {
      // Cycles and absurd nesting: leave them to JSON.stringify (which throws on a cycle).
      if (depth > 256) return Number.POSITIVE_INFINITY;
      if (Array.isArray(v)) {
        total += 2 + v.length;
        for (let i = 0; i < v.length; i++) {
          stack.push(v[i]);
          depths.push(depth + 1);
        }
      } else {
        // toJSON or other non-plain objects: no bound from a walk.
        if (typeof (v as { toJSON?: unknown }).toJSON === "function") return Number.POSITIVE_INFINITY;
        total += 2;
        for (const k in v) {
          if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
          total += 6 * k.length + 4;
          stack.push((v as Record<string, unknown>)[k]);
          depths.push(depth + 1);
        }
      }
    } else return Number.POSITIVE_INFINITY; // bigint, symbol, function: let JSON.stringify decide
    if (total > cap) return Number.POSITIVE_INFINITY;
  }
  return total;
}

/** The exact JSON byte size of `value` when it is over `limit`; undefined when it is not. */
export function bytesOverLimit(value: unknown, limit: number): number | undefined {
  if (jsonBytesBound(value, limit) <= limit) return undefined;
  const text = JSON.stringify(value);
  const size = text === undefined ? 0 : Buffer.byteLength(text);
  return size > limit ? size : undefined;
}
