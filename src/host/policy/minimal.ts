// minimal: no requestedOutputs at all; the server must answer with the assistant/content fallback.
import type { ModePolicy } from "./types.js";

export const minimal: ModePolicy = {
  advertiseExtensions: {},
  sendRequestedOutputs: false,
  preferences: [],
};
