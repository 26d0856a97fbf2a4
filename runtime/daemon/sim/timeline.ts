import { performance } from 'node:perf_hooks';

// One timer for every fixed-rate loop of a rate in this process. A simulated
// fleet (`daemon --sim --robots 1000`) has a 50 Hz control loop per robot:
// with a setTimeout each, the process spent about 0.4 of a core firing 50,000
// timers a second while every robot stood still. Here the loops share one
// timeline: a loop that starts while others run joins their phase, so one
// timer callback runs every due loop, in the order they started.

export interface TimelineMember {
  /** When this member's next tick is due, on performance.now()'s clock. */
  readonly nextDeadline: number;
  /** Runs the member's due tick (the member moves its own deadline on). */
  fire(now: number): void;
}

export class SharedTimeline {
  /** In joining order; an array, walked by index 50 times a second (no iterator, no hash lookups). */
  private members: TimelineMember[] = [];
  private timer: NodeJS.Timeout | null = null;
  private armedAt = Infinity;

  constructor(readonly periodMs: number) {}

  /**
   * The first deadline of a member that joins now: at once when it is alone,
   * else the running members' next deadline (one phase for all of them).
   */
  firstDeadline(now: number): number {
    const next = this.earliest();
    if (next === Infinity) return now;
    // A member that was held back (caught up later) still keeps the grid.
    return next < now ? next + Math.ceil((now - next) / this.periodMs) * this.periodMs : next;
  }

  join(member: TimelineMember): void {
    if (!this.members.includes(member)) this.members.push(member);
    this.arm(member.nextDeadline);
  }

  leave(member: TimelineMember): void {
    // A new array: a walk in progress (fire) keeps the one it started with.
    this.members = this.members.filter((m) => m !== member);
    if (this.members.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.armedAt = Infinity;
    }
  }

  /** Makes sure the timer fires by `deadline` (a member's new or earlier deadline). */
  arm(deadline: number): void {
    if (this.timer && this.armedAt <= deadline) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(0, Math.floor(deadline - performance.now())));
  }

  private fire(): void {
    this.timer = null;
    this.armedAt = Infinity;
    const now = performance.now();
    const members = this.members;
    for (let i = 0; i < members.length; i++) {
      const m = members[i] as TimelineMember;
      if (m.nextDeadline <= now) m.fire(now);
    }
    // A tick may have stopped members (leave) or started others (join): the deadlines of those here now.
    const next = this.earliest();
    if (next !== Infinity) this.arm(next);
  }

  /** The members' earliest deadline; Infinity when there are none. */
  private earliest(): number {
    let next = Infinity;
    for (const m of this.members) if (m.nextDeadline < next) next = m.nextDeadline;
    return next;
  }
}

const timelines = new Map<number, SharedTimeline>();

/** The process's timeline for loops of this period. */
export function timelineFor(periodMs: number): SharedTimeline {
  let t = timelines.get(periodMs);
  if (!t) {
    t = new SharedTimeline(periodMs);
    timelines.set(periodMs, t);
  }
  return t;
}
