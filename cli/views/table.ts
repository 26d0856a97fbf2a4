// The one table formatter of the CLI: `status`, `state show`, the apply
// report and `webhooks ls` (in hf's layout) all go through it.

export interface TableOptions {
  /** Between columns (default two spaces). */
  gap?: string;
  /** A line of dashes under the headers, as hf's `tabulate` prints. */
  rule?: boolean;
  /** Pad the last column too and end every line with the gap (hf's exact layout); else lines are trimmed. */
  padLast?: boolean;
  /** Shrink the widest columns, cutting cells with `...`, until a line fits (a terminal's width); null: never cut. */
  maxWidth?: number | null;
  /** Columns never shrunk: ids the user copies into the next command. */
  keep?: number[];
}

export interface Table {
  text: string;
  /** Whether any cell was cut to fit maxWidth. */
  cut: boolean;
}

const MIN_WIDTH = 6;

/** Width on screen: colour codes take no room. */
function visible(s: string): number {
  return s.replace(/\x1b\[[0-9;]*m/g, '').length;
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - visible(s)));
}

function cutTo(s: string, width: number): string {
  return visible(s) > width ? `${s.slice(0, Math.max(0, width - 3))}...` : s;
}

/** Columns padded to the widest cell; with maxWidth, cells cut to fit (never those in `keep`). */
export function formatTable(headers: string[], rows: string[][], opts: TableOptions = {}): Table {
  const gap = opts.gap ?? '  ';
  const widths = headers.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))));
  const cut = opts.maxWidth != null && fit(widths, opts.maxWidth, gap.length, new Set(opts.keep ?? []));
  const line = (cells: string[]): string => {
    const padded = cells.map((c, i) => {
      const w = widths[i] ?? 0;
      const text = cut ? cutTo(c, w) : c;
      return i === cells.length - 1 && !opts.padLast ? text : pad(text, w);
    });
    return opts.padLast ? padded.join(gap) + gap : padded.join(gap).trimEnd();
  };
  const lines = [line(headers)];
  if (opts.rule) lines.push(line(widths.map((w) => '-'.repeat(w))));
  lines.push(...rows.map(line));
  return { text: lines.join('\n'), cut };
}

/** Shrink the widest shrinkable column until a line fits; true if anything shrank. */
function fit(widths: number[], max: number, gap: number, keep: Set<number>): boolean {
  let changed = false;
  const total = (): number => widths.reduce((a, b) => a + b + gap, 0);
  while (total() > max) {
    const candidates = widths.map((w, i) => (keep.has(i) ? -1 : w));
    const widest = Math.max(...candidates);
    if (widest <= MIN_WIDTH) break;
    const i = candidates.indexOf(widest);
    widths[i] = widest - 1;
    changed = true;
  }
  return changed;
}
