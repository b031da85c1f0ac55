// Picks the model: `--model offline|anthropic[:ID]`, else the config's `model` block, else
// Anthropic when ANTHROPIC_API_KEY is set, else the offline model.
import { ModelError, type ModelAdapter } from "./adapter.js";
import { AnthropicModel, DEFAULT_ANTHROPIC_MODEL } from "./anthropic.js";
import { OfflineModel } from "./offline.js";

export interface ModelConfig {
  provider: "offline" | "anthropic";
  id?: string;
  baseURL?: string;
  maxTokens?: number;
  maxRetries?: number;
}

/** Validates a config file's `model` block; throws a one-line error naming what is wrong. */
export function parseModelConfig(value: unknown): ModelConfig {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new ModelError("config", "config: model must be an object");
  const v = value as Record<string, unknown>;
  if (v.provider !== "offline" && v.provider !== "anthropic")
    throw new ModelError("config", `config: model.provider must be "offline" or "anthropic" (got ${JSON.stringify(v.provider)})`);
  for (const k of ["id", "baseURL"] as const)
    if (v[k] !== undefined && (typeof v[k] !== "string" || !v[k])) throw new ModelError("config", `config: model.${k} must be a non-empty string`);
  for (const k of ["maxTokens", "maxRetries"] as const)
    if (v[k] !== undefined && !(Number.isInteger(v[k]) && (v[k] as number) >= (k === "maxTokens" ? 1 : 0)))
      throw new ModelError("config", `config: model.${k} must be a ${k === "maxTokens" ? "positive" : "non-negative"} integer`);
  return v as unknown as ModelConfig;
}

/** Parses `--model`: "offline", "anthropic", "anthropic:ID". */
export function parseModelFlag(flag: string): ModelConfig {
  const [provider, ...rest] = flag.split(":");
  const id = rest.join(":");
  if (provider === "offline" && !id) return { provider: "offline" };
  if (provider === "anthropic") return id ? { provider: "anthropic", id } : { provider: "anthropic" };
  throw new ModelError("usage", `--model must be offline or anthropic[:MODEL_ID] (got ${JSON.stringify(flag)})`);
}

export interface CreateModelOptions {
  /** `--model` as given on the command line. */
  flag?: string;
  /** The config file's `model`: a flag-style string or a provider block. */
  config?: unknown;
  env?: NodeJS.ProcessEnv;
}

export function createModel(opts: CreateModelOptions = {}): ModelAdapter {
  const env = opts.env ?? process.env;
  const fromConfig =
    opts.config === undefined ? undefined : typeof opts.config === "string" ? parseModelFlag(opts.config) : parseModelConfig(opts.config);
  let chosen: ModelConfig;
  if (opts.flag) {
    chosen = parseModelFlag(opts.flag);
    // The flag picks the provider; the config still supplies endpoint and limits for it.
    if (fromConfig && fromConfig.provider === chosen.provider) chosen = { ...fromConfig, ...stripUndefined(chosen) };
  } else if (fromConfig) chosen = fromConfig;
  else chosen = { provider: env.ANTHROPIC_API_KEY ? "anthropic" : "offline" };

  if (chosen.provider === "offline") return new OfflineModel();
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new ModelError("config", "the anthropic model needs ANTHROPIC_API_KEY to be set (or use --model offline)");
  return new AnthropicModel({
    apiKey,
    model: chosen.id ?? DEFAULT_ANTHROPIC_MODEL,
    baseURL: env.ANTHROPIC_BASE_URL || chosen.baseURL,
    maxTokens: chosen.maxTokens,
    maxRetries: chosen.maxRetries,
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
