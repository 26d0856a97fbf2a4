import { covers, type ExpectedSha, type WorkItem } from './work-item.js';

// A serial queue of work keys with coalescing: one run at a time, and a key
// already waiting (or covered by one waiting) is not queued twice. A burst
// of saves or deliveries becomes one run; a key enqueued while its run is in
// flight runs once more afterwards, because the world may have moved since
// that run observed it.

export type Worker = (item: WorkItem) => Promise<void>;

export class WorkQueue {
  private readonly pending: WorkItem[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly worker: Worker, private readonly onError: (err: unknown, item: WorkItem) => void) {}

  /** Queue `item` unless an equal or wider key waits already; true when queued. */
  enqueue(item: WorkItem): boolean {
    if (this.closed) return false;
    const wider = this.pending.find((p) => covers(p.key, item.key));
    if (wider) {
      wider.expect = merge(wider.expect, item.expect);
      wider.discussions = [...(wider.discussions ?? []), ...(item.discussions ?? [])];
      return false;
    }
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i] as WorkItem;
      if (!covers(item.key, p.key)) continue;
      this.pending.splice(i, 1);
      item = { ...item, expect: merge(p.expect, item.expect), discussions: [...(p.discussions ?? []), ...(item.discussions ?? [])] };
    }
    this.pending.push(item);
    this.pump();
    return true;
  }

  get size(): number {
    return this.pending.length + (this.running ? 1 : 0);
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves when nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (!this.running && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Take no more work, drop what waits, and let the run in flight finish. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.length = 0;
    await this.running;
  }

  private pump(): void {
    if (this.running) return;
    const item = this.pending.shift();
    if (!item) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((w) => w());
      return;
    }
    this.running = this.worker(item)
      .catch((err: unknown) => this.onError(err, item))
      .finally(() => {
        this.running = null;
        if (this.closed) this.pending.length = 0;
        this.pump();
      });
  }
}

/** The newest announced revision per Space wins (a later delivery is a later push). */
function merge(a: ExpectedSha[], b: ExpectedSha[]): ExpectedSha[] {
  const bySpace = new Map<string, ExpectedSha>();
  for (const e of [...a, ...b]) bySpace.set(e.spaceId, e);
  return [...bySpace.values()];
}
