// Opens a URL in the user's browser (sign-in, the App View, a URL-mode elicitation): $BROWSER when
// set (its first `:`-separated entry, `%s` replaced by the URL or the URL appended), else xdg-open
// (open on macOS). No shell; never waits for it. Callers print the URL as well, so it works over SSH.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const onPath = (cmd: string, env: NodeJS.ProcessEnv) => (env.PATH ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, cmd)));

/** False when the browser command could not be started at all (a missing one may only fail later). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  // Callers check their URLs; this is the last line: never a file:, handler or option-looking argument.
  if (!/^https?:\/\//i.test(url)) return false;
  const configured = env.BROWSER?.split(":")[0]?.trim();
  const words = configured ? configured.split(/\s+/) : [process.platform === "darwin" ? "open" : "xdg-open"];
  // A missing command fails only later (an "error" event): look for the fallback on PATH first.
  if (!configured && !onPath(words[0], env)) return false;
  const args = words.slice(1);
  const hasSlot = args.some((a) => a.includes("%s"));
  const argv = hasSlot ? args.map((a) => a.replace(/%s/g, url)) : [...args, url];
  try {
    const child = spawn(words[0], argv, { stdio: "ignore", detached: true, env });
    child.on("error", () => {}); // no browser: the printed URL is the way
    child.unref();
    return true;
  } catch {
    return false;
  }
}
