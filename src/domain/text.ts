/** Edit distance (insertions, deletions, substitutions) between two short strings. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates closest to `input` (case-insensitive), nearest first: those within a third of the
 * longer word's length, or the ones that start with it. Empty when nothing is close.
 */
export function closestMatches(input: string, candidates: readonly string[], max = 3): string[] {
  const needle = input.toLowerCase().slice(0, 64);
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const distance = levenshtein(needle, lower);
      const close = distance <= Math.max(1, Math.floor(Math.max(needle.length, lower.length) / 3));
      const prefix = needle.length >= 3 && (lower.startsWith(needle) || needle.startsWith(lower));
      return { candidate, distance, close: close || prefix };
    })
    .filter((m) => m.close)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map((m) => m.candidate);
}
