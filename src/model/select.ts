// Picks the model: `--model PROVIDER[:ID]` (offline, anthropic, openai, ollama, lmstudio,
// openai-compatible), else the config's `model` block, else Anthropic when ANTHROPIC_API_KEY is
// set, else the offline model. Keys come only from the environment: each provider's own variable,
// or the one the (trusted) config names in `apiKeyEnv`; a key is never sent to an endpoint it
// was not configured for (a local preset gets none).
import { ModelError, type ModelAdapter } from "./adapter.js";
import { AnthropicModel, DEFAULT_ANTHROPIC_MODEL } from "./anthropic.js";
import { OfflineModel } from "./offline.js";
import { OpenAIModel } from "./openai.js";

export const PROVIDERS = ["offline", "anthropic", "openai", "ollama", "lmstudio", "openai-compatible"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The most retries a config may ask for one model request. */
export const MAX_RETRIES = 10;

export interface ModelConfig {
  provider: Provider;
  /** The model's id (`model` in a config block is the same). */
  id?: string;
  baseURL?: string;
  /** The environment variable that holds the key for this endpoint. */
  apiKeyEnv?: string;
  maxTokens?: number;
  maxRetries?: number;
  /** False: the model takes no images. */
  vision?: boolean;
  contextWindow?: number;
}

interface Preset {
  baseURL?: string;
  keyEnv?: string;
  defaultModel?: string;
  contextWindow: number;
}

/** Where each OpenAI-compatible provider is unless configured otherwise. */
export const PRESETS: Record<Exclude<Provider, "offline" | "anthropic">, Preset> = {
  openai: {
    baseURL: "https://api.openai.com/v1",
    keyEnv: "OPENAI_API_KEY",
    defaultModel: "gpt-5.1",
    contextWindow: 400_000,
  },
  ollama: { baseURL: "http://127.0.0.1:11434/v1", contextWindow: 32_768 },
  lmstudio: { baseURL: "http://127.0.0.1:1234/v1", contextWindow: 32_768 },
  "openai-compatible": { contextWindow: 32_768 },
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Validates a config file's `model` block; throws a one-line error naming what is wrong. */
export function parseModelConfig(value: unknown): ModelConfig {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new ModelError("config", "config: model must be an object");
  const v = { ...(value as Record<string, unknown>) };
  if (!(PROVIDERS as readonly unknown[]).includes(v.provider))
    throw new ModelError(
      "config",
      `config: model.provider must be one of ${PROVIDERS.join(", ")} (got ${JSON.stringify(v.provider)?.slice(0, 60)})`,
    );
  if (v.model !== undefined && v.id !== undefined)
    throw new ModelError("config", "config: give model.model or model.id, not both");
  if (v.model !== undefined) v.id = v.model;
  delete v.model;
  for (const k of ["id", "baseURL", "apiKeyEnv"] as const)
    if (v[k] !== undefined && (typeof v[k] !== "string" || !v[k] || (v[k] as string).length > 2048))
      throw new ModelError("config", `config: model.${k === "id" ? "model" : k} must be a non-empty string`);
  if (v.apiKeyEnv !== undefined && !ENV_NAME.test(v.apiKeyEnv as string))
    throw new ModelError("config", "config: model.apiKeyEnv must be an environment variable's name");
  if (v.baseURL !== undefined) checkURL(v.baseURL as string, "config: model.baseURL");
  for (const k of ["maxTokens", "maxRetries", "contextWindow"] as const) {
    // A chat user waits through every retry: ten at most.
    const max = k === "maxRetries" ? MAX_RETRIES : 1e8;
    if (
      v[k] !== undefined &&
      !(Number.isInteger(v[k]) && (v[k] as number) >= (k === "maxRetries" ? 0 : 1) && (v[k] as number) <= max)
    )
      throw new ModelError(
        "config",
        k === "maxRetries"
          ? `config: model.maxRetries must be an integer from 0 to ${MAX_RETRIES}`
          : `config: model.${k} must be a positive integer`,
      );
  }
  if (v.vision !== undefined && typeof v.vision !== "boolean")
    throw new ModelError("config", "config: model.vision must be true or false");
  return v as unknown as ModelConfig;
}

function checkURL(url: string, what: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ModelError("config", `${what} is not a URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new ModelError("config", `${what} must be http: or https:`);
  if (u.username || u.password) throw new ModelError("config", `${what} must not carry credentials (use apiKeyEnv)`);
}

/** Parses `--model`: "offline", "PROVIDER" or "PROVIDER:ID" (the ID may itself hold colons: "ollama:qwen3:8b"). */
export function parseModelFlag(flag: string): ModelConfig {
  const colon = flag.indexOf(":");
  const provider = colon < 0 ? flag : flag.slice(0, colon);
  const id = colon < 0 ? "" : flag.slice(colon + 1);
  if (provider === "offline" && !id) return { provider: "offline" };
  if ((PROVIDERS as readonly string[]).includes(provider) && provider !== "offline")
    return id ? { provider: provider as Provider, id } : { provider: provider as Provider };
  throw new ModelError(
    "usage",
    `--model must be offline or PROVIDER[:MODEL] with PROVIDER one of ${PROVIDERS.filter((p) => p !== "offline").join(", ")} (got ${JSON.stringify(flag.slice(0, 80))})`,
  );
}

export interface CreateModelOptions {
  /** `--model` as given on the command line. */
  flag?: string;
  /** `--base-url` (with an OpenAI-compatible provider). */
  baseURL?: string;
  /** `--api-key-env NAME`. */
  apiKeyEnv?: string;
  /** The config file's `model`: a flag-style string or a provider block. */
  config?: unknown;
  env?: NodeJS.ProcessEnv;
}

export function createModel(opts: CreateModelOptions = {}): ModelAdapter {
  const env = opts.env ?? process.env;
  const fromConfig =
    opts.config === undefined
      ? undefined
      : typeof opts.config === "string"
        ? parseModelFlag(opts.config)
        : parseModelConfig(opts.config);
  let chosen: ModelConfig;
  if (opts.flag) {
    chosen = parseModelFlag(opts.flag);
    // The flag picks the provider; the config still supplies endpoint and limits for it.
    if (fromConfig && fromConfig.provider === chosen.provider) chosen = { ...fromConfig, ...stripUndefined(chosen) };
  } else if (fromConfig) chosen = fromConfig;
  else chosen = { provider: env.ANTHROPIC_API_KEY ? "anthropic" : "offline" };
  if (opts.baseURL !== undefined) {
    if (chosen.provider === "offline" || chosen.provider === "anthropic")
      throw new ModelError(
        "usage",
        "--base-url goes with an OpenAI-compatible --model (openai, ollama, lmstudio, openai-compatible:NAME)",
      );
    checkURL(opts.baseURL, "--base-url");
    chosen = { ...chosen, baseURL: opts.baseURL };
  }
  if (opts.apiKeyEnv !== undefined) {
    if (!ENV_NAME.test(opts.apiKeyEnv))
      throw new ModelError("usage", "--api-key-env must be an environment variable's name");
    chosen = { ...chosen, apiKeyEnv: opts.apiKeyEnv };
  }

  if (chosen.provider === "offline") return new OfflineModel();
  if (chosen.provider === "anthropic") {
    const apiKey = env.ANTHROPIC_API_KEY;
    if (!apiKey)
      throw new ModelError("config", "the anthropic model needs ANTHROPIC_API_KEY to be set (or use --model offline)");
    return new AnthropicModel({
      apiKey,
      model: chosen.id ?? DEFAULT_ANTHROPIC_MODEL,
      baseURL: env.ANTHROPIC_BASE_URL || chosen.baseURL,
      maxTokens: chosen.maxTokens,
      maxRetries: chosen.maxRetries,
      contextWindow: chosen.contextWindow,
    });
  }
  return openAIModel(chosen as ModelConfig & { provider: keyof typeof PRESETS }, env);
}

function openAIModel(chosen: ModelConfig & { provider: keyof typeof PRESETS }, env: NodeJS.ProcessEnv): ModelAdapter {
  const preset = PRESETS[chosen.provider];
  const p = chosen.provider;
  // OPENAI_BASE_URL is the user's own choice for the openai provider (the SDK's convention).
  const baseURL = chosen.baseURL ?? (p === "openai" ? env.OPENAI_BASE_URL || preset.baseURL : preset.baseURL);
  if (!baseURL)
    throw new ModelError("config", `${p} needs an endpoint: --base-url URL or "baseURL" in the config's model block`);
  const model = chosen.id ?? preset.defaultModel;
  if (!model)
    throw new ModelError(
      "config",
      `${p} needs a model: --model ${p}:MODEL (/model lists the endpoint's models once running)`,
    );
  // OPENAI_API_KEY goes only to OpenAI (or the user's OPENAI_BASE_URL); another endpoint gets the key its apiKeyEnv names, or none.
  const home = p === "openai" && baseURL === (env.OPENAI_BASE_URL || preset.baseURL);
  const keyEnv = chosen.apiKeyEnv ?? (home ? preset.keyEnv : undefined);
  const apiKey = keyEnv ? env[keyEnv] : undefined;
  if (keyEnv && !apiKey)
    throw new ModelError("config", `the ${p} model needs ${keyEnv} to be set (or use --model offline)`);
  return new OpenAIModel({
    provider: p,
    model,
    baseURL,
    apiKey,
    apiKeyEnv: keyEnv,
    maxTokens: chosen.maxTokens,
    maxRetries: chosen.maxRetries,
    vision: chosen.vision,
    contextWindow: chosen.contextWindow ?? preset.contextWindow,
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
