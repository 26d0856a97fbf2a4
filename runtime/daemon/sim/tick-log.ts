// The periods the control thread measured between its ticks, one log for the
// process: every robot that loops ticks in each of them, at the same clock
// reading, so a robot's periods are those of the ticks since it joined
// (control-slot.ts keeps which). Written once per tick, not once per robot:
// a thousand idle robots cost the thread almost nothing. Shared memory, so
// the main thread reads it without asking; it outlives a control thread, so
// the tick numbers a robot keeps stay valid when the thread is restarted.

/** The periods kept: the last 2,000 ticks (40 s at 50 Hz). */
export const RING = 2000;
const COUNT = 0;
const HEADER_BYTES = 8;

export interface TickLog {
  readonly buffer: SharedArrayBuffer;
  readonly ints: Int32Array;
  /** periods[n % RING]: from tick n - 1 to tick n; NaN when the thread was idle before tick n. */
  readonly periods: Float64Array;
}

export function tickLogOf(buffer: SharedArrayBuffer): TickLog {
  return { buffer, ints: new Int32Array(buffer, 0, 1), periods: new Float64Array(buffer, HEADER_BYTES, RING) };
}

export function createTickLog(): TickLog {
  return tickLogOf(new SharedArrayBuffer(HEADER_BYTES + RING * 8));
}

/** Ticks so far in this process. */
export function tickCount(log: TickLog): number {
  return Atomics.load(log.ints, COUNT);
}

/** The control thread, at each tick: the period since the previous one (NaN after an idle stretch). */
export function recordTick(log: TickLog, periodMs: number): void {
  const n = Atomics.load(log.ints, COUNT) + 1;
  log.periods[n % RING] = periodMs;
  Atomics.store(log.ints, COUNT, n);
}

/** The periods that ended at ticks first..last (those still kept), a copy. */
export function periodsOfTicks(log: TickLog, first: number, last: number): Float64Array {
  const from = Math.max(first, last - RING + 1);
  const out: number[] = [];
  for (let n = from; n <= last; n++) {
    const p = log.periods[n % RING] ?? NaN;
    if (!Number.isNaN(p)) out.push(p);
  }
  return Float64Array.from(out);
}
