// The slash command registry and dispatcher.
import { imagesSettled, whenRendered } from "../imageCache.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { call } from "./call.js";
import { clear } from "./clear.js";
import { compare } from "./compare.js";
import { help } from "./help.js";
import { logs } from "./logs.js";
import { login } from "./login.js";
import { mcp, reconnect } from "./mcp.js";
import { compact } from "./compact.js";
import { mode } from "./mode.js";
import { model } from "./model.js";
import { pane } from "./pane.js";
import { open } from "./open.js";
import { quit } from "./quit.js";
import { cancel } from "./cancel.js";
import { read } from "./read.js";
import { resume } from "./resume.js";
import { resources } from "./resources.js";
import { run } from "./run.js";
import { save } from "./save.js";
import { saveOutput } from "./save-output.js";
import { servers } from "./servers.js";
import { show } from "./show.js";
import { table } from "./table.js";
import { tools } from "./tools.js";
import { usage } from "./usage.js";
import { view } from "./view.js";
import { splitCommand } from "./parse.js";
import { CommandError, type CommandContext, type SlashCommand } from "./types.js";

export type { CommandContext, CommandHost, SlashCommand } from "./types.js";
export { CommandError } from "./types.js";

export const COMMANDS: readonly SlashCommand[] = [
  help,
  mode,
  model,
  tools,
  servers,
  mcp,
  reconnect,
  logs,
  login,
  resources,
  read,
  call,
  run,
  compare,
  show,
  view,
  pane,
  table,
  clear,
  compact,
  usage,
  resume,
  save,
  saveOutput,
  open,
  cancel,
  quit,
];

export function findCommand(name: string, commands: readonly SlashCommand[] = COMMANDS): SlashCommand | undefined {
  return commands.find((c) => c.name === name);
}

/** Commands not framed as a block headed by the typed line: /quit leaves, /clear and /resume echo themselves on the cleared screen. */
const UNFRAMED = new Set(["quit", "clear", "resume"]);

/**
 * Runs one typed "/..." line, echoed like a prompt. Errors become one red line; the session always
 * goes on. Returns false when the line names no command.
 */
export async function dispatch(line: string, ctx: CommandContext): Promise<boolean> {
  const [name, args] = splitCommand(line);
  const cmd = findCommand(name, ctx.commands);
  if (!cmd) {
    ctx.store.startTurn(line.trim());
    ctx.store.append({
      kind: "notice",
      level: "error",
      text: `unknown command /${sanitizeInline(name).slice(0, 40)} — type /help for the list`,
    });
    ctx.store.endTurn();
    return false;
  }
  const framed = !UNFRAMED.has(cmd.name);
  if (framed) ctx.store.startTurn(line.trim());
  else ctx.store.record({ kind: "user", text: line.trim() });
  try {
    await cmd.run(args, ctx);
  } catch (e) {
    const msg = e instanceof CommandError ? e.message : `/${cmd.name} failed: ${(e as Error)?.message ?? String(e)}`;
    ctx.store.append({ kind: "notice", level: "error", text: sanitizeInline(msg) });
  } finally {
    if (framed) {
      await imagesSettled();
      await Promise.all(ctx.store.liveImages().map((b) => whenRendered(b)));
      ctx.store.endTurn();
    }
  }
  return true;
}
