// Figure 6 — long sessions. 1,000 scripted turns with the offline model through the real path:
// ChatSession → runTurn → Host (spawned demo server over stdio) → SessionStore, with the whole
// Ink App mounted on a fake TTY (non-debug, throttled like the real app; only the newest write is
// kept, so the harness itself does not grow). Memory: heap used after gc at turn 1 vs turn N.
// Echo: one key written to stdin → the next frame written to stdout, at turn 1 and at turn N.
import React from "react";
import { render } from "ink";
import { Host } from "../src/host/host.js";
import { Conversation } from "../src/model/conversation.js";
import { OfflineModel } from "../src/model/offline.js";
import { runTurn } from "../src/model/turn.js";
import { App } from "../src/ui/App.js";
import { ChatSession, type TurnRunner } from "../src/ui/session.js";
import { SessionStore } from "../src/ui/state.js";
import { FakeStdin, FakeStdout } from "../test/helpers/fake-tty.js";
import { demoConfig } from "./lib/demo.js";
import { fmt, gc, median, ms, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const PROMPTS = [
  'call search_customers {"query":"Globex","limit":50}',
  'call lookup_order {"orderId":"ord_5001"}',
  "hello, what can you do?",
  'call legacy_weather {"city":"Oslo"}',
];
const KEYS = 15;

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

/** Median time from one key on stdin to the next frame on stdout; clears the line afterwards. */
async function echo(stdin: FakeStdin, stdout: FakeStdout): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    await sleep(45); // past Ink's 30 fps throttle window, so the leading edge renders at once
    const drawn = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no frame after a key within 2 s")), 2000);
      stdout.onWrite = () => {
        clearTimeout(timer);
        stdout.onWrite = undefined;
        resolve(performance.now());
      };
    });
    const t0 = performance.now();
    stdin.type(String.fromCharCode(97 + (i % 26)));
    times.push((await drawn) - t0);
  }
  for (let i = 0; i < KEYS; i++) {
    stdin.type("\x7f");
    await sleep(5);
  }
  await sleep(60);
  return times;
}

function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export async function longSessionBench({ quick, log }: BenchOptions): Promise<Section> {
  // Quick mode runs fewer turns (the 2-minute budget); the target is for 1,000 and is then judged on a linear extrapolation, said so.
  const turns = quick ? 300 : 1000;
  if (!(globalThis as { gc?: unknown }).gc)
    log("long-session: no global gc (run node with --expose-gc); heap figures include garbage");
  const host = await Host.start({ config: demoConfig(), mode: "chat" });
  const adapter = new OfflineModel({ chunkDelayMs: 0 });
  const conversation = new Conversation();
  const runner: TurnRunner = async (prompt, o) => {
    const r = await runTurn({ adapter, executor: o.executor, conversation, prompt, mode: o.mode, signal: o.signal });
    return r.error ? { error: r.error.message } : {};
  };
  const store = new SessionStore({ mode: "chat" });
  const session = new ChatSession({
    store,
    executor: host,
    host,
    runTurn: runner,
    autoApprove: true,
  });
  const stdout = new FakeStdout({ columns: 120, isTTY: true, keepFrames: false });
  const stdin = new FakeStdin();
  const ink = render(React.createElement(App, { session, servers: () => host.servers(), modelName: adapter.id }), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout({ columns: 120, isTTY: true, keepFrames: false }) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let heap1 = 0;
  let echo1: number[] = [];
  let failedTurns = 0;
  const turnTimes: number[] = [];
  const t0 = performance.now();
  try {
    for (let t = 1; t <= turns; t++) {
      const before = store.getState().finished.length;
      const ts = performance.now();
      await session.submit(PROMPTS[(t - 1) % PROMPTS.length]);
      turnTimes.push(performance.now() - ts);
      const fin = store.getState().finished;
      if (fin.length !== before + 1) failedTurns++;
      else if (fin[fin.length - 1].items.some((i) => i.kind === "notice" && i.level === "error")) failedTurns++;
      if (t === 1) {
        await sleep(100);
        heap1 = heapMb();
        echo1 = await echo(stdin, stdout);
      }
      if (t % 200 === 0) log(`long-session: turn ${t}`);
    }
    await sleep(100);
    const heapN = heapMb();
    const echoN = await echo(stdin, stdout);
    const elapsed = (performance.now() - t0) / 1000;
    const growth = heapN - heap1;
    const e1 = median(echo1);
    const eN = median(echoN);
    const echoRatio = eN / e1;
    const targets: Target[] = [
      {
        name: "Heap growth over 1,000 turns",
        target: "≤ 50 MB",
        figure:
          turns === 1000
            ? `${fmt(growth, 1)} MB (${fmt(heap1, 1)} → ${fmt(heapN, 1)} MB after gc)`
            : `quick run of ${turns} turns: ${fmt(growth, 1)} MB (${fmt(heap1, 1)} → ${fmt(heapN, 1)} MB), extrapolated linearly to 1,000 turns ${fmt((growth * 1000) / turns, 1)} MB`,
        met: (growth * 1000) / turns <= 50,
      },
      // "Unchanged": within 1.5× (and under one 60 Hz frame of difference); a few ms of jitter on a busy 2-core machine is not growth.
      {
        name: "Keystroke echo at turn 1 vs turn N",
        target: "ratio ≈ 1 (≤ 1.5×)",
        figure: `${ratio(echoRatio)}: ${ms(e1)} → ${ms(eN)} (medians of ${KEYS} keys)`,
        met: echoRatio <= 1.5,
      },
    ];
    return {
      id: "long-session",
      title: "6. Long sessions",
      intro: [
        `${turns} turns in one session (prompts cycling through ${PROMPTS.length}: three tool calls — search_customers Globex (37 rows to the user table), lookup_order, legacy_weather — and one plain answer), offline model without streaming delay, the whole Ink App mounted on a fake 120×40 TTY. ${quick ? "QUICK RUN: 300 turns instead of 1,000." : ""}`,
        `React/Ink run with NODE_ENV=${process.env.NODE_ENV ?? "(unset: development)"}, as \`bin/mcp-prism.js\` ships them (bench/run.ts sets it like the launcher; React's development build adds performance-timeline entries on every render that node keeps for good).`,
        `Heap = \`process.memoryUsage().heapUsed\` after two forced gcs${(globalThis as { gc?: unknown }).gc ? "" : " (NOT available in this run: the figures include garbage)"}. Echo = one key on stdin → the next frame on stdout (Ink's throttle window is left to pass before each key), ${KEYS} keys at turn 1 and at turn ${turns}.`,
      ],
      tables: [
        {
          head: ["measure", "turn 1", `turn ${turns}`],
          rows: [
            ["heap used after gc", `${fmt(heap1, 1)} MB`, `${fmt(heapN, 1)} MB`],
            ["keystroke echo (median)", ms(e1), ms(eN)],
            ["keystroke echo (max)", ms(Math.max(...echo1)), ms(Math.max(...echoN))],
            [
              "turn time (median of the first / last 50 turns)",
              ms(median(turnTimes.slice(0, 50))),
              ms(median(turnTimes.slice(-50))),
            ],
          ],
        },
      ],
      targets,
      notes: [
        `${turns} turns took ${fmt(elapsed, 1)} s in all; ${failedTurns ? `${failedTurns} turns ended without a finished turn or with an error notice` : "every turn finished without an error notice"}.`,
        "The conversation (model context) grows by design: every turn's tool results stay in it. Growth above is all of it — conversation, UI store (finished turns with their routed outputs) and Ink's static output.",
      ],
    };
  } finally {
    ink.unmount();
    await host.close();
  }
}
