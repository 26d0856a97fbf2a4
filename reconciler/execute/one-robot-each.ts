import type { Config } from '../../schema/types.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { Plan, RobotAddress } from '../types.js';
import { robotAddress } from '../robot-address.js';
import { UserError } from '../../lib/errors.js';
import { mapBounded } from '../../lib/map-bounded.js';

// Two robots of robot.yaml that are one robot (one daemon behind two URLs
// that validate cannot tell apart: a DNS name and an address, a proxy) would
// each switch the robot's app to their own on every apply, forever (issue
// 29.6). Before an apply acts on robots, each reachable robot is asked its
// hardware id (GET /api/daemon/hardware-id); two robots that report one id
// refuse the apply, nothing sent. A robot that does not answer it (no robot
// attached: null; an older daemon: an error) is not compared.

export async function refuseOneRobotTwice(plan: Plan, config: Config, daemon: (r: RobotAddress) => DaemonClient, signal: AbortSignal): Promise<void> {
  if (!plan.actions.some((a) => 'robot' in a)) return;
  // A robot declared by hardware_id alone is asked where mDNS found it (Plan.located).
  const robots = Object.values(config.robots).filter((r) => !plan.unreachable.includes(r.name))
    .map((r) => robotAddress(r, plan.located)).filter((r): r is RobotAddress => r !== null);
  if (robots.length < 2) return;
  const ids = await mapBounded(robots, 16, async (r) => daemon(r).hardwareId(signal).catch(() => null));
  const seen = new Map<string, string>();
  robots.forEach((r, i) => {
    const id = ids[i];
    if (id === null || id === undefined) return;
    const other = seen.get(id);
    if (other !== undefined) {
      throw new UserError(`robots.${other} and robots.${r.name} report one hardware id (${id}): they are one robot behind two URLs; keep one of them in robot.yaml (nothing was changed)`);
    }
    seen.set(id, r.name);
  });
}
