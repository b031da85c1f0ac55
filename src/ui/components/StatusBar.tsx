import React from "react";
import { Box, Text } from "ink";
import type { Mode } from "../../host/types.js";
import { shownState, type ServerView, type ShownState } from "../server-view.js";
import { sanitizeName } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";

export const KEY_HINTS = "Tab/⇧Tab pane · PgUp/Dn · Esc cancel · ^C^C quit · /help";

const STATE_LABEL: Record<ShownState, string> = { connected: "connected", connecting: "connecting…", disconnected: "disconnected", error: "error", "sign-in needed": "sign-in needed" };
const STATE_COLOR: Record<ShownState, string> = { connected: "green", connecting: "yellow", disconnected: "gray", error: "red", "sign-in needed": "yellow" };

export function StatusBar({ servers, mode, model, width, busy }: { servers: readonly ServerView[]; mode: Mode; model: string; width: number; busy?: boolean }) {
  const left = servers.map((s) => {
    const state = shownState(s.state, s.failure);
    return { text: `● ${sanitizeName(s.name, 24)} ${s.protocolVersion ? sanitizeName(s.protocolVersion, 12) + " " : ""}${STATE_LABEL[state]}`, color: STATE_COLOR[state] };
  });
  const mid = `mode ${mode} · model ${sanitizeName(model, 40)}${busy ? " · working…" : ""}`;
  const line = `${left.map((l) => l.text).join("  ")}  │ ${mid} │ ${KEY_HINTS}`;
  // Colour per server when everything fits, otherwise one truncated plain line.
  if (line.length > width) return <Text wrap="truncate-end">{truncateToWidth(line, width)}</Text>;
  return (
    <Box>
      <Text wrap="truncate-end">
        {left.map((l, i) => (
          <Text key={i} color={l.color}>
            {l.text + "  "}
          </Text>
        ))}
        <Text>{`│ ${mid} │ `}</Text>
        <Text dimColor>{KEY_HINTS}</Text>
      </Text>
    </Box>
  );
}
