// app: prose for the model plus the App View's data; the only mode advertising the Apps extension.
import { UI_EXTENSION } from "../../protocol/index.js";
import { A_CONTENT, type ModePolicy } from "./types.js";

export const APP_MIME_TYPE = "text/html;profile=mcp-app";

export const app: ModePolicy = {
  advertiseExtensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
  sendRequestedOutputs: true,
  preferences: [{ want: A_CONTENT }, { want: { audience: UI_EXTENSION, format: "structured" }, ifDeclared: true }],
};
