// The validate → route → model-context invariant as a fast-check property, shared by
// router.property.test.ts (≥1,000 cases in npm test) and scripts/property-long.ts (50,000+).
import fc from "fast-check";
import {
  checkSelection,
  effectiveSelection,
  sameSelector,
  selectorKey,
  type JsonSchema,
  type ToolResultOutputSelector,
  type ToolResultVariant,
} from "../../src/protocol/index.js";
import { route, RoutingError, sinkBytes } from "../../src/host/result/router.js";
import { writeReceipt } from "../../src/host/result/receipt.js";
import type { CallOutcome, CallPlan, Routed } from "../../src/host/types.js";
import { requestedExtensions, ResultValidationError, validateVariantResult } from "../../src/host/result/validate.js";
import { callError } from "../../src/host/host-error.js";
import { ANTHROPIC_CAPABILITIES, buildContext } from "../../src/model/context.js";
import { modelResultFor } from "../../src/model/turn.js";

const UI = "io.modelcontextprotocol/ui";
const OTHER = "com.example/viewer";
const EXTENSIONS = [UI, OTHER];
/** Only ever placed in non-assistant outputs and in result `_meta`: must never reach the model. */
const CANARY = "ZZCANARY";
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

// Fixed schema objects (the Ajv cache is per object). Data keys may be free (additionalProperties).
const SCHEMAS: (JsonSchema | undefined)[] = [
  undefined,
  {
    title: "Page",
    type: "object",
    properties: { items: { type: "array", items: { type: "string" } } },
    required: ["items"],
  },
  { type: "object", additionalProperties: { type: "integer" } },
  { type: "array", items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
];

type Json = Record<string, any>;
const SELECTORS: ToolResultOutputSelector[] = [
  { audience: "assistant", format: "structured" },
  { audience: "user", format: "content" },
  { audience: "user", format: "structured" },
  { audience: "programmatic", format: "structured" },
  { audience: UI, format: "structured" },
  { audience: UI, format: "content" },
  { audience: OTHER, format: "structured" },
];

export interface Case {
  variants: ToolResultVariant[];
  negotiated: string[];
  requested: ToolResultOutputSelector[] | undefined;
  raw: Json;
  /** Mutations applied to an otherwise correct result. */
  mutations: string[];
}

const tag = (audience: string, n: number) =>
  audience === "assistant" ? `assistant-ok-${n}` : `${CANARY}-${audience}-${n}`;

/** A value valid against the schema, carrying the audience's tag (and canary keys where free). */
function validValue(schema: JsonSchema | undefined, t: string, n: number): unknown {
  if (schema === SCHEMAS[1]) return { items: [t, String(n)] };
  if (schema === SCHEMAS[2]) return { [t]: n, [`k${n}`]: 1 };
  if (schema === SCHEMAS[3]) return [{ id: t, [t]: true }];
  return { note: t, n };
}
/** A value violating the schema, with the tag in keys and values along the failing path. */
function invalidValue(schema: JsonSchema | undefined, t: string): unknown | undefined {
  if (schema === SCHEMAS[1]) return { items: [{ [t]: t }] };
  if (schema === SCHEMAS[2]) return { [t]: t };
  if (schema === SCHEMAS[3]) return [{ [t]: t }];
  return undefined; // no schema: anything goes
}

function output(sel: ToolResultOutputSelector, variants: ToolResultVariant[], n: number): Json {
  const t = tag(sel.audience, n);
  if (sel.format === "structured") {
    const v = variants.find((x) => sameSelector(x, sel));
    return { ...sel, structuredContent: validValue(v && v.format === "structured" ? v.schema : undefined, t, n) };
  }
  // Block annotations claim the assistant: routing must ignore them.
  const content: Json[] = [{ type: "text", text: t, annotations: { audience: ["assistant"] } }];
  if (n % 3 === 0) content.push({ type: "image", data: PNG_1PX, mimeType: "image/png" });
  if (n % 4 === 0) content.push({ type: "resource_link", uri: `file:///${t}.txt`, name: t });
  return { ...sel, content };
}

const MUTATIONS = [
  "extra",
  "drop",
  "duplicate",
  "wrong-format",
  "schema",
  "bad-base64",
  "not-array",
  "bad-audience",
  "result-type",
  "unrequested-ext",
] as const;

export const caseArb: fc.Arbitrary<Case> = fc
  .record({
    extraVariants: fc.subarray(SELECTORS),
    schemaIdx: fc.array(fc.nat(SCHEMAS.length - 1), { minLength: SELECTORS.length, maxLength: SELECTORS.length }),
    negotiated: fc.subarray(EXTENSIONS),
    selection: fc.oneof(
      { arbitrary: fc.constant<"fallback">("fallback"), weight: 1 },
      {
        arbitrary: fc.record({
          pick: fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }),
          invalid: fc.nat(3).map((n) => n === 0),
        }),
        weight: 4,
      },
    ),
    mutations: fc.subarray([...MUTATIONS], { maxLength: 2 }),
    mutate: fc.nat(100),
    isError: fc.boolean(),
    meta: fc.option(
      fc.dictionary(
        fc.constantFrom(UI, OTHER, "com.example/secret", CANARY),
        fc.constantFrom<unknown>({ token: CANARY }, CANARY, [CANARY]),
      ),
      { nil: undefined },
    ),
    order: fc.nat(1000),
  })
  .map((r): Case => {
    // A valid declaration: assistant/content first, extension audiences only when negotiated.
    const variants: ToolResultVariant[] = [{ audience: "assistant", format: "content" }];
    r.extraVariants.forEach((s, i) => {
      if (EXTENSIONS.includes(s.audience) && !r.negotiated.includes(s.audience)) return;
      variants.push(
        s.format === "structured"
          ? { ...s, format: "structured", ...(SCHEMAS[r.schemaIdx[i]] ? { schema: SCHEMAS[r.schemaIdx[i]] } : {}) }
          : { ...s, format: "content" },
      );
    });
    let requested: ToolResultOutputSelector[] | undefined;
    if (r.selection !== "fallback") {
      const pool = r.selection.invalid ? [...variants, ...SELECTORS] : variants; // invalid: may be undeclared/duplicate
      const picked = r.selection.pick.map((i) => pool[i % pool.length]);
      requested = r.selection.invalid
        ? picked
        : picked.filter((s, i) => picked.findIndex((x) => sameSelector(x, s)) === i);
      requested = requested.map((s) => ({ audience: s.audience, format: s.format }));
    }
    const sel = effectiveSelection(requested);
    const outputs: Json[] = sel.map((s, n) => output(s, variants, n + r.order));
    // Rotate so output order differs from request order.
    const rotated = outputs.length
      ? [...outputs.slice(r.order % outputs.length), ...outputs.slice(0, r.order % outputs.length)]
      : outputs;
    const raw: Json = { resultType: "complete", outputs: rotated };
    if (r.isError) raw.isError = true;
    if (r.meta) raw._meta = r.meta;
    const k = r.mutate % Math.max(rotated.length, 1);
    const applied: string[] = [];
    for (const m of r.mutations) {
      const o = rotated[k];
      if (m === "extra") {
        const undeclared = SELECTORS.concat([{ audience: "assistant", format: "content" }]).find(
          (s) => !sel.some((x) => sameSelector(x, s)),
        );
        if (undeclared) rotated.push(output(undeclared, variants, 99));
      } else if (m === "drop" && rotated.length) rotated.splice(k, 1);
      else if (m === "duplicate" && o) rotated.push({ ...o });
      else if (m === "wrong-format" && o) {
        const flipped =
          o.format === "content"
            ? { audience: o.audience, format: "structured", structuredContent: { x: tag(o.audience, 7) } }
            : output({ audience: o.audience, format: "content" }, variants, 7);
        rotated[k] = flipped;
      } else if (m === "schema" && o && o.format === "structured") {
        const v = variants.find((x) => sameSelector(x, o as ToolResultOutputSelector));
        const bad = invalidValue(v && v.format === "structured" ? v.schema : undefined, tag(o.audience, 8));
        if (bad === undefined) continue;
        rotated[k] = { ...o, structuredContent: bad };
      } else if (m === "bad-base64" && o && o.format === "content")
        rotated[k] = {
          ...o,
          content: [...o.content, { type: "image", data: `${tag(o.audience, 9)}!`, mimeType: "image/png" }],
        };
      else if (m === "not-array" && o && o.format === "content") rotated[k] = { ...o, content: tag(o.audience, 10) };
      else if (m === "bad-audience" && o) rotated[k] = { ...o, audience: `${CANARY} not an audience` };
      else if (m === "result-type") raw.resultType = "incomplete";
      else if (m === "unrequested-ext")
        rotated.push({
          audience: `com.zzcanary/x${CANARY.toLowerCase()}`,
          format: "structured",
          structuredContent: { t: CANARY },
        });
      else continue;
      applied.push(m);
    }
    return { variants, negotiated: r.negotiated, requested, raw, mutations: applied };
  });

const SINK_OF = (audience: string): keyof Omit<Routed, "appMeta"> | undefined =>
  audience === "assistant"
    ? "model"
    : audience === "user"
      ? "user"
      : audience === "programmatic"
        ? "programmatic"
        : EXTENSIONS.includes(audience)
          ? "app"
          : undefined;

/** Mutations that make any result invalid whatever else happened. */
const ALWAYS_BREAKS = new Set([
  "extra",
  "duplicate",
  "bad-base64",
  "not-array",
  "bad-audience",
  "result-type",
  "unrequested-ext",
]);

/** Throws (with a reason) when the invariant does not hold for one case. */
export function checkCase(c: Case): void {
  const fail = (why: string) => {
    throw new Error(`${why}\ncase: ${JSON.stringify(c).slice(0, 2000)}`);
  };
  const negotiated = new Set(c.negotiated);
  const plan: CallPlan = {
    server: "s",
    tool: "t",
    args: {},
    requested: c.requested,
    era: "2026-12-01",
    protocolVersion: "2026-12-01",
    mode: "chat",
  };
  let outcome: CallOutcome;
  const selIssue = checkSelection(c.requested, c.variants, negotiated);
  if (selIssue) {
    // An invalid selection is refused before sending: nothing to route.
    outcome = { ok: false, plan, error: callError("s", "t", selIssue.rule, selIssue.message), durationMs: 0 };
  } else {
    const sel = effectiveSelection(c.requested);
    try {
      const v = validateVariantResult(c.raw, sel, c.variants, { maxImagePixels: 40_000_000 });
      const appExtensions = requestedExtensions(sel).filter((x) => negotiated.has(x));
      const routed = route(v.outputs, { appExtensions, meta: v.meta });
      const bytes = sinkBytes(routed);
      outcome = { ok: true, plan, isError: v.isError, routed, bytes, durationMs: 0 };
      if (routed.model.length === 0) outcome.receipt = writeReceipt("t", routed, bytes, c.variants, v.isError);
    } catch (e) {
      if (!(e instanceof ResultValidationError) && !(e instanceof RoutingError)) throw e;
      outcome = {
        ok: false,
        plan,
        error: callError(
          "s",
          "t",
          e instanceof ResultValidationError ? e.rule : "unroutable-output",
          String((e as Error).message),
        ),
        durationMs: 0,
      };
    }
    if (c.mutations.some((m) => ALWAYS_BREAKS.has(m)) && outcome.ok)
      fail(`accepted a result broken by ${c.mutations.join(", ")}`);
    if (c.mutations.length === 0 && !outcome.ok)
      fail(`rejected a correct result: ${outcome.error.rule}: ${outcome.error.message}`);
    if (outcome.ok) {
      // Every output is in exactly its audience's sink, once per requested selector; nothing else.
      const entries = (["model", "user", "programmatic", "app"] as const).flatMap((sink) =>
        outcome.ok ? outcome.routed[sink].map((e) => ({ sink, e })) : [],
      );
      for (const { sink, e } of entries) {
        if (SINK_OF(e.audience) !== sink) fail(`${selectorKey(e)} routed to ${sink}`);
        if (!sel.some((s) => sameSelector(s, e))) fail(`${selectorKey(e)} was not requested`);
      }
      for (const s of sel) {
        const n = entries.filter(({ e }) => sameSelector(e, s)).length;
        if (n > 1 || (n === 0 && !outcome.isError)) fail(`${selectorKey(s)} routed ${n} times`);
      }
      for (const key of Object.keys(outcome.routed.appMeta)) {
        if (!negotiated.has(key) || !sel.some((s) => s.audience === key)) fail(`appMeta carries ${key}`);
      }
    }
  }
  // Whatever happened, the model context holds no canary (non-assistant output or _meta).
  const { isError, result } = modelResultFor(outcome);
  const messages = buildContext(
    [
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "t", server: "s", tool: "t", args: {} }] },
      { role: "tool", callId: "c1", isError, result },
    ],
    ANTHROPIC_CAPABILITIES,
  );
  const text = JSON.stringify(messages);
  if (text.toLowerCase().includes(CANARY.toLowerCase()))
    fail(`the model context contains the canary: ${text.slice(0, 600)}`);
}

export function runProperty(numRuns: number, seed?: number): void {
  fc.assert(
    fc.property(caseArb, (c) => checkCase(c)),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}
