import { setMaxListeners } from 'node:events';
import { Agent } from 'undici';
import { buildPayload, type HubEvent } from './events.js';
import { matchWebhooks } from './match.js';
import { runJobCommand } from './jobs.js';
import { sendOnce } from './send.js';
import { objectId } from './ids.js';
import type { HubStore } from './store.js';
import type { DeliveryAttempt, StoredWebhook } from './types.js';
import { SENSITIVE } from '../../lib/sensitive.js';
import { realClock, retrying, statusFailure, type Failure, type RetryClock, type RetryPolicy } from '../../lib/retry.js';

export interface DelivererOptions {
  store: HubStore;
  baseUrl: () => string;
  /** Names of the hub's users (owners of private repos see their events). */
  ownersOf: (repoId: string, creator: string) => Set<string>;
  log: (line: string) => void;
  jobCommand: string | null;
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  triggersPerDay: number;
  userAgent: string;
  /** Waits between attempts (tests inject one that does not sleep). */
  clock?: RetryClock;
}

/** A failed delivery attempt, already recorded; carries what a retry may do. */
class DeliveryFailed extends Error {
  constructor(readonly failure: Failure) {
    super('delivery failed');
  }
}

const DAY_MS = 24 * 3600 * 1000;
const MAX_ACTIVITY = 200;
const MAX_JOB_RUNS = 500;
const JOB_TIMEOUT_MS = 120_000;

/**
 * Fans events out to webhooks, off the request path: emit() returns at once.
 * Failed attempts are retried under robotctl's one retry policy
 * (lib/retry.ts: exponential backoff with jitter, up to maxAttempts; 5xx,
 * 408/429 and network errors are retried, other 4xx are final); every
 * attempt is recorded. idle() resolves when nothing is pending (for tests).
 */
export class Deliverer {
  private readonly agent = new Agent({ keepAliveTimeout: 4000, connections: 64 });
  private readonly aborter = new AbortController();
  private pending = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly opts: DelivererOptions) {
    // Every in-flight delivery listens for close(); fan-outs exceed 10.
    setMaxListeners(0, this.aborter.signal);
  }

  emit(event: HubEvent, creator: string): void {
    if (this.aborter.signal.aborted) return;
    const owners = this.opts.ownersOf(event.repo.repoId, creator);
    for (const w of matchWebhooks(event, this.opts.store.data.webhooks, owners)) {
      if (!this.admit(w)) {
        this.record(w, event, 1, { outcome: 'skipped', status: null, durationMs: 0, error: 'rate limit: 1,000 triggers per 24 hours reached' }, null);
        continue;
      }
      const payload = buildPayload(event, w.id, this.opts.baseUrl());
      this.track(w.jobSourceId ? this.runJob(w, event, payload) : this.deliver(w.id, event, payload));
    }
  }

  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.aborter.abort();
    // destroy, not close: a connect stuck on a slow resolver or a silent host
    // (undici's 10 s connect timeout, then retries) must not hold the hub's
    // shutdown; every in-flight request fails at once and its retries stop.
    // A DNS lookup already in the resolver cannot be cancelled, so close does
    // not wait for it: what finishes after an abort records nothing (below),
    // and so never writes to the data folder of a closed hub.
    await this.agent.destroy();
  }

  private track(p: Promise<void>): void {
    this.pending++;
    void p.catch((err: unknown) => this.opts.log(`delivery error: ${String(err)}`)).finally(() => {
      this.pending--;
      if (this.pending === 0) for (const w of this.waiters.splice(0)) w();
    });
  }

  /** The documented limit: 1,000 triggers per webhook per 24 hours. */
  private admit(w: StoredWebhook): boolean {
    const now = Date.now();
    const recent = (this.opts.store.data.triggers[w.id] ?? []).filter((t) => now - t < DAY_MS);
    const ok = recent.length < this.opts.triggersPerDay;
    if (ok) recent.push(now);
    this.opts.store.data.triggers[w.id] = recent;
    return ok;
  }

  private async deliver(webhookId: string, event: HubEvent, payload: Record<string, unknown>): Promise<void> {
    const policy: RetryPolicy = { attempts: this.opts.maxAttempts, baseMs: this.opts.retryBaseMs, maxDelayMs: 10 * 60_000 };
    await retrying({
      policy, clock: this.opts.clock ?? realClock, idempotent: true, signal: this.aborter.signal,
      judge: (err) => (err instanceof DeliveryFailed ? err.failure : { kind: 'permanent' }),
    }, (i) => this.attempt(webhookId, event, payload, i + 1)).catch((err: unknown) => {
      // Failed attempts are in the activity log already; a close() ends the waits.
      if (!(err instanceof DeliveryFailed) && !this.aborter.signal.aborted) throw err;
    });
  }

  private async attempt(webhookId: string, event: HubEvent, payload: Record<string, unknown>, n: number): Promise<void> {
    // Re-read the webhook: a changed URL or secret applies to retries, a
    // deleted or disabled webhook stops them.
    const w = this.opts.store.data.webhooks.find((x) => x.id === webhookId);
    if (!w || w.disabled || !w.url || this.aborter.signal.aborted) return;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': this.opts.userAgent };
    if (w.secret) headers['x-webhook-secret'] = w.secret;
    const res = await sendOnce(this.agent, w.url, JSON.stringify(payload), headers, this.opts.timeoutMs, this.aborter.signal);
    if (this.aborter.signal.aborted) return;
    const ok = res.error === null;
    this.record(w, event, n, { outcome: ok ? 'delivered' : 'failed', ...res }, payload);
    this.opts.log(`delivery ${event.scope}/${event.action} ${event.repo.repoId} → ${w.id}: ${res.status ?? res.error} (attempt ${n})`);
    if (!ok) throw new DeliveryFailed(res.status === null ? { kind: 'unknown' } : statusFailure(res.status, null) ?? { kind: 'unknown' });
  }

  private async runJob(w: StoredWebhook, event: HubEvent, payload: Record<string, unknown>): Promise<void> {
    const env: Record<string, string> = {
      WEBHOOK_PAYLOAD: JSON.stringify(payload),
      WEBHOOK_REPO_ID: event.repo.repoId,
      WEBHOOK_REPO_TYPE: event.repo.type,
    };
    if (w.secret) env.WEBHOOK_SECRET = w.secret;
    const started = performance.now();
    const cmd = this.opts.jobCommand;
    const result = cmd ? await runJobCommand(cmd, env, JOB_TIMEOUT_MS, this.aborter.signal) : { exitCode: null, error: null, output: '' };
    if (this.aborter.signal.aborted) return;
    const runs = this.opts.store.data.jobRuns;
    runs.push({
      id: objectId(), webhookId: w.id, owner: w.owner, at: new Date().toISOString(),
      env: { ...env, ...(w.secret ? { WEBHOOK_SECRET: SENSITIVE } : {}) },
      command: cmd, exitCode: result.exitCode, error: result.error,
    });
    if (runs.length > MAX_JOB_RUNS) runs.splice(0, runs.length - MAX_JOB_RUNS);
    const durationMs = Math.round(performance.now() - started);
    this.record(w, event, 1, { outcome: 'job', status: result.exitCode, durationMs, error: result.error }, payload);
    if (cmd) this.opts.log(`job ${w.jobSourceId ?? ''} for ${event.repo.repoId}: exit ${String(result.exitCode)}${result.output ? `\n${result.output.trimEnd()}` : ''}`);
  }

  private record(w: StoredWebhook, event: HubEvent, attempt: number, r: Pick<DeliveryAttempt, 'outcome' | 'status' | 'durationMs' | 'error'>, payload: unknown): void {
    const list = (this.opts.store.data.activity[w.id] ??= []);
    list.push({
      eventId: event.id, webhookId: w.id, attempt, at: new Date().toISOString(),
      scope: event.scope, action: event.action, ...r, payload,
    });
    if (list.length > MAX_ACTIVITY) list.splice(0, list.length - MAX_ACTIVITY);
    this.opts.store.save().catch((err: unknown) => this.opts.log(`store write failed: ${String(err)}`));
  }
}
