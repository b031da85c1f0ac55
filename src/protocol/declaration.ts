// Declaration rules for a Tool's `outputVariants` (SEP-3279 "Tool declaration").
// Each rule is a named function returning the issues it finds; `checkDeclaration` runs them all.
import { schemaCompileIssue } from "./json-schema.js";
import { isCoreAudience, isExtensionAudience, type ToolResultVariant } from "./schemas.js";
import { selectorKey } from "./selectors.js";

export type DeclarationRule =
  | "assistant-content-required"
  | "duplicate-variant"
  | "invalid-audience"
  | "disallowed-core-combination"
  | "unnegotiated-extension-audience"
  | "invalid-variant-schema";

export interface DeclarationIssue {
  rule: DeclarationRule;
  message: string;
}

export class DeclarationError extends Error {
  constructor(
    readonly tool: string,
    readonly issues: DeclarationIssue[],
  ) {
    super(`tool ${JSON.stringify(tool)}: ${issues.map((i) => `${i.message} [${i.rule}]`).join("; ")}`);
    this.name = "DeclarationError";
  }
  get rule(): DeclarationRule {
    return this.issues[0].rule;
  }
}

/** Every tool MUST declare an assistant/content variant. */
export function requireAssistantContent(variants: readonly ToolResultVariant[]): DeclarationIssue[] {
  return variants.some((v) => v.audience === "assistant" && v.format === "content")
    ? []
    : [{ rule: "assistant-content-required", message: "outputVariants must declare assistant/content" }];
}

/** A tool MUST NOT declare the same audience and format pair more than once. */
export function forbidDuplicateVariants(variants: readonly ToolResultVariant[]): DeclarationIssue[] {
  const seen = new Set<string>();
  const issues: DeclarationIssue[] = [];
  for (const v of variants) {
    const key = selectorKey(v);
    if (seen.has(key)) issues.push({ rule: "duplicate-variant", message: `${key} is declared more than once` });
    seen.add(key);
  }
  return issues;
}

/** Audiences are core or namespaced extension identifiers; arbitrary names are not valid. */
export function requireValidAudiences(variants: readonly ToolResultVariant[]): DeclarationIssue[] {
  return variants
    .filter((v) => !isCoreAudience(v.audience) && !isExtensionAudience(v.audience))
    .map((v) => ({
      rule: "invalid-audience" as const,
      message: `audience ${JSON.stringify(v.audience)} is neither a core audience nor an extension identifier`,
    }));
}

/** Core combinations: assistant and user with either format; programmatic with structured only. */
export function allowOnlyCoreCombinations(variants: readonly ToolResultVariant[]): DeclarationIssue[] {
  return variants
    .filter((v) => v.audience === "programmatic" && v.format === "content")
    .map(() => ({
      rule: "disallowed-core-combination" as const,
      message: "programmatic/content is not a core combination (programmatic takes structured only)",
    }));
}

/** Extension audiences only when both sides advertised the defining extension. */
export function requireNegotiatedExtensions(
  variants: readonly ToolResultVariant[],
  negotiated: ReadonlySet<string>,
): DeclarationIssue[] {
  return variants
    .filter((v) => isExtensionAudience(v.audience) && !negotiated.has(v.audience))
    .map((v) => ({
      rule: "unnegotiated-extension-audience" as const,
      message: `${selectorKey(v)} uses extension ${v.audience}, which was not negotiated`,
    }));
}

/** Why a structured variant's schema does not compile (in the dialect its `$schema` names), or undefined. */
export function variantSchemaIssue(v: ToolResultVariant): string | undefined {
  return v.format === "structured" && v.schema !== undefined ? schemaCompileIssue(v.schema) : undefined;
}

/** Each structured variant's schema must compile (a server's own check; a client may decline such a variant instead). */
export function requireCompilableSchemas(variants: readonly ToolResultVariant[]): DeclarationIssue[] {
  const issues: DeclarationIssue[] = [];
  for (const v of variants) {
    const why = variantSchemaIssue(v);
    if (why !== undefined)
      issues.push({ rule: "invalid-variant-schema", message: `${selectorKey(v)} schema does not compile: ${why}` });
  }
  return issues;
}

export interface DeclarationContext {
  /** Extension identifiers both client and server advertised for this request. */
  negotiatedExtensions: ReadonlySet<string>;
  /** false: skip requireCompilableSchemas (a client compiles later, when the schema is needed). */
  compile?: boolean;
}

export function checkDeclaration(variants: readonly ToolResultVariant[], ctx: DeclarationContext): DeclarationIssue[] {
  return [
    ...requireAssistantContent(variants),
    ...forbidDuplicateVariants(variants),
    ...requireValidAudiences(variants),
    ...allowOnlyCoreCombinations(variants),
    ...requireNegotiatedExtensions(variants, ctx.negotiatedExtensions),
    ...(ctx.compile === false ? [] : requireCompilableSchemas(variants)),
  ];
}

export function assertDeclaration(tool: string, variants: readonly ToolResultVariant[], ctx: DeclarationContext): void {
  const issues = checkDeclaration(variants, ctx);
  if (issues.length > 0) throw new DeclarationError(tool, issues);
}
