// "Did you mean": the nearest of a few known names to a mistyped one (commands, options, tool
// names). Pure: edit distance over bounded strings, so a hostile name costs at most 64×64 steps.

const MAX = 64;

/** Levenshtein distance of two strings (each cut to 64 characters). */
export function editDistance(a: string, b: string): number {
  a = a.slice(0, MAX);
  b = b.slice(0, MAX);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** The candidate nearest to `word` when it is close enough to be a typo (about a third of its letters), else undefined. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && d <= limit) [best, bestDistance] = [c, d];
  }
  return best;
}

/** ` (did you mean X?)`, or "" when nothing is near. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? "" : ` (did you mean ${c}?)`;
}
