import type { Target } from './limits.js';

// One robot's state shared by the main thread and the control thread: a
// SharedArrayBuffer per robot, no copying and no message per tick. The
// control thread writes the present pose of a running move, marks the move
// completed, and notes the ticks at which the robot joined and left the loop
// (its periods are those of the process's tick log between them,
// tick-log.ts); the main thread reads them when a request or a state frame
// asks. The pose is guarded by a sequence number (odd while it is written),
// so a reader never sees half a pose.

/** Int32 words of the header. */
const POSE_SEQ = 0;
const POSE_MOVE = 1;
const DONE_MOVE = 2;
const CONTROL_THREAD = 3;
/** The tick count when the robot joined the loop (-1: not yet); its first tick is the next one. */
const JOINED_AT = 4;
/** The tick count when it left (-1 while it loops). */
const LEFT_AT = 5;
/** The tick count at resetLoopStats(): periods that ended before it are left out. */
const RESET_AT = 6;
const HEADER_BYTES = 32;

const POSE_LEN = 19; // head 4×4, two antennas, body yaw

export interface ControlSlot {
  readonly buffer: SharedArrayBuffer;
  readonly ints: Int32Array;
  readonly pose: Float64Array;
}

export function slotOf(buffer: SharedArrayBuffer): ControlSlot {
  return { buffer, ints: new Int32Array(buffer, 0, HEADER_BYTES / 4), pose: new Float64Array(buffer, HEADER_BYTES, POSE_LEN) };
}

export function createSlot(): ControlSlot {
  const slot = slotOf(new SharedArrayBuffer(HEADER_BYTES + POSE_LEN * 8));
  Atomics.store(slot.ints, JOINED_AT, -1);
  return slot;
}

// --- written by the control thread ---

export function claimSlot(slot: ControlSlot, threadId: number): void {
  Atomics.store(slot.ints, CONTROL_THREAD, threadId);
}

export function writePose(slot: ControlSlot, t: Target, move: number): void {
  Atomics.add(slot.ints, POSE_SEQ, 1);
  Atomics.store(slot.ints, POSE_MOVE, move);
  slot.pose.set(t.head);
  slot.pose[16] = t.antennas[0];
  slot.pose[17] = t.antennas[1];
  slot.pose[18] = t.bodyYaw;
  Atomics.add(slot.ints, POSE_SEQ, 1);
}

/** After the move's last pose is written: the main thread may now finish it. */
export function completeMove(slot: ControlSlot, move: number): void {
  Atomics.store(slot.ints, DONE_MOVE, move);
}

/** The robot joined (or left) the loop after `ticks` ticks of the process. */
export function markJoined(slot: ControlSlot, ticks: number): void {
  Atomics.store(slot.ints, LEFT_AT, -1);
  Atomics.store(slot.ints, JOINED_AT, ticks);
}

export function markLeft(slot: ControlSlot, ticks: number): void {
  Atomics.store(slot.ints, LEFT_AT, ticks);
}

// --- read by the main thread ---

/** Changes whenever the control thread writes a pose. */
export function poseVersion(slot: ControlSlot): number {
  return Atomics.load(slot.ints, POSE_SEQ);
}

/**
 * The last pose written for `move`; null when the slot holds another move's
 * pose (this one has not ticked yet) or the writer is in the middle of it.
 */
export function readPose(slot: ControlSlot, move: number): Target | null {
  const before = Atomics.load(slot.ints, POSE_SEQ);
  if ((before & 1) !== 0 || Atomics.load(slot.ints, POSE_MOVE) !== move) return null;
  const p = slot.pose;
  const t: Target = { head: Array.from(p.subarray(0, 16)), antennas: [p[16] ?? 0, p[17] ?? 0], bodyYaw: p[18] ?? 0 };
  return Atomics.load(slot.ints, POSE_SEQ) === before ? t : null;
}

export function completedMove(slot: ControlSlot): number {
  return Atomics.load(slot.ints, DONE_MOVE);
}

/** The thread that ticks this robot (its threadId); 0 before one has. */
export function controlThreadOf(slot: ControlSlot): number {
  return Atomics.load(slot.ints, CONTROL_THREAD);
}

/**
 * The ticks whose periods are this robot's: from its second tick (the first
 * has no period before it) to its last; null before its first tick.
 */
export function tickRange(slot: ControlSlot, ticksNow: number): { first: number; last: number } | null {
  const joined = Atomics.load(slot.ints, JOINED_AT);
  if (joined < 0) return null;
  const left = Atomics.load(slot.ints, LEFT_AT);
  const last = left >= 0 ? left : ticksNow;
  return { first: Math.max(joined + 2, Atomics.load(slot.ints, RESET_AT) + 1), last };
}

/** Main thread, before the robot (re)joins: no range until the thread has taken it. */
export function markJoining(slot: ControlSlot): void {
  Atomics.store(slot.ints, JOINED_AT, -1);
}

export function resetPeriods(slot: ControlSlot, ticksNow: number): void {
  Atomics.store(slot.ints, RESET_AT, ticksNow);
}
