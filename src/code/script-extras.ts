// The two things a script reaches besides server tools: `tools.$search(query)` (search.ts) and
// `display(image)`, which hands an image block the script holds to the user: checked, then routed
// by the router to the user sink (never the model; the script's return value stays JSON).
import { route } from "../host/result/router.js";
import type { Routed } from "../host/types.js";
import type { CallAnswer } from "./runner.js";

export { DISPLAY, SEARCH } from "./sandbox-protocol.js";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^image\/[a-z0-9.+-]{1,60}$/i;

export function displayed(args: Record<string, unknown>, onDisplay: ((r: Routed) => void) | undefined): CallAnswer {
  const fail = (message: string): CallAnswer => ({
    ok: false,
    error: { server: "", tool: "display", rule: "invalid-display", message },
  });
  const { type, data, mimeType } = args;
  if (type !== "image")
    return fail(
      `display takes an image block {type: "image", data, mimeType}; got type ${JSON.stringify(type)?.slice(0, 40)}`,
    );
  if (typeof mimeType !== "string" || !MIME.test(mimeType)) return fail("the image's mimeType is not an image/* type");
  if (typeof data !== "string" || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data))
    return fail("the image's data is not base64");
  const routed = route(
    [{ audience: "user", format: "content", content: [{ type: "image", data, mimeType: mimeType.toLowerCase() }] }],
    { appExtensions: [] },
  );
  onDisplay?.(routed);
  return { ok: true, value: null };
}
