// Figure 8 — untrusted schemas at scale: (a) a server listing 5,000 tools vs 500, each with a
// distinct structured-variant schema (test/fixtures/schema-bomb-server.ts --tools N): Host.start
// → tools listed, then the first call of one tool (which compiles that tool's schemas only), and
// the longest event-loop stall seen meanwhile (what a keystroke would wait); (b) validating a
// catastrophic pattern (`^(a+)+$`, `^([a-zA-Z0-9]+)*@x\.com$`) on 40 vs 400 characters that do
// not match. A backtracking engine needs ~2^40 steps for the 40-character value; RE2 is linear.
import { DEFAULT_LIMITS } from "../src/host/config/config.js";
import { schemaBomb } from "../test/helpers/schema-bomb.js";
import { hostModule, protocolModule } from "./lib/compiled.js";
import { fmt, median, ms, ratio, type BenchOptions, type Section } from "./lib/report.js";

const { Host } = hostModule;
const { compileSchema } = protocolModule;

async function listing(tools: number): Promise<{ listMs: number; callMs: number; stallMs: number }> {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 5);
    last = now;
  }, 5);
  try {
    const t0 = performance.now();
    const host = await Host.start({
      config: { source: "bench", servers: { bomb: schemaBomb("modern", tools) }, limits: { ...DEFAULT_LIMITS } },
      mode: "chat",
    });
    try {
      const listed = await host.tools();
      const listMs = performance.now() - t0;
      if (listed.length < tools) throw new Error(`listed ${listed.length} tools, expected ≥ ${tools}`);
      const t1 = performance.now();
      const o = await host.call("flood_7", {}, { select: [{ audience: "programmatic", format: "structured" }] });
      if (!o.ok) throw new Error(`flood_7: ${o.error.rule}: ${o.error.message}`);
      return { listMs, callMs: performance.now() - t1, stallMs: stall };
    } finally {
      await host.close();
    }
  } finally {
    clearInterval(timer);
  }
}

function validationMs(pattern: string, value: string, reps: number): number {
  const fn = compileSchema({ type: "string", pattern });
  if (fn(value)) throw new Error("the value was meant not to match");
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) fn(value);
  return (performance.now() - t0) / reps;
}

export async function schemasBench({ quick, log }: BenchOptions): Promise<Section> {
  const reps = quick ? 1 : 3;
  const small: Awaited<ReturnType<typeof listing>>[] = [];
  const large: Awaited<ReturnType<typeof listing>>[] = [];
  for (let i = 0; i < reps; i++) {
    small.push(await listing(500));
    large.push(await listing(5000));
    log(
      `schemas: rep ${i + 1}/${reps}: 500 tools ${fmt(small[i].listMs, 0)} ms, 5,000 tools ${fmt(large[i].listMs, 0)} ms`,
    );
  }
  const m = (xs: typeof small, k: keyof (typeof small)[0]) => median(xs.map((x) => x[k]));
  const listRatio = m(large, "listMs") / m(small, "listMs");
  const vreps = quick ? 200 : 2000;
  const patterns = ["^(a+)+$", "^([a-zA-Z0-9]+)*@x\\.com$"];
  const rows = patterns.map((p) => {
    const short = median([0, 1, 2].map(() => validationMs(p, `${"a".repeat(40)}!`, vreps)));
    const long = median([0, 1, 2].map(() => validationMs(p, `${"a".repeat(400)}!`, vreps)));
    return { p, short, long, r: long / short };
  });
  const worst = Math.max(...rows.map((r) => r.r));
  return {
    id: "schemas",
    title: "8. Untrusted schemas: 5,000 tools, catastrophic patterns",
    intro: [
      `Listing: Host.start → \`tools()\` resolved, against the schema-bomb fixture (node + tsx) listing N tools, each with its own structured-variant schema; then one call of \`flood_7\` requesting programmatic/structured (its schema compiles on that first use; a listing compiles none). The stall is the longest delay of a 5 ms timer during start, listing and call: what a keystroke would wait. ${reps} repetition(s), medians; server spawn and its own JSON included.`,
      `Validation: one compiled schema \`{type: string, pattern}\` run ${vreps} times on a non-matching value of 40 and of 400 characters (+ "!"); patterns run on RE2 (re2js) through Ajv's \`code.regExp\`.`,
    ],
    tables: [
      {
        head: ["tools", "listed (median)", "first call", "longest stall"],
        rows: [
          ["500", ms(m(small, "listMs")), ms(m(small, "callMs")), ms(m(small, "stallMs"))],
          ["5,000", ms(m(large, "listMs")), ms(m(large, "callMs")), ms(m(large, "stallMs"))],
          ["5,000 / 500", ratio(listRatio), "", ""],
        ],
      },
      {
        head: ["pattern", "40 chars", "400 chars", "400 / 40"],
        rows: rows.map((r) => [`\`${r.p}\``, ms(r.short), ms(r.long), ratio(r.r)]),
      },
    ],
    targets: [
      {
        name: "listing 5,000 tools",
        target: "≤ 10× listing 500",
        figure: `${ratio(listRatio)} (${fmt(m(large, "listMs"), 0)} ms vs ${fmt(m(small, "listMs"), 0)} ms)`,
        met: listRatio <= 10,
      },
      {
        name: "catastrophic pattern, 400 vs 40 characters",
        target: "≤ 10× (linear)",
        figure: `worst ${ratio(worst)}`,
        met: worst <= 10,
      },
    ],
    notes: [],
  };
}
