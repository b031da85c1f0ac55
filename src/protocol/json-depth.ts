// How deeply a JSON value nests, checked without recursion (a 10,000-level value costs a loop,
// not a stack). Untrusted JSON is checked where it enters, BEFORE anything recursive walks it:
// JSON.stringify, zod, Ajv and the UI's renderers all recurse per level and overflow the stack.

/** Default for limits.maxJsonDepth: far deeper than any real result, schema or argument object. */
export const DEFAULT_MAX_JSON_DEPTH = 100;

/**
 * True when `value` nests deeper than `maxDepth` levels of objects and arrays (a scalar is depth
 * 0, `{}` and `[]` depth 1). Stops at the first level past the limit; linear in the value's size.
 */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    // for…in on an array walks its indices as strings; a plain loop is cheaper.
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v: unknown = node[i];
        if (typeof v === "object" && v !== null) {
          nodes.push(v);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in node) {
        const v: unknown = (node as Record<string, unknown>)[k];
        if (typeof v === "object" && v !== null) {
          nodes.push(v);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The one-line reason for a value past the limit (`what` names it: "result", "inputSchema"…). */
export function tooDeepDetail(what: string, maxDepth: number): string {
  return `nesting in ${what} goes deeper than ${maxDepth} levels (limits.maxJsonDepth)`;
}
