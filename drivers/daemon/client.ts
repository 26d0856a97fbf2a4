import { Agent, type Dispatcher } from 'undici';
import type { DaemonClient } from './types.js';
import type { AppInfo, AppStatus, AppUpdateInfo, DaemonStatus, JobInfo } from '../../lib/wire/daemon.js';
import { DaemonError, removedNothing } from './errors.js';
import { jobFailureReason } from '../../lib/robot-reasons.js';
import { oneJobAtATime } from './job-lock.js';
import { installOnceMore, OTHER_JOB_WAIT_MS } from './job-collision.js';
import { daemonRequest, type DaemonCall } from './http.js';
import { policyOf, realClock, retrying, sleep, type RetryClock, type RetryPolicy } from '../../lib/retry.js';
import { startResolved } from './start-app.js';
import { watchJobEnd, type JobEndHint } from './job-end.js';
import { identityCalls } from './identity.js';
import { startupAppCalls } from './startup-app.js';
import { updateCalls } from './update.js';
import { waitWhileStopping } from './stop-wait.js';
import { followAppState } from './app-state.js';

// The daemon driver: the real Reachy Mini daemon's routes (spec §2, §4, §6;
// identity and updates, §9: identity.ts, update.ts),
// so it manages a real robot and the bundled simulated one alike. Every call
// goes through the one retry policy (lib/retry.ts): reads and stop are safe
// to repeat; install/remove/update jobs only when the daemon provably did
// not take them (refused connection, 409 busy, 429); a start whose outcome is
// unknown is resolved by reading what runs (start-app.ts).

export interface DaemonClientOptions {
  baseUrl: string;
  /** Per request (default 10 s). Stop and restart wait at least 45 s: the daemon answers after the app exited. */
  timeoutMs?: number;
  /** How long install/remove/update jobs may run (default 10 min). */
  jobTimeoutMs?: number;
  /** Connections shared with other robots (robotPool()); default: one Agent of its own. */
  dispatcher?: Dispatcher;
  maxRetries?: number;
  retryBaseMs?: number;
  retry?: Partial<RetryPolicy>;
  clock?: RetryClock;
  userAgent?: string;
  /** How long an install that collided with another job on the robot waits for it before its one retry (default 30 s). */
  otherJobWaitMs?: number;
}

type Call = DaemonCall;

export function createDaemonClient(opts: DaemonClientOptions): DaemonClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const ua = opts.userAgent ? { userAgent: opts.userAgent } : {};
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const jobTimeoutMs = opts.jobTimeoutMs ?? 600_000;
  const slowMs = Math.max(timeoutMs, 45_000);
  const own = opts.dispatcher ? null : new Agent({ keepAliveTimeout: 4_000, connect: { timeout: Math.min(timeoutMs, 10_000) } });
  const dispatcher = opts.dispatcher ?? (own as Agent);
  const policy = policyOf(opts);
  const clock = opts.clock ?? realClock;
  const call: Call = (path, o = {}) => retrying({
    policy, clock, signal: o.signal, idempotent: o.idempotent ?? (o.method ?? 'GET') === 'GET',
    judge: (err) => (err instanceof DaemonError ? err.failure : { kind: 'unknown' }),
  }, () => daemonRequest(dispatcher, baseUrl, path, { timeoutMs, ...ua, ...o }));
  const jobs = jobCalls(call, jobTimeoutMs, (jobId) => watchJobEnd(baseUrl, jobId));
  const currentAppStatus = (signal?: AbortSignal) => call<AppStatus | null>('/api/apps/current-app-status', { signal });
  const listInstalled = (signal?: AbortSignal) => call<AppInfo[]>('/api/apps/list-available/installed', { signal });
  // A stop in progress must end before a start or a remove (stop-wait.ts).
  const stopped = (signal?: AbortSignal) => waitWhileStopping(() => currentAppStatus(signal), slowMs, signal);

  return {
    baseUrl,
    daemonStatus: (signal) => call<DaemonStatus>('/api/daemon/status', { signal }),
    async waitUntilRunning(waitMs, signal) {
      const deadline = Date.now() + waitMs;
      let last = 'no answer';
      for (;;) {
        try {
          const st = await daemonRequest<DaemonStatus>(dispatcher, baseUrl, '/api/daemon/status', { signal, timeoutMs: Math.min(timeoutMs, 5_000), ...ua });
          if (st.state === 'running') return st;
          last = `state ${st.state}${st.error ? ` (${String(st.error)})` : ''}`;
        } catch (err) {
          if (!(err instanceof DaemonError) || !err.transient) throw err;
          last = err.message;
        }
        if (Date.now() + 500 > deadline) throw new DaemonError('timeout', `robot daemon at ${baseUrl} not running after ${Math.round(waitMs / 1000)} s: ${last}`);
        await realClock.sleep(500, signal);
      }
    },
    listInstalled,
    currentAppStatus,
    install: (app, o) => oneJobAtATime(baseUrl, () => installOnceMore(
      () => jobs.run('/api/apps/install', 'install', app, o), () => listInstalled(o?.signal), opts.otherJobWaitMs ?? OTHER_JOB_WAIT_MS, o?.signal)),
    remove: (name, o) => oneJobAtATime(baseUrl, async () => {
      await stopped(o?.signal);
      return jobs.run(`/api/apps/remove/${encodeURIComponent(name)}`, 'remove', undefined, o);
    }),
    update: (name, o) => oneJobAtATime(baseUrl, async () => {
      await stopped(o?.signal);
      return jobs.run(`/api/apps/update/${encodeURIComponent(name)}`, 'update', undefined, o);
    }),
    async checkUpdates(signal) {
      const r = await call<{ apps_with_updates?: AppUpdateInfo[] }>('/api/apps/check-updates', { signal, timeoutMs: slowMs });
      return (r.apps_with_updates ?? []).map((u) => ({
        app_name: u.app_name, space_id: u.space_id ?? null, installed_sha: u.installed_sha ?? null,
        latest_sha: u.latest_sha ?? null, update_available: Boolean(u.update_available),
      }));
    },
    startApp: async (name, signal) => {
      await stopped(signal);
      return startResolved({
        start: () => daemonRequest<AppStatus>(dispatcher, baseUrl, `/api/apps/start-app/${encodeURIComponent(name)}`, { method: 'POST', signal, timeoutMs, ...ua }),
        current: () => currentAppStatus(signal),
        installed: () => listInstalled(signal),
        retry: (work) => retrying({ policy, clock, signal, idempotent: true, judge: (err) => (err instanceof DaemonError ? err.failure : { kind: 'unknown' }) }, work),
      }, name);
    },
    async stopCurrentApp(signal) {
      try {
        await call<null>('/api/apps/stop-current-app', { method: 'POST', signal, timeoutMs: slowMs, idempotent: true });
      } catch (err) {
        // "No app running" also answers a stop while another stop is under
        // way: that stop is the one asked for, so wait for it to finish.
        if (!(err instanceof DaemonError && err.code === 'no_app_running')) throw err;
        const before = await currentAppStatus(signal);
        if (before?.state !== 'stopping') throw err;
        await stopped(signal);
      }
    },
    restartCurrentApp: (signal) => call<AppStatus>('/api/apps/restart-current-app', { method: 'POST', signal, timeoutMs: slowMs }),
    followAppState: (o) => followAppState({
      baseUrl,
      daemonStatus: () => daemonRequest<DaemonStatus>(dispatcher, baseUrl, '/api/daemon/status', { timeoutMs: Math.min(timeoutMs, 5_000), ...ua }),
      current: () => daemonRequest<AppStatus | null>(dispatcher, baseUrl, '/api/apps/current-app-status', { timeoutMs: Math.min(timeoutMs, 5_000), ...ua }),
    }, o),
    ...identityCalls(call),
    ...startupAppCalls(call),
    ...updateCalls({ baseUrl, call, probe: (path, signal) => daemonRequest(dispatcher, baseUrl, path, { signal, timeoutMs: Math.min(timeoutMs, 5_000), ...ua }) }),
    close: async () => { await own?.close(); },
  };
}

// A job's status is polled with a backoff capped at JOB_POLL_MAX_MS, at most
// four cheap GETs a second. The job's log WebSocket (job-end.ts) only hints
// that it ended, so that the next poll comes at once: the real daemon's
// never answers when the job ended before it connected.
const JOB_POLL_MAX_MS = 250;

function jobCalls(call: Call, jobTimeoutMs: number, watch: (jobId: string) => JobEndHint) {
  async function wait(jobId: string, command: string, o: { timeoutMs?: number; signal?: AbortSignal }): Promise<JobInfo> {
    const hint = watch(jobId);
    try {
      return await poll(jobId, command, o, hint);
    } finally {
      hint.close();
    }
  }
  async function poll(jobId: string, command: string, o: { timeoutMs?: number; signal?: AbortSignal }, hint: JobEndHint): Promise<JobInfo> {
    const deadline = Date.now() + (o.timeoutMs ?? jobTimeoutMs);
    let info: JobInfo = { command, status: 'pending', logs: [] };
    let hinted = false;
    hint.ended.then(() => { hinted = true; }, () => {});
    for (let pause = 50; ; pause = Math.min(pause * 2, JOB_POLL_MAX_MS)) {
      try {
        info = await call<JobInfo>(`/api/apps/job-status/${encodeURIComponent(jobId)}`, { signal: o.signal });
      } catch (err) {
        if (err instanceof DaemonError && err.status === 404) throw new DaemonError('job_failed', `${command} job ${jobId} vanished from the daemon (restarted?)`);
        throw err;
      }
      if (info.status === 'done') return info;
      if (info.status === 'failed') {
        const last = info.logs[info.logs.length - 1] ?? 'no log';
        const reason = jobFailureReason(info.logs);
        const code = command === 'remove' && removedNothing(info.logs) ? 'not_installed' : 'job_failed';
        throw new DaemonError(code, `${command} failed: ${reason.join(' | ')}\n${info.logs.join('\n')}`, { detail: last, logs: info.logs, reason });
      }
      if (Date.now() + pause > deadline) {
        throw new DaemonError('job_timeout', `${command} job did not finish within ${Math.round((o.timeoutMs ?? jobTimeoutMs) / 1000)} s\n${info.logs.join('\n')}`, { logs: info.logs });
      }
      // Until the hint came: wake at the hint or the pause, whichever is first
      // (once it came, a settled promise would wake every sleep at once).
      await sleep(pause, o.signal, hinted ? undefined : hint.ended);
    }
  }
  return {
    async run(path: string, command: string, body: unknown, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<JobInfo> {
      const { job_id } = await call<{ job_id: string }>(path, { method: 'POST', body, signal: o.signal });
      return wait(job_id, command, o);
    },
  };
}
