// structured: JSON for the model when the tool offers it, else its prose; plus the user variants.
import { A_CONTENT, A_STRUCTURED, U_CONTENT, U_STRUCTURED, type ModePolicy } from "./types.js";

export const structured: ModePolicy = {
  advertiseExtensions: {},
  sendRequestedOutputs: true,
  preferences: [
    { want: A_STRUCTURED, otherwise: A_CONTENT },
    { want: U_CONTENT, ifDeclared: true },
    { want: U_STRUCTURED, ifDeclared: true },
  ],
};
