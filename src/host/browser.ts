// Opens a URL in the user's browser (sign-in, the App View, a URL-mode elicitation): $BROWSER when
// set (its first `:`-separated entry, `%s` replaced by the URL or the URL appended), else xdg-open
// (open on macOS). No shell; never waits for it. Callers print the URL as well, so it works over SSH.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const onPath = (cmd: string, env: NodeJS.ProcessEnv) =>
  (env.PATH ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, cmd)));

/** The opener's process, started; undefined when it could not be started (no fallback on PATH). */
function startOpener(url: string, env: NodeJS.ProcessEnv): ChildProcess | undefined {
  // Callers check their URLs; this is the last line: never a file:, handler or option-looking argument.
  if (!/^https?:\/\//i.test(url)) return undefined;
  const configured = env.BROWSER?.split(":")[0]?.trim();
  const words = configured ? configured.split(/\s+/) : [process.platform === "darwin" ? "open" : "xdg-open"];
  // A missing command fails only later (an "error" event): look for the fallback on PATH first.
  if (!configured && !onPath(words[0], env)) return undefined;
  const args = words.slice(1);
  const hasSlot = args.some((a) => a.includes("%s"));
  const argv = hasSlot ? args.map((a) => a.replace(/%s/g, url)) : [...args, url];
  try {
    const child = spawn(words[0], argv, { stdio: "ignore", detached: true, env });
    child.on("error", () => {}); // no browser: the printed URL is the way
    child.unref();
    return child;
  } catch {
    return undefined;
  }
}

/** False when the browser command could not be started at all (a missing one may only fail later). */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return startOpener(url, env) !== undefined;
}

/**
 * Opens `url` and waits (at most `waitMs`) for the opener's verdict: undefined when it opened (it
 * exited 0, or still runs: a browser started in the foreground), else why not, in a few words
 * (xdg-open exits non-zero when no browser is set up; a $BROWSER that does not exist fails to start).
 */
export function openBrowserChecked(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  waitMs = 3000,
): Promise<string | undefined> {
  const child = startOpener(url, env);
  if (!child) return Promise.resolve("no $BROWSER set and no xdg-open on PATH");
  const opener =
    env.BROWSER?.split(":")[0]?.trim().split(/\s+/)[0] ?? (process.platform === "darwin" ? "open" : "xdg-open");
  child.ref(); // waited for until the verdict, then let go (a browser may run on after us)
  return new Promise((resolve) => {
    const settle = (why: string | undefined) => {
      clearTimeout(timer);
      child.unref();
      resolve(why);
    };
    const timer = setTimeout(() => settle(undefined), waitMs);
    timer.unref();
    child.once("error", (e: NodeJS.ErrnoException) =>
      settle(`${opener} could not be started (${e.code ?? e.message})`),
    );
    child.once("exit", (code, signal) =>
      settle(code === 0 ? undefined : `${opener} ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}`),
    );
  });
}
