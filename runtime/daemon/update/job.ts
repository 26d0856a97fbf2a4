import { sleep } from '../../../lib/retry.js';
import { RESTART_COMMAND, type InstallSource } from '../../../lib/wire/daemon-update.js';
import type { DaemonContext } from '../context.js';
import { gitRefSteps, pypiSteps, simCommit, unknownRefStep, type Step } from './job-lines.js';

// The simulated update job: the real job's steps and lines (job-lines.ts),
// paced so an update takes about a second, the same on every robot, then the
// restart. A ref that names no release fails in the first install, as pip's
// git checkout fails on the real robot; the daemon then goes on unchanged.

/** Each install's output is spread over this long: two installs, then the restart (supervisor.ts: BOOT_MS). */
export const STEP_MS = 200;

export type UpdateRequest = { from: 'pypi'; preRelease: boolean; version: string } | { from: 'ref'; ref: string };

async function run(step: Step, log: (line: string) => void, signal: AbortSignal): Promise<void> {
  log(`Running: ${step.command}`);
  const pause = STEP_MS / Math.max(1, step.output.length);
  for (const line of step.output) {
    await sleep(pause, signal);
    log(line);
  }
}

export async function runUpdate(ctx: DaemonContext, req: UpdateRequest, log: (line: string) => void): Promise<void> {
  const signal = ctx.abort.signal;
  const from = ctx.release.version;
  log('Updating daemon venv...');
  let to: string;
  let installed: InstallSource;
  let steps: Step[];
  if (req.from === 'ref') {
    const ref = req.ref.trim();
    const found = ctx.release.list.resolveRef(ref);
    if (found === null) {
      const step = unknownRefStep(ref);
      await run(step, log, signal);
      throw new Error(`Command failed with exit code 1: ${step.command}`);
    }
    to = found;
    installed = { version: to, source: 'git', git_ref: ref, commit: simCommit(to) };
    steps = gitRefSteps(ref, from, to);
  } else {
    to = req.version;
    installed = { version: to, source: 'pypi' };
    steps = pypiSteps(req.preRelease, from, to);
  }
  const [daemonVenv, appsVenv] = steps;
  if (daemonVenv) await run(daemonVenv, log, signal);
  log('Updating apps_venv SDK...');
  if (appsVenv) await run(appsVenv, log, signal);
  log('Apps venv SDK updated successfully');
  log(`Running: ${RESTART_COMMAND}`);
  // From here until the daemon is gone, it is still busy updating (update.py's busy_lock).
  ctx.release.restarting = true;
  ctx.supervisor.restart(installed);
}
