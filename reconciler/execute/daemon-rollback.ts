import type { Action, UpdateDaemonAction } from '../types.js';

// rollout.on_failure: rollback for the robot itself (issue 31 B with 32's
// mechanism): a robot of a failed wave whose daemon this rollout updated (or
// tried to) goes back to the release it ran, through the same update call.
// perform skips an update to the release the daemon already runs, so a job
// that failed and left the daemon as it was costs one status read; a daemon
// that crash-loops does not answer, and the rollback says so.

/** The update back to the release the robot ran before this rollout, or null when its daemon was not touched. */
export function daemonRollback(robot: string, tried: readonly Action[]): UpdateDaemonAction | null {
  const update = tried.find((a): a is UpdateDaemonAction => a.type === 'update_daemon' && a.robot === robot);
  if (!update || update.from === null) return null;
  return { type: 'update_daemon', robot, address: update.address, from: update.to, to: update.from, reason: `rollback: back to ${update.from}` };
}
