// A tool card expanded (/show N, Ctrl+O): everything the one-line card cuts, whole — the
// arguments, the selection requested and the variants declared, the error with its rule and the
// server's stderr, the warnings, where each sink's outputs went, and what the model saw (the
// blocks the model context builder makes of the call: text in full, images drawn under the
// "model context" label). Pure: the component (components/CardDetail.tsx) only draws it.
import type { CallOutcome, ToolEntry } from "../host/types.js";
import { errorLine } from "../host/host-error.js";
import { toolResultBlocks, type ModelCapabilities, type ModelImageBlock } from "../model/context.js";
import { modelResultFor } from "../model/turn.js";
import { sanitizeInline, sanitizeJson, sanitizeName, sanitizeText } from "../protocol/sanitize.js";
import { describeRequested, sinkSummary } from "./components/ToolCard.js";
import { formatElapsed } from "./format.js";
import type { ToolCallView } from "./state.js";

export interface DetailSection {
  label: string;
  lines: string[];
  /** Images the model received (drawn under the label). */
  images?: ModelImageBlock[];
}

/**
 * Lines one section keeps (a bound on what an 8 MiB result can put on screen); the last line says
 * how many more there were and where the whole is (the transcript, /save).
 */
export const MAX_SECTION_LINES = 5_000;

function bounded(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length <= MAX_SECTION_LINES) return lines;
  return [
    ...lines.slice(0, MAX_SECTION_LINES),
    `… ${lines.length - MAX_SECTION_LINES} more lines past the screen's bound: /save writes the transcript, which holds them`,
  ];
}

function variantLines(entry: ToolEntry | undefined): string[] {
  if (!entry) return ["(the tool is not listed in this mode now)"];
  const out = entry.variants.map((v) => `${sanitizeName(v.audience)}/${v.format}`);
  for (const d of entry.declined ?? [])
    out.push(`${sanitizeName(d.audience)}/${d.format} declined [${sanitizeName(d.rule)}]: ${sanitizeInline(d.detail)}`);
  if (entry.unavailable)
    out.push(`unavailable [${sanitizeName(entry.unavailable.rule)}]: ${sanitizeInline(entry.unavailable.detail)}`);
  return out.length ? out : ["—"];
}

/** What the model got for the call, as the context builder makes it. */
function modelSection(outcome: CallOutcome, caps: ModelCapabilities): DetailSection {
  const { isError, result } = modelResultFor(outcome);
  const blocks = toolResultBlocks(result, caps);
  const lines: string[] = [];
  const images: ModelImageBlock[] = [];
  for (const b of blocks) {
    if (b.type === "text") lines.push(...bounded(sanitizeText(b.text)));
    else images.push(b);
  }
  const label = `model context${isError ? " (an error result)" : ""}: what the model saw`;
  return { label, lines: lines.length || images.length ? lines : ["(nothing)"], images };
}

export function cardDetail(call: ToolCallView, entry: ToolEntry | undefined, caps: ModelCapabilities): DetailSection[] {
  const o = call.outcome;
  const state = !o
    ? "running"
    : !o.ok
      ? `failed [${sanitizeName(o.error.rule)}]`
      : o.isError
        ? "done, the tool reported an error"
        : "done";
  const took = o ? ` · ${formatElapsed(o.durationMs)}` : "";
  const sections: DetailSection[] = [
    {
      label: `card ${call.n} · ${sanitizeName(call.server)} · ${sanitizeName(call.tool)} · ${state}${took}`,
      lines: [],
    },
    { label: "arguments", lines: bounded(sanitizeJson(call.args)) },
  ];
  if (o) sections.push({ label: "requested", lines: [describeRequested(o)] });
  sections.push({ label: "declared variants", lines: variantLines(entry) });
  if (!o) return sections;
  if (!o.ok) {
    sections.push({ label: "error", lines: bounded(sanitizeText(errorLine(o.error))) });
    if (o.error.stderr?.length)
      sections.push({ label: "server stderr", lines: o.error.stderr.map((l) => sanitizeInline(l)) });
  } else {
    sections.push({ label: "where it went", lines: [sinkSummary(o)] });
    if (o.warnings?.length)
      sections.push({
        label: "warnings",
        lines: o.warnings.map((w) => `[${sanitizeName(w.rule)}] ${sanitizeInline(w.detail)}`),
      });
  }
  sections.push(modelSection(o, caps));
  if (call.modelNotes?.length)
    sections.push({
      label: "what the model did not get as sent",
      lines: call.modelNotes.map((n) => sanitizeInline(n)),
    });
  return sections;
}
