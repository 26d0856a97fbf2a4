import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import type { Observation, Plan, RobotAction } from '../types.js';
import { planRobot } from '../plan-robots.js';
import { holdCheck } from '../plan-held.js';
import type { LiveApp } from './app-watch.js';

// /status between runs: the last run's observation with each robot's current
// app as the robot told it since (app-watch.ts), and each such robot's part
// of the remaining plan made again from it, so a manual stop shows as drift
// at once. Pure.

export interface LiveView {
  observation: Observation | null;
  remaining: Plan | null;
}

export function liveView(config: Config, observation: Observation | null, remaining: Plan | null, state: StateFile | null, live: ReadonlyMap<string, LiveApp>): LiveView {
  if (!observation || live.size === 0) return { observation, remaining };
  const robots = { ...observation.robots };
  const changed: string[] = [];
  for (const [name, app] of live) {
    const obs = robots[name];
    if (!obs?.reachable || app.error !== null || JSON.stringify(obs.current) === JSON.stringify(app.current)) continue;
    robots[name] = { ...obs, current: app.current };
    changed.push(name);
  }
  if (changed.length === 0) return { observation, remaining };
  const next: Observation = { ...observation, robots };
  return { observation: next, remaining: remaining && replan(config, next, remaining, state, changed) };
}

/** `remaining` with the robot actions of `robots` planned again from `observation`. */
function replan(config: Config, observation: Observation, remaining: Plan, state: StateFile | null, robots: string[]): Plan {
  const again = new Set(robots);
  const holds = state ? holdCheck(state) : () => null;
  const fresh: RobotAction[] = [];
  for (const name of robots) {
    const robot = config.robots[name];
    const obs = observation.robots[name];
    if (!robot || !obs?.reachable) continue;
    fresh.push(...planRobot(robot, config.apps, obs, state?.robots[name], observation.spaces, new Set(), holds).actions);
  }
  const kept = remaining.actions.filter((a) => !('robot' in a) || !again.has(a.robot));
  return { ...remaining, actions: [...kept, ...fresh] };
}
