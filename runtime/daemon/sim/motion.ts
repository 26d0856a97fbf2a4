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
}

export function poseAt(m: MoveSpec, nowMs: number): { pose: Target; done: boolean } {
  const s = m.durationMs > 0 ? (nowMs - m.startMs) / m.durationMs : 1;
  if (s >= 1) return { pose: m.to, done: true };
  return { pose: blend(m.from, m.to, progress(m.interpolation, s)), done: false };
}

function blend(a: Target, b: Target, k: number): Target {
  return {
    head: interpolatePose(a.head, b.head, k),
    antennas: [a.antennas[0] + (b.antennas[0] - a.antennas[0]) * k, a.antennas[1] + (b.antennas[1] - a.antennas[1]) * k],
    bodyYaw: a.bodyYaw + (b.bodyYaw - a.bodyYaw) * k,
  };
}
