// The status bar: each server's state, the mode and the model, and the keys. Never cut: the key
// hints shorten to fit, and what still does not fit wraps onto a second row.
import { Box, Text } from "ink";
import type { Mode } from "../../host/types.js";
import { shownState, type ServerView, type ShownState } from "../server-view.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { useNow } from "../hooks/useNow.js";
import type { RetryWait } from "../state-types.js";
import { displayWidth } from "../format.js";
import { formatTokens, totalInput, type TokenUsage } from "../../model/usage.js";
import type { UsageSnapshot } from "../usage-meter.js";

export const KEY_HINTS = "Tab complete · ^T pane · ^O expand · PgUp/Dn · Esc cancel · ^C^C quit · /help";
/** The hints when the whole set does not fit on the row: the first that fits (or the last, wrapped). */
const SHORTER_HINTS = ["^T pane · ^O expand · /help", "^T pane · /help", "/help"];

const STATE_LABEL: Record<ShownState | "disabled", string> = {
  connected: "connected",
  connecting: "connecting…",
  disconnected: "disconnected",
  error: "error",
  "sign-in needed": "sign-in needed",
  disabled: "disabled",
};
const STATE_COLOR: Record<ShownState | "disabled", string> = {
  connected: "green",
  connecting: "yellow",
  disconnected: "gray",
  error: "red",
  "sign-in needed": "yellow",
  disabled: "gray",
};

/** "tokens 1.2k in / 340 out · turn 400 / 120" ("≈" before estimates); nothing before the first turn. */
export function usageStatus(u: UsageSnapshot | undefined): string {
  if (!u?.last) return "";
  const pair = (t: TokenUsage, sep: string) => {
    const m = t.estimated ? "≈" : "";
    return `${m}${formatTokens(totalInput(t))}${sep}${m}${formatTokens(t.output)}`;
  };
  return `tokens ${pair(u.session, " in / ")} out · turn ${pair(u.last.usage, " / ")}`;
}

/**
 * The context meter: what the last model request's input filled of the active model's window
 * ("ctx 12k/200k 6%"; "≈" where the provider reported no counts and the host estimated them).
 */
export function contextMeter(u: UsageSnapshot | undefined, window: number | undefined): string {
  if (!u?.lastRequest || !window || window <= 0) return "";
  const used = totalInput(u.lastRequest);
  const m = u.lastRequest.estimated ? "≈" : "";
  return `ctx ${m}${formatTokens(used)}/${formatTokens(window)} ${Math.min(999, Math.round((used / window) * 100))}%`;
}

/** "rate-limited (429) · retry 1/2 in 3s" */
export function retryStatus(r: RetryWait, now: number): string {
  const left = Math.max(0, Math.ceil((r.until - now) / 1000));
  return `${sanitizeInline(r.reason).slice(0, 40)} · retry ${r.attempt}/${r.of} in ${left}s`;
}

export function StatusBar({
  servers,
  mode,
  model,
  width,
  busy,
  usage,
  contextWindow,
  retry,
}: {
  servers: readonly ServerView[];
  mode: Mode;
  model: string;
  width: number;
  busy?: boolean;
  usage?: UsageSnapshot;
  contextWindow?: number;
  retry?: RetryWait;
}) {
  // Counts the wait down each second while a retry waits.
  const now = useNow(retry !== undefined, 1000);
  const left = servers.map((s) => {
    const state = s.disabled ? "disabled" : shownState(s.state, s.failure);
    return {
      text: `● ${sanitizeName(s.name, 24)} ${s.protocolVersion ? sanitizeName(s.protocolVersion, 12) + " " : ""}${STATE_LABEL[state]}`,
      color: STATE_COLOR[state],
    };
  });
  const meter = contextMeter(usage, contextWindow);
  const tokens = [usageStatus(usage), meter].filter(Boolean).join(" · ");
  const waiting = retry ? retryStatus(retry, now) : "";
  const mid = `mode ${mode} · model ${sanitizeName(model, 40)}${tokens ? ` · ${tokens}` : ""}${busy && !waiting ? " · working…" : ""}`;
  const base = `${left.map((l) => l.text).join("  ")}  │ ${mid}${waiting ? ` · ${waiting}` : ""} │ `;
  const hints =
    [KEY_HINTS, ...SHORTER_HINTS].find((h) => displayWidth(base + h) <= width) ??
    SHORTER_HINTS[SHORTER_HINTS.length - 1];
  const runs: Run[] = [
    ...left.map((l) => ({ text: l.text + "  ", color: l.color })),
    { text: `│ ${mid}` },
    ...(waiting ? [{ text: " · " }, { text: waiting, color: "yellow" }] : []),
    { text: " │ " },
    { text: hints, dim: true },
  ];
  const rows = breakRuns(runs, width);
  return (
    <Box width={width} flexDirection="column">
      {rows.map((row, r) => (
        <Text key={r} wrap="wrap">
          {row.map((run, i) => (
            <Text key={i} color={run.color} dimColor={run.dim}>
              {run.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

interface Run {
  text: string;
  color?: string;
  dim?: boolean;
}

/**
 * The bar as rows: one when it fits; else broken after the last ` · ` or ` │ ` separator that fits,
 * so the second row starts with a word, never a space (Ink's own wrap keeps the space). With no
 * such separator (many servers) Ink wraps the one row.
 */
function breakRuns(runs: Run[], width: number): Run[][] {
  const line = runs.map((r) => r.text).join("");
  if (displayWidth(line) <= width) return [runs];
  let at = -1;
  for (const m of line.matchAll(/ [·│] /g)) {
    const end = (m.index ?? 0) + 2;
    if (displayWidth(line.slice(0, end)) <= width) at = end;
  }
  if (at < 0) return [runs];
  const first: Run[] = [];
  const second: Run[] = [];
  let pos = 0;
  for (const r of runs) {
    const cut = Math.max(0, Math.min(r.text.length, at - pos));
    if (cut > 0) first.push({ ...r, text: r.text.slice(0, cut) });
    if (cut < r.text.length) second.push({ ...r, text: r.text.slice(cut) });
    pos += r.text.length;
  }
  if (second.length) second[0] = { ...second[0], text: second[0].text.replace(/^ +/, "") };
  return [first, second];
}
