// Figure 2 — bytes on the wire per call (the tools/call response line on stdio, JSON-RPC envelope
// included). SEP: the selection each mode's policy makes (read from the Host's own plan for the
// call), sent raw to the demo server on 2026-12-01. Legacy: the same call on 2026-07-28 (modern
// envelope, legacy result) and on 2025-11-25 (initialize). The demo server does NOT mirror
// structuredContent into content; "legacy with mirror" is COMPUTED from the 2025-11-25 result by
// appending the structuredContent serialized as one text block, as the 2025-11-25 spec recommends.
import { Host } from "../src/host/host.js";
import type { Mode } from "../src/host/types.js";
import { APPS_CAPS, modernMeta, spawnStdio, type JsonRpcMessage } from "../test/helpers/raw-stdio.js";
import { MODES } from "./context.js";
import { demoConfig, label, loadWorkload } from "./lib/demo.js";
import { int, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

/** The 2025-11-25 result with structuredContent mirrored as a text block (when not already there). */
export function withMirror(msg: JsonRpcMessage): JsonRpcMessage {
  const r = msg.result;
  if (!r || r.structuredContent === undefined) return msg;
  const text = JSON.stringify(r.structuredContent);
  const content = Array.isArray(r.content) ? r.content : [];
  if (content.some((b: { type?: string; text?: string }) => b.type === "text" && b.text === text)) return msg;
  return { ...msg, result: { ...r, content: [...content, { type: "text", text }] } };
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** Says, from the measured results, whether the server already mirrors structuredContent itself. */
function mirrorNote(rows: { structured: boolean; serverMirrored: boolean }[]): string {
  const withSc = rows.filter((r) => r.structured).length;
  const already = rows.filter((r) => r.serverMirrored).length;
  if (already === 0)
    return `The demo server does not mirror structuredContent into content (${withSc} of ${rows.length} calls carry structuredContent).`;
  if (already === withSc)
    return `The demo server ALREADY mirrors structuredContent into a text block in all ${withSc} legacy results that carry it, so the computed column equals the measured one.`;
  return `The demo server mirrors structuredContent itself in ${already} of the ${withSc} legacy results that carry it.`;
}

export async function wireBench({ log }: BenchOptions): Promise<Section> {
  const { calls } = loadWorkload();
  // What each mode's policy asks for, per call: the Host's own plan.
  const requested = new Map<Mode, unknown[]>();
  const host = await Host.start({ config: demoConfig(), mode: "chat" });
  try {
    for (const mode of MODES) {
      const sel: unknown[] = [];
      for (const c of calls) {
        const o = await host.call(c.tool, c.args, { mode });
        sel.push(o.plan.requested);
      }
      requested.set(mode, sel);
    }
  } finally {
    await host.close();
  }

  log("wire: raw calls on 2026-12-01, 2026-07-28 and 2025-11-25");
  const modern = spawnStdio();
  const old = spawnStdio();
  const rows: {
    sep: Record<Mode, number>;
    l0728: number;
    l1125: number;
    mirror: number;
    mirrorExact: boolean;
    structured: boolean;
    serverMirrored: boolean;
  }[] = [];
  try {
    const init = await old.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    if (init.msg.error) throw new Error(`initialize failed: ${init.msg.error.message}`);
    old.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i];
      const sep = {} as Record<Mode, number>;
      for (const mode of MODES) {
        const sel = requested.get(mode)![i];
        const params: Record<string, unknown> = {
          name: c.tool,
          arguments: c.args,
          _meta: modernMeta("2026-12-01", mode === "app" ? APPS_CAPS : {}),
        };
        if (sel !== undefined) params.requestedOutputs = sel;
        const r = await modern.request("tools/call", params);
        if (r.msg.error) throw new Error(`${label(c)} (${mode}): ${r.msg.error.message}`);
        sep[mode] = bytes(r.raw);
      }
      const l0728 = await modern.request("tools/call", {
        name: c.tool,
        arguments: c.args,
        _meta: modernMeta("2026-07-28"),
      });
      const l1125 = await old.request("tools/call", { name: c.tool, arguments: c.args });
      if (l0728.msg.error || l1125.msg.error) throw new Error(`${label(c)}: legacy call failed`);
      const withM = withMirror(l1125.msg);
      const mirrored = JSON.stringify(withM);
      // Exact when re-serializing the unmodified message reproduces the wire line byte for byte.
      rows.push({
        sep,
        l0728: bytes(l0728.raw),
        l1125: bytes(l1125.raw),
        mirror: bytes(mirrored),
        mirrorExact: JSON.stringify(l1125.msg) === l1125.raw,
        structured: l1125.msg.result?.structuredContent !== undefined,
        serverMirrored: l1125.msg.result?.structuredContent !== undefined && withM === l1125.msg,
      });
    }
  } finally {
    await modern.close();
    await old.close();
  }

  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
  const totals = { l0728: sum((r) => r.l0728), l1125: sum((r) => r.l1125), mirror: sum((r) => r.mirror) };
  const sepTotal = Object.fromEntries(MODES.map((m) => [m, sum((r) => r.sep[m])])) as Record<Mode, number>;
  const perCall: Table = {
    caption: "Response bytes per call (one stdio line, JSON-RPC envelope included)",
    head: [
      "call",
      ...MODES.map((m) => `SEP ${m}`),
      "legacy 2026-07-28",
      "legacy 2025-11-25",
      "2025-11-25 + mirror (computed)",
    ],
    rows: [
      ...calls.map((c, i) => [
        label(c),
        ...MODES.map((m) => int(rows[i].sep[m])),
        int(rows[i].l0728),
        int(rows[i].l1125),
        int(rows[i].mirror),
      ]),
      ["**total**", ...MODES.map((m) => int(sepTotal[m])), int(totals.l0728), int(totals.l1125), int(totals.mirror)],
    ],
  };
  const ratios: Table = {
    caption: "Workload total, each SEP mode against the legacy results (SEP bytes ÷ legacy bytes)",
    head: ["mode", "bytes", "÷ 2026-07-28", "÷ 2025-11-25", "÷ 2025-11-25 + mirror"],
    rows: MODES.map((m) => [
      m,
      int(sepTotal[m]),
      ratio(sepTotal[m] / totals.l0728),
      ratio(sepTotal[m] / totals.l1125),
      ratio(sepTotal[m] / totals.mirror),
    ]),
  };
  const big = calls
    .map((c, i) => ({ c, r: rows[i] }))
    .filter(({ c }) => c.expectRecords !== undefined)
    .map(
      ({ c, r }) =>
        `${label(c)} (${c.expectRecords} records): SEP chat ${int(r.sep.chat)} B, code ${int(r.sep.code)} B, minimal ${int(r.sep.minimal)} B vs legacy+mirror ${int(r.mirror)} B`,
    );
  const targets: Target[] = [];
  return {
    id: "wire",
    title: "2. Wire: bytes per call",
    intro: [
      "Each workload call sent raw over stdio to a spawned demo server: once per mode with the `requestedOutputs` that mode's policy chose (taken from the Host's plan for the same call; app mode advertises the Apps extension), once on 2026-07-28 and once on 2025-11-25 (no selection; the legacy result). Bytes are deterministic; one measurement each.",
      `${mirrorNote(rows)} The "2025-11-25 + mirror" column is COMPUTED from the measured 2025-11-25 result by appending \`JSON.stringify(structuredContent)\` as one text block where no text block already equals it, as the 2025-11-25 spec recommends for backwards compatibility${rows.every((r) => r.mirrorExact) ? " (re-serializing the unmodified result reproduces the wire line byte for byte, so the computed figure is exact)" : " (re-serialization differs from the wire line for some calls: the computed figure is approximate)"}.`,
    ],
    tables: [ratios, perCall],
    targets,
    notes: [
      "SEP modes that ask for user/* or App outputs carry MORE bytes on the wire than the legacy result: those outputs are what the user or the App view sees, and legacy has no way to ask for them. The saving is in what reaches the model (figure 1), not necessarily on the wire.",
      ...big,
    ],
  };
}
