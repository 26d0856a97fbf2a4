// A log that a flood cannot fill: at most one line per interval; the lines
// dropped meanwhile are counted and the count rides on the next line logged,
// or on `flush()` (the source went away). Used per WebSocket connection for
// frames the daemon cannot use (issue 29.7: 3,000 bad frames were 3,005 lines).

export interface ThrottledLog {
  (line: string): void;
  /** Log the count of lines dropped since the last one logged, if any. */
  flush(): void;
}

export interface ThrottleWording {
  /** The line logged after some were dropped, e.g. `${line} (${n} more since the last one logged)`. */
  withCount(line: string, dropped: number): string;
  /** The line `flush()` logs for the dropped ones. */
  summary(dropped: number): string;
}

export function throttledLog(log: (line: string) => void, intervalMs: number, wording: ThrottleWording, now: () => number = Date.now): ThrottledLog {
  let lastAt = -Infinity;
  let dropped = 0;
  const throttled = (line: string): void => {
    const t = now();
    if (t - lastAt < intervalMs) {
      dropped++;
      return;
    }
    log(dropped > 0 ? wording.withCount(line, dropped) : line);
    lastAt = t;
    dropped = 0;
  };
  throttled.flush = (): void => {
    if (dropped > 0) log(wording.summary(dropped));
    dropped = 0;
  };
  return throttled;
}
