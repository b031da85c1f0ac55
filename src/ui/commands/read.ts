// /read URI [server]: reads a resource and shows it here, for the user only (the model never
// sees it; attach it to a prompt with @URI for that).
import { resourceHost, showRead } from "./resource-view.js";
import { CommandError, type SlashCommand } from "./types.js";

export const read: SlashCommand = {
  name: "read",
  usage: "/read URI [server]",
  args: ["resource", "server"],
  description:
    "read a resource and show it, images drawn; a later change is a notice (not sent to the model; @URI in a prompt attaches it)",
  async run(args, ctx) {
    const [uri, server, extra] = args.trim().split(/\s+/).filter(Boolean);
    if (!uri || extra !== undefined) throw new CommandError("usage: /read URI [server]");
    showRead(await resourceHost(ctx).readResource(uri, server), ctx, "/read");
  },
};
