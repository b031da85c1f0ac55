// mcp-prism sessions [--json]: the saved sessions (one transcript file each in the state
// directory), the most recently used first: id, time, directory, turns, first prompt.
import { stateDir } from "../../host/config/paths.js";
import { listSessions, summaryLine } from "../../ui/sessions.js";
import { parseOptions, withUsage } from "../args.js";
import { out, outJson } from "../output/terminal.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("sessions", async () => {
    const { values } = parseOptions(argv, { json: { type: "boolean" } }, false);
    const dir = stateDir();
    const sessions = listSessions(dir);
    if (values.json === true) {
      outJson(
        sessions.map(({ id, startedAt, lastAt, cwd, mode, servers, turns, firstPrompt, path }) => ({
          id,
          startedAt,
          lastAt,
          cwd,
          mode: mode ?? null,
          servers,
          turns,
          firstPrompt,
          path,
        })),
      );
      return 0;
    }
    if (!sessions.length) {
      out(`no saved sessions in ${dir}\n`);
      return 0;
    }
    const width = process.stdout.isTTY ? process.stdout.columns || 100 : 160;
    out(
      `${sessions.map((s) => summaryLine(s, width)).join("\n")}\n\nmcp-prism --resume ID goes on with one; --continue with the last one of the current directory\n`,
    );
    return 0;
  });
}
