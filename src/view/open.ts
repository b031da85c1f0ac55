// Opens a URL in the user's browser: $BROWSER, else xdg-open; no shell, detached. False when
// neither could be started (the URL is printed either way).
import { spawn } from "node:child_process";

export function openUrl(url: string): boolean {
  const cmd = process.env.BROWSER || "xdg-open";
  try {
    const child = spawn(cmd, [url], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
