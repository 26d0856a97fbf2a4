import { identityRefusal } from '../plan-daemon.js';
import { robotAddress } from '../robot-address.js';
import { robotDaemon, type PerformContext } from './perform.js';

// Before the first change to a robot whose robot.yaml entry names a
// hardware_id, the robot is asked who it is (GET /api/daemon/hardware-id):
// a DHCP change may have put another robot at that address since the plan
// was made. Another id, or none, refuses the robot; the others go on.

/** Why this robot must not be touched, or null; a failed read throws (the robot's unit fails). */
export async function checkIdentity(ctx: Pick<PerformContext, 'config' | 'daemon' | 'located'>, name: string, signal: AbortSignal): Promise<string | null> {
  const robot = ctx.config.robots[name];
  if (robot?.hardwareId === undefined) return null;
  const answered = await robotDaemon(ctx, name).hardwareId(signal);
  return identityRefusal(robot.hardwareId, answered, robotAddress(robot, ctx.located)?.url ?? name);
}
