// Figure 8 — floods. The UI's CPU for a flood of progress notifications (5,000 vs 50,000 on one
// call) and for a streamed reply (10 KB vs 100 KB, and 500 KB), through the real store and the
// real conversation components rendered by Ink onto a 100×40 TTY (a discarding stream that says it
// is a terminal, so Ink takes the same paths as in a real one). Each figure is process CPU time
// (user + system) from the first update to the last frame, the median of 3 (--quick) or 5 runs.
import React, { useSyncExternalStore } from "react";
import { Box, render } from "ink";
import { FinishedTurns, TurnView } from "../src/ui/components/Conversation.js";
import { DRAW_INTERVAL_MS, SessionStore } from "../src/ui/state.js";
import { FakeStdout } from "../test/helpers/fake-tty.js";
import { fmt, int, median, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const WIDTH = 100;

function View({ store }: { store: SessionStore }) {
  const s = useSyncExternalStore(store.subscribe, store.getState);
  return React.createElement(
    Box,
    { flexDirection: "column", width: WIDTH },
    React.createElement(FinishedTurns, { finished: s.finished, width: WIDTH, epoch: s.epoch }),
    s.live ? React.createElement(TurnView, { turn: s.live, width: WIDTH }) : null,
  );
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const tick = () => new Promise<void>((r) => setImmediate(r));

/** Mounts the view, runs `feed`, waits for the last coalesced frame; the CPU it all took. */
async function measure(
  feed: (store: SessionStore) => Promise<void>,
): Promise<{ cpu: number; frames: number; wall: number }> {
  const store = new SessionStore({ paneOpen: false });
  const stdout = new FakeStdout({ columns: WIDTH, isTTY: true, keepFrames: false });
  let frames = 0;
  store.subscribe(() => frames++);
  const app = render(React.createElement(View, { store }), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await feed(store);
  await new Promise((r) => setTimeout(r, DRAW_INTERVAL_MS * 2));
  store.endTurn();
  await tick();
  const cpu = cpuMs(process.cpuUsage(c0));
  const wall = performance.now() - t0;
  app.unmount();
  return { cpu, frames, wall };
}

/** The run with the median CPU of `reps` runs (machine load varies during a bench). */
async function medianOf(
  reps: number,
  feed: (store: SessionStore) => Promise<void>,
): Promise<{ cpu: number; frames: number; wall: number }> {
  const runs = [];
  for (let i = 0; i < reps; i++) runs.push(await measure(feed));
  const m = median(runs.map((r) => r.cpu));
  return runs.find((r) => r.cpu === m) ?? runs.sort((a, b) => a.cpu - b.cpu)[runs.length >> 1];
}

/** `n` progress notifications on one running call, as a server's stream brings them (100 per read). */
function progressFlood(n: number, everyOneDrawn = false) {
  return async (store: SessionStore) => {
    store.startTurn("flood");
    const id = store.toolStart("hostile", "flood_progress", { count: n });
    for (let i = 1; i <= n; i++) {
      store.toolProgress(id, { progress: i, total: n, message: `step ${i}` });
      if (everyOneDrawn) store.update({}); // what the store did before: a redraw per notification
      if (i % 100 === 0) await tick();
    }
  };
}

/** `bytes` of reply text in deltas of ~24 characters, lines of ~80, a few deltas per event-loop turn. */
function streamedReply(bytes: number) {
  return async (store: SessionStore) => {
    store.startTurn("stream");
    await deltas(bytes, (d) => store.appendText(d));
  };
}

async function deltas(bytes: number, send: (d: string) => void): Promise<void> {
  const sentence = "The flood of text keeps coming, one small delta after another, ";
  let sent = 0;
  let line = 0;
  for (let i = 0; sent < bytes; i++) {
    let d = sentence.slice((i * 24) % sentence.length, ((i * 24) % sentence.length) + 24) || "again ";
    line += d.length;
    if (line > 80) {
      d += "\n";
      line = 0;
    }
    send(d);
    sent += d.length;
    if (i % 8 === 0) await tick();
  }
}

export async function floodsBench({ quick, log }: BenchOptions): Promise<Section> {
  log("floods: warm-up");
  await measure(progressFlood(1_000));
  await measure(streamedReply(5_000));
  log("floods: progress 5,000 / 50,000");
  const reps = quick ? 3 : 5;
  const p5 = await medianOf(reps, progressFlood(5_000));
  const p50 = await medianOf(reps, progressFlood(50_000));
  log("floods: progress 5,000, every notification drawn (the old store)");
  const old5 = await measure(progressFlood(5_000, true));
  log("floods: streamed replies");
  const t10 = await medianOf(reps, streamedReply(10_000));
  const t100 = await medianOf(reps, streamedReply(100_000));
  const t500 = quick ? undefined : await measure(streamedReply(500_000));
  const progressRatio = p50.cpu / p5.cpu;
  const textRatio = t100.cpu / t10.cpu;
  const targets: Target[] = [
    {
      name: "Progress flood: 50,000 vs 5,000 notifications",
      target: "≤ 10× the UI CPU (at most linear)",
      figure: `${ratio(progressRatio)}: ${fmt(p50.cpu, 0)} ms vs ${fmt(p5.cpu, 0)} ms CPU`,
      met: progressRatio <= 10,
    },
    {
      name: "Progress flood: 50,000 coalesced vs 5,000 each drawn",
      target: "50,000 coalesced cost less than 5,000 drawn one by one (the old store: > 10× cheaper per notification)",
      figure: `${fmt(p50.cpu, 0)} ms vs ${fmt(old5.cpu, 0)} ms CPU (${int(p50.frames)} vs ${int(old5.frames)} redraws)`,
      met: p50.cpu < old5.cpu,
    },
    {
      name: "Streamed reply: 100 KB vs 10 KB",
      target: "≤ 10× the drawing CPU (at most linear)",
      figure: `${ratio(textRatio)}: ${fmt(t100.cpu, 0)} ms vs ${fmt(t10.cpu, 0)} ms CPU${t500 ? `; 500 KB ${fmt(t500.cpu, 0)} ms (${ratio(t500.cpu / t100.cpu)} of 100 KB)` : ""}`,
      met: textRatio <= 10,
    },
  ];
  const row = (name: string, r: { cpu: number; frames: number; wall: number }) => [
    name,
    `${fmt(r.cpu, 0)} ms`,
    `${fmt(r.wall, 0)} ms`,
    int(r.frames),
  ];
  return {
    id: "floods",
    title: "8. Floods",
    intro: [
      `The store (src/ui/state.ts) and the conversation components of the app, rendered by Ink onto a ${WIDTH}×40 stream that reports itself as a TTY. Progress: one running tool card, the notifications fed 100 per event-loop turn (as a server's stream delivers them). Streamed reply: deltas of ~24 characters, a newline every ~80, 8 deltas per event-loop turn. CPU is the process's user + system time from the first update to the last frame (the run with the median CPU of ${reps} runs; 500 KB and the old store: one run); redraws are the store's listener calls (each one a React render and an Ink frame). Hot updates are drawn at most every ${DRAW_INTERVAL_MS} ms, and a streaming reply's finished lines leave the live frame for <Static>.`,
    ],
    tables: [
      {
        head: ["flood", "CPU", "wall", "redraws"],
        rows: [
          row("5,000 progress notifications", p5),
          row("50,000 progress notifications", p50),
          row("5,000 progress notifications, each drawn (old store)", old5),
          row("10 KB streamed reply", t10),
          row("100 KB streamed reply", t100),
          ...(t500 ? [row("500 KB streamed reply", t500)] : []),
        ],
      },
    ],
    targets,
    notes: [],
  };
}
