// /save: the transcript as JSON Lines, one object per conversation item.
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { sanitizeInline } from "../sanitize.js";
import type { Turn, TurnItem } from "../state.js";
import { CommandError, type SlashCommand } from "./types.js";

export function transcriptLines(turns: readonly Turn[]): string[] {
  const lines: string[] = [];
  for (const t of turns) for (const it of t.items) lines.push(JSON.stringify({ turn: t.id, ...itemRecord(it) }));
  return lines;
}

function itemRecord(it: TurnItem): Record<string, unknown> {
  if (it.kind !== "tool") return it;
  const { call } = it;
  const o = call.outcome;
  return {
    kind: "tool",
    server: call.server,
    tool: call.tool,
    arguments: call.args,
    ...(o ? { protocolVersion: o.plan.protocolVersion, requestedOutputs: o.plan.requested ?? null, durationMs: Math.round(o.durationMs) } : { running: true }),
    ...(o && o.ok ? { isError: o.isError, bytes: o.bytes, routed: o.routed } : {}),
    ...(o && !o.ok ? { error: o.error } : {}),
  };
}

export const save: SlashCommand = {
  name: "save",
  usage: "/save [file]",
  description: "save the transcript as JSON Lines (default transcript-<time>.jsonl)",
  async run(args, ctx) {
    const s = ctx.store.getState();
    const turns = s.live ? [...s.finished, s.live] : s.finished;
    const name = args.trim() || `transcript-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
    const path = resolve(ctx.cwd, name);
    const lines = transcriptLines(turns);
    try {
      await writeFile(path, lines.join("\n") + (lines.length ? "\n" : ""), "utf8");
    } catch (e) {
      throw new CommandError(`cannot write ${sanitizeInline(path)}: ${sanitizeInline((e as Error).message)}`);
    }
    ctx.store.notice(`saved ${lines.length} items to ${sanitizeInline(path)}`);
  },
};
