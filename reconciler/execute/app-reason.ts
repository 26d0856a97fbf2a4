import type { AppStatus } from '../../lib/wire/daemon.js';
import { crashReason, logTail } from '../../lib/robot-reasons.js';
import { RobotFailure } from './errors.js';

// A failed app in its own words (issue 30.2). The daemon's `error` for a
// crash is `Process exited with code <rc>` and the last lines of the app's
// stderr (spec §9: "the last line of error is the exception"), so the reason
// is the exception of its traceback (lib/robot-reasons.ts), e.g.
// `RuntimeError: boom`, with the exit code after it.

export function appFailureReason(status: Pick<AppStatus, 'error'>): string {
  const lines = (status.error ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return 'no error message';
  const code = /^Process exited with code (-?\d+)/.exec(lines[0] as string)?.[1];
  if (code === undefined) return crashReason(status.error);
  return lines.length === 1 ? `exit code ${code}` : `${crashReason(status.error)} (exit code ${code})`;
}

/** A crash as a failure the report explains: `message`, the exception as the reason, the traceback's end as the log tail. */
export function crashFailure(message: string, status: Pick<AppStatus, 'error'>): RobotFailure {
  return new RobotFailure(message, [crashReason(status.error)], logTail(status.error ?? ''));
}
