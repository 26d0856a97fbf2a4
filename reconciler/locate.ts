import type { RobotSpec } from '../schema/types.js';
import { errorMessage } from '../lib/errors.js';
import type { ObserveDeps } from './observe.js';

// Robots robot.yaml declares by hardware_id and no url are found over mDNS
// at observe time, by the `unit_id` their daemon advertises (issue 31):
// one browse for all of them, ended as soon as each has answered. One that
// does not answer is unreachable, with what to check.

export interface Located {
  /** Robot name → daemon URL. */
  located: Record<string, string>;
  /** The error of a robot that was looked for and not found. */
  missing: string;
}

export async function locateRobots(robots: RobotSpec[], locate: ObserveDeps['locate'], signal?: AbortSignal): Promise<Located> {
  const wanted = robots.filter((r): r is RobotSpec & { hardwareId: string } => r.url === null && typeof r.hardwareId === 'string');
  const located: Record<string, string> = {};
  if (wanted.length === 0) return { located, missing: '' };
  const ids = wanted.map((r) => r.hardwareId);
  if (!locate) return { located, missing: 'robot.yaml gives no url and this command does not browse mDNS' };
  let found: Record<string, string>;
  try {
    found = await locate(ids, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    return { located, missing: `not found over mDNS: ${errorMessage(err)}` };
  }
  for (const r of wanted) {
    const url = found[r.hardwareId];
    if (url !== undefined) located[r.name] = url;
  }
  return { located, missing: 'no robot with this hardware_id answered over mDNS (_reachy-mini._tcp): is it on, and on this network? Or set its url' };
}
