import { useMemo, useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.js";
import { sanitizeInline, sanitizeJson, sanitizeName } from "../../protocol/sanitize.js";
import { compactJson, displayWidth, truncateToWidth, wrapToWidth } from "../format.js";
import type { ApprovalAnswer } from "../state.js";

export interface ApprovalPromptProps {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  width: number;
  /** Rows of arguments shown at once when expanded (the rest scrolls). */
  rows?: number;
  onAnswer: (a: ApprovalAnswer) => void;
}

const DEFAULT_ROWS = 12;

/**
 * "Run tool X on server S with {args}? [y]es / [n]o / [a]lways for this tool". Arguments too long
 * for the line are cut with "…", and what is cut off could be the part that matters (a second
 * command after a harmless first one), so [v] (or Tab, or Ctrl+O as on a card) shows all of them, pretty-printed, wrapped
 * and scrollable (↑/↓, PgUp/PgDn), before the user answers.
 */
export function ApprovalPrompt({ server, tool, args, width, rows = DEFAULT_ROWS, onAnswer }: ApprovalPromptProps) {
  const [expanded, setExpanded] = useState(false);
  const [top, setTop] = useState(0);
  const inner = Math.max(10, width - 2);
  const compact = sanitizeInline(compactJson(args));
  const room = Math.max(20, width * 3 - 40);
  const cut = displayWidth(compact) > room;
  const lines = useMemo(() => (expanded ? wrapToWidth(sanitizeJson(args), inner) : []), [expanded, args, inner]);
  const maxTop = Math.max(0, lines.length - rows);
  useKeys((input, key) => {
    const c = input.toLowerCase();
    if (c === "v" || key.tab || (key.ctrl && input === "o")) {
      setExpanded((e) => !e);
      setTop(0);
    } else if (expanded && key.upArrow) setTop((t) => Math.max(0, t - 1));
    else if (expanded && key.downArrow) setTop((t) => Math.min(maxTop, t + 1));
    else if (expanded && key.pageUp) setTop((t) => Math.max(0, t - rows));
    else if (expanded && key.pageDown) setTop((t) => Math.min(maxTop, t + rows));
    else if (c === "y" || key.return) onAnswer("yes");
    else if (c === "n" || key.escape) onAnswer("no");
    else if (c === "a") onAnswer("always");
  });
  const head = (
    <Text>
      Run tool <Text bold>{sanitizeName(tool)}</Text> on server <Text bold>{sanitizeName(server)}</Text>
      {expanded ? (
        " with these arguments?"
      ) : (
        <>
          {" "}
          with <Text dimColor>{truncateToWidth(compact, room)}</Text>?
        </>
      )}
    </Text>
  );
  const shown = lines.slice(top, top + rows);
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="yellow" width={Math.max(20, width)}>
      {head}
      {expanded && shown.map((l, i) => <Text key={top + i}>{l || " "}</Text>)}
      {expanded && lines.length > rows && (
        <Text dimColor>
          lines {top + 1}–{top + shown.length} of {lines.length} (↑/↓ PgUp/PgDn scroll)
        </Text>
      )}
      <Text color="yellow">
        [y]es / [n]o / [a]lways for this tool
        {expanded
          ? " / [v] hide arguments"
          : cut
            ? " / [v] view all arguments (cut above) · ^O"
            : " / [v] view arguments"}
      </Text>
    </Box>
  );
}
