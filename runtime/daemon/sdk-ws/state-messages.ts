import type { DaemonContext } from '../context.js';
import { daemonStatus } from '../routes/daemon.js';

// The server → client state frames of /ws/sdk, serialised once per tick and
// shared by every client.

/** Seven head joints: body yaw, then the six Stewart motors. The simulator
 * has no kinematics model, so the motor angles are reported as 0. */
export function jointPositions(ctx: DaemonContext): string {
  const p = ctx.robot.present;
  return JSON.stringify({
    type: 'joint_positions',
    head_joint_positions: [p.bodyYaw, 0, 0, 0, 0, 0, 0],
    antennas_joint_positions: [p.antennas[0], p.antennas[1]],
  });
}

/** The head pose as the 4×4 nested list the SDK reads. */
export function headPose(ctx: DaemonContext): string {
  const m = ctx.robot.present.head;
  const rows = [0, 1, 2, 3].map((r) => m.slice(r * 4, r * 4 + 4));
  return JSON.stringify({ type: 'head_pose', head_pose: rows });
}

/** daemon_status as the real daemon in --mockup-sim --no-media sends it. */
export function daemonStatusFrame(ctx: DaemonContext, mediaReleased: boolean): string {
  // The REST status's robotctl_simulator and robotctl_extensions are for robotctl; the real frame has no such keys.
  const { robotctl_simulator: _simulator, robotctl_extensions: _extensions, ...base } = daemonStatus(ctx);
  const running = ctx.state === 'running' || ctx.state === 'stopping';
  return JSON.stringify({
    ...base,
    type: 'daemon_status',
    media_released: mediaReleased,
    backend_status: running ? { motor_control_mode: ctx.robot.motorMode, error: null } : null,
    face_target: { detected: false, x: null, y: null, roll: null, ts: null },
  });
}

/** A naive local ISO-8601 time with microseconds, like Python's datetime.now().isoformat(). */
export function naiveLocalIso(d = new Date()): string {
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}000`;
}
