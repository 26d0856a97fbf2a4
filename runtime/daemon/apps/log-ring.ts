// The current app's output and lifecycle lines, bounded in lines and bytes:
// the oldest lines go first. Each line has a sequence number so that a
// reader can page (`since`) without ever receiving the whole ring twice.

export const RING_MAX_LINES = 1000;
export const RING_MAX_BYTES = 512 * 1024;

export interface LogPage {
  logs: string[];
  /** Sequence number of the first line returned. */
  first: number;
  /** Pass as `since` to get only newer lines. */
  next: number;
  /** Lines older than `first` that were asked for but are no longer kept. */
  dropped: number;
}

export class LogRing {
  private lines: string[] = [];
  private head = 0;
  private bytes = 0;
  /** Sequence number of lines[head]. */
  private firstSeq = 0;

  constructor(private readonly maxLines = RING_MAX_LINES, private readonly maxBytes = RING_MAX_BYTES) {}

  push(line: string): void {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    while (this.lines.length - this.head > this.maxLines || (this.bytes > this.maxBytes && this.lines.length - this.head > 1)) {
      this.bytes -= Buffer.byteLength(this.lines[this.head] ?? '');
      this.head++;
      this.firstSeq++;
    }
    // Compact now and then so the array does not grow with the dropped heads.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.firstSeq += this.lines.length - this.head;
    this.lines = [];
    this.head = 0;
    this.bytes = 0;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** At most `limit` lines from sequence `since` on (default: the newest `limit`). */
  page(opts: { since?: number; limit: number }): LogPage {
    const end = this.firstSeq + this.size;
    const wanted = opts.since ?? Math.max(this.firstSeq, end - opts.limit);
    const from = Math.max(wanted, this.firstSeq);
    const to = Math.min(end, from + opts.limit);
    const logs = this.lines.slice(this.head + (from - this.firstSeq), this.head + (to - this.firstSeq));
    return { logs, first: from, next: to, dropped: Math.max(0, this.firstSeq - wanted) };
  }
}
