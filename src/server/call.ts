// tools/call execution for every era: selection checks, one run, then per-selector projection
// (2026-12-01) or the legacy projection (2026-07-28 and the initialize era).
import {
  ContentBlockSchema,
  checkAgainstSchema,
  checkSelection,
  effectiveSelection,
  legacyOutputSchema,
  projectResultToLegacy,
  selectorKey,
  ErrorCode,
  ToolResultOutputSelectorSchema,
  type ContentBlock,
  type JsonSchema,
  type Era,
  type ToolResultOutput,
  type ToolResultOutputSelector,
} from "../protocol/index.js";
import { RpcError, internalError, invalidParams } from "./errors.js";
import { InputRequiredSignal, type InputContext } from "./input.js";
import { ToolError, type DefinedTool, type ProjectionContext, type RunContext } from "./tool.js";

export interface CallEnvironment {
  version: string;
  era: Era;
  negotiatedExtensions: ReadonlySet<string>;
  signal: AbortSignal;
  progress: RunContext["progress"];
  log: RunContext["log"];
  input: InputContext;
}

/** Thrown when the request was cancelled: the transport sends nothing for it. */
export class CancelledError extends Error {
  constructor() {
    super("request cancelled");
    this.name = "CancelledError";
  }
}

function readRequested(raw: unknown): ToolResultOutputSelector[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw invalidParams("requestedOutputs must be an array of {audience, format} selectors");
  return raw.map((s, i) => {
    const parsed = ToolResultOutputSelectorSchema.safeParse(s);
    if (!parsed.success) throw invalidParams(`requestedOutputs[${i}] is not a valid selector: ${JSON.stringify(s)}`);
    return parsed.data as ToolResultOutputSelector;
  });
}

function checkBlocks(blocks: unknown, what: string): ContentBlock[] {
  if (!Array.isArray(blocks)) throw internalError(`server bug: ${what} is not a content block array; nothing was sent`);
  blocks.forEach((b, i) => {
    const r = ContentBlockSchema.safeParse(b);
    if (!r.success)
      throw internalError(
        `server bug: ${what} block ${i} is not a valid content block (${r.error.issues[0]?.message}); nothing was sent`,
      );
  });
  return blocks as ContentBlock[];
}

/** Validates `arguments` against the inputSchema; invalid input is a tool execution error. */
function argumentError(tool: DefinedTool, args: Record<string, unknown>): ToolError | undefined {
  const why = checkAgainstSchema(tool.inputSchema, args);
  if (why === undefined) return undefined;
  const message = `Invalid arguments for ${tool.name}: ${why}`;
  return new ToolError(message, genericErrorOutputs(tool, message, "invalid_arguments"));
}

/** Error outputs the server can produce for any declared variant (used for invalid arguments). */
function genericErrorOutputs(tool: DefinedTool, message: string, code: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of tool.outputVariants) {
    out[selectorKey(v)] = v.format === "content" ? [{ type: "text", text: message }] : { error: { code, message } };
  }
  return out;
}

async function runTool(
  tool: DefinedTool,
  args: Record<string, unknown>,
  ctx: RunContext,
): Promise<{ ok: true; result: unknown } | { ok: false; error: ToolError }> {
  const invalid = argumentError(tool, args);
  if (invalid) return { ok: false, error: invalid };
  let value: unknown;
  try {
    value = await tool.run(args, ctx);
  } catch (e) {
    if (ctx.signal.aborted) throw new CancelledError();
    if (e instanceof ToolError) return { ok: false, error: e };
    if (e instanceof RpcError || e instanceof InputRequiredSignal) throw e;
    throw internalError(`tool ${tool.name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (ctx.signal.aborted) throw new CancelledError();
  return value instanceof ToolError ? { ok: false, error: value } : { ok: true, result: value };
}

function runContext(env: CallEnvironment, selection: ToolResultOutputSelector[]): RunContext {
  return {
    version: env.version,
    era: env.era,
    selection,
    negotiatedExtensions: env.negotiatedExtensions,
    signal: env.signal,
    progress: env.progress,
    log: env.log,
    clientCapabilities: env.input.clientCapabilities,
    round: env.input.round,
    input: env.input.input,
    elicit: env.input.elicit,
    sample: env.input.sample,
    listRoots: env.input.listRoots,
    wants: (audience, format) => selection.some((s) => s.audience === audience && s.format === format),
  };
}

/** tools/call under 2026-12-01: exactly one output per requested selector, nothing else. */
export async function callWithVariants(
  tool: DefinedTool,
  params: Record<string, unknown>,
  args: Record<string, unknown>,
  env: CallEnvironment,
) {
  const requested = readRequested(params.requestedOutputs);
  const issue = checkSelection(requested, tool.declaration().outputVariants, env.negotiatedExtensions, "server");
  if (issue) throw invalidParams(issue.message);
  const selection = effectiveSelection(requested);
  const ctx = runContext(env, selection);
  const run = await runTool(tool, args, ctx);

  if (!run.ok) {
    const outputs: ToolResultOutput[] = [];
    for (const sel of selection) {
      const key = selectorKey(sel);
      if (!(key in run.error.outputs)) continue;
      const value = run.error.outputs[key];
      const errorSchema =
        sel.format === "structured"
          ? (tool.variant(sel) as { errorSchema?: JsonSchema } | undefined)?.errorSchema
          : undefined;
      const why = errorSchema ? checkAgainstSchema(errorSchema, value) : undefined;
      if (why !== undefined)
        throw internalError(
          `server bug: ${key} error output of ${tool.name} does not match that variant's errorSchema (${why}); nothing was sent`,
        );
      outputs.push(
        sel.format === "content"
          ? { audience: sel.audience, format: "content", content: checkBlocks(value, `${key} error output`) }
          : { audience: sel.audience, format: "structured", structuredContent: value },
      );
    }
    if (outputs.length === 0) {
      throw new RpcError(
        ErrorCode.InternalError,
        `tool ${tool.name} failed (${run.error.message}) and has no error output for ${selection.map(selectorKey).join(", ")}`,
        { requested: selection },
      );
    }
    return { outputs, isError: true as const, meta: {} };
  }

  const outputs: ToolResultOutput[] = [];
  const meta: Record<string, unknown> = {};
  for (const sel of selection) {
    const variant = tool.variant(sel)!;
    const key = selectorKey(sel);
    if (variant.format === "content") {
      outputs.push({
        audience: sel.audience,
        format: "content",
        content: checkBlocks(variant.project(run.result, ctx), `${key} output`),
      });
    } else {
      const value = variant.project(run.result, ctx);
      if (value === undefined)
        throw internalError(`server bug: ${key} output of ${tool.name} produced no value; nothing was sent`);
      const why = variant.schema ? checkAgainstSchema(variant.schema, value) : undefined;
      if (why !== undefined) {
        throw internalError(
          `server bug: ${key} output of ${tool.name} does not match that variant's schema (${why}); nothing was sent`,
        );
      }
      outputs.push({ audience: sel.audience, format: "structured", structuredContent: value });
    }
    if (variant.resultMeta) Object.assign(meta, variant.resultMeta(run.result, ctx));
  }
  return { outputs, isError: false as const, meta };
}

/**
 * tools/call under 2026-07-28 or the initialize era: requestedOutputs is ignored; content from
 * assistant/content; structuredContent only when a legacy outputSchema exists (and conforms).
 */
export async function callLegacy(tool: DefinedTool, args: Record<string, unknown>, env: CallEnvironment) {
  const schema = legacyOutputSchema(tool.declaration(), tool.legacy?.outputSchema);
  const selection: ToolResultOutputSelector[] = [{ audience: "assistant", format: "content" }];
  if (schema && tool.variant({ audience: "assistant", format: "structured" }))
    selection.push({ audience: "assistant", format: "structured" });
  const ctx = runContext(env, selection);
  const run = await runTool(tool, args, ctx);
  if (!run.ok) {
    const own = run.error.outputs["assistant/content"];
    const content =
      own === undefined
        ? [{ type: "text" as const, text: run.error.message }]
        : checkBlocks(own, "assistant/content error output");
    return projectResultToLegacy({
      assistantContent: content,
      hasLegacyOutputSchema: schema !== undefined,
      isError: true,
    });
  }
  const pctx: ProjectionContext = ctx;
  const content = checkBlocks(
    tool.variant({ audience: "assistant", format: "content" })!.project(run.result, pctx),
    "assistant/content output",
  );
  let structured: unknown;
  if (schema) {
    const legacyStructured = tool.legacy?.structured;
    const assistantStructured = tool.variant({ audience: "assistant", format: "structured" });
    structured = legacyStructured ? legacyStructured(run.result) : assistantStructured?.project(run.result, pctx);
    const why = structured === undefined ? "no value" : checkAgainstSchema(schema, structured);
    if (why !== undefined)
      throw internalError(
        `server bug: legacy structuredContent of ${tool.name} does not match its outputSchema (${why}); nothing was sent`,
      );
  }
  return projectResultToLegacy({
    assistantContent: content,
    legacyStructured: structured,
    hasLegacyOutputSchema: schema !== undefined,
    mirror: tool.legacy?.mirror,
  });
}

export type { ProjectionContext };
