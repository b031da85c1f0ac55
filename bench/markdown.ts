// Markdown for model text: the cost of lexing and drawing a reply (ui/markdown.ts through Ink),
// once for a text and once for ten times that text. The target: cost linear in the text.
import React from "react";
import { render } from "ink-testing-library";
import { Markdown } from "../src/ui/components/Markdown.js";
import { markdownBlocks } from "../src/ui/markdown.js";
import { median, ms, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const UNIT = [
  "## Globex summary",
  "",
  "There are **37** customers in *four* regions; see [the CRM](https://crm.example/globex) and `search_customers`.",
  "",
  "1. Globex Retail is the most recent account",
  "2. Globex Energy follows",
  "   - nested detail",
  "",
  "> a quoted remark with **bold** words",
  "",
  "```ts",
  "const total = 37; // all regions",
  'const name = "Globex";',
  "```",
  "",
  "| region | customers |",
  "|---|--:|",
  "| NA | 16 |",
  "| EMEA | 9 |",
  "",
].join("\n");

const textOf = (n: number) => Array.from({ length: n }, () => UNIT).join("\n");

function draw(text: string): void {
  const r = render(React.createElement(Markdown, { text, width: 100 }));
  r.unmount();
}

export async function markdownBench({ quick }: BenchOptions): Promise<Section> {
  const reps = quick ? 11 : 41;
  const small = textOf(10);
  const large = textOf(100);
  for (let i = 0; i < 5; i++) draw(small); // warm the JIT
  // Alternating pairs: the figure is the median of per-pair ratios, so load drift cancels.
  const lexRatios: number[] = [];
  const drawRatios: number[] = [];
  const lexS: number[] = [];
  const lexL: number[] = [];
  for (let i = 0; i < reps; i++) {
    let t = performance.now();
    markdownBlocks(small, 100);
    const a = performance.now() - t;
    t = performance.now();
    markdownBlocks(large, 100);
    const b = performance.now() - t;
    lexS.push(a);
    lexL.push(b);
    lexRatios.push(b / a);
    t = performance.now();
    draw(small);
    const c = performance.now() - t;
    t = performance.now();
    draw(large);
    drawRatios.push((performance.now() - t) / c);
  }
  const lexR = median(lexRatios);
  const drawR = median(drawRatios);
  const targets: Target[] = [
    {
      name: "Markdown blocks, 10× the text",
      target: "≤ 12× the time",
      figure: `${ratio(lexR)} (${ms(median(lexS))} for ${small.length} chars, ${ms(median(lexL))} for ${large.length})`,
      met: lexR <= 12,
    },
    { name: "Markdown drawn with Ink, 10× the text", target: "≤ 12× the time", figure: ratio(drawR), met: drawR <= 12 },
  ];
  return {
    id: "markdown",
    title: "Markdown for model text",
    intro: [
      `A reply of headings, emphasis, a list, a quote, a fenced block and a pipe table, ${small.length} characters, against ten times it; ${reps} alternating pairs.`,
    ],
    tables: [],
    targets,
    notes: [
      "While a reply streams, each finished part is drawn once (live-text.ts), so a reply costs what its parts cost.",
    ],
  };
}
