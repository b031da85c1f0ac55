import React from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.js";
import { sanitizeInline, sanitizeName } from "../sanitize.js";
import { compactJson, truncateToWidth } from "../format.js";
import type { ApprovalAnswer } from "../state.js";

export interface ApprovalPromptProps {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  width: number;
  onAnswer: (a: ApprovalAnswer) => void;
}

/** "Run tool X on server S with {args}? [y]es / [n]o / [a]lways for this tool" */
export function ApprovalPrompt({ server, tool, args, width, onAnswer }: ApprovalPromptProps) {
  useKeys((input, key) => {
    const c = input.toLowerCase();
    if (c === "y" || key.return) onAnswer("yes");
    else if (c === "n" || key.escape) onAnswer("no");
    else if (c === "a") onAnswer("always");
  });
  const argText = truncateToWidth(sanitizeInline(compactJson(args)), Math.max(20, width * 3 - 40));
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="yellow" width={Math.max(20, width)}>
      <Text>
        Run tool <Text bold>{sanitizeName(tool)}</Text> on server <Text bold>{sanitizeName(server)}</Text> with <Text dimColor>{argText}</Text>?
      </Text>
      <Text color="yellow">[y]es / [n]o / [a]lways for this tool</Text>
    </Box>
  );
}
