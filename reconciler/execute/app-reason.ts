import type { AppStatus } from '../../lib/wire/daemon.js';

// A failed app in its own words. The daemon's `error` for a crash is
// `Process exited with code <rc>` and the last lines of the app's stderr
// (spec §9: "the last line of error is the exception"), so the reason is the
// last non-empty line, e.g. `RuntimeError: boom`, with the exit code after it.
// (Issue 30 words failure reasons for every robot; until it lands, the health
// gate takes the last line itself, here.)

export function appFailureReason(status: Pick<AppStatus, 'error'>): string {
  const lines = (status.error ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return 'no error message';
  const code = /^Process exited with code (-?\d+)/.exec(lines[0] as string)?.[1];
  const last = lines[lines.length - 1] as string;
  if (code === undefined) return last;
  return lines.length === 1 ? `exit code ${code}` : `${last} (exit code ${code})`;
}
