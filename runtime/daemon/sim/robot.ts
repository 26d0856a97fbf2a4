import { clampTarget, type Target } from './limits.js';
import type { Interpolation } from './interpolation.js';
import { poseDistance, type Mat4 } from './pose.js';
import { monotonicMs } from './clock.js';
import { controlClock, type ControlClient } from './control-clock.js';
import { completedMove, createSlot, markJoining, resetPeriods, tickRange } from './control-slot.js';
import { summarizePeriods, type LoopStats } from './loop-stats.js';
import type { MoveSpec } from './motion.js';
import { RunningMove, type MoveEventType } from './running-move.js';
import { periodsOfTicks, tickCount } from './tick-log.js';
import {
  CONTROL_HZ, REST_ANTENNAS, REST_HEAD, RETURN_S, SLEEP_ANTENNAS, SLEEP_HEAD, SLEEP_S, WAKE_UP_S, type MotorMode,
} from './constants.js';

// The simulated robot behaves like the real daemon's --mockup-sim backend:
// targets are applied at once by a 50 Hz control loop, starting from the
// sleep pose with motors enabled. One move runs at a time; a new goto
// cancels the running one.
//
// The loop runs on the process's control thread (control-clock.ts), which
// computes a running move's pose and completes it; the robot reads both from
// its shared slot. The main thread owns the pose while no move runs (a
// set_target), the control thread while one does.

export type { MoveEventType } from './running-move.js';
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

export interface MoveHandle {
  uuid: string;
  clamped: string[];
  finished: Promise<MoveEventType>;
}

export type SetTargetResult = { status: 'ok'; clamped: string[] } | { status: 'ignored'; reason: 'move_running' };

export class SimRobot implements ControlClient {
  motorMode: MotorMode = 'enabled';
  /** The SDK turns it on at connect (`set_automatic_body_yaw`); kept for status, no kinematics here. */
  automaticBodyYaw = false;
  setTargetCount = 0;
  /** The pose while no move runs: the main thread's to set. */
  private held: Target = { head: SLEEP_HEAD, antennas: [...SLEEP_ANTENNAS], bodyYaw: 0 };
  private move: RunningMove | null = null;
  private moveSeq = 0;
  private active = false;
  private readonly id = controlClock.newId();
  private readonly slot = createSlot();
  private readonly listeners = new Set<(e: MoveEvent) => void>();
  private readonly tickListeners = new Set<() => void>();

  constructor() {
    // The thread boots meanwhile (the daemon's routes are set up then), not when the loop is asked to start.
    controlClock.warmUp();
  }

  /** The pose the control loop holds now. */
  get present(): Target {
    this.catchUp();
    return this.move ? this.move.poseIn(this.slot) : this.held;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    markJoining(this.slot);
    controlClock.join(this.id, this, this.slot.buffer, this.move?.spec ?? null);
  }

  /** Resolves when the control thread runs (after start(): the loop then ticks). */
  loopUp(): Promise<void> {
    return controlClock.up();
  }

  stop(): void {
    this.cancelAll();
    if (!this.active) return;
    this.active = false;
    controlClock.leave(this.id);
  }

  /** The robot is done with (its daemon closes): stopped, and the control thread ends if no other robot loops. */
  close(): void {
    this.stop();
    controlClock.release();
  }

  get looping(): boolean {
    return this.active;
  }

  /** The periods of the ticks this robot took part in (the last 2,000 at most). */
  loopStats(): LoopStats {
    const log = controlClock.ticks;
    const range = tickRange(this.slot, tickCount(log));
    return summarizePeriods(range ? periodsOfTicks(log, range.first, range.last) : new Float64Array(0), CONTROL_HZ);
  }

  resetLoopStats(): void {
    resetPeriods(this.slot, tickCount(controlClock.ticks));
  }

  /** Called after control ticks (50 Hz) while the loop runs: the state stream's clock. A busy main thread gets the latest tick, not a backlog. */
  onTick(fn: () => void): () => void {
    this.tickListeners.add(fn);
    if (this.tickListeners.size === 1) controlClock.wantTicks(this.id, this, true);
    return () => {
      if (this.tickListeners.delete(fn) && this.tickListeners.size === 0) controlClock.wantTicks(this.id, this, false);
    };
  }

  get moving(): boolean {
    this.catchUp();
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
    const present = this.present;
    const merged: Target = {
      head: p.head ?? present.head,
      antennas: p.antennas ?? present.antennas,
      bodyYaw: p.bodyYaw ?? present.bodyYaw,
    };
    const r = clampTarget(merged, p.head ? p.headYaw : undefined);
    return { target: r.target, clamped: r.clamped };
  }

  /**
   * Finish the running move if the control thread has completed it: what a
   * request sees never waits for the thread's note to reach this thread's
   * event loop, which a flood of requests holds back.
   */
  catchUp(): void {
    const m = this.move;
    if (m && completedMove(this.slot) === m.spec.seq) this.finish(m, 'move_completed', m.kind);
  }

  /** ControlClient: the thread's note that a move completed. */
  moveCompleted(): void {
    this.catchUp();
  }

  /** ControlClient: a control tick, for the tick listeners. */
  ticked(): void {
    this.catchUp();
    for (const fn of this.tickListeners) fn();
  }

  setTarget(p: PartialTarget): SetTargetResult {
    this.catchUp();
    if (this.move) return { status: 'ignored', reason: 'move_running' };
    const { target, clamped } = this.resolve(p);
    this.held = target;
    this.setTargetCount++;
    return { status: 'ok', clamped };
  }

  goto(p: PartialTarget, durationS: number, interpolation: Interpolation, kind = 'goto'): MoveHandle {
    this.catchUp();
    if (this.move) this.finish(this.move, 'move_cancelled', 'Cancelled by a new move');
    const { target, clamped } = this.resolve(p);
    const spec: MoveSpec = { seq: ++this.moveSeq, from: this.held, to: target, startMs: monotonicMs(), durationMs: durationS * 1000, interpolation };
    const move = new RunningMove(kind, spec);
    this.move = move;
    if (this.active) controlClock.startMove(this.id, spec);
    this.emit({ type: 'move_started', uuid: move.uuid, details: kind });
    return { uuid: move.uuid, clamped, finished: move.finished };
  }

  /**
   * A recorded move: the robot goes through `frames` (targets at milliseconds
   * from now, ascending, each clamped to the limits), the last one at the end.
   */
  play(frames: { atMs: number; target: PartialTarget }[], kind = 'recorded_move'): MoveHandle {
    this.catchUp();
    if (this.move) this.finish(this.move, 'move_cancelled', 'Cancelled by a new move');
    const clamped = new Set<string>();
    const poses = frames.map((f) => {
      const r = this.resolve(f.target);
      r.clamped.forEach((c) => clamped.add(c));
      return { atMs: f.atMs, pose: r.target };
    });
    const last = poses[poses.length - 1] ?? { atMs: 0, pose: this.held };
    const spec: MoveSpec = { seq: ++this.moveSeq, from: this.held, to: last.pose, startMs: monotonicMs(), durationMs: last.atMs, interpolation: 'linear', via: poses.slice(0, -1) };
    const move = new RunningMove(kind, spec);
    this.move = move;
    if (this.active) controlClock.startMove(this.id, spec);
    this.emit({ type: 'move_started', uuid: move.uuid, details: kind });
    return { uuid: move.uuid, clamped: [...clamped], finished: move.finished };
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
      this.held = { head: REST_HEAD, antennas: [...REST_ANTENNAS], bodyYaw: 0 };
      return true;
    }
    await this.goto({ head: REST_HEAD, antennas: REST_ANTENNAS, bodyYaw: 0 }, RETURN_S, 'minjerk', 'return_to_rest').finished;
    return true;
  }

  running(): string[] {
    this.catchUp();
    return this.move ? [this.move.uuid] : [];
  }

  cancel(uuid: string): boolean {
    this.catchUp();
    if (!this.move || this.move.uuid !== uuid) return false;
    this.finish(this.move, 'move_cancelled', 'Cancelled');
    return true;
  }

  cancelAll(): void {
    this.catchUp();
    if (this.move) this.finish(this.move, 'move_cancelled', 'Cancelled');
  }

  private finish(m: RunningMove, type: MoveEventType, details: string): void {
    if (this.move === m) {
      // A cancelled move stays where the loop last put it; a completed one is at its target.
      this.held = type === 'move_completed' ? m.spec.to : m.poseIn(this.slot);
      this.move = null;
      if (type !== 'move_completed' && this.active) controlClock.cancelMove(this.id, m.spec.seq);
    }
    this.emit({ type, uuid: m.uuid, details });
    m.end(type);
  }
}
