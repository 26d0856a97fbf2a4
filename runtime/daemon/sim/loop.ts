import { performance } from 'node:perf_hooks';
import { timelineFor, type SharedTimeline, type TimelineMember } from './timeline.js';

// A fixed-rate loop scheduled against the ideal timeline (not "now +
// period"), so timer lateness does not accumulate, and records the measured
// periods to report jitter. Its timer is the process's shared one for its
// rate (timeline.ts): a fleet of robots in one process fires one timer per
// period, not one per robot.
//
// A timer only fires after the event loop has handled every socket that was
// ready, so a flood of requests delays it by a whole batch of them. The owner
// therefore calls catchUp() as it handles a request: a tick that is due runs
// there, late by one request at most; the shared timer then finds it done.

export interface LoopStats {
  frequency_hz: number;
  samples: number;
  period_mean_ms: number;
  period_p50_ms: number;
  period_p99_ms: number;
  jitter_p99_ms: number;
  jitter_max_ms: number;
}

const RING = 2000;

export class FixedRateLoop implements TimelineMember {
  private next = 0;
  private last = 0;
  private active = false;
  private readonly periods = new Float64Array(RING);
  private count = 0;
  private readonly timeline: SharedTimeline;

  constructor(private readonly hz: number, private readonly tick: (nowMs: number) => void) {
    this.timeline = timelineFor(1000 / hz);
  }

  get periodMs(): number {
    return 1000 / this.hz;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.last = 0;
    this.next = this.timeline.firstDeadline(performance.now());
    this.timeline.join(this);
  }

  stop(): void {
    if (!this.active) return;
    this.active = false;
    this.timeline.leave(this);
  }

  get running(): boolean {
    return this.active;
  }

  /** When the next tick is due, on performance.now()'s clock. */
  get nextDeadline(): number {
    return this.next;
  }

  /** Run the tick now if it is due (and the loop runs); else nothing. */
  catchUp(): void {
    if (!this.active) return;
    const now = performance.now();
    if (now >= this.next) this.fire(now);
  }

  /** The due tick, from the shared timer or catchUp(). */
  fire(now: number): void {
    if (!this.active) return; // stopped by an earlier tick of the same walk
    if (this.last > 0) this.periods[this.count++ % RING] = now - this.last;
    this.last = now;
    this.tick(now);
    this.next += this.periodMs;
    // After a long stall (debugger, suspended laptop) skip the missed ticks
    // instead of firing a burst of them, still on the shared phase.
    if (now - this.next > 50 * this.periodMs) this.next += Math.ceil((now - this.next) / this.periodMs) * this.periodMs;
  }

  resetStats(): void {
    this.count = 0;
  }

  stats(): LoopStats {
    const n = Math.min(this.count, RING);
    const p = Array.from(this.periods.subarray(0, n)).sort((a, b) => a - b);
    const j = p.map((v) => Math.abs(v - this.periodMs)).sort((a, b) => a - b);
    const pick = (arr: number[], q: number): number => arr[Math.min(arr.length - 1, Math.floor(q * arr.length))] ?? 0;
    const round = (v: number): number => Math.round(v * 1000) / 1000;
    return {
      frequency_hz: this.hz,
      samples: n,
      period_mean_ms: round(n ? p.reduce((a, b) => a + b, 0) / n : 0),
      period_p50_ms: round(pick(p, 0.5)),
      period_p99_ms: round(pick(p, 0.99)),
      jitter_p99_ms: round(pick(j, 0.99)),
      jitter_max_ms: round(j[j.length - 1] ?? 0),
    };
  }
}
