import type { AppStatus } from '../../lib/wire/daemon.js';
import { sleep } from '../../lib/retry.js';
import { DaemonError } from './errors.js';

// A stop in progress is not a stop done. While an app is stopping (the real
// daemon sends SIGINT, waits up to 20 s, kills, then moves the robot back to
// rest), a second stop-current-app answers 400 "No app is currently running",
// a start "An app is already running" and a remove "Cannot remove … while it
// is running". So before a start or a remove, and after a stop that found
// "no app running", the driver reads the daemon's app state and waits while
// it says `stopping`: the daemon's state decides, never a second stop's answer.

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 500;

/** Resolves with the app status once it is not `stopping`; a DaemonError `timeout` after `timeoutMs`. */
export async function waitWhileStopping(
  current: () => Promise<AppStatus | null>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<AppStatus | null> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = FIRST_POLL_MS; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    const st = await current();
    if (st?.state !== 'stopping') return st;
    if (Date.now() + pause > deadline) {
      throw new DaemonError('timeout', `${st.info.name} is still stopping after ${Math.round(timeoutMs / 1000)} s`);
    }
    await sleep(pause, signal);
  }
}
