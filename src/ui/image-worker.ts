// The drawing worker: decodes one image at a time off the main thread, so a slow decode (a large
// JPEG, a 16-bit or interlaced PNG, a big GIF frame) never stalls the chat, and the main thread
// can stop it at its deadline (src/ui/image-pool.ts terminates the worker).
import { parentPort } from "node:worker_threads";
import { decodeScaled, type DecodeRequest } from "./image-decoders.js";
import { encodeSixel } from "./graphics/sixel.js";
import { encodePng } from "../protocol/png.js";
import type { Bitmap } from "./image-sample.js";

/** The decoded bitmap, or (asked for) its encoding alone: a picture for the terminal, encoded here too. */
function reply(id: number, bm: Bitmap, encode: DecodeRequest["encode"]) {
  if (encode === "sixel")
    return parentPort!.postMessage({ id, ok: true, width: bm.width, height: bm.height, encoded: encodeSixel(bm) });
  if (encode === "png") {
    const png = new Uint8Array(encodePng(bm.width, bm.height, bm.rgba, true));
    return parentPort!.postMessage({ id, ok: true, width: bm.width, height: bm.height, encoded: png }, [
      png.buffer as ArrayBuffer,
    ]);
  }
  parentPort!.postMessage({ id, ok: true, width: bm.width, height: bm.height, rgba: bm.rgba }, [
    bm.rgba.buffer as ArrayBuffer,
  ]);
}

parentPort?.on("message", (msg: DecodeRequest & { id: number }) => {
  decodeScaled(msg).then(
    (bm) => reply(msg.id, bm, msg.encode),
    (e: unknown) =>
      parentPort!.postMessage({ id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
});
