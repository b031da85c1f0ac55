// Protocol versions, eras and the per-request `_meta` keys of the 2026-07-28 revision.

/** The revision that carries SEP-3279 (tool result variants). */
export const VARIANTS_VERSION = "2026-12-01";
/** The first "modern" revision: per-request `_meta`, `server/discover`, legacy result shape. */
export const MODERN_LEGACY_SHAPE_VERSION = "2026-07-28";
/** Modern versions this project implements, newest first. */
export const MODERN_VERSIONS = [VARIANTS_VERSION, MODERN_LEGACY_SHAPE_VERSION] as const;
/** Legacy (initialize-handshake) versions this project implements, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const ALL_VERSIONS = [...MODERN_VERSIONS, ...LEGACY_VERSIONS] as const;

export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/**
 * The era of a connection: the SEP's revision, the first modern revision (legacy result
 * shape), or the initialize-handshake era.
 */
export type Era = "2026-12-01" | "2026-07-28" | "legacy";

/** Dated versions compare correctly as strings (YYYY-MM-DD). */
export function isModernVersion(version: string): boolean {
  return version >= MODERN_LEGACY_SHAPE_VERSION;
}

/** SEP-3279 table: 2026-12-01 or later uses outputVariants / requestedOutputs / outputs. */
export function usesOutputVariants(version: string): boolean {
  return version >= VARIANTS_VERSION;
}

export function eraOf(version: string): Era {
  if (usesOutputVariants(version)) return "2026-12-01";
  if (isModernVersion(version)) return "2026-07-28";
  return "legacy";
}

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** The MCP Apps extension identifier, also its audience identifier under SEP-3279. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** Codes that identify a modern server when seen in reply to a probe (2026-07-28 stdio/HTTP rules). */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);
