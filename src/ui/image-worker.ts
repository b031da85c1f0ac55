// The drawing worker: decodes one image at a time off the main thread, so a slow decode (a large
// JPEG, a 16-bit or interlaced PNG, a big GIF frame) never stalls the chat, and the main thread
// can stop it at its deadline (src/ui/image-pool.ts terminates the worker).
import { parentPort } from "node:worker_threads";
import { decodeScaled, type DecodeRequest } from "./image-decoders.js";

parentPort?.on("message", (msg: DecodeRequest & { id: number }) => {
  decodeScaled(msg).then(
    (bm) =>
      parentPort!.postMessage({ id: msg.id, ok: true, width: bm.width, height: bm.height, rgba: bm.rgba }, [
        bm.rgba.buffer as ArrayBuffer,
      ]),
    (e: unknown) =>
      parentPort!.postMessage({ id: msg.id, ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
});
