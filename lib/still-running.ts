// Terraform's `Still creating... [10s elapsed]`: while a long action runs
// (an install builds a venv, a stop waits for an app), say every few
// seconds that it still runs, so a terminal or a CI log is never silent for
// long. One timer per running item; the clock is injectable for tests.

export interface Ticker {
  now(): number;
  every(ms: number, fn: () => void): () => void;
}

export const realTicker: Ticker = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

export const STILL_RUNNING_EVERY_MS = 10_000;

export class StillRunning {
  private readonly items = new Map<string, () => void>();

  constructor(
    private readonly emit: (label: string, elapsedMs: number) => void,
    private readonly everyMs = STILL_RUNNING_EVERY_MS,
    private readonly ticker: Ticker = realTicker,
  ) {}

  begin(key: string, label: string): void {
    this.end(key);
    const started = this.ticker.now();
    this.items.set(key, this.ticker.every(this.everyMs, () => this.emit(label, this.ticker.now() - started)));
  }

  end(key: string): void {
    this.items.get(key)?.();
    this.items.delete(key);
  }

  close(): void {
    for (const stop of this.items.values()) stop();
    this.items.clear();
  }
}

/** `[10s elapsed]`, `[1m20s elapsed]`. */
export function elapsedText(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `[${s}s elapsed]` : `[${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s elapsed]`;
}
