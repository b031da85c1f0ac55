// The one JSON-object guard of the server toolkit (params, _meta, client answers).
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
