// Request-time selection rules (SEP-3279 "Request-time selection").
import { isExtensionAudience, type Capabilities, type ToolResultOutputSelector, type ToolResultVariant } from "./schemas.js";
import { ASSISTANT_CONTENT, sameSelector, selectorKey } from "./selectors.js";

export type SelectionRule = "undeclared-selector" | "duplicate-selector" | "unnegotiated-selector" | "empty-selection";

export interface SelectionIssue {
  rule: SelectionRule;
  selector?: ToolResultOutputSelector;
  message: string;
}

export class SelectionError extends Error {
  constructor(readonly issue: SelectionIssue) {
    super(issue.message);
    this.name = "SelectionError";
  }
  get rule(): SelectionRule {
    return this.issue.rule;
  }
}

/** Extensions advertised by both sides: the only extension audiences usable on a request. */
export function negotiatedExtensions(client: Capabilities | undefined, server: Capabilities | undefined): Set<string> {
  const c = Object.keys(client?.extensions ?? {});
  const s = new Set(Object.keys(server?.extensions ?? {}));
  return new Set(c.filter((id) => s.has(id)));
}

/**
 * Checks a `requestedOutputs` list against the tool's variants: only declared selectors,
 * none twice, extension audiences only when negotiated. Returns the first issue or undefined.
 */
export function checkSelection(
  requested: readonly ToolResultOutputSelector[] | undefined,
  variants: readonly ToolResultVariant[],
  negotiated: ReadonlySet<string>,
): SelectionIssue | undefined {
  if (requested === undefined) return undefined;
  if (requested.length === 0) return { rule: "empty-selection", message: "requestedOutputs is empty (omit it for the assistant/content fallback)" };
  const seen: ToolResultOutputSelector[] = [];
  for (const sel of requested) {
    const key = selectorKey(sel);
    if (seen.some((s) => sameSelector(s, sel))) {
      return { rule: "duplicate-selector", selector: sel, message: `${key} is requested more than once` };
    }
    seen.push(sel);
    if (isExtensionAudience(sel.audience) && !negotiated.has(sel.audience)) {
      return { rule: "unnegotiated-selector", selector: sel, message: `${key} needs extension ${sel.audience}, which was not negotiated` };
    }
    if (!variants.some((v) => sameSelector(v, sel))) {
      return { rule: "undeclared-selector", selector: sel, message: `${key} is not declared by the tool` };
    }
  }
  return undefined;
}

/** What the server must return: the request's selectors, or the fixed assistant/content fallback. */
export function effectiveSelection(requested: readonly ToolResultOutputSelector[] | undefined): ToolResultOutputSelector[] {
  return requested === undefined ? [{ ...ASSISTANT_CONTENT }] : requested.map((s) => ({ audience: s.audience, format: s.format }));
}
