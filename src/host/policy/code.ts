// code: typed data for program logic; the model only gets the host's receipt.
import { A_CONTENT, P_STRUCTURED, type ModePolicy } from "./types.js";

export const code: ModePolicy = {
  advertiseExtensions: {},
  sendRequestedOutputs: true,
  preferences: [{ want: P_STRUCTURED, otherwise: A_CONTENT }],
  receiptOnly: true,
};
