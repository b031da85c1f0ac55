// The sign-in for the SDK's legacy Streamable HTTP client transport, around the fetch it is given:
// the bearer header on every request, and a 401/403 answered by the server's HttpAuth (then the
// request is sent once more). A refusal that stays is passed on as it came, with why.
import type { HttpAuth } from "./server-auth.js";

export function authorizedFetch(
  inner: typeof fetch,
  auth: HttpAuth,
  refused: (res: Response, why: string | undefined) => void,
): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(init?.headers);
      for (const [k, v] of Object.entries(await auth.headers())) headers.set(k, v);
      const res = await inner(input, { ...init, headers });
      if (res.status !== 401 && res.status !== 403) return res;
      const answer =
        attempt === 0
          ? await auth.challenged(res.status, res.headers.get("www-authenticate") ?? undefined)
          : { retry: false };
      if (!answer.retry) {
        refused(res, answer.why);
        return res;
      }
      await res.body?.cancel().catch(() => {});
    }
  };
}
