// Opens a URL in the user's browser: $BROWSER, else xdg-open; no shell, detached. False when
// neither is there to start (the URL is printed either way).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const onPath = (cmd: string) => (process.env.PATH ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, cmd)));

export function openUrl(url: string): boolean {
  const cmd = process.env.BROWSER || "xdg-open";
  // A missing command fails only later (an "error" event): look for xdg-open first.
  if (!process.env.BROWSER && !onPath(cmd)) return false;
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
