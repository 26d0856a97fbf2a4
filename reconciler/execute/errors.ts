import { HubError } from '../../drivers/hub/errors.js';
import { DaemonError } from '../../drivers/daemon/errors.js';
import { errorMessage } from '../../lib/errors.js';
import type { Action } from '../types.js';

// Which failures are worth another attempt. Transient: network, timeouts,
// 5xx, 429, a busy daemon. Everything else (4xx, failed jobs, crashed apps)
// is terminal: retrying would only repeat it.

/** A failure the executor must not retry, whatever its cause says. */
export class TerminalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TerminalError';
  }
}

export function isTransient(action: Action, err: unknown): boolean {
  if (err instanceof TerminalError) return false;
  // A create whose outcome is unknown was already resolved by the driver
  // (it lists and adopts); sending it again could make a duplicate.
  if (action.type === 'create') return err instanceof HubError && err.status === 429;
  if (err instanceof HubError) return err.retriable;
  if (err instanceof DaemonError) return err.transient;
  return false;
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
