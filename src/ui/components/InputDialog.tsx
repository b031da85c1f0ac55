// A server's question above the prompt: an elicitation form drawn from the requested schema
// (↑/↓ field, type to edit, Space toggles, ←/→ choose, Enter accept, ^D decline, Esc cancel), a
// URL elicitation (the URL shown; [o] opens it with $BROWSER only when asked), or a sampling
// approval (server, messages, system prompt, max tokens; [y]/[n]). Everything shown is sanitized.
import { useRef, useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.js";
import { checkAnswer, formDefaults, type FormField } from "../../host/input/input-form.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";
import { openBrowser } from "../../host/browser.js";
import type { PendingInput } from "../input-dialogs.js";
import { IssuerQuestion, ViewQuestion } from "./ViewQuestion.js";

type Value = string | boolean | string[];
const MAX_EDIT = 10_000;

export function InputDialog({ input, width }: { input: PendingInput; width: number }) {
  if (input.kind === "sample") return <SampleApproval input={input} width={width} />;
  if (input.kind === "view") return <ViewQuestion req={input.req} width={width} onAnswer={input.resolve} />;
  if (input.kind === "issuer") return <IssuerQuestion req={input.req} width={width} onAnswer={input.resolve} />;
  if (input.req.mode === "url") return <UrlPrompt input={input} width={width} />;
  return <ElicitForm key={input.req.message} input={input} width={width} />;
}

function Frame({ title, width, children }: { title: string; width: number; children: React.ReactNode }) {
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="cyan" width={Math.max(20, width)}>
      <Text bold>{truncateToWidth(title, Math.max(10, width - 2))}</Text>
      {children}
    </Box>
  );
}

/** The form's starting values: its defaults, text for number fields. */
function initial(fields: readonly FormField[]): Record<string, Value> {
  const d = formDefaults(fields);
  const out: Record<string, Value> = {};
  for (const f of fields) {
    const v = d[f.key];
    if (f.kind === "boolean") out[f.key] = v === true;
    else if (f.kind === "multi") out[f.key] = Array.isArray(v) ? v : [];
    else if (f.kind === "enum") out[f.key] = typeof v === "string" ? v : "";
    else out[f.key] = v === undefined ? "" : String(v);
  }
  return out;
}

/** The answer the form's values make (empty fields left out: the host fills defaults or says "required"). */
function answerOf(fields: readonly FormField[], values: Record<string, Value>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.kind === "number" || f.kind === "integer") {
      if (v !== "") out[f.key] = /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(String(v)) ? Number(v) : v;
    } else if (f.kind === "boolean" || f.kind === "multi") out[f.key] = v;
    else if (v !== "") out[f.key] = v;
  }
  return out;
}

/** `text` typed into `value`: a chunk may mix characters and backspaces ("\x7f7"); other controls are dropped. */
function edited(value: string, text: string): string {
  let out = value;
  for (const ch of text) {
    if (ch === "\x7f" || ch === "\b") out = out.slice(0, -1);
    else if (ch >= " " && out.length < MAX_EDIT) out += ch;
  }
  return out;
}

function ElicitForm({ input, width }: { input: Extract<PendingInput, { kind: "elicit" }>; width: number }) {
  const req = input.req as Extract<typeof input.req, { mode: "form" }>;
  const fields = req.fields;
  // Keys can come several to a chunk (one handler call each, one render after): the form's state
  // lives in a ref each key reads and changes, and a render is asked for after.
  const st = useRef({ values: initial(fields), at: 0, option: 0, problem: undefined as string | undefined });
  const [, render] = useState(0);
  useKeys((text, key) => {
    const s = st.current;
    const field = fields[s.at] as FormField | undefined;
    const set = (v: Value) => field && (s.values = { ...s.values, [field.key]: v });
    if (key.escape) return input.resolve({ action: "cancel" });
    if (key.ctrl && text === "d") return input.resolve({ action: "decline" });
    s.problem = undefined;
    // Text and Enter in one chunk ("8\r"): the text is typed, then the form is sent.
    const enter = key.return || /[\r\n]$/.test(text);
    if (
      enter &&
      !key.return &&
      field &&
      (field.kind === "string" || field.kind === "number" || field.kind === "integer")
    )
      set(edited(String(s.values[field.key]), text.replace(/[\r\n]+$/, "")));
    if (enter) {
      const checked = checkAnswer(fields, answerOf(fields, s.values));
      if (checked.ok) return input.resolve({ action: "accept", content: checked.value });
      s.problem = checked.detail;
    } else if (key.upArrow || key.downArrow) {
      s.at = Math.max(0, Math.min(fields.length - 1, s.at + (key.upArrow ? -1 : 1)));
      s.option = 0;
    } else if (field) {
      const v = s.values[field.key];
      if (field.kind === "boolean") {
        if (text === " ") set(!v);
      } else if (field.kind === "enum") {
        const n = field.options.length;
        const i = field.options.findIndex((o) => o.value === v);
        if (key.leftArrow || key.rightArrow)
          set(field.options[(Math.max(i, 0) + (key.leftArrow ? n - 1 : i < 0 ? 0 : 1)) % n]?.value ?? "");
      } else if (field.kind === "multi") {
        if (key.leftArrow || key.rightArrow)
          s.option = Math.max(0, Math.min(field.options.length - 1, s.option + (key.leftArrow ? -1 : 1)));
        else if (text === " ") {
          const chosen = field.options[s.option]?.value;
          const list = v as string[];
          if (chosen !== undefined) set(list.includes(chosen) ? list.filter((x) => x !== chosen) : [...list, chosen]);
        }
      } else if (key.backspace || key.delete) set(String(v).slice(0, -1));
      else if (text && !key.ctrl && !key.meta) set(edited(String(v), text));
    }
    render((n) => n + 1);
  });
  const { values, at, option, problem } = st.current;
  const field = fields[at] as FormField | undefined;
  const inner = Math.max(10, width - 4);
  return (
    <Frame title={`Server ${sanitizeName(req.server)} asks: ${sanitizeInline(req.message)}`} width={width}>
      {fields.map((f, i) => {
        const v = values[f.key];
        const shown =
          f.kind === "boolean"
            ? v
              ? "[x]"
              : "[ ]"
            : f.kind === "multi"
              ? f.options
                  .map(
                    (o, j) =>
                      `${i === at && j === option ? ">" : ""}${(v as string[]).includes(o.value) ? "[x]" : "[ ]"} ${o.label}`,
                  )
                  .join("  ")
              : f.kind === "enum"
                ? `‹ ${f.options.find((o) => o.value === v)?.label ?? "(none)"} ›`
                : `${String(v)}${i === at ? "▏" : ""}`;
        const label = `${i === at ? "›" : " "} ${f.title}${f.required ? "*" : ""}: `;
        return (
          <Text key={f.key} color={i === at ? "cyan" : undefined}>
            {truncateToWidth(label + sanitizeInline(shown), inner)}
          </Text>
        );
      })}
      {field?.description ? <Text dimColor>{truncateToWidth(field.description, inner)}</Text> : null}
      {problem ? <Text color="red">{truncateToWidth(problem, inner)}</Text> : null}
      <Text color="cyan">
        ↑/↓ field · type to edit · Space toggle · ←/→ choose · Enter accept · ^D decline · Esc cancel
      </Text>
    </Frame>
  );
}

function UrlPrompt({ input, width }: { input: Extract<PendingInput, { kind: "elicit" }>; width: number }) {
  const req = input.req as Extract<typeof input.req, { mode: "url" }>;
  const [note, setNote] = useState<string | undefined>();
  useKeys((text, key) => {
    const c = text.toLowerCase();
    if (key.escape) input.resolve({ action: "cancel" });
    else if (c === "n") input.resolve({ action: "decline" });
    else if (c === "y") input.resolve({ action: "accept" });
    else if (c === "o") {
      if (openBrowser(req.url)) input.resolve({ action: "accept" });
      else setNote("could not start a browser: open the URL yourself, then press y");
    }
  });
  return (
    <Frame
      title={`Server ${sanitizeName(req.server)} asks you to open a page: ${sanitizeInline(req.message)}`}
      width={width}
    >
      <Text>{sanitizeInline(req.url)}</Text>
      {note ? <Text color="yellow">{note}</Text> : null}
      <Text color="cyan">[o]pen in the browser · [y] done / accept · [n] decline · Esc cancel</Text>
    </Frame>
  );
}

function SampleApproval({ input, width }: { input: Extract<PendingInput, { kind: "sample" }>; width: number }) {
  const { req } = input;
  useKeys((text, key) => {
    const c = text.toLowerCase();
    if (c === "y" || key.return) input.resolve(true);
    else if (c === "n" || key.escape) input.resolve(false);
  });
  const inner = Math.max(10, width - 4);
  const shown = req.messages.slice(-6);
  return (
    <Frame
      title={`Server ${sanitizeName(req.server)} asks the model for a sample (at most ${req.maxTokens} tokens)`}
      width={width}
    >
      {req.systemPrompt !== undefined ? (
        <Text dimColor>{truncateToWidth(`system: ${sanitizeInline(req.systemPrompt)}`, inner)}</Text>
      ) : null}
      {req.ignored !== undefined ? <Text dimColor>{truncateToWidth(req.ignored, inner)}</Text> : null}
      {req.messages.length > shown.length ? (
        <Text dimColor>… {req.messages.length - shown.length} earlier messages</Text>
      ) : null}
      {shown.map((m, i) => (
        <Text key={i}>{truncateToWidth(`${m.role}: ${sanitizeInline(m.text)}`, inner)}</Text>
      ))}
      <Text color="cyan">Send this to the model? The answer goes to the server only. [y]es / [n]o</Text>
    </Frame>
  );
}
