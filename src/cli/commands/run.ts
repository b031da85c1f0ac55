// mcp-prism run FILE|- [--server NAME] [--json] [--yes]: runs a script in the code-mode sandbox
// against the configured servers (`tools.<name>(args)` → programmatic/structured), and prints its
// value (stdout, JSON) and console output (stderr); --json prints {"value","logs","calls","error"?}.
// A tool not marked readOnlyHint runs only with --yes. Exit 0 when the script returned, 1 when it
// failed or a server could not start, 2 on a usage error.
import { readFile } from "node:fs/promises";
import { parseCli, UsageError, withUsage } from "../args.js";
import { startErrorFields, withHost } from "../start-host.js";
import { err, out, outJson } from "../output/terminal.js";
import { sanitizeInline, sanitizeText } from "../../protocol/sanitize.js";
import { CallGate } from "../../host/call/gate.js";
import { TranscriptRecorder } from "../../host/transcript/recorder.js";
import { refusingAsker } from "../refuse-asker.js";

/** A script file is read up to this many bytes (the sandbox bounds the text again). */
const MAX_FILE_BYTES = 1024 * 1024;

async function readScript(path: string): Promise<string> {
  if (path === "-") {
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const c of process.stdin) {
      n += (c as Buffer).length;
      if (n > MAX_FILE_BYTES) throw new UsageError(`the script on stdin is over ${MAX_FILE_BYTES} bytes`);
      chunks.push(c as Buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }
  let text: Buffer;
  try {
    text = await readFile(path);
  } catch (e) {
    throw new UsageError(
      `cannot read ${JSON.stringify(path)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  if (text.length > MAX_FILE_BYTES) throw new UsageError(`${JSON.stringify(path)} is over ${MAX_FILE_BYTES} bytes`);
  return text.toString("utf8");
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("run", async () => {
    const cli = parseCli(argv, {}, { positionals: [0, 1] });
    if (cli.positionals.length === 0) throw new UsageError("missing the script: a FILE, or - for stdin");
    const code = await readScript(cli.positionals[0]);
    const { json, yes } = cli.common;
    return withHost(
      { ...cli.common, mode: cli.common.mode ?? "code" },
      (e) => {
        if (json) outJson({ value: null, logs: [], calls: [], error: startErrorFields(e) });
        else err(`mcp-prism run: ${sanitizeInline(e.message)}\n`);
      },
      async (host) => {
        const { runScript } = await import("../../code/bridge.js");
        const { reportOf } = await import("../../code/run-code.js");
        // The script and each of its calls in a session transcript, as the app records /run.
        const recorder = TranscriptRecorder.open((line) => err(`mcp-prism run: ${sanitizeInline(line)}\n`));
        recorder.start({ command: "run", mode: host.mode, servers: host.servers().map((s) => s.name) });
        recorder.record({ kind: "code", event: "start", script: code });
        const result = await runScript(host, code, {
          gate: new CallGate({ yes, ask: refusingAsker("mcp-prism run") }),
          onCall: (c) => recorder.scriptCall(c),
          // A terminal without the app cannot draw it: say what came, never print the bytes.
          onDisplay: (routed) => {
            for (const o of routed.user)
              for (const b of o.format === "content" ? o.content : [])
                if (b.type === "image")
                  err(
                    `mcp-prism run: the script displayed an image (${sanitizeInline(b.mimeType)}, ${Math.floor((b.data.length * 3) / 4)} bytes); the app draws it\n`,
                  );
          },
        });
        const report = reportOf(result);
        recorder.record({
          kind: "code",
          event: "end",
          isError: report.error !== undefined,
          ...(report.error ? { error: report.error } : { value: report.value }),
        });
        recorder.end();
        if (json) outJson(report);
        else {
          for (const line of report.logs) err(`${sanitizeText(line)}\n`);
          if (result.logsCut) err(`mcp-prism run: ${result.logsCut} more console line(s) dropped\n`);
          if (report.error) err(`mcp-prism run: ${sanitizeInline(`${report.error.rule}: ${report.error.message}`)}\n`);
          else out(`${sanitizeText(JSON.stringify(report.value, null, 2))}\n`);
        }
        return report.error ? 1 : 0;
      },
    );
  });
}
