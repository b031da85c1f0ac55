/** A JSON object (not null, not an array): what every wire check means by "is an object". */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
