import type { MessagePort } from 'node:worker_threads';
import type { MoveSpec } from './motion.js';

// What the main thread and the control thread say to each other. Messages
// carry only the rare events (a robot joins or leaves the loop, a move starts
// or is cancelled, moves completed) and, while someone listens, a note per
// tick; the per-tick state is in each robot's shared slot (control-slot.ts).

export type ToControl =
  | { kind: 'join'; id: number; buffer: SharedArrayBuffer; move: MoveSpec | null }
  | { kind: 'leave'; id: number }
  | { kind: 'move'; id: number; move: MoveSpec }
  | { kind: 'cancel'; id: number; seq: number };

export type FromControl =
  /** The loop runs: sent once, first. */
  | { kind: 'up' }
  | {
    kind: 'tick';
    /** Robots whose move the control thread completed in this tick. */
    completed: number[];
    /** A tick the main thread's tick listeners should follow. */
    tick: boolean;
  };

export interface ControlWorkerData {
  hz: number;
  /** The port the control thread reads ToControl messages from, without an event loop turn. */
  port: MessagePort;
  /** Int32 words shared with the main thread (the indices below). */
  words: SharedArrayBuffer;
  /** The process's tick log (tick-log.ts): it outlives the thread. */
  ticks: SharedArrayBuffer;
}

/** Bumped (and notified) after every message: it wakes the control thread from its wait. */
export const WAKE = 0;
/** How many robots have tick listeners: tick notes are sent only while it is not 0. */
export const TICK_WANTED = 1;
/** 1 while a tick note is on its way and not yet handled: ticks coalesce instead of queueing behind a busy main thread. */
export const TICK_PENDING = 2;
export const WORDS = 4;
