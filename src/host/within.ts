/** `p`, or `otherwise` after `ms` (Infinity: no bound). */
export function within<T, U>(ms: number, p: Promise<T>, otherwise: U): Promise<T | U> {
  if (!Number.isFinite(ms)) return p;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<U>((r) => (timer = setTimeout(() => r(otherwise), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
