import { useEffect, useState } from "react";

/** The current time, refreshed every `intervalMs` while `active` (for spinners and elapsed time). */
export function useNow(active: boolean, intervalMs = 120): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [active, intervalMs]);
  return now;
}
