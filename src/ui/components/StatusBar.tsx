// The status bar: each server's state, the mode and the model, and the keys. Never cut: the key
// hints shorten to fit, and what still does not fit wraps onto a second row.
import React from "react";
import { Box, Text } from "ink";
import type { Mode } from "../../host/types.js";
import { shownState, type ServerView, type ShownState } from "../server-view.js";
import { sanitizeName } from "../../protocol/sanitize.js";
import { displayWidth } from "../format.js";
import { formatTokens, totalInput, type TokenUsage } from "../../model/usage.js";
import type { UsageSnapshot } from "../usage-meter.js";

export const KEY_HINTS = "Tab complete · ^T pane · ^O expand · PgUp/Dn · Esc cancel · ^C^C quit · /help";
/** The hints when the whole set does not fit on the row: the first that fits (or the last, wrapped). */
const SHORTER_HINTS = ["^T pane · ^O expand · /help", "^T pane · /help", "/help"];

const STATE_LABEL: Record<ShownState | "disabled", string> = { connected: "connected", connecting: "connecting…", disconnected: "disconnected", error: "error", "sign-in needed": "sign-in needed", disabled: "disabled" };
const STATE_COLOR: Record<ShownState | "disabled", string> = { connected: "green", connecting: "yellow", disconnected: "gray", error: "red", "sign-in needed": "yellow", disabled: "gray" };

/** "tokens 1.2k in / 340 out · turn 400 / 120" ("≈" before estimates); nothing before the first turn. */
export function usageStatus(u: UsageSnapshot | undefined): string {
  if (!u?.last) return "";
  const pair = (t: TokenUsage, sep: string) => {
    const m = t.estimated ? "≈" : "";
    return `${m}${formatTokens(totalInput(t))}${sep}${m}${formatTokens(t.output)}`;
  };
  return `tokens ${pair(u.session, " in / ")} out · turn ${pair(u.last.usage, " / ")}`;
}

export function StatusBar({ servers, mode, model, width, busy, usage }: { servers: readonly ServerView[]; mode: Mode; model: string; width: number; busy?: boolean; usage?: UsageSnapshot }) {
  const left = servers.map((s) => {
    const state = s.disabled ? "disabled" : shownState(s.state, s.failure);
    return { text: `● ${sanitizeName(s.name, 24)} ${s.protocolVersion ? sanitizeName(s.protocolVersion, 12) + " " : ""}${STATE_LABEL[state]}`, color: STATE_COLOR[state] };
  });
  const tokens = usageStatus(usage);
  const mid = `mode ${mode} · model ${sanitizeName(model, 40)}${tokens ? ` · ${tokens}` : ""}${busy ? " · working…" : ""}`;
  const base = `${left.map((l) => l.text).join("  ")}  │ ${mid} │ `;
  const hints = [KEY_HINTS, ...SHORTER_HINTS].find((h) => displayWidth(base + h) <= width) ?? SHORTER_HINTS[SHORTER_HINTS.length - 1];
  return (
    <Box width={width}>
      <Text wrap="wrap">
        {left.map((l, i) => (
          <Text key={i} color={l.color}>
            {l.text + "  "}
          </Text>
        ))}
        <Text>{`│ ${mid} │ `}</Text>
        <Text dimColor>{hints}</Text>
      </Text>
    </Box>
  );
}
