import { truncateToWidth } from "../format.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { toolCounts, toolIssueLines } from "./tool-issues.js";
import type { SlashCommand } from "./types.js";
import { shownState } from "../server-view.js";
import { explainingLines } from "../../host/connection/tail-buffer.js";

/** Lines of each server's stderr and of the host's diagnostics shown (the newest). */
const SHOWN = 3;

function tail(label: string, lines: readonly string[] | undefined, width: number, firstError?: string): string[] {
  if (!lines || lines.length === 0) return [];
  // stderr: the lines that explain a failure (the first error line, then the last ones that are not stack frames).
  const shown = label === "stderr" ? explainingLines(lines, firstError, SHOWN) : lines.slice(-SHOWN);
  const cause =
    label === "stderr" &&
    firstError !== undefined &&
    shown[0] === firstError &&
    !lines.slice(-SHOWN).includes(firstError);
  const head = cause
    ? `  ${label} (its first error, then the last lines):`
    : lines.length > shown.length
      ? `  ${label} (last ${shown.length} of ${lines.length} kept):`
      : `  ${label}:`;
  return [head, ...shown.map((l) => truncateToWidth(`    ${sanitizeInline(l)}`, width))];
}

/** The roots the server was given (none offered, the usual case: no line). */
function rootLines(roots: readonly string[] | undefined, width: number): string[] {
  if (!roots) return [];
  if (roots.length === 0) return ["  roots: [] (an empty list)"];
  return [`  roots:`, ...roots.map((r) => truncateToWidth(`    ${sanitizeInline(r)}`, width))];
}

export const servers: SlashCommand = {
  name: "servers",
  usage: "/servers",
  description:
    "list servers, protocol versions and connection state, the tools set aside with their rules, the last stderr lines and host diagnostics",
  async run(_args, ctx) {
    const list = ctx.host.servers();
    if (list.length === 0) {
      ctx.store.notice("no servers configured");
      return;
    }
    const mode = ctx.store.getState().mode;
    const [tools, rejected] = await Promise.all([
      ctx.host.settledTools?.(mode) ?? ctx.host.tools(mode),
      ctx.host.toolErrors?.(mode) ?? Promise.resolve([]),
    ]);
    const w = ctx.width();
    ctx.store.notice(
      list
        .flatMap((s) => {
          const issues = toolIssueLines(tools, rejected, w, "    ", s.name);
          return [
            `${sanitizeName(s.name)}  ${s.protocolVersion ? sanitizeName(s.protocolVersion) : "?"}  ${shownState(s.state, s.failure)}${s.error ? ` — ${sanitizeInline(s.error)}` : ""}`,
            ...(issues.length > 0 ? [`  tools: ${toolCounts(tools, rejected, s.name)}; set aside:`, ...issues] : []),
            ...(s.state === "failed" && !s.disabled && s.failure?.rule !== "auth-required"
              ? [`  /reconnect ${sanitizeName(s.name)} connects it again (Esc cancels)`]
              : []),
            ...rootLines(s.roots, w),
            ...tail("diagnostics", s.diagnostics, w),
            ...tail("stderr", s.stderr, w, s.stderrFirstError),
          ];
        })
        .join("\n"),
    );
  },
};
