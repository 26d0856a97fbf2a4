import type { Config } from '../schema/types.js';
import type { Observation, RobotAction } from './types.js';
import { shellWord, suggested, type CommandLine } from '../lib/command-line.js';

// Installs the robot cannot do, found at plan time rather than halfway
// through apply (issue 11.5):
// - a `path:` app on a daemon that is not robotctl's simulator: the real
//   Reachy Mini daemon refuses `source_kind: local` over REST;
// - a `source:` on another host than the hub: the daemon installs the Space
//   id from its own hub whatever the URL's host, so it would install
//   something else than what the URL names.

/** The hosts a `source:` may name: the configured hub, and huggingface.co (HF_ENDPOINT stands in for it). */
function hubOrigins(config: Config): Set<string> {
  const origins = new Set(['https://huggingface.co']);
  try {
    origins.add(new URL(config.hub.endpoint).origin);
  } catch {
    // The loader validated it; a partial Config keeps the default only.
  }
  return origins;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The Space `robotctl app publish PATH` creates: `<owner>/<[project] name>`
 * (the folder's name without one) on the configured hub (issue 30.6).
 */
function publishedSpace(config: Config, observed: Observation, key: string, path: string): string {
  const found = observed.entryPoints?.[key];
  const project = found && 'names' in found ? found.project ?? null : null;
  const name = project ?? path.split(/[\\/]/).filter(Boolean).pop() ?? key;
  return `${config.hub.endpoint.replace(/\/+$/, '')}/spaces/<owner>/${name}`;
}

export function installProblems(config: Config, observed: Observation, actions: RobotAction[], command?: CommandLine): string[] {
  const problems: string[] = [];
  const hubs = hubOrigins(config);
  for (const a of actions) {
    if (a.type !== 'install' && a.type !== 'update_app') continue;
    const { source, path } = a.record;
    const obs = observed.robots[a.robot];
    const daemon = obs?.reachable ? obs.daemon : null;
    if (path !== null && daemon !== null && daemon.robotctl_simulator !== true) {
      problems.push(
        `${a.address}: robot ${a.robot} (${config.robots[a.robot]?.url ?? '?'}) is not robotctl's simulator, and a Reachy Mini daemon ` +
        `does not install a local folder (path: ${path}). Publish the app to a Space (${suggested(command, `app publish ${shellWord(path)}`)}) and give it ` +
        `as \`source: ${publishedSpace(config, observed, a.app, path)}\`, or run this robot with ${suggested(command, 'daemon --sim')}.`,
      );
    }
    const origin = source === null ? null : originOf(source);
    if (source !== null && (origin === null || !hubs.has(origin))) {
      problems.push(
        `${a.address}: source ${source} is not on the hub the robot installs from (${[...hubs].join(' or ')}); ` +
        'the daemon would install the Space of that name from its own hub. Use the hub\'s Space URL, or set hub.endpoint (HF_ENDPOINT) to that hub.',
      );
    }
  }
  return problems;
}
