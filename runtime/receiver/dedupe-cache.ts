/** What a delivery produced, remembered so a repeat gets the same answer. */
export type DedupeEntry = { state: 'running' } | { state: 'done'; status: number; body: string };

interface Slot {
  entry: DedupeEntry;
  expires: number;
}

const RUNNING: DedupeEntry = { state: 'running' };

/**
 * Deliveries seen within the window. Keys also sit in arrival order in a
 * queue beside their expiry times, so expiry compares a number at its head
 * and touches the map only to drop (iterating a Map after many deletes walks
 * their holes, which showed in profiles). Bounded in count too, so a flood of
 * distinct bodies cannot grow memory without limit.
 */
export class DedupeCache {
  private readonly slots = new Map<string, Slot>();
  private queue: string[] = [];
  private expiries: number[] = [];
  private head = 0;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): DedupeEntry | undefined {
    if (this.slots.size === 0) return undefined;
    this.expire();
    return this.slots.get(key)?.entry;
  }

  /** The entry of a delivery seen within the window; else undefined, and it is now remembered as running. */
  claim(key: string): DedupeEntry | undefined {
    const seen = this.get(key);
    if (seen === undefined) this.set(key, RUNNING);
    return seen;
  }

  set(key: string, entry: DedupeEntry): void {
    if (this.windowMs <= 0) return;
    const slot = this.slots.get(key);
    if (slot) {
      slot.entry = entry;
      return;
    }
    const expires = this.now() + this.windowMs;
    this.slots.set(key, { entry, expires });
    this.queue.push(key);
    this.expiries.push(expires);
    while (this.slots.size > this.maxEntries) this.dropHead();
  }

  /** Forget a delivery, so a retry after a failure runs the handler again. */
  delete(key: string): void {
    // Its queue entry stays and is skipped when it reaches the head.
    this.slots.delete(key);
  }

  private expire(): void {
    const now = this.now();
    while (this.head < this.queue.length && (this.expiries[this.head] as number) <= now) this.dropHead();
  }

  private dropHead(): void {
    const key = this.queue[this.head] as string;
    const expires = this.expiries[this.head++];
    // A key deleted and seen again since has a newer slot: leave that one.
    if (this.slots.get(key)?.expires === expires) this.slots.delete(key);
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.expiries = this.expiries.slice(this.head);
      this.head = 0;
    }
  }
}
