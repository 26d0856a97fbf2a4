import { progress, type Interpolation } from './interpolation.js';
import type { Target } from './limits.js';
import { interpolatePose } from './pose.js';

// A running move as the control thread receives it, and the pose it puts the
// robot in at a given time: the interpolation of the real daemon's goto.

export interface MoveSpec {
  /** The robot's move number: poses and completion are tagged with it. */
  seq: number;
  from: Target;
  to: Target;
  /** monotonicMs() when the move was asked for (clock.ts). */
  startMs: number;
  durationMs: number;
  interpolation: Interpolation;
  /**
   * A recorded move's frames between `from` and `to`, by milliseconds since
   * its start (ascending): the pose is blended linearly between neighbours,
   * as the real daemon plays a recorded move (spec routers/move.py).
   */
  via?: { atMs: number; pose: Target }[];
}

export function poseAt(m: MoveSpec, nowMs: number): { pose: Target; done: boolean } {
  const s = m.durationMs > 0 ? (nowMs - m.startMs) / m.durationMs : 1;
  if (s >= 1) return { pose: m.to, done: true };
  if (m.via && m.via.length > 0) return { pose: alongFrames(m, nowMs - m.startMs), done: false };
  return { pose: blend(m.from, m.to, progress(m.interpolation, s)), done: false };
}

function alongFrames(m: MoveSpec, t: number): Target {
  const frames = [{ atMs: 0, pose: m.from }, ...(m.via ?? []), { atMs: m.durationMs, pose: m.to }];
  let i = 1;
  while (i < frames.length - 1 && (frames[i]?.atMs ?? 0) <= t) i++;
  const a = frames[i - 1] as { atMs: number; pose: Target };
  const b = frames[i] as { atMs: number; pose: Target };
  return blend(a.pose, b.pose, b.atMs > a.atMs ? Math.min(1, (t - a.atMs) / (b.atMs - a.atMs)) : 1);
}

function blend(a: Target, b: Target, k: number): Target {
  return {
    head: interpolatePose(a.head, b.head, k),
    antennas: [a.antennas[0] + (b.antennas[0] - a.antennas[0]) * k, a.antennas[1] + (b.antennas[1] - a.antennas[1]) * k],
    bodyYaw: a.bodyYaw + (b.bodyYaw - a.bodyYaw) * k,
  };
}
