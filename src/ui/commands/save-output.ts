// /save-output N [file]: writes an audio, image or resource the user sink received (whole or not
// at all, mode 0600: save-file.ts).
import { resolve } from "node:path";
import { formatBytes } from "../../host/result/measure.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import type { Saveable } from "../state.js";
import { fsProblem } from "../transcript.js";
import { writePrivateFile } from "./save-file.js";
import { CommandError, type SlashCommand } from "./types.js";

const EXT: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "text/plain": "txt",
  "text/csv": "csv",
  "text/markdown": "md",
  "application/json": "json",
};

export function defaultFileName(s: Saveable): string {
  const ext = (s.mimeType && EXT[s.mimeType.split(";")[0].trim()]) ?? (s.text !== undefined ? "txt" : "bin");
  return `output-${s.n}.${ext}`;
}

export function saveableBytes(s: Saveable): Buffer {
  if (s.data !== undefined) return Buffer.from(s.data, "base64");
  if (s.text !== undefined) return Buffer.from(s.text, "utf8");
  throw new CommandError(`output ${s.n} is a link to ${sanitizeInline(s.uri ?? "?")}; there is nothing to save`);
}

export const saveOutput: SlashCommand = {
  name: "save-output",
  usage: "/save-output N [file]",
  args: ["output"],
  description: "save audio, image or resource N from the conversation to a file",
  async run(args, ctx) {
    const m = /^(\d+)(?:\s+([\s\S]+))?$/.exec(args.trim());
    if (!m) throw new CommandError("usage: /save-output N [file] (N is the number shown next to the output)");
    const n = Number(m[1]);
    const list = ctx.store.getState().saveables;
    const s = list.find((x) => x.n === n);
    if (!s)
      throw new CommandError(
        list.length ? `no output ${n}: outputs are numbered 1–${list.length}` : "no saveable outputs yet",
      );
    const bytes = saveableBytes(s);
    const path = resolve(ctx.cwd, m[2]?.trim() || defaultFileName(s));
    try {
      await writePrivateFile(path, bytes);
    } catch (e) {
      throw new CommandError(
        `cannot write ${sanitizeInline(path)}: ${sanitizeInline(fsProblem(e))}; nothing was saved`,
      );
    }
    ctx.store.notice(`saved output ${n} (${formatBytes(bytes.length)}) to ${sanitizeInline(path)}`);
  },
};
