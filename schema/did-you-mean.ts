// "did you mean" hints for typos in keys and names. Hand-written edit distance:
// the inputs are short identifiers, so the O(n·m) table is negligible.

/**
 * Levenshtein distance that also counts swapping two neighbours as one edit
 * (optimal string alignment): `recieve` is one typo away from `receive`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const up = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row[j] = d;
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/** The closest candidate within distance 2 (case-insensitive), if any. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    // A one-letter word is "close" to every short name; require some overlap.
    if (d < bestDistance && d < w.length) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `, did you mean 'x'?` or an empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : `, did you mean '${c}'?`;
}
