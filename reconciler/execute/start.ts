import type { DaemonClient } from '../../drivers/daemon/types.js';
import { sleep } from '../../lib/retry.js';
import { TerminalError } from './errors.js';
import { appFailureReason, crashFailure } from './app-reason.js';
import { healthGate, type GateProgress } from './health-gate.js';

// A start: the app is started, seen `running`, then held to the health gate
// (health-gate.ts) for `healthyForMs`. An app that crashes, exits or is
// stopped before that fails the action: that is what stops a canary's
// rollout. With healthyForMs 0 the start counts once the app runs, or once
// it finished cleanly (a one-shot app), as before the gate existed.
//
// While the app is starting it is polled after POLL_MS, then at twice the
// previous pause up to MAX_POLL_MS: 100 robots starting at once on one
// machine stay "starting" for seconds, and a poll every 100 ms cost each of
// them ~30 requests.

const POLL_MS = 100;
const MAX_POLL_MS = 500;
const START_TIMEOUT_MS = 60_000;

export interface StartOptions {
  healthyForMs: number;
  onGate?: (p: GateProgress) => void;
}

export async function startAndSettle(daemon: DaemonClient, app: string, opts: StartOptions, signal: AbortSignal): Promise<void> {
  await daemon.startApp(app, signal);
  const began = Date.now();
  for (let pause = POLL_MS; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    const st = await daemon.currentAppStatus(signal);
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    if (st === null || st.state === 'done') {
      if (opts.healthyForMs === 0) return;
      throw new TerminalError(`${app} exited ${seconds} s after it started (${st === null ? 'nothing runs' : 'exit code 0'}); healthy_for wants it running`);
    }
    if (st.state === 'error') throw crashFailure(`${app} crashed ${seconds} s after it started: ${appFailureReason(st)}`, st);
    if (st.state === 'stopping') throw new TerminalError(`${app} is being stopped by someone else`);
    if (st.state === 'running') break;
    if (Date.now() - began > START_TIMEOUT_MS) throw new TerminalError(`${app} did not reach "running" within ${START_TIMEOUT_MS / 1000} s (state ${st.state})`);
    await sleep(pause, signal);
  }
  // The window runs from the moment the app was seen running.
  if (opts.healthyForMs > 0) await healthGate(daemon, app, opts.healthyForMs, signal, opts.onGate, Date.now());
}
