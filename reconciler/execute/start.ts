import type { DaemonClient } from '../../drivers/daemon/types.js';
import { sleep } from '../../lib/retry.js';
import { TerminalError } from './errors.js';

// A start succeeds when the app is still up after a short settle window (or
// finished cleanly, for one-shot apps). An app that crashes right away fails
// the action: that is what stops a canary rollout.
//
// While the app is starting it is polled after POLL_MS, then at twice the
// previous pause up to SETTLE_SLICE_MS; once it runs, the rest of the settle
// window is waited out in slices of at most SETTLE_SLICE_MS (a crash still
// fails the action within a slice). Polled every 100 ms, a start across a
// fleet cost each robot ~15 status requests, and 100 robots starting at once
// on one machine stay "starting" for seconds: ~30 requests each.

const POLL_MS = 100;
const SETTLE_SLICE_MS = 500;
const START_TIMEOUT_MS = 60_000;

export async function startAndSettle(daemon: DaemonClient, app: string, settleMs: number, signal: AbortSignal): Promise<void> {
  await daemon.startApp(app, signal);
  const began = Date.now();
  let runningSince: number | null = null;
  let starting = POLL_MS;
  for (;;) {
    const st = await daemon.currentAppStatus(signal);
    if (st === null || st.state === 'done') return;
    if (st.state === 'error') throw new TerminalError(`${app} crashed after it started: ${st.error ?? 'no error message'}`);
    let pause = starting;
    starting = Math.min(starting * 2, SETTLE_SLICE_MS);
    if (st.state === 'running') {
      runningSince ??= Date.now();
      const left = settleMs - (Date.now() - runningSince);
      if (left <= 0) return;
      pause = Math.min(left, SETTLE_SLICE_MS);
    } else if (st.state === 'stopping') {
      throw new TerminalError(`${app} is being stopped by someone else`);
    }
    if (Date.now() - began > START_TIMEOUT_MS) throw new TerminalError(`${app} did not reach "running" within ${START_TIMEOUT_MS / 1000} s (state ${st.state})`);
    await sleep(pause, signal);
  }
}
