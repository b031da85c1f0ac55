// The redirect listener of a sign-in: one HTTP server on 127.0.0.1 (RFC 8252 loopback redirect),
// on the port the client was registered with when it is free, else an ephemeral one. It accepts
// exactly one callback with the expected `state` (anything else at the callback path is refused
// and the wait goes on), then closes; it gives up after `timeoutMs` or `maxRequests` requests.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const CALLBACK_PATH = "/callback";
const MAX_URL = 8192;

export interface Loopback {
  redirectUrl: string;
  port: number;
  /** The callback's query parameters (state already checked). Rejects on timeout or close. */
  wait(state: string): Promise<URLSearchParams>;
  close(): void;
}

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInError";
  }
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why a sign-in URL may not be shown or opened, or undefined: only `https:`, and `http:` to a
 * loopback host (a `file:`, `vscode:` or other handler URL would run something on this machine).
 */
export function signInUrlProblem(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  const scheme = url.protocol.slice(0, 40).replace(/[^\x21-\x7E]/g, "?");
  return url.protocol === "http:"
    ? `the authorization URL is http: to a host that is not loopback (${url.hostname.slice(0, 100).replace(/[^\x21-\x7E]/g, "?")}); only https: is shown or opened`
    : `the authorization URL's scheme is ${scheme}; only https: (or http: to loopback) is shown or opened`;
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>mcp-prism</title><p style="font:16px sans-serif">${text}</p>`;

export async function listenLoopback(
  preferredPort: number | undefined,
  timeoutMs: number,
  maxRequests = 50,
): Promise<Loopback> {
  let expected: string | undefined;
  let settle: { resolve: (p: URLSearchParams) => void; reject: (e: Error) => void } | undefined;
  let early: URLSearchParams | undefined;
  let requests = 0;
  let done = false;
  const server: Server = createServer((req, res) => {
    requests++;
    const raw = req.url ?? "/";
    const url = raw.length <= MAX_URL ? new URL(raw, "http://127.0.0.1") : undefined;
    if (done || !url || url.pathname !== CALLBACK_PATH || req.method !== "GET") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    } else if (expected === undefined || url.searchParams.get("state") !== expected) {
      res
        .writeHead(400, { "content-type": "text/html" })
        .end(PAGE("This sign-in link is not the one mcp-prism is waiting for."));
    } else {
      done = true;
      const failed = url.searchParams.get("error");
      res
        .writeHead(200, { "content-type": "text/html", connection: "close" })
        .end(
          PAGE(
            failed
              ? "Sign-in failed. You can close this tab."
              : "Signed in. You can close this tab and return to mcp-prism.",
          ),
        );
      if (settle) settle.resolve(url.searchParams);
      else early = url.searchParams;
      close();
      return;
    }
    if (requests >= maxRequests)
      fail(new SignInError(`the sign-in listener got ${requests} requests without a valid callback`));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  try {
    await listen(preferredPort ?? 0);
  } catch {
    await listen(0);
  }
  const port = (server.address() as AddressInfo).port;
  const timer = setTimeout(
    () => fail(new SignInError(`no sign-in within ${Math.round(timeoutMs / 1000)} s`)),
    timeoutMs,
  );
  timer.unref();
  function close(): void {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
  function fail(e: Error): void {
    done = true;
    close();
    settle?.reject(e);
    settle = undefined;
  }
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    port,
    wait(state) {
      expected = state;
      if (early) return Promise.resolve(early);
      if (done) return Promise.reject(new SignInError("the sign-in listener is closed"));
      return new Promise((resolve, reject) => (settle = { resolve, reject }));
    },
    close: () => fail(new SignInError("sign-in cancelled")),
  };
}
