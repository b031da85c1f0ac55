// Token usage: what the provider's API reported for a request (Anthropic's `usage`), or the
// offline model's estimate (marked `estimated`, shown with "≈"). Summed per turn and per session.

export interface TokenUsage {
  /** Input tokens not read from or written to the prompt cache (the API's `input_tokens`). */
  input: number;
  output: number;
  /** The API's `cache_read_input_tokens` / `cache_creation_input_tokens`, when it reported them. */
  cacheRead: number;
  cacheWrite: number;
  /** True when any part is an estimate (the offline model counts characters, not tokens). */
  estimated: boolean;
}

export const NO_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, estimated: false };

/** A provider's count is untrusted input: a non-negative integer below this, else 0. */
const MAX_COUNT = 1e12;

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v < MAX_COUNT ? Math.floor(v) : 0;
}

/** The Anthropic Messages API's `usage` object (input_tokens, output_tokens, cache_*_input_tokens). */
export function fromAnthropicUsage(u: unknown): TokenUsage {
  const o = (u && typeof u === "object" ? u : {}) as Record<string, unknown>;
  return {
    input: count(o.input_tokens),
    output: count(o.output_tokens),
    cacheRead: count(o.cache_read_input_tokens),
    cacheWrite: count(o.cache_creation_input_tokens),
    estimated: false,
  };
}

/** Chat Completions' `usage`: prompt_tokens include the cached ones (prompt_tokens_details.cached_tokens). */
export function fromOpenAIUsage(u: unknown): TokenUsage {
  const o = (u && typeof u === "object" ? u : {}) as Record<string, unknown>;
  const details = (
    o.prompt_tokens_details && typeof o.prompt_tokens_details === "object" ? o.prompt_tokens_details : {}
  ) as Record<string, unknown>;
  const prompt = count(o.prompt_tokens);
  const cached = Math.min(count(details.cached_tokens), prompt);
  return {
    input: prompt - cached,
    output: count(o.completion_tokens),
    cacheRead: cached,
    cacheWrite: 0,
    estimated: false,
  };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    estimated: a.estimated || b.estimated,
  };
}

/** Everything the request carried: the uncached input plus what was read from and written to the cache. */
export function totalInput(u: TokenUsage): number {
  return u.input + u.cacheRead + u.cacheWrite;
}

/** 940 · 12.3k · 4.1M */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

/** "1.2k in · 340 out", with "≈" before each estimated number. */
export function usageSummary(u: TokenUsage): string {
  const m = u.estimated ? "≈" : "";
  return `${m}${formatTokens(totalInput(u))} in · ${m}${formatTokens(u.output)} out`;
}

/** The cache part, when the API reported one: "cache read 1,000 · written 200". */
export function cacheSummary(u: TokenUsage): string | undefined {
  if (!u.cacheRead && !u.cacheWrite) return undefined;
  return `cache read ${u.cacheRead.toLocaleString("en-US")} · written ${u.cacheWrite.toLocaleString("en-US")}`;
}

/** Roughly four characters a token (the offline model's estimate of what a provider would count). */
export const CHARS_PER_TOKEN_ESTIMATE = 4;
/** An image as the Anthropic API counts one of the largest it takes (≈ width × height / 750). */
export const IMAGE_TOKENS_ESTIMATE = 1600;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN_ESTIMATE);
}
