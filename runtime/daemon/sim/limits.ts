import { fromXyzRpy, toXyzRpy, type Mat4 } from './pose.js';

// Documented Reachy Mini limits (spec §7). A target outside them is clamped
// and the names of the clamped fields are reported back to the caller.

const DEG = Math.PI / 180;
export const LIMITS = {
  headPitch: 40 * DEG,
  headRoll: 40 * DEG,
  headYaw: 180 * DEG,
  bodyYaw: 160 * DEG,
  headBodyYaw: 65 * DEG,
  antenna: Math.PI,
  /** Head translation, metres per axis: the Stewart platform reaches a few cm (not documented; a conservative bound). */
  headTranslation: 0.05,
} as const;

export interface Target {
  head: Mat4;
  antennas: [number, number];
  bodyYaw: number;
}

export interface Clamped {
  target: Target;
  /** e.g. ["head.pitch", "body_yaw", "antennas[1]"]; empty when nothing was clamped. */
  clamped: string[];
}

function clampTo(v: number, lo: number, hi: number, name: string, out: string[]): number {
  if (v < lo - 1e-9 || v > hi + 1e-9) {
    out.push(name);
    return Math.max(lo, Math.min(hi, v));
  }
  return v;
}

/**
 * Clamp a full target. `headYawHint` is the yaw the caller asked for when it
 * gave x/y/z/rpy, so a yaw beyond ±180° is seen before the matrix wraps it.
 */
export function clampTarget(t: Target, headYawHint?: number): Clamped {
  const out: string[] = [];
  const bodyYaw = clampTo(t.bodyYaw, -LIMITS.bodyYaw, LIMITS.bodyYaw, 'body_yaw', out);
  const p = toXyzRpy(t.head);
  const roll = clampTo(p.roll, -LIMITS.headRoll, LIMITS.headRoll, 'head.roll', out);
  const pitch = clampTo(p.pitch, -LIMITS.headPitch, LIMITS.headPitch, 'head.pitch', out);
  let yaw = clampTo(headYawHint ?? p.yaw, -LIMITS.headYaw, LIMITS.headYaw, 'head.yaw', out);
  const rel = yaw - bodyYaw;
  if (Math.abs(rel) > LIMITS.headBodyYaw + 1e-9) {
    if (!out.includes('head.yaw')) out.push('head.yaw');
    yaw = bodyYaw + Math.sign(rel) * LIMITS.headBodyYaw;
  }
  const [x, y, z] = (['x', 'y', 'z'] as const).map((k) => clampTo(p[k], -LIMITS.headTranslation, LIMITS.headTranslation, `head.${k}`, out));
  if (!isRigid(t.head)) out.push('head.matrix');
  const antennas = t.antennas.map((a, i) => clampTo(a, -LIMITS.antenna, LIMITS.antenna, `antennas[${i}]`, out)) as [number, number];
  const headChanged = out.some((n) => n.startsWith('head.'));
  const head = headChanged ? fromXyzRpy({ x: x ?? 0, y: y ?? 0, z: z ?? 0, roll, pitch, yaw }) : t.head;
  return { target: { head, antennas, bodyYaw }, clamped: out };
}

/** A rotation (orthonormal rows) plus a translation, last row 0 0 0 1: anything else is rebuilt from its angles. */
function isRigid(m: Mat4): boolean {
  if (m.some((v) => !Number.isFinite(v)) || Math.abs((m[15] ?? 0) - 1) > 1e-6 || [12, 13, 14].some((i) => Math.abs(m[i] ?? 0) > 1e-6)) return false;
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      const dot = [0, 1, 2].reduce((acc, k) => acc + (m[a * 4 + k] ?? 0) * (m[b * 4 + k] ?? 0), 0);
      if (Math.abs(dot - (a === b ? 1 : 0)) > 1e-3) return false;
    }
  }
  return true;
}
