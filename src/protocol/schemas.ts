// Wire schemas (zod) for what SEP-3279 adds and the 2026-07-28 modern envelope.
// These are the single source of truth: the TypeScript types below are inferred from them.
import { z } from "zod";

// ---------------------------------------------------------------------------
// Audiences, formats, selectors

// The vocabulary itself lives in audience.ts (zod-free: the app's start-up path reads it).
import { EXTENSION_ID_PATTERN, isCoreAudience, type CoreAudience } from "./audience.js";
export {
  CORE_AUDIENCES,
  EXTENSION_ID_PATTERN,
  isCoreAudience,
  isExtensionAudience,
  type CoreAudience,
} from "./audience.js";

export const ToolResultAudienceSchema = z.string().refine((a) => isCoreAudience(a) || EXTENSION_ID_PATTERN.test(a), {
  message: "audience must be assistant, user, programmatic or a namespaced extension identifier",
});
export type ToolResultAudience = CoreAudience | (string & {});

export const ToolResultFormatSchema = z.enum(["content", "structured"]);
export type ToolResultFormat = z.infer<typeof ToolResultFormatSchema>;

export const ToolResultOutputSelectorSchema = z.object({
  audience: ToolResultAudienceSchema,
  format: ToolResultFormatSchema,
});
export interface ToolResultOutputSelector {
  audience: ToolResultAudience;
  format: ToolResultFormat;
}

export const JsonSchemaObjectSchema = z.looseObject({ $schema: z.string().optional() });
export type JsonSchema = { $schema?: string; [key: string]: unknown };

export const ContentToolResultVariantSchema = z.looseObject({
  audience: ToolResultAudienceSchema,
  format: z.literal("content"),
});
export const StructuredToolResultVariantSchema = z.looseObject({
  audience: ToolResultAudienceSchema,
  format: z.literal("structured"),
  schema: JsonSchemaObjectSchema.optional(),
});
export const ToolResultVariantSchema = z.discriminatedUnion("format", [
  ContentToolResultVariantSchema,
  StructuredToolResultVariantSchema,
]);
export type ContentToolResultVariant = { audience: ToolResultAudience; format: "content" };
export type StructuredToolResultVariant = { audience: ToolResultAudience; format: "structured"; schema?: JsonSchema };
export type ToolResultVariant = ContentToolResultVariant | StructuredToolResultVariant;

// ---------------------------------------------------------------------------
// Content blocks (the 2025-11-25 / 2026-07-28 shapes), checked for well-formedness

// A loop, not a regex: V8's backtracking engine recurses per repetition of a group, so
// /^(?:[A-Za-z0-9+/]{4})*…$/ overflowed the stack on a 4.8M-character screenshot. This is linear
// in the length and uses no stack.
const BASE64_ALPHABET = (() => {
  const t = new Uint8Array(128);
  for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") t[c.charCodeAt(0)] = 1;
  return t;
})();
/** Strict base64: alphabet only, length a multiple of 4, at most two `=` of padding at the end. */
export function isBase64(s: string): boolean {
  const n = s.length;
  if (n % 4 !== 0) return false;
  const pad = n > 0 && s.charCodeAt(n - 1) === 61 ? (s.charCodeAt(n - 2) === 61 ? 2 : 1) : 0;
  for (let i = 0; i < n - pad; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || BASE64_ALPHABET[c] === 0) return false;
  }
  return true;
}
const Base64String = z.string().refine(isBase64, { message: "data is not valid base64" });
const MimeType = z.string().regex(/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/, "mimeType is not a MIME type");

export const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(["user", "assistant"])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});

const blockBase = { annotations: AnnotationsSchema.optional(), _meta: z.record(z.string(), z.unknown()).optional() };

export const TextContentSchema = z.looseObject({ type: z.literal("text"), text: z.string(), ...blockBase });
export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: Base64String,
  mimeType: MimeType,
  ...blockBase,
});
export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: Base64String,
  mimeType: MimeType,
  ...blockBase,
});
export const ResourceLinkSchema = z.looseObject({
  type: z.literal("resource_link"),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: MimeType.optional(),
  size: z.number().optional(),
  ...blockBase,
});
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: z.union([
    z.looseObject({ uri: z.string(), mimeType: MimeType.optional(), text: z.string() }),
    z.looseObject({ uri: z.string(), mimeType: MimeType.optional(), blob: Base64String }),
  ]),
  ...blockBase,
});
export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
export type TextContent = z.infer<typeof TextContentSchema>;
export type ImageContent = z.infer<typeof ImageContentSchema>;
export type AudioContent = z.infer<typeof AudioContentSchema>;
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

// ---------------------------------------------------------------------------
// Outputs

export const ContentToolResultOutputSchema = z.object({
  audience: ToolResultAudienceSchema,
  format: z.literal("content"),
  content: z.array(ContentBlockSchema),
});
export const StructuredToolResultOutputSchema = z
  .object({
    audience: ToolResultAudienceSchema,
    format: z.literal("structured"),
    structuredContent: z.unknown(),
  })
  .refine((o) => o.structuredContent !== undefined, { message: "structuredContent is missing" });
export const ToolResultOutputSchema = z.union([ContentToolResultOutputSchema, StructuredToolResultOutputSchema]);

export interface ContentToolResultOutput<A extends string = ToolResultAudience> {
  audience: A;
  format: "content";
  content: ContentBlock[];
}
export interface StructuredToolResultOutput<A extends string = ToolResultAudience> {
  audience: A;
  format: "structured";
  structuredContent: unknown;
}
export type ToolResultOutput<A extends string = ToolResultAudience> =
  | ContentToolResultOutput<A>
  | StructuredToolResultOutput<A>;

// ---------------------------------------------------------------------------
// Tools

export const InputSchemaSchema = z.looseObject({ type: z.literal("object"), $schema: z.string().optional() });
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
const toolBase = {
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: InputSchemaSchema,
  annotations: ToolAnnotationsSchema.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
};
/** A Tool under 2026-12-01: `outputVariants` is required. */
export const VariantToolSchema = z.looseObject({ ...toolBase, outputVariants: z.array(ToolResultVariantSchema) });
/** A Tool under 2026-07-28 or earlier: optional legacy `outputSchema`. */
export const LegacyToolSchema = z.looseObject({ ...toolBase, outputSchema: JsonSchemaObjectSchema.optional() });

export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;
export interface ToolBase {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}
export interface VariantTool extends ToolBase {
  outputVariants: ToolResultVariant[];
}
export interface LegacyTool extends ToolBase {
  outputSchema?: JsonSchema;
}

/** tools/list result: tools are parsed one by one so one bad entry cannot hide the others. */
export const ListToolsResultLooseSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  resultType: z.string().optional(),
});

// ---------------------------------------------------------------------------
// tools/call

// A result's envelope (resultType, isError, _meta, outputs/content) is checked by hand in
// host/result/validate.ts on every call (a zod parse of it would cost each call for no better line);
// its outputs (fast-output.ts, else zod) and content blocks are read by the schemas here.

/** A 2026-12-01 result. */
export interface VariantCallToolResult {
  resultType?: string;
  outputs: ToolResultOutput[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A 2026-07-28-or-earlier result. */
export interface LegacyCallToolResult {
  resultType?: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Modern envelope (2026-07-28)

export const ImplementationSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;

export const CapabilitiesSchema = z.looseObject({
  extensions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
export type Capabilities = { extensions?: Record<string, Record<string, unknown>>; [key: string]: unknown };

export const DiscoverResultSchema = z.looseObject({
  resultType: z.string().optional(),
  supportedVersions: z.array(z.string()),
  capabilities: CapabilitiesSchema,
  instructions: z.string().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

export const UnsupportedVersionErrorDataSchema = z.looseObject({
  supported: z.array(z.string()),
  requested: z.string().optional(),
});

/** Legacy initialize result (the parts the host reads). */
export const InitializeResultLooseSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: CapabilitiesSchema,
  serverInfo: ImplementationSchema.optional(),
  instructions: z.string().optional(),
});

/** Any result: the host's own loose schema for `client.request` where shape is checked later. */
export const AnyResultSchema = z.looseObject({});
