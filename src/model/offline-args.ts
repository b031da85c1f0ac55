// The offline model's tool choice and argument extraction: plain word scoring, no magic.
import type { ModelToolSpec } from "./adapter.js";

const STOPWORDS = new Set(
  "a an and are as at be by can could do does for from get give has have how i in is it its me my of on or please show some than that the their them then there these this to up us was we what when where which who will with would you your".split(
    " ",
  ),
);

export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w));
}

/** Crude stemming so "images" matches "image" and "searching" matches "search". */
function stem(w: string): string {
  return w.replace(/(ing|es|s)$/, "") || w;
}

function propertiesOf(tool: ModelToolSpec): Record<string, { type?: unknown; enum?: unknown }> {
  const props = tool.inputSchema.properties;
  return props && typeof props === "object" ? (props as Record<string, { type?: unknown }>) : {};
}

/** Scores each tool against the prompt: name words 3, argument names 1, description words 1. */
export function scoreTools(prompt: string, tools: readonly ModelToolSpec[]): { tool: ModelToolSpec; score: number }[] {
  const asked = new Set(words(prompt).map(stem));
  return tools.map((tool) => {
    let score = 0;
    const seen = new Set<string>();
    const add = (ws: string[], weight: number) => {
      for (const w of ws.map(stem)) {
        if (seen.has(w)) continue;
        seen.add(w);
        if (asked.has(w)) score += weight;
      }
    };
    add(words(tool.name), 3);
    add(Object.keys(propertiesOf(tool)).flatMap(words), 1);
    add(words(tool.description ?? ""), 1);
    return { tool, score };
  });
}

export function pickTool(prompt: string, tools: readonly ModelToolSpec[]): ModelToolSpec | undefined {
  let best: { tool: ModelToolSpec; score: number } | undefined;
  for (const s of scoreTools(prompt, tools)) if (s.score > 0 && (!best || s.score > best.score)) best = s;
  return best?.tool;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

function clause(m: RegExpMatchArray | null): string | undefined {
  const s = m?.[1]?.trim().replace(/^(?:the|a|an)\s+/i, "");
  return s ? s : undefined;
}

/** Pulls obvious arguments out of the prompt for the tool's declared properties. */
export function extractArgs(prompt: string, tool: ModelToolSpec): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const props = propertiesOf(tool);
  // Quoted text is taken verbatim; single quotes only when they open a word (not "what's").
  const quoted = (prompt.match(/["“]([^"”]+)["”]/) ?? prompt.match(/(?:^|\s)'([^']+)'(?=\W|$)/))?.[1];
  const toolWords = new Set(words(tool.name).map(stem));
  const end = "(?=[.?!,;]|$)";
  for (const [key, schema] of Object.entries(props)) {
    const k = key.toLowerCase();
    const type = schema?.type;
    if (Array.isArray(schema?.enum)) {
      const hit = (schema.enum as unknown[]).find(
        (v) => typeof v === "string" && new RegExp(`\\b${escape(v)}\\b`, "i").test(prompt),
      );
      if (hit !== undefined) args[key] = hit;
      continue;
    }
    if (type === "integer" || type === "number") {
      const digits = prompt.match(/\b(\d+(?:\.\d+)?)\b/);
      const word = words(prompt).find((w) => w in NUMBER_WORDS);
      const n = digits ? Number(digits[1]) : word ? NUMBER_WORDS[word] : undefined;
      if (n !== undefined && !/id$/i.test(key)) args[key] = type === "integer" ? Math.round(n) : n;
      continue;
    }
    if (type !== "string" && type !== undefined) continue;
    let value: string | undefined;
    if (/(^|_)(id|order|number)$|id$/i.test(key)) {
      value = prompt.match(/#?\b([A-Za-z]{0,6}[-_]?\d{2,})\b/)?.[1];
    } else if (/prompt|subject|description|caption/.test(k)) {
      value =
        quoted ??
        clause(prompt.match(new RegExp(`\\b(?:of|showing|depicting)\\s+(.+?)${end}`, "i"))) ??
        clause(prompt.match(new RegExp(`\\b(?:draw|paint|generate|make)\\s+(.+?)${end}`, "i")));
    } else if (/city|location|place|where/.test(k)) {
      value = quoted ?? clause(prompt.match(new RegExp(`\\b(?:in|at|for)\\s+(.+?)${end}`, "i")));
    } else if (/^(?:uri|url|href|link)$|_(?:uri|url)$/.test(k)) {
      value = quoted ?? prompt.match(/\b([a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+?)(?=[.,;?!]?(?:\s|$))/i)?.[1];
    } else if (/path|file|dir|folder/.test(k)) {
      // A path-looking word: with a slash (files/notes.md, /tmp/x, ~/a) or a name with an extension (notes.md).
      value =
        quoted ??
        prompt.match(
          /(?:^|\s)((?:~|\.{1,2})?\/?[\w.-]+(?:\/[\w.-]+)+\/?|[\w-]+\.[A-Za-z0-9]{1,6})(?=[.,;?!]?(?:\s|$))/,
        )?.[1];
    } else if (/query|^q$|search|term|keyword|name|text|filter/.test(k)) {
      value =
        quoted ??
        clause(prompt.match(new RegExp(`\\b(?:for|named|called|about|matching)\\s+(.+?)${end}`, "i"))) ??
        afterVerb(prompt, toolWords);
    } else if (quoted && !Object.values(args).includes(quoted)) {
      value = quoted;
    }
    if (value !== undefined) args[key] = value;
  }
  return args;
}

/** The first word after "search"/"find"/"look up" that is not part of the tool's own name. */
function afterVerb(prompt: string, toolWords: Set<string>): string | undefined {
  const m = prompt.match(/\b(?:search|find|lookup|look up)\b(.*)$/i);
  if (!m) return undefined;
  for (const raw of m[1].split(/\s+/)) {
    const w = raw.replace(/[^\w-]/g, "");
    if (!w || STOPWORDS.has(w.toLowerCase()) || toolWords.has(stem(w.toLowerCase()))) continue;
    return w;
  }
  return undefined;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The required properties the arguments leave out (the offline model asks rather than calling with `{}`). */
export function missingRequired(tool: ModelToolSpec, args: Record<string, unknown>): string[] {
  const required = (tool.inputSchema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string" && !(r in args)) : [];
}
