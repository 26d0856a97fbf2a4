// Turns the daemon's full-state document into a flat pose the view can draw.
// The daemon sends the head pose either as {x,y,z,roll,pitch,yaw} or, with
// use_pose_matrix, as {m: 16 floats row-major}; both are accepted.

/** @typedef {{x:number,y:number,z:number,roll:number,pitch:number,yaw:number,antennas:[number,number],bodyYaw:number}} Pose */

/** @type {Pose} */
export const REST_POSE = Object.freeze({ x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0, antennas: [-0.1745, 0.1745], bodyYaw: 0 });

const num = (v, fallback) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** Euler "xyz" (extrinsic, as scipy) of a row-major 4x4 matrix: R = Rz(yaw)·Ry(pitch)·Rx(roll). */
export function matrixToPose(m) {
  const r = (i, j) => num(m[i * 4 + j], i === j ? 1 : 0);
  const sp = Math.max(-1, Math.min(1, -r(2, 0)));
  return {
    x: r(0, 3), y: r(1, 3), z: r(2, 3),
    roll: Math.atan2(r(2, 1), r(2, 2)),
    pitch: Math.asin(sp),
    yaw: Math.atan2(r(1, 0), r(0, 0)),
  };
}

function headOf(hp, prev) {
  if (!hp || typeof hp !== 'object') return prev;
  if (Array.isArray(hp.m) && hp.m.length === 16) return matrixToPose(hp.m);
  if (Array.isArray(hp) && hp.length === 4 && Array.isArray(hp[0])) return matrixToPose(hp.flat());
  return {
    x: num(hp.x, prev.x), y: num(hp.y, prev.y), z: num(hp.z, prev.z),
    roll: num(hp.roll, prev.roll), pitch: num(hp.pitch, prev.pitch), yaw: num(hp.yaw, prev.yaw),
  };
}

/** Merge a full-state document into the previous pose (missing fields keep their last value). */
export function poseFromState(state, prev = REST_POSE) {
  if (!state || typeof state !== 'object') return prev;
  const head = headOf(state.head_pose, prev);
  const a = Array.isArray(state.antennas_position) ? state.antennas_position : null;
  return {
    ...head,
    antennas: a ? [num(a[0], prev.antennas[0]), num(a[1], prev.antennas[1])] : prev.antennas,
    bodyYaw: num(state.body_yaw, prev.bodyYaw),
  };
}

export const deg = (rad) => (rad * 180) / Math.PI;
