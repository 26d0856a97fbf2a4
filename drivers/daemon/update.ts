import { sameRelease } from '../../lib/release-version.js';
import { sleep } from '../../lib/retry.js';
import type { DaemonStatus, JobInfo } from '../../lib/wire/daemon.js';
import type { InstallSource, UpdateAvailableAnswer } from '../../lib/wire/daemon-update.js';
import { DaemonError } from './errors.js';
import type { DaemonCall } from './http.js';
import { followUpdateLogs, type UpdateLogFollower } from './update-logs.js';
import type { DaemonUpdateOptions, DaemonUpdateResult, UpdateAvailability } from './types.js';

// The daemon's update API (spec §9; routers/update.py) and a whole update as
// robotctl runs it: start the job from the release's git tag, follow its
// log, and wait for the daemon to restart and answer `running` on the new
// version. The real daemon's job ends with `systemctl restart`, which takes
// the daemon (and the job, and its log socket) away; it comes back only
// once it runs, with no memory of the job. So the restart is known from the
// daemon vanishing (refused, or the job id unknown), never from a clock; a
// daemon that does not answer healthy within the timeout (a crash loop)
// fails with what its update last logged.

export const DEFAULT_UPDATE_TIMEOUT_MS = 600_000;
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1000;
/**
 * While the daemon is away for its restart it is asked at least this often:
 * a refused connection costs nothing, and every poll skipped is time an
 * updated robot stands unused (a fleet's wave waits for its last robot; at
 * 1 s, a wave of 100 simulated robots came back up to 0.9 s before it was seen).
 */
const AWAY_POLL_MAX_MS = 250;

/** One status or job read, without the retry policy: an update's wait is its own retry. */
export type Probe = <T>(path: string, signal?: AbortSignal) => Promise<T>;

export interface UpdateDeps {
  baseUrl: string;
  call: DaemonCall;
  probe: Probe;
}

/** The git ref of a release: its tag in pollen-robotics/reachy_mini (`v1.10.0`); anything else (a branch) as given. */
export function refForVersion(version: string): string {
  return /^\d+\.\d+\.\d+/.test(version) ? `v${version}` : version;
}

/** The line of an update's log that says why it failed: pip's or git's error, else the last line. */
export function reasonOf(logs: readonly string[]): string {
  for (let i = logs.length - 1; i >= 0; i--) {
    const line = (logs[i] ?? '').trim();
    if (/^(ERROR:|error:)/.test(line) && !/subprocess-exited-with-error/.test(line)) return line;
  }
  return (logs[logs.length - 1] ?? 'no log').trim();
}

const jobPath = (path: string, jobId: string): string => `${path}?job_id=${encodeURIComponent(jobId)}`;
const gone = (err: unknown): boolean => err instanceof DaemonError && (err.transient || err.code === 'job_not_found');
const tail = (logs: readonly string[]): string => logs.slice(-3).join(' | ');

/**
 * What the daemon last answered while it was away, short: `unreachable:
 * ECONNREFUSED`. The timeout's message already names the daemon, and what
 * the update last logged comes after this and must not be cut off by a
 * report's length limit (a network code's words are for a lone error).
 */
const lastAnswer = (err: Error, baseUrl: string): string =>
  err.message.replace(`robot daemon at ${baseUrl} is `, '').replace(/ \([^()]*\)$/, '');

export function updateCalls(d: UpdateDeps) {
  const startUpdateFromRef = async (ref: string, signal?: AbortSignal): Promise<string> =>
    (await d.call<{ job_id: string }>(`/api/update/start-from-ref?git_ref=${encodeURIComponent(ref)}`, { method: 'POST', signal })).job_id;

  async function waitForVersion(version: string, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DaemonStatus> {
    const timeoutMs = o.timeoutMs ?? DEFAULT_UPDATE_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    for (let pause = POLL_FIRST_MS; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
      try {
        const st = await d.probe<DaemonStatus>('/api/daemon/status', o.signal);
        if (st.state === 'running' && typeof st.version === 'string' && sameRelease(st.version, version)) return st;
        last = `state ${st.state}, version ${String(st.version ?? 'unknown')}`;
      } catch (err) {
        if (!gone(err)) throw err;
        last = (err as Error).message;
      }
      if (Date.now() + pause > deadline) throw new DaemonError('update_timeout', `robot daemon at ${d.baseUrl} not running ${version} after ${Math.round(timeoutMs / 1000)} s: ${last}`);
      await sleep(pause, o.signal);
    }
  }

  async function updateDaemon(version: string, o: DaemonUpdateOptions = {}): Promise<DaemonUpdateResult> {
    const timeoutMs = o.timeoutMs ?? DEFAULT_UPDATE_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const ref = o.ref ?? refForVersion(version);
    const jobId = await startUpdateFromRef(ref, o.signal);
    const logs: string[] = [];
    const take = (lines: readonly string[]): void => {
      for (const line of lines.slice(logs.length)) { logs.push(line); o.onLog?.(line); }
    };
    const follower = followUpdateLogs(d.baseUrl, jobId, () => take(follower.lines));
    try {
      return await waitThroughRestart({ d, version, jobId, signal: o.signal, deadline, timeoutMs, logs, take, follower });
    } finally {
      follower.close();
    }
  }

  return {
    async updateAvailable(o: { preRelease?: boolean; signal?: AbortSignal } = {}): Promise<UpdateAvailability> {
      const r = await d.call<UpdateAvailableAnswer>(`/api/update/available?pre_release=${o.preRelease === true}`, { signal: o.signal });
      const u = r.update.reachy_mini;
      return { isAvailable: u.is_available, currentVersion: u.current_version, availableVersion: u.available_version === 'unknown' ? null : u.available_version };
    },
    installSource: (signal?: AbortSignal) => d.call<InstallSource>('/api/update/install-source', { signal }),
    startUpdate: async (o: { preRelease?: boolean; signal?: AbortSignal } = {}) =>
      (await d.call<{ job_id: string }>(`/api/update/start?pre_release=${o.preRelease === true}`, { method: 'POST', signal: o.signal })).job_id,
    startUpdateFromRef,
    updateInfo: (jobId: string, signal?: AbortSignal) => d.call<JobInfo>(jobPath('/api/update/info', jobId), { signal }),
    followUpdateLogs: (jobId: string, onLine?: (line: string) => void) => followUpdateLogs(d.baseUrl, jobId, onLine),
    waitForVersion,
    updateDaemon,
  };
}

interface Wait {
  d: UpdateDeps;
  version: string;
  jobId: string;
  signal?: AbortSignal;
  deadline: number;
  timeoutMs: number;
  logs: string[];
  take: (lines: readonly string[]) => void;
  follower: UpdateLogFollower;
}

/**
 * The job until it ends, then the daemon until it is back. `away` is set once
 * the daemon was seen gone (refused, or the job forgotten): only then is a
 * running daemon the restarted one, and its version the update's outcome.
 */
async function waitThroughRestart(w: Wait): Promise<DaemonUpdateResult> {
  let away = false;
  let last = 'no answer yet';
  // The log socket's end wakes the next poll at once; once it came, a settled promise would wake every sleep.
  let hinted = false;
  void w.follower.ended.then(() => { hinted = true; });
  const fail = (code: 'update_failed' | 'update_timeout' | 'version_mismatch', message: string, detail: string): DaemonError =>
    new DaemonError(code, message, { detail, logs: [...w.logs] });
  for (let pause = POLL_FIRST_MS; ; pause = Math.min(pause * 2, away ? AWAY_POLL_MAX_MS : POLL_MAX_MS)) {
    if (!away) {
      try {
        const info = await w.d.probe<JobInfo>(jobPath('/api/update/info', w.jobId), w.signal);
        w.take(info.logs);
        if (info.status === 'failed') {
          const reason = reasonOf(info.logs);
          throw fail('update_failed', `daemon update to ${w.version} failed: ${reason}`, reason);
        }
        last = `update job ${info.status}`;
      } catch (err) {
        if (!gone(err)) throw err;
        away = true;
        pause = POLL_FIRST_MS;
        last = lastAnswer(err as Error, w.d.baseUrl);
      }
    }
    if (away) {
      try {
        const st = await w.d.probe<DaemonStatus>('/api/daemon/status', w.signal);
        const v = typeof st.version === 'string' ? st.version : 'unknown';
        if (st.state === 'running' && sameRelease(v, w.version)) return { status: st, jobId: w.jobId, logs: [...w.logs], ref: refForVersion(w.version) };
        if (st.state === 'running' && await stillTheOldDaemon(w)) away = false;
        else if (st.state === 'running') throw fail('version_mismatch', `robot daemon at ${w.d.baseUrl} came back on ${v} after the update to ${w.version}`, v);
        last = `state ${st.state}, version ${v}`;
      } catch (err) {
        if (!gone(err)) throw err;
        last = lastAnswer(err as Error, w.d.baseUrl);
      }
    }
    if (Date.now() + pause > w.deadline) {
      throw fail('update_timeout', `robot daemon at ${w.d.baseUrl} did not answer running ${w.version} within ${Math.round(w.timeoutMs / 1000)} s of its update (last: ${last}); its update last logged: ${tail(w.logs)}`, last);
    }
    await sleep(pause, w.signal, away || hinted ? undefined : w.follower.ended);
  }
}

/** A running daemon on another version that still knows the job has not restarted yet (a network blip looked like the restart). */
async function stillTheOldDaemon(w: Wait): Promise<boolean> {
  try {
    await w.d.probe<JobInfo>(jobPath('/api/update/info', w.jobId), w.signal);
    return true;
  } catch {
    return false;
  }
}
