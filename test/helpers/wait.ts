// Waiting in tests: for a condition (polled) or for the next value a source
// emits, never for a fixed time, so a loaded machine only makes tests slower.

/**
 * Poll until fn() is truthy and return its value; fail after timeoutMs with
 * `what` (a function is called only then, to add what the system logged).
 */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 20_000, what: string | (() => string) = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Values pushed by a callback, each awaited in turn with next(). */
export interface EventLog<T> {
  readonly seen: T[];
  push(value: T): void;
  /** The next value not yet taken by next(); fails after timeoutMs. */
  next(timeoutMs?: number): Promise<T>;
}

export function eventLog<T>(): EventLog<T> {
  const seen: T[] = [];
  let taken = 0;
  let wake: (() => void) | null = null;
  return {
    seen,
    push(value) {
      seen.push(value);
      wake?.();
    },
    async next(timeoutMs = 20_000) {
      while (taken >= seen.length) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => { wake = null; reject(new Error(`no event within ${timeoutMs} ms (seen: ${JSON.stringify(seen)})`)); }, timeoutMs);
          wake = () => { clearTimeout(timer); wake = null; resolve(); };
        });
      }
      return seen[taken++] as T;
    },
  };
}
