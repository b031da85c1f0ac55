// A yes/no question on the terminal (stderr), for one-shot commands that would run a tool that is
// not read-only. Without a terminal on stdin nothing is asked and the answer is no.
import { createInterface } from "node:readline";

export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(`${question} [y/N] `, resolve);
      rl.once("close", () => resolve(""));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
