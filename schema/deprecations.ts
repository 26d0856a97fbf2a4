import type { Diagnostic } from './types.js';
import { record, type Data } from './rules-util.js';

// Keys robot.yaml still reads under an old name, each with a warning that
// names its line (the file loads; the warning says what to write instead).
// Found in the text itself, whichever reader read the file: the first
// `min_ready:` outside a comment, in block or flow style.

const RENAMED: { section: string; old: string; now: string }[] = [
  { section: 'rollout', old: 'min_ready', now: 'healthy_for' },
];

export function deprecationWarnings(data: Data, text: string, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const r of RENAMED) {
    const section = record(data[r.section]);
    if (!section || !(r.old in section)) continue;
    const at = keyPosition(text, r.old);
    out.push({
      file, line: at.line, column: at.column, path: `${r.section}.${r.old}`,
      message: `${r.old} is the old name of ${r.now}: rename it (it means the same; the old name will go)`,
    });
  }
  return out;
}

function keyPosition(text: string, key: string): { line: number; column: number } {
  const pattern = new RegExp(`(^|[\\s{,])${key}\\s*:`);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const code = line.split('#')[0] ?? '';
    const m = pattern.exec(code);
    if (m) return { line: i + 1, column: m.index + (m[1] as string).length + 1 };
  }
  return { line: 1, column: 1 };
}
