// The embedded hub's store writes through lib/atomic-write.ts; this module
// only batches bursts of changes into one write.

/**
 * Serialises writes and coalesces bursts: every caller's promise resolves once
 * a write that started after its call has finished.
 */
export class CoalescingWriter {
  private queued: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly write: () => Promise<void>) {}

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.tail.catch(() => {}).then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = next;
    this.tail = next;
    return next;
  }
}
