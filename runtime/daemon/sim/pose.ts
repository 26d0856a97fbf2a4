// Head poses as 4x4 row-major matrices (translation in metres), converted to
// and from x,y,z + roll,pitch,yaw with scipy's extrinsic Euler "xyz"
// convention (R = Rz(yaw)·Ry(pitch)·Rx(roll)), which is what the real daemon
// uses on the wire.

export type Mat4 = number[];

export interface XyzRpy {
  x: number;
  y: number;
  z: number;
  roll: number;
  pitch: number;
  yaw: number;
}

export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function fromXyzRpy(p: XyzRpy): Mat4 {
  const [cr, sr] = [Math.cos(p.roll), Math.sin(p.roll)];
  const [cp, sp] = [Math.cos(p.pitch), Math.sin(p.pitch)];
  const [cy, sy] = [Math.cos(p.yaw), Math.sin(p.yaw)];
  return [
    cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, p.x,
    sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, p.y,
    -sp, cp * sr, cp * cr, p.z,
    0, 0, 0, 1,
  ];
}

function at(m: Mat4, r: number, c: number): number {
  return m[r * 4 + c] ?? 0;
}

export function toXyzRpy(m: Mat4): XyzRpy {
  const pitch = Math.asin(Math.max(-1, Math.min(1, -at(m, 2, 0))));
  let roll: number;
  let yaw: number;
  if (Math.abs(Math.cos(pitch)) > 1e-9) {
    roll = Math.atan2(at(m, 2, 1), at(m, 2, 2));
    yaw = Math.atan2(at(m, 1, 0), at(m, 0, 0));
  } else {
    // Gimbal lock: only roll - yaw is defined; put it all in roll.
    roll = Math.atan2(-at(m, 1, 2), at(m, 1, 1));
    yaw = 0;
  }
  return { x: at(m, 0, 3), y: at(m, 1, 3), z: at(m, 2, 3), roll, pitch, yaw };
}

type Quat = [number, number, number, number];

function toQuat(m: Mat4): Quat {
  const [m00, m11, m22] = [at(m, 0, 0), at(m, 1, 1), at(m, 2, 2)];
  const trace = m00 + m11 + m22;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    return [0.25 * s, (at(m, 2, 1) - at(m, 1, 2)) / s, (at(m, 0, 2) - at(m, 2, 0)) / s, (at(m, 1, 0) - at(m, 0, 1)) / s];
  }
  if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    return [(at(m, 2, 1) - at(m, 1, 2)) / s, 0.25 * s, (at(m, 0, 1) + at(m, 1, 0)) / s, (at(m, 0, 2) + at(m, 2, 0)) / s];
  }
  if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    return [(at(m, 0, 2) - at(m, 2, 0)) / s, (at(m, 0, 1) + at(m, 1, 0)) / s, 0.25 * s, (at(m, 1, 2) + at(m, 2, 1)) / s];
  }
  const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
  return [(at(m, 1, 0) - at(m, 0, 1)) / s, (at(m, 0, 2) + at(m, 2, 0)) / s, (at(m, 1, 2) + at(m, 2, 1)) / s, 0.25 * s];
}

function fromQuat(q: Quat, t: [number, number, number]): Mat4 {
  const n = Math.hypot(...q) || 1;
  const [w, x, y, z] = q.map((v) => v / n) as Quat;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), t[0],
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), t[1],
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), t[2],
    0, 0, 0, 1,
  ];
}

function slerp(a: Quat, b: Quat, s: number): Quat {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (dot < 0) {
    dot = -dot;
    bb = b.map((v) => -v) as Quat;
  }
  if (dot > 0.9995) return a.map((v, i) => v + ((bb[i] ?? 0) - v) * s) as Quat;
  const theta = Math.acos(dot);
  const wa = Math.sin((1 - s) * theta) / Math.sin(theta);
  const wb = Math.sin(s * theta) / Math.sin(theta);
  return a.map((v, i) => v * wa + (bb[i] ?? 0) * wb) as Quat;
}

/** Pose between a and b: translation lerped, rotation slerped. s may leave [0,1] (cartoon overshoot). */
export function interpolatePose(a: Mat4, b: Mat4, s: number): Mat4 {
  const t: [number, number, number] = [0, 1, 2].map((r) => at(a, r, 3) + (at(b, r, 3) - at(a, r, 3)) * s) as [number, number, number];
  return fromQuat(slerp(toQuat(a), toQuat(b), s), t);
}

/** Largest element-wise difference, to compare poses with a tolerance. */
export function poseDistance(a: Mat4, b: Mat4): number {
  let d = 0;
  for (let i = 0; i < 16; i++) d = Math.max(d, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return d;
}
