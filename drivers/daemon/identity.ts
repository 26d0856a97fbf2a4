import type { HardwareIdAnswer, RobotNameAnswer } from '../../lib/wire/daemon-update.js';
import type { DaemonCall } from './http.js';

// Who the robot is (spec §9; routers/daemon.py): its hardware id, the same
// across reboots and reinstalls (null when the daemon has no robot attached),
// and its display name, which a rename changes live (status, mDNS record).
// A name the daemon refuses fails in its words: 422 `Invalid robot name`
// (code invalid_robot_name) for one of only spaces, its validation message
// for an empty or a longer than 64 characters one.

export function identityCalls(call: DaemonCall) {
  return {
    hardwareId: async (signal?: AbortSignal): Promise<string | null> => (await call<HardwareIdAnswer>('/api/daemon/hardware-id', { signal })).hardware_id ?? null,
    robotName: async (signal?: AbortSignal): Promise<string | null> => (await call<RobotNameAnswer>('/api/daemon/robot-name', { signal })).name ?? null,
    /** Resolves with the name as the daemon stored it (trimmed). Repeating it is harmless, so it is retried like a read. */
    setRobotName: async (name: string, signal?: AbortSignal): Promise<string> =>
      (await call<RobotNameAnswer>('/api/daemon/robot-name', { method: 'POST', body: { name }, signal, idempotent: true })).name ?? name,
  };
}
