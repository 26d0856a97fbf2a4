import type { DaemonClient } from '../../drivers/daemon/types.js';
import { sameRelease } from '../../lib/release-version.js';
import type { RenameRobotAction, UpdateDaemonAction } from '../types.js';
import type { Performed } from './perform.js';

// The robot-level actions through the daemon driver. An update runs the
// daemon's own update job from the release's tag, follows its log (each line
// to `onLog`: the fleet page's log tail), waits through the restart and
// checks the version. A failure is the driver's, in the daemon's words:
// pip's or git's error line, another version, or no healthy answer within
// daemon.update_timeout with what the update last logged (a crash loop).

export interface DaemonUpdateOptions {
  timeoutMs: number;
  signal: AbortSignal;
  onLog?: (line: string) => void;
}

export async function updateDaemon(daemon: DaemonClient, action: UpdateDaemonAction, o: DaemonUpdateOptions): Promise<Performed> {
  // Level-based: a daemon already on the release (another apply, a person, a re-run after a kill) is left as it is.
  const now = await daemon.daemonStatus(o.signal);
  if (now.state === 'running' && typeof now.version === 'string' && sameRelease(now.version, action.to)) {
    return { result: {}, detail: `(already running ${now.version})` };
  }
  const done = await daemon.updateDaemon(action.to, { timeoutMs: o.timeoutMs, signal: o.signal, ...(o.onLog ? { onLog: o.onLog } : {}) });
  return { result: {}, detail: `(running ${String(done.status.version ?? action.to)})` };
}

export async function renameRobot(daemon: DaemonClient, action: RenameRobotAction, signal: AbortSignal): Promise<Performed> {
  const stored = await daemon.setRobotName(action.to, signal);
  return { result: {}, detail: stored === action.to ? '' : `(stored as '${stored}')` };
}
