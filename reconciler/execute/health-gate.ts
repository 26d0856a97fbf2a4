import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { AppStatus, DaemonStatus } from '../../lib/wire/daemon.js';
import { TerminalError } from './errors.js';
import { sleep } from '../../lib/retry.js';
import { appFailureReason, crashFailure } from './app-reason.js';

// The health gate (rollout.healthy_for): a robot counts as done only when its
// app has run for the whole window without a restart and its daemon reports
// `running` with no error, its backend's included. An exit, a crash, a
// restart or a daemon error inside the window fails the robot, with the
// app's own reason. The app is read every SLICE_MS and the daemon every
// DAEMON_EVERY slices, and both once more at the end: a 10 s window costs a
// robot about 30 small reads.

const SLICE_MS = 500;
const DAEMON_EVERY = 2;

export interface GateProgress {
  app: string;
  /** How long the app has run healthy so far. */
  healthyMs: number;
  healthyForMs: number;
}

export async function healthGate(
  daemon: DaemonClient,
  app: string,
  healthyForMs: number,
  signal: AbortSignal,
  onProgress: (p: GateProgress) => void = () => {},
  since: number = Date.now(),
): Promise<void> {
  for (let slice = 0; ; slice++) {
    const healthyMs = Math.min(healthyForMs, Date.now() - since);
    onProgress({ app, healthyMs, healthyForMs });
    const last = healthyMs >= healthyForMs;
    const [current, status] = await Promise.all([
      daemon.currentAppStatus(signal),
      last || slice % DAEMON_EVERY === 0 ? daemon.daemonStatus(signal) : Promise.resolve(null),
    ]);
    const seconds = ((Date.now() - since) / 1000).toFixed(1);
    const appProblem = unhealthyApp(app, current, seconds);
    if (appProblem) throw current?.state === 'error' && current.info.name === app ? crashFailure(appProblem, current) : new TerminalError(appProblem);
    const daemonProblem = status && unhealthyDaemon(status);
    if (daemonProblem) throw new TerminalError(`${app}: the daemon ${daemonProblem} ${seconds} s after the start`);
    if (last) return;
    await sleep(Math.max(0, Math.min(SLICE_MS, healthyForMs - healthyMs)), signal);
  }
}

/** Why the app is not healthy, or null while it runs. */
export function unhealthyApp(app: string, current: AppStatus | null, seconds: string): string | null {
  if (current === null || current.info.name !== app) {
    return `${app} stopped ${seconds} s after it started (${current === null ? 'no app runs' : `${current.info.name} runs instead`})`;
  }
  switch (current.state) {
    case 'running': return null;
    case 'error': return `${app} crashed ${seconds} s after it started: ${appFailureReason(current)}`;
    case 'done': return `${app} exited ${seconds} s after it started (exit code 0); healthy_for wants it running`;
    case 'starting': return `${app} restarted ${seconds} s after it started`;
    case 'stopping': return `${app} is being stopped by someone else (${seconds} s after it started)`;
  }
}

/** Why the daemon is not healthy (`is stopped`, `reports an error: …`), or null. */
export function unhealthyDaemon(status: DaemonStatus): string | null {
  if (status.state !== 'running') return `is ${status.state}${status.error ? ` (${String(status.error)})` : ''}`;
  if (status.error) return `reports an error: ${String(status.error)}`;
  const backend = status.backend_status as { error?: unknown } | null | undefined;
  if (backend && backend.error) return `reports a backend error: ${String(backend.error)}`;
  return null;
}
