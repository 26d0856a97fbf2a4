import type { RobotSpec } from '../schema/types.js';
import type { RobotAddress } from './types.js';

// A robot robot.yaml declares by hardware_id alone has no URL until mDNS
// finds it at observe time (Observation.located, copied into the Plan):
// every driver call on a robot goes to the address this gives.

/** The robot's daemon address, or null when it has no url and was not found. */
export function robotAddress(robot: RobotSpec, located: Record<string, string> | undefined): RobotAddress | null {
  const url = robot.url ?? located?.[robot.name] ?? null;
  return url === null ? null : { name: robot.name, url };
}
