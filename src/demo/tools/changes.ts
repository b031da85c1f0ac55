// The demo's changing parts, so list changes and resource subscriptions show offline:
// add_note appends a note to a customer (customers://{id} changes: subscribers are told), and
// toggle_extras adds or removes a tool, a prompt and a resource (each list changes).
import { defineTool, definePrompt, type ToolkitServer } from "../../server/index.js";
import { addNote } from "../resources.js";
import { customerIdSchema, findCustomer } from "./client-input.js";
import { ToolError } from "../../server/index.js";

const echoTool = defineTool<{ text: string }, { text: string }>({
  name: "extra_echo",
  title: "Echo (extra)",
  description: "Echoes its text. Present only while toggle_extras has it on.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", maxLength: 1000 } },
    required: ["text"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  outputVariants: [{ audience: "assistant", format: "content", project: (r) => [{ type: "text", text: r.text }] }],
  run: ({ text }) => ({ text }),
});

const extraPrompt = definePrompt({
  name: "extra_prompt",
  title: "Extra prompt",
  description: "Present only while toggle_extras has it on.",
  get: () => ({ messages: [{ role: "user", content: { type: "text", text: "Say which extras are on." } }] }),
});

const EXTRA_URI = "notes://extras";

export function changeTools(server: () => ToolkitServer) {
  let on = false;
  const addNoteTool = defineTool<{ customerId: string; note: string }, { customerId: string; notes: number }>({
    name: "add_note",
    title: "Add a note",
    description: "Adds a note to a customer record (customers://{id}); clients subscribed to it are told it changed.",
    inputSchema: {
      type: "object",
      properties: { customerId: customerIdSchema, note: { type: "string", minLength: 1, maxLength: 500 } },
      required: ["customerId", "note"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    outputVariants: [
      {
        audience: "assistant",
        format: "content",
        project: (r) => [{ type: "text", text: `${r.customerId} has ${r.notes} note(s).` }],
      },
    ],
    run({ customerId, note }) {
      const c = findCustomer(customerId);
      if (c instanceof ToolError) return c;
      const notes = addNote(customerId, note);
      server().resourceUpdated(`customers://${customerId}`);
      return { customerId, notes };
    },
  });
  const toggleTool = defineTool<Record<string, never>, { on: boolean }>({
    name: "toggle_extras",
    title: "Toggle extras",
    description:
      "Adds (or removes) the extra_echo tool, the extra_prompt prompt and the notes://extras resource: the lists change.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    outputVariants: [
      {
        audience: "assistant",
        format: "content",
        project: (r) => [{ type: "text", text: `Extras are ${r.on ? "on" : "off"}.` }],
      },
    ],
    run() {
      on = !on;
      const s = server();
      if (on) {
        s.addTool(echoTool);
        s.addPrompt(extraPrompt);
        s.addResource({ uri: EXTRA_URI, name: "extras", mimeType: "text/plain", read: () => "The extras are on." });
      } else {
        s.removeTool(echoTool.name);
        s.removePrompt(extraPrompt.name);
        s.removeResource(EXTRA_URI);
      }
      return { on };
    },
  });
  return [addNoteTool, toggleTool];
}
