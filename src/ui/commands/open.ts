// /open N: shows output N of the conversation in the user's place — a resource_link is read from
// the server that sent it, an embedded resource is drawn from what it carried. Opening never
// moves anything into the model's context (@URI in a prompt does that).
import { sanitizeInline } from "../../protocol/sanitize.js";
import { resourceHost, showRead } from "./resource-view.js";
import { CommandError, type SlashCommand } from "./types.js";

export const open: SlashCommand = {
  name: "open",
  usage: "/open N",
  args: ["output"],
  description:
    "show resource link or embedded resource N here, images drawn (read from its server; not sent to the model)",
  async run(args, ctx) {
    const m = /^(\d+)$/.exec(args.trim());
    if (!m) throw new CommandError("usage: /open N (N is the number shown next to the output)");
    const n = Number(m[1]);
    const list = ctx.store.getState().saveables;
    const s = list.find((x) => x.n === n);
    if (!s)
      throw new CommandError(
        list.length ? `no output ${n}: outputs are numbered 1–${list.length}` : "no outputs to open yet",
      );
    if (s.type === "image" || s.type === "audio")
      throw new CommandError(
        `output ${n} is ${s.type === "image" ? "an image, drawn where it arrived" : "audio"}; /save-output ${n} saves it`,
      );
    const uri = s.uri ?? "";
    if (s.type === "resource_link") {
      if (!s.server) throw new CommandError(`output ${n}: no server is known for ${sanitizeInline(uri)}`);
      showRead(await resourceHost(ctx).readResource(uri, s.server), ctx, `/open ${n}`);
      return;
    }
    const contents =
      s.text !== undefined
        ? [{ uri, mimeType: s.mimeType, text: s.text }]
        : s.data !== undefined
          ? [{ uri, mimeType: s.mimeType, blob: s.data }]
          : [];
    showRead({ ok: true, server: s.server ?? s.tool, uri, contents }, ctx, `/open ${n}`, n);
  },
};
