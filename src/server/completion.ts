// completion/complete: suggestions for a prompt argument (ref/prompt) or a resource template
// variable (ref/resource). At most 100 values, with total and hasMore as the schema defines.
import { invalidParams } from "./errors.js";
import type { PromptCatalog } from "./prompt.js";
import type { Completer } from "./resource.js";
import type { ResourceCatalog } from "./resources.js";
import { isObject } from "../protocol/is-object.js";

const MAX_VALUES = 100;

export async function complete(
  p: Record<string, unknown>,
  prompts: PromptCatalog,
  resources: ResourceCatalog,
): Promise<Record<string, unknown>> {
  const ref = p.ref;
  const arg = p.argument;
  if (!isObject(ref) || typeof ref.type !== "string") throw invalidParams("completion/complete needs params.ref");
  if (!isObject(arg) || typeof arg.name !== "string" || typeof arg.value !== "string")
    throw invalidParams("completion/complete needs params.argument {name, value}");
  const ctxArgs = isObject(p.context) && isObject(p.context.arguments) ? p.context.arguments : {};
  const context: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctxArgs)) if (typeof v === "string") context[k] = v;

  let completer: Completer | undefined;
  if (ref.type === "ref/prompt") {
    const prompt = typeof ref.name === "string" ? prompts.prompt(ref.name) : undefined;
    if (!prompt) throw invalidParams(`Unknown prompt: ${String(ref.name)}`);
    if (!(prompt.arguments ?? []).some((a) => a.name === arg.name))
      throw invalidParams(`prompt ${prompt.name} has no argument ${arg.name}`);
    completer = prompt.complete?.[arg.name];
  } else if (ref.type === "ref/resource") {
    const template = typeof ref.uri === "string" ? resources.template(ref.uri) : undefined;
    if (!template) throw invalidParams(`Unknown resource template: ${String(ref.uri)}`);
    if (!template.variables.includes(arg.name))
      throw invalidParams(`resource template ${template.uriTemplate} has no variable ${arg.name}`);
    completer = template.complete?.[arg.name];
  } else {
    throw invalidParams(`completion/complete: unknown ref type ${JSON.stringify(ref.type)}`);
  }
  // An argument without a completer has no suggestions (not an error).
  const all = completer ? await completer(arg.value, context) : [];
  const values = all.slice(0, MAX_VALUES);
  return { completion: { values, total: all.length, hasMore: all.length > values.length } };
}
