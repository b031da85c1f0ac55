// Opens a URL in the user's browser (sign-in, the App View, a URL-mode elicitation): $BROWSER when
// set (its first `:`-separated entry, `%s` replaced by the URL or the URL appended), else xdg-open
// (open on macOS). No shell; never waits for it. Callers print the URL as well, so it works over SSH.
import { spawn } from "node:child_process";

/** False when the browser command could not be started at all (a missing one may only fail later). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const configured = env.BROWSER?.split(":")[0]?.trim();
  const words = configured ? configured.split(/\s+/) : [process.platform === "darwin" ? "open" : "xdg-open"];
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
