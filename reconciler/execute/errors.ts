import { HubError } from '../../drivers/hub/errors.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import { errorMessage } from '../../lib/errors.js';
import { logTail } from '../../lib/robot-reasons.js';
import type { Action } from '../types.js';

// The executor's view of failures: a TerminalError (a start that crashed,
// an action whose spec left robot.yaml), the daemon states it acts on, and
// one line for the report. Whether to retry is the drivers' business
// (lib/retry.ts), decided before a failure reaches the executor.

/** A failure the executor must not retry, whatever its cause says. */
export class TerminalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TerminalError';
  }
}

/** A failure the robot explained: why in its own words (issue 30.1/30.2), and the end of its log or traceback. */
export class RobotFailure extends TerminalError {
  constructor(message: string, readonly reason: string[], readonly logTail: string[]) {
    super(message);
    this.name = 'RobotFailure';
  }
}

/** What a failed action's report shows besides its one line: the robot's reason and log tail (empty when it gave none). */
export function failureDetail(err: unknown): { reason: string[]; logTail: string[] } {
  const e = err;
  if (e instanceof RobotFailure) return { reason: e.reason, logTail: e.logTail };
  if (e instanceof DaemonError && e.reason.length > 0) return { reason: e.reason, logTail: logTail(e.logs) };
  return { reason: [], logTail: [] };
}

/** The daemon refused a start because another app runs: stop it, then start again. */
export function isAlreadyRunning(err: unknown): boolean {
  return err instanceof DaemonError && err.code === 'app_already_running';
}

export function isDaemonCode(err: unknown, ...codes: string[]): boolean {
  return err instanceof DaemonError && codes.includes(err.code);
}

export function isHubNotFound(err: unknown): boolean {
  return err instanceof HubError && err.status === 404;
}

/** One line for the user: the first line of the message (job logs follow on later lines). */
export function shortReason(err: unknown): string {
  const text = errorMessage(err);
  const first = text.split('\n')[0] ?? text;
  return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}
