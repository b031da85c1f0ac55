// Prompts served by prompts/list, prompts/get and completion/complete (ref/prompt). A prompt's
// `get` may ask the client for input like a tool does (MRTR or a legacy request).
import type { ContentBlock } from "../protocol/index.js";
import { invalidParams } from "./errors.js";
import type { InputContext } from "./input.js";
import { paginate } from "./pagination.js";
import type { Completer } from "./resource.js";

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  get: (args: Record<string, string>, ctx: InputContext) => PromptResult | Promise<PromptResult>;
  /** completion/complete for an argument. */
  complete?: Record<string, Completer>;
}

export function definePrompt(def: PromptDefinition): PromptDefinition {
  const names = (def.arguments ?? []).map((a) => a.name);
  if (new Set(names).size !== names.length)
    throw new Error(`prompt ${JSON.stringify(def.name)}: an argument is declared twice`);
  for (const name of Object.keys(def.complete ?? {})) {
    if (!names.includes(name))
      throw new Error(
        `prompt ${JSON.stringify(def.name)}: completion for ${JSON.stringify(name)}, which is not one of its arguments`,
      );
  }
  return def;
}

export class PromptCatalog {
  private readonly prompts = new Map<string, PromptDefinition>();

  constructor(
    prompts: readonly PromptDefinition[],
    private readonly pageSize: number,
  ) {
    for (const p of prompts) {
      if (this.prompts.has(p.name)) throw new Error(`prompt ${JSON.stringify(p.name)} is registered twice`);
      this.prompts.set(p.name, p);
    }
  }

  get empty(): boolean {
    return this.prompts.size === 0;
  }

  /** Adds (or replaces) a prompt. */
  set(p: PromptDefinition): void {
    this.prompts.set(p.name, p);
  }

  delete(name: string): boolean {
    return this.prompts.delete(name);
  }

  get completes(): boolean {
    return [...this.prompts.values()].some((p) => p.complete && Object.keys(p.complete).length > 0);
  }

  prompt(name: string): PromptDefinition | undefined {
    return this.prompts.get(name);
  }

  list(cursor: unknown): Record<string, unknown> {
    const all = [...this.prompts.values()].map((p) => {
      const e: Record<string, unknown> = { name: p.name };
      if (p.title !== undefined) e.title = p.title;
      if (p.description !== undefined) e.description = p.description;
      if (p.arguments) e.arguments = p.arguments.map((a) => ({ ...a }));
      return e;
    });
    const { page, nextCursor } = paginate(all, cursor, this.pageSize);
    return nextCursor ? { prompts: page, nextCursor } : { prompts: page };
  }

  /** The prompt and its checked arguments (strings only; every required one present). */
  resolve(p: Record<string, unknown>): { prompt: PromptDefinition; args: Record<string, string> } {
    if (typeof p.name !== "string") throw invalidParams("prompts/get needs params.name");
    const prompt = this.prompts.get(p.name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${p.name}`);
    const raw = p.arguments ?? {};
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw invalidParams("prompts/get arguments must be an object of strings");
    const args: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (typeof v !== "string") throw invalidParams(`prompts/get argument ${JSON.stringify(k)} must be a string`);
      args[k] = v;
    }
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
    if (missing.length > 0)
      throw invalidParams(`prompt ${prompt.name} needs argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
    return { prompt, args };
  }
}
