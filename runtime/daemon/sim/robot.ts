import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { clampTarget, type Target } from './limits.js';
import { progress, type Interpolation } from './interpolation.js';
import { interpolatePose, poseDistance, type Mat4 } from './pose.js';
import { FixedRateLoop, type LoopStats } from './loop.js';
import {
  CONTROL_HZ, REST_ANTENNAS, REST_HEAD, RETURN_S, SLEEP_ANTENNAS, SLEEP_HEAD, SLEEP_S, WAKE_UP_S, type MotorMode,
} from './constants.js';

// The simulated robot behaves like the real daemon's --mockup-sim backend:
// targets are applied at once by a 50 Hz control loop, starting from the
// sleep pose with motors enabled. One move runs at a time; a new goto
// cancels the running one.

export type MoveEventType = 'move_started' | 'move_completed' | 'move_failed' | 'move_cancelled';
export interface MoveEvent {
  type: MoveEventType;
  uuid: string;
  details: string;
}

/** A partial target: unset parts keep their present value. */
export interface PartialTarget {
  head?: Mat4 | null;
  /** The yaw the caller asked for (x/y/z/rpy form), checked before the matrix wraps it. */
  headYaw?: number;
  antennas?: [number, number] | null;
  bodyYaw?: number | null;
}

interface Move {
  uuid: string;
  kind: string;
  from: Target;
  to: Target;
  start: number;
  durationMs: number;
  interpolation: Interpolation;
  finished: Promise<MoveEventType>;
  settle: (t: MoveEventType) => void;
}

export interface MoveHandle {
  uuid: string;
  clamped: string[];
  finished: Promise<MoveEventType>;
}

export type SetTargetResult = { status: 'ok'; clamped: string[] } | { status: 'ignored'; reason: 'move_running' };

export class SimRobot {
  present: Target = { head: SLEEP_HEAD, antennas: [...SLEEP_ANTENNAS], bodyYaw: 0 };
  motorMode: MotorMode = 'enabled';
  /** The SDK turns it on at connect (`set_automatic_body_yaw`); kept for status, no kinematics here. */
  automaticBodyYaw = false;
  setTargetCount = 0;
  private move: Move | null = null;
  private readonly listeners = new Set<(e: MoveEvent) => void>();
  private readonly tickListeners = new Set<() => void>();
  private readonly loop = new FixedRateLoop(CONTROL_HZ, (now) => this.tick(now));

  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.cancelAll();
    this.loop.stop();
  }

  get looping(): boolean {
    return this.loop.running;
  }

  loopStats(): LoopStats {
    return this.loop.stats();
  }

  resetLoopStats(): void {
    this.loop.resetStats();
  }

  /** Called after every control tick (50 Hz) while the loop runs: the state stream's clock. */
  onTick(fn: () => void): () => void {
    this.tickListeners.add(fn);
    return () => this.tickListeners.delete(fn);
  }

  get moving(): boolean {
    return this.move !== null;
  }

  onMove(fn: (e: MoveEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: MoveEvent): void {
    for (const fn of this.listeners) fn(e);
  }

  private resolve(p: PartialTarget): { target: Target; clamped: string[] } {
    const merged: Target = {
      head: p.head ?? this.present.head,
      antennas: p.antennas ?? this.present.antennas,
      bodyYaw: p.bodyYaw ?? this.present.bodyYaw,
    };
    const r = clampTarget(merged, p.head ? p.headYaw : undefined);
    return { target: r.target, clamped: r.clamped };
  }

  /**
   * Run a control tick that is due now: called as requests are handled, so a
   * flood of them holds the 50 Hz loop back by one request, not by a batch.
   */
  catchUp(): void {
    this.loop.catchUp();
  }

  setTarget(p: PartialTarget): SetTargetResult {
    this.loop.catchUp();
    if (this.move) return { status: 'ignored', reason: 'move_running' };
    const { target, clamped } = this.resolve(p);
    this.present = target;
    this.setTargetCount++;
    return { status: 'ok', clamped };
  }

  goto(p: PartialTarget, durationS: number, interpolation: Interpolation, kind = 'goto'): MoveHandle {
    this.loop.catchUp();
    if (this.move) this.finish(this.move, 'move_cancelled', 'Cancelled by a new move');
    const { target, clamped } = this.resolve(p);
    let settle: (t: MoveEventType) => void = () => {};
    const finished = new Promise<MoveEventType>((r) => { settle = r; });
    const move: Move = {
      uuid: randomUUID(), kind, from: this.present, to: target, start: performance.now(),
      durationMs: durationS * 1000, interpolation, finished, settle,
    };
    this.move = move;
    this.emit({ type: 'move_started', uuid: move.uuid, details: kind });
    return { uuid: move.uuid, clamped, finished };
  }

  wakeUp(): MoveHandle {
    this.motorMode = 'enabled';
    return this.goto({ head: REST_HEAD, antennas: REST_ANTENNAS, bodyYaw: 0 }, WAKE_UP_S, 'minjerk', 'wake_up');
  }

  gotoSleep(): MoveHandle {
    return this.goto({ head: SLEEP_HEAD, antennas: SLEEP_ANTENNAS, bodyYaw: 0 }, SLEEP_S, 'minjerk', 'goto_sleep');
  }

  /** The move back to rest after an app stops; at the sleep pose it stays there, limp. */
  async returnToRest(): Promise<boolean> {
    if (poseDistance(this.present.head, SLEEP_HEAD) < 1e-3) {
      this.motorMode = 'disabled';
      return false;
    }
    if (!this.looping) {
      this.present = { head: REST_HEAD, antennas: [...REST_ANTENNAS], bodyYaw: 0 };
      return true;
    }
    await this.goto({ head: REST_HEAD, antennas: REST_ANTENNAS, bodyYaw: 0 }, RETURN_S, 'minjerk', 'return_to_rest').finished;
    return true;
  }

  running(): string[] {
    return this.move ? [this.move.uuid] : [];
  }

  cancel(uuid: string): boolean {
    if (!this.move || this.move.uuid !== uuid) return false;
    this.finish(this.move, 'move_cancelled', 'Cancelled');
    return true;
  }

  cancelAll(): void {
    if (this.move) this.finish(this.move, 'move_cancelled', 'Cancelled');
  }

  private finish(m: Move, type: MoveEventType, details: string): void {
    if (this.move === m) this.move = null;
    this.emit({ type, uuid: m.uuid, details });
    m.settle(type);
  }

  private tick(now: number): void {
    const m = this.move;
    if (m) {
      const s = m.durationMs > 0 ? (now - m.start) / m.durationMs : 1;
      this.present = s >= 1 ? m.to : blend(m.from, m.to, progress(m.interpolation, s));
      if (s >= 1) this.finish(m, 'move_completed', m.kind);
    }
    // Most robots have no listener: no iterator for them, 50 times a second.
    if (this.tickListeners.size > 0) for (const fn of this.tickListeners) fn();
  }
}

function blend(a: Target, b: Target, k: number): Target {
  return {
    head: interpolatePose(a.head, b.head, k),
    antennas: [a.antennas[0] + (b.antennas[0] - a.antennas[0]) * k, a.antennas[1] + (b.antennas[1] - a.antennas[1]) * k],
    bodyYaw: a.bodyYaw + (b.bodyYaw - a.bodyYaw) * k,
  };
}
