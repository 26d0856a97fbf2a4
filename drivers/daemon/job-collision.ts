import type { AppInfo } from '../../lib/wire/daemon.js';
import { sleep } from '../../lib/retry.js';
import { DaemonError } from './errors.js';

// An install that failed because another job on the robot (its dashboard, an
// other tool) was building the same Space snapshot in the same folder (spec
// §9 Jobs: `creating build/lib/build/lib/...`) is tried once more, after
// that job ended. No route lists the daemon's jobs, so its end is read from
// the installed list: it changes when the other install lands; without a
// change, the retry comes after OTHER_JOB_WAIT_MS.

export const OTHER_JOB_WAIT_MS = 30_000;
const POLL_MS = 500;

/** Setuptools' and pip's lines of two builds in one snapshot folder. */
export function collidedWithAnotherJob(err: unknown): boolean {
  return err instanceof DaemonError && err.code === 'job_failed' && err.logs.some((l) => l.includes('build/lib/build/lib'));
}

export async function afterOtherJob(list: () => Promise<AppInfo[]>, waitMs: number, signal?: AbortSignal): Promise<void> {
  const seen = JSON.stringify(await list());
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), signal);
    if (JSON.stringify(await list()) !== seen) return;
  }
}

/** `install()`, once more after the other job when it collided with one. */
export async function installOnceMore<T>(install: () => Promise<T>, list: () => Promise<AppInfo[]>, waitMs: number, signal?: AbortSignal): Promise<T> {
  try {
    return await install();
  } catch (err) {
    if (!collidedWithAnotherJob(err)) throw err;
    await afterOtherJob(list, waitMs, signal);
    return install();
  }
}
