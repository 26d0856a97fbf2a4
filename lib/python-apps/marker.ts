// Everything a daemon spawns (pip, builds, apps) carries the daemon's marker
// in its environment, which a child keeps through setsid, double forks and
// re-parenting to init: the daemon finds and kills them by it
// (runtime/daemon/apps/proc.ts), even after its own kill -9.

export const MARKER_VAR = 'ROBOTCTL_DAEMON_INSTANCE';

/** The daemon markers (the part before the first '/') this process has spawned a command or an app under. */
const spawnedUnder = new Set<string>();

/** The environment a spawned process gets to carry marker; notes that this process spawned under it. */
export function markerEnv(marker: string): Record<string, string> {
  spawnedUnder.add(marker.split('/', 1)[0] ?? marker);
  return { [MARKER_VAR]: marker };
}

/**
 * Whether this process ever spawned anything under the daemon marker: a
 * daemon that never ran pip or an app has nothing to kill at close and skips
 * the scan of every process's environment (1,000 simulated robots closing).
 */
export function spawnedAny(marker: string): boolean {
  return spawnedUnder.has(marker.split('/', 1)[0] ?? marker);
}
