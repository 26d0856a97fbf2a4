import { randomUUID } from 'node:crypto';
import { errorMessage } from '../../lib/errors.js';
import type { JobInfo, JobStatus } from '../../lib/wire/daemon.js';

// Background jobs (spec §4): uuid4 ids, pending → in_progress → done|failed,
// with the real daemon's closing log lines. Listeners get every new line and
// every status change, which is what the job WebSocket streams.

export type JobLog = (line: string) => void;
export type JobListener = (job: Job, newLines: string[]) => void;

export class Job {
  status: JobStatus = 'pending';
  readonly logs: string[] = [];
  private readonly listeners = new Set<JobListener>();
  finished: Promise<void> = Promise.resolve();

  constructor(readonly id: string, readonly command: string) {}

  info(): JobInfo {
    return { command: this.command, status: this.status, logs: [...this.logs] };
  }

  get ended(): boolean {
    return this.status === 'done' || this.status === 'failed';
  }

  log(line: string): void {
    this.logs.push(line);
    this.notify([line]);
  }

  setStatus(s: JobStatus): void {
    this.status = s;
    this.notify([]);
  }

  /** The closing line and the final status reach listeners together. */
  end(s: JobStatus, line: string): void {
    this.logs.push(line);
    this.status = s;
    this.notify([line]);
  }

  subscribe(fn: JobListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(lines: string[]): void {
    for (const fn of this.listeners) fn(this, lines);
  }
}

const KEEP_FINISHED = 200;

export class JobRegistry {
  private readonly jobs = new Map<string, Job>();

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Runs `work` in the background; its thrown message becomes the failure line. */
  run(command: string, work: (log: JobLog, job: Job) => Promise<void>, onLog?: (line: string) => void): Job {
    const job = new Job(randomUUID(), command);
    this.jobs.set(job.id, job);
    this.prune();
    if (onLog) job.subscribe((_j, lines) => lines.forEach(onLog));
    job.finished = (async () => {
      await Promise.resolve();
      job.setStatus('in_progress');
      try {
        await work((l) => job.log(l), job);
        job.end('done', `Job '${command}' completed successfully`);
      } catch (err) {
        job.end('failed', `Job '${command}' failed with error: ${errorMessage(err)}`);
      }
    })();
    return job;
  }

  /** Any job of these commands still running. */
  busy(commands: readonly string[]): boolean {
    for (const j of this.jobs.values()) if (!j.ended && commands.includes(j.command)) return true;
    return false;
  }

  async drain(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.finished));
  }

  private prune(): void {
    const done = [...this.jobs.values()].filter((j) => j.ended);
    for (const j of done.slice(0, Math.max(0, done.length - KEEP_FINISHED))) this.jobs.delete(j.id);
  }
}
