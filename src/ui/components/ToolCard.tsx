// One tool call: what was asked, what the mode requested, progress while running, and where the
// result went (per sink, with sizes) once done. Every server-controlled string is sanitized.
import { Box, Text } from "ink";
import type { CallOutcome, Routed } from "../../host/types.js";
import type { ToolResultOutputSelector } from "../../protocol/index.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { formatBytes } from "../../host/result/measure.js";
import { compactJson, formatElapsed, truncateToWidth, wrapText } from "../format.js";
import { useNow } from "../hooks/useNow.js";
import type { ToolCallView } from "../state.js";
import { errorLine } from "../../host/host-error.js";

/** Rows of a failed card's error line before it is cut (the whole is /show N's). */
const ERROR_ROWS = 3;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function describeRequested(outcome: CallOutcome): string {
  const req = outcome.plan.requested;
  if (req === undefined)
    return outcome.plan.era === "2026-12-01" ? "none sent (fallback)" : `legacy era (${outcome.plan.protocolVersion})`;
  if (req.length === 0) return "[] (nothing)";
  return req.map((s: ToolResultOutputSelector) => `${sanitizeName(s.audience)}/${s.format}`).join(", ");
}

export function userSummary(routed: Routed): string {
  const counts = new Map<string, number>();
  const add = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  for (const out of routed.user) {
    if (out.format === "structured") add("table");
    else for (const b of out.content) add(b.type === "resource_link" ? "link" : b.type);
  }
  return [...counts].map(([k, n]) => `${n} ${k}${n === 1 ? "" : k.endsWith("s") ? "es" : "s"}`).join(", ");
}

/** `model 212 B · user 2 images 48 KB · programmatic 3.1 KB · app —` */
export function sinkSummary(outcome: Extract<CallOutcome, { ok: true }>): string {
  const { routed, bytes } = outcome;
  const part = (name: string, n: number, size: number, extra = "") =>
    n === 0 ? `${name} —` : `${name} ${extra ? extra + " " : ""}${formatBytes(size)}`;
  return [
    routed.model.length === 0 && outcome.receipt ? "model receipt" : part("model", routed.model.length, bytes.model),
    part("user", routed.user.length, bytes.user, userSummary(routed)),
    part("programmatic", routed.programmatic.length, bytes.programmatic),
    part("app", routed.app.length + Object.keys(routed.appMeta).length, bytes.app),
  ].join(" · ");
}

function modelPreview(routed: Routed): string | undefined {
  for (const out of routed.model) {
    if (out.format === "content") {
      const t = out.content.find((b) => b.type === "text");
      if (t && t.type === "text") return t.text;
    } else return compactJson(out.structuredContent);
  }
  return undefined;
}

export function ToolCard({ call, width }: { call: ToolCallView; width: number }) {
  const running = !call.outcome;
  const now = useNow(running);
  const inner = Math.max(10, width - 4);
  const name = `${sanitizeName(call.server)} · ${sanitizeName(call.tool)}`;
  const args = truncateToWidth(sanitizeInline(compactJson(call.args)), Math.max(10, inner - name.length - 3));
  const o = call.outcome;

  if (o && !o.ok) {
    // The card names server and tool once, in its own prefix: the error's detail says the rest.
    // Up to ERROR_ROWS rows wrapped; a longer one is whole in /show N (Ctrl+O for the last card).
    const { server, tool, detail } = o.error;
    const message = server === o.plan.server && tool === o.plan.tool ? detail : errorLine(o.error);
    const line = `✗ ${sanitizeName(o.plan.server)} · ${sanitizeName(o.plan.tool)} failed [${sanitizeName(o.error.rule)}]: ${sanitizeInline(message)}`;
    // At word boundaries (a word longer than the row is still cut), continuation rows indented.
    const rows = wrapText(line, width, 2);
    const cut = rows.length > ERROR_ROWS || (o.error.stderr?.length ?? 0) > 0;
    const shown =
      rows.length > ERROR_ROWS
        ? [
            ...rows.slice(0, ERROR_ROWS - 1),
            truncateToWidth(
              `  ${rows
                .slice(ERROR_ROWS - 1)
                .map((r) => r.trim())
                .join(" ")}`,
              width,
            ),
          ]
        : rows;
    return (
      <Box flexDirection="column" marginY={0}>
        <Text color="red">{shown.join("\n")}</Text>
        {cut ? (
          <Text dimColor>
            {truncateToWidth(
              `  #${call.n} · the whole error${o.error.stderr?.length ? " and the server's stderr" : ""}: /show ${call.n} (^O: the last card)`,
              width,
            )}
          </Text>
        ) : null}
      </Box>
    );
  }

  const header = (
    <Text wrap="truncate-end">
      <Text color={running ? "yellow" : o?.isError ? "red" : "green"}>
        {running ? SPINNER[Math.floor(now / 120) % SPINNER.length] : o?.isError ? "✗" : "✓"}
      </Text>{" "}
      <Text bold>{name}</Text> <Text dimColor>{args}</Text>
    </Text>
  );

  if (!o) {
    const p = call.progress;
    // A bare 0 before a message says nothing ("0 task working"): only the message then.
    const frac = p ? (p.total ? `${p.progress}/${p.total}` : p.progress || !p.message ? `${p.progress}` : "") : "";
    const msg = p?.message ? `${frac ? " " : ""}${sanitizeInline(p.message)}` : "";
    return (
      <Box flexDirection="column">
        {header}
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(
            `  ${frac}${msg}${frac || msg ? " · " : ""}${formatElapsed(Math.max(0, now - call.startedAt))}`,
            width,
          )}
        </Text>
      </Box>
    );
  }

  const preview = modelPreview(o.routed);
  return (
    <Box flexDirection="column">
      {header}
      <Text dimColor>
        {wrapText(`  ${formatElapsed(o.durationMs)} · requested: ${describeRequested(o)} · #${call.n}`, width, 4).join(
          "\n",
        )}
      </Text>
      <Text>{wrapText(`  → ${sinkSummary(o)}`, width, 4).join("\n")}</Text>
      {o.isError ? <Text color="red">{"  isError: the tool reported an error"}</Text> : null}
      {(o.warnings ?? []).map((w, i) => (
        <Text key={`w${i}`} color="yellow" wrap="truncate-end">
          {truncateToWidth(`  ⚠ [${sanitizeName(w.rule)}] ${sanitizeInline(w.detail)}`, width)}
        </Text>
      ))}
      {(call.modelNotes ?? []).map((note, i) => (
        <Text key={`m${i}`} color="yellow">
          {wrapText(`  ⚠ for the model: ${sanitizeInline(note)}`, width, 4)
            .slice(0, 2)
            .join("\n")}
        </Text>
      ))}
      {preview !== undefined ? (
        <Text dimColor wrap="truncate-end">
          {truncateToWidth(`  model sees: ${sanitizeInline(preview)}`, width)}
        </Text>
      ) : null}
    </Box>
  );
}
