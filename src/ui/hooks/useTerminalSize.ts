import { useEffect, useState } from "react";
import { useStdout } from "ink";

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** Terminal size that follows 'resize' events; `fallback` when stdout is not a terminal. */
export function useTerminalSize(fallback: TerminalSize = { columns: 100, rows: 30 }): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({
    columns: stdout.columns || fallback.columns,
    rows: stdout.rows || fallback.rows,
  });
  const [size, setSize] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is rebuilt each render; the listener is set once per stdout
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
