import type { Target } from './limits.js';

// One robot's state shared by the main thread and the control thread: a
// SharedArrayBuffer per robot, no copying and no message per tick. The
// control thread writes the present pose of a running move, marks the move
// completed and records the measured periods; the main thread reads them
// when a request or a state frame asks. The pose is guarded by a sequence
// number (odd while it is written), so a reader never sees half a pose.

/** Int32 words of the header. */
const POSE_SEQ = 0;
const POSE_MOVE = 1;
const DONE_MOVE = 2;
const FILLED = 3;
const RING_NEXT = 4;
const CONTROL_THREAD = 5;
const HEADER_BYTES = 32;

const POSE_LEN = 19; // head 4×4, two antennas, body yaw
/** The periods kept for the statistics: the last 2,000 (40 s at 50 Hz). */
export const RING = 2000;

export interface ControlSlot {
  readonly buffer: SharedArrayBuffer;
  readonly ints: Int32Array;
  readonly pose: Float64Array;
  readonly periods: Float64Array;
}

export function slotOf(buffer: SharedArrayBuffer): ControlSlot {
  return {
    buffer,
    ints: new Int32Array(buffer, 0, HEADER_BYTES / 4),
    pose: new Float64Array(buffer, HEADER_BYTES, POSE_LEN),
    periods: new Float64Array(buffer, HEADER_BYTES + POSE_LEN * 8, RING),
  };
}

export function createSlot(): ControlSlot {
  return slotOf(new SharedArrayBuffer(HEADER_BYTES + (POSE_LEN + RING) * 8));
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

export function recordPeriod(slot: ControlSlot, ms: number): void {
  const next = Atomics.load(slot.ints, RING_NEXT);
  slot.periods[next] = ms;
  Atomics.store(slot.ints, RING_NEXT, (next + 1) % RING);
  const filled = Atomics.load(slot.ints, FILLED);
  // A reset (main thread) between the load and here wins: the count stays 0.
  if (filled < RING) Atomics.compareExchange(slot.ints, FILLED, filled, filled + 1);
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

/** The recorded periods, oldest first: a copy, the control thread goes on writing. */
export function recordedPeriods(slot: ControlSlot): Float64Array {
  const filled = Atomics.load(slot.ints, FILLED);
  const next = Atomics.load(slot.ints, RING_NEXT);
  const out = new Float64Array(filled);
  for (let i = 0; i < filled; i++) out[i] = slot.periods[(next - filled + i + RING) % RING] ?? 0;
  return out;
}

export function resetPeriods(slot: ControlSlot): void {
  Atomics.store(slot.ints, FILLED, 0);
}
