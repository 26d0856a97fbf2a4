// Typed failures of the daemon driver, so the reconciler can act on a state
// (an app already running → stop then start) instead of parsing messages.

import { isTransient, type Failure } from '../../lib/retry.js';
import { DAEMON_MESSAGES } from '../../lib/wire/daemon-update.js';

export type DaemonErrorCode =
  | 'unreachable'
  | 'timeout'
  | 'app_already_running'
  | 'no_app_running'
  | 'app_not_found'
  | 'not_installed'
  | 'job_failed'
  | 'job_timeout'
  | 'busy'
  | 'backend_not_running'
  | 'bad_request'
  | 'bad_response'
  | 'server_error'
  // The identity and update routes (spec §9; identity.ts, update.ts):
  | 'invalid_robot_name'
  | 'job_not_found'
  | 'update_in_progress'
  | 'no_update_available'
  | 'update_failed'
  | 'update_timeout'
  | 'version_mismatch';

export class DaemonError extends Error {
  readonly code: DaemonErrorCode;
  readonly status: number | null;
  /** The daemon's `detail` (or the network error's message). */
  readonly detail: string;
  /** For job failures: the job's log lines. */
  readonly logs: string[];
  /** For job failures: why, in the robot's own words (lib/robot-reasons.ts); empty otherwise. */
  readonly reason: string[];
  /** Worth retrying later: unreachable, timeouts, 5xx, busy. */
  readonly transient: boolean;
  /** What the failed request means for a retry (lib/retry.ts). */
  readonly failure: Failure;

  constructor(code: DaemonErrorCode, message: string, opts: { status?: number | null; detail?: string; logs?: string[]; reason?: string[]; failure?: Failure } = {}) {
    super(message);
    this.name = 'DaemonError';
    this.code = code;
    this.status = opts.status ?? null;
    this.detail = opts.detail ?? message;
    this.logs = opts.logs ?? [];
    this.reason = opts.reason ?? [];
    const transient = ['unreachable', 'timeout', 'busy', 'server_error', 'backend_not_running'].includes(code);
    this.failure = opts.failure ?? (code === 'busy' ? { kind: 'throttled', retryAfterMs: null } : transient ? { kind: 'unknown' } : { kind: 'permanent' });
    this.transient = isTransient(this.failure);
  }
}

/** The real daemon's remove job of an app it does not have (spec §9 Remove): done, for robotctl. */
export function removedNothing(logs: readonly string[]): boolean {
  return /: Cannot uninstall app '.*': it is not installed$/.test(logs[logs.length - 1] ?? '');
}

/** Map a daemon error answer to a code using the real daemon's messages. */
export function codeFor(status: number, detail: string): DaemonErrorCode {
  if (status === 400 && detail === 'An app is already running') return 'app_already_running';
  if (status === 400 && detail === 'No app is currently running') return 'no_app_running';
  if (detail.startsWith('No entry point found for app')) return 'app_not_found';
  if (/^App '.*' is not installed$/.test(detail)) return 'not_installed';
  if (status === 400 && (detail === DAEMON_MESSAGES.updateInProgress || detail === DAEMON_MESSAGES.updateAlreadyInProgress)) return 'update_in_progress';
  if (status === 400 && detail === DAEMON_MESSAGES.noUpdateAvailable) return 'no_update_available';
  if (status === 422 && detail === DAEMON_MESSAGES.invalidRobotName) return 'invalid_robot_name';
  if (status === 404 && detail === DAEMON_MESSAGES.jobNotFound) return 'job_not_found';
  if (status === 409) return 'busy';
  if (status === 503) return 'backend_not_running';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}
