import type { DaemonClient } from '../../drivers/daemon/types.js';
import { sameRelease } from '../../lib/release-version.js';
import { sleep } from '../../lib/retry.js';
import { errorMessage } from '../../lib/errors.js';
import type { RenameRobotAction, UpdateDaemonAction } from '../types.js';
import type { Performed } from './perform.js';
import { unhealthyDaemon, type GateProgress } from './health-gate.js';
import { TerminalError } from './errors.js';

// The robot-level actions through the daemon driver. An update runs the
// daemon's own update job from the release's tag, follows its log (each line
// to `onLog`: the fleet page's log tail), waits through the restart and
// checks the version. A failure is the driver's, in the daemon's words:
// pip's or git's error line, another version, or no healthy answer within
// daemon.update_timeout with what the update last logged (a crash loop).
// Then the rollout's health gate (rollout.healthy_for) holds for the daemon
// as for an app: it must keep answering `running` on the release, with no
// error, that long; a daemon that comes back and falls over again (systemd
// restarting a broken install) fails the robot.

const SLICE_MS = 500;

export interface DaemonUpdateOptions {
  timeoutMs: number;
  /** The health gate's window; 0 skips it. */
  healthyForMs: number;
  signal: AbortSignal;
  onLog?: (line: string) => void;
  onGate?: (p: GateProgress) => void;
}

export async function updateDaemon(daemon: DaemonClient, action: UpdateDaemonAction, o: DaemonUpdateOptions): Promise<Performed> {
  // Level-based: a daemon already on the release (another apply, a person, a re-run after a kill) is left as it is.
  const now = await daemon.daemonStatus(o.signal);
  if (now.state === 'running' && typeof now.version === 'string' && sameRelease(now.version, action.to)) {
    return { result: {}, detail: `(already running ${now.version})` };
  }
  const done = await daemon.updateDaemon(action.to, { timeoutMs: o.timeoutMs, signal: o.signal, ...(o.onLog ? { onLog: o.onLog } : {}) });
  if (o.healthyForMs > 0) await daemonStaysUp(daemon, action.to, o);
  return { result: {}, detail: `(running ${String(done.status.version ?? action.to)})` };
}

/** The daemon answers `running` on `version`, with no error, for the whole window (read every half second). */
async function daemonStaysUp(daemon: DaemonClient, version: string, o: DaemonUpdateOptions): Promise<void> {
  const since = Date.now();
  for (;;) {
    const healthyMs = Math.min(o.healthyForMs, Date.now() - since);
    o.onGate?.({ app: 'daemon', healthyMs, healthyForMs: o.healthyForMs });
    const seconds = (): string => ((Date.now() - since) / 1000).toFixed(1);
    let problem: string | null;
    try {
      const st = await daemon.daemonStatus(o.signal);
      const v = typeof st.version === 'string' ? st.version : 'unknown';
      problem = unhealthyDaemon(st) ?? (sameRelease(v, version) ? null : `runs ${v}`);
    } catch (err) {
      if (o.signal.aborted) throw err;
      problem = `went away (${errorMessage(err)})`;
    }
    if (problem) throw new TerminalError(`the daemon came back on ${version}, then ${problem} ${seconds()} s later (rollout.healthy_for wants it up ${o.healthyForMs / 1000} s)`);
    if (healthyMs >= o.healthyForMs) return;
    await sleep(Math.max(0, Math.min(SLICE_MS, o.healthyForMs - healthyMs)), o.signal);
  }
}

export async function renameRobot(daemon: DaemonClient, action: RenameRobotAction, signal: AbortSignal): Promise<Performed> {
  const stored = await daemon.setRobotName(action.to, signal);
  return { result: {}, detail: stored === action.to ? '' : `(stored as '${stored}')` };
}
