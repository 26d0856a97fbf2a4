import type { Config } from '../schema/types.js';
import type { AppRecord } from '../state/types.js';
import { APPS_GROUP } from '../lib/app-entry-points.js';
import type { EntryPointsFound, Observation } from './types.js';

// The daemon knows an app by its `reachy_mini_apps` entry point, robot.yaml
// by its key, the user's label (issue 30.3; spec §9 Names): `greeter:
// { source: …/spaces/demo/hello_rt }` is `hello_rt` on the robot. The planner
// asks here for the daemon's name of each key, and refuses, naming them, the
// apps whose pyproject.toml declares no entry point or several.

/** The daemon's name for app `key`: its one entry point, else the state's record of it, else the key. */
export function daemonNameOf(key: string, found: EntryPointsFound | undefined, owned: AppRecord | undefined): string {
  if (found && 'names' in found && found.names.length === 1) return found.names[0] as string;
  return owned?.entryPoint ?? key;
}

function where(config: Config, key: string): string {
  const spec = config.apps[key];
  if (spec?.spaceId) return `Space ${spec.spaceId}`;
  return spec?.path ? `the folder ${spec.path}` : `app ${key}`;
}

/** One line per app some reachable robot wants whose entry points cannot name it. */
export function entryPointProblems(config: Config, observed: Observation): string[] {
  const wanted = new Set<string>();
  for (const robot of Object.values(config.robots)) {
    if (observed.robots[robot.name]?.reachable) robot.apps.forEach((a) => wanted.add(a));
  }
  const problems: string[] = [];
  for (const key of [...wanted].sort()) {
    const found = observed.entryPoints?.[key];
    if (!found) continue;
    const table = `[project.entry-points."${APPS_GROUP}"]`;
    if ('error' in found) problems.push(`apps.${key}: ${found.error}`);
    else if (found.names.length === 0) {
      problems.push(`apps.${key}: ${where(config, key)} declares no entry point in ${table} of its pyproject.toml, so the robot would list no app for it; add one (\`robotctl app check\` shows how)`);
    } else if (found.names.length > 1) {
      problems.push(`apps.${key}: ${where(config, key)} declares ${found.names.length} entry points in ${table} (${found.names.join(', ')}); robotctl installs one app per key: keep one of them`);
    }
  }
  return problems;
}
