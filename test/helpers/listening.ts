// Waits for a spawned HTTP server (`demo-server --http 0`, the fixtures) to print
// "listening on URL" on stderr. Rejects on exit or after `timeoutMs`, quoting what stderr said.
import type { ChildProcess } from "node:child_process";

export function waitForListeningUrl(
  child: ChildProcess,
  what: string,
  timeoutMs = 15_000,
): Promise<{ url: string; stderr: () => string }> {
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not print "listening on" within ${timeoutMs} ms; stderr: ${err}`)),
      timeoutMs,
    );
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (c: string) => {
      err += c;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stderr: () => err });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}); stderr: ${err}`));
    });
  });
}
