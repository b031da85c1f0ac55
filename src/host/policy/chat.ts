// chat (default): the model gets assistant/content; the user gets media and tables when declared.
import { A_CONTENT, U_CONTENT, U_STRUCTURED, type ModePolicy } from "./types.js";

export const chat: ModePolicy = {
  advertiseExtensions: {},
  sendRequestedOutputs: true,
  preferences: [{ want: A_CONTENT }, { want: U_CONTENT, ifDeclared: true }, { want: U_STRUCTURED, ifDeclared: true }],
};
