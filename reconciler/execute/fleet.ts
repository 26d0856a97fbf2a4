import type { MaxFailures, RolloutSpec } from '../../schema/types.js';
import type { Action, Plan, RobotAction } from '../types.js';
import { fromOutput, idleReport, robotIdle, totals, type ApplyReport, type Halt, type Reasons, type UnitReport } from '../report.js';
import type { UnitEmitted, UnitOutput } from './machine.js';
import { hubLanes, mergeLanes } from './hub-lanes.js';
import { runUnit, type UnitEffects } from './run-unit.js';
import { mapBounded } from '../../lib/map-bounded.js';

// The fleet rollout: the hub's actors (a few lanes, hub-lanes.ts) run beside the robots; robots run with
// bounded parallelism, the canary wave (the first `canary` robots of the
// file) before everyone else. Once failed robots pass max_failures, robots
// not yet started are skipped. A canary that cannot be reached counts as a
// failure: it cannot vouch for the rollout. Other unreachable robots do not
// stop the others.

export interface FleetOptions {
  /** Robot names in file order. */
  robots: string[];
  /** How the waves go (a start's window, min_ready, is the effects' business). */
  rollout: Pick<RolloutSpec, 'canary' | 'maxFailures'>;
  parallelism: number;
  effects: UnitEffects;
  stop: AbortSignal;
  hard?: AbortSignal;
  reasons?: Reasons;
  onEvent?: (e: UnitEmitted | FleetEvent) => void;
}

export type FleetEvent =
  | { type: 'robot.finished'; report: UnitReport }
  | { type: 'rollout.halted'; halt: Halt };

export async function executePlan(plan: Plan, opts: FleetOptions): Promise<ApplyReport> {
  const hubActions = plan.actions.filter((a) => !('robot' in a));
  const hubRun = hubActions.length === 0
    ? Promise.resolve(plan.hubError !== null ? idleReport('hub', 'unreachable', plan.hubError) : idleReport('hub', 'already_converged', null))
    : runHub(hubActions, opts).then((o) => fromOutput('hub', o, opts.stop.aborted));
  const robots = await runRobots(plan, opts);
  const hub = await hubRun;
  return { hub, robots: robots.reports, interrupted: opts.stop.aborted, halt: robots.halt, totals: totals([hub, ...robots.reports]) };
}

async function runHub(actions: Action[], opts: FleetOptions): Promise<UnitOutput> {
  const lanes = hubLanes(actions);
  const outputs = await Promise.all(lanes.map((lane) => runUnit(unitInput('hub', lane, true), opts.effects, runOpts(opts))));
  return mergeLanes('hub', actions, outputs);
}

async function runRobots(plan: Plan, opts: FleetOptions): Promise<{ reports: UnitReport[]; halt: Halt | null }> {
  const byRobot = new Map<string, RobotAction[]>();
  for (const a of plan.actions) if ('robot' in a) byRobot.set(a.robot, [...(byRobot.get(a.robot) ?? []), a]);
  const reports = new Map<string, UnitReport>();
  const canaries = opts.robots.slice(0, Math.max(0, opts.rollout.canary));
  const limit = failureLimit(opts.rollout.maxFailures, opts.robots.length);
  let failures = canaries.filter((r) => plan.unreachable.includes(r)).length;
  let halt: Halt | null = null;
  const checkHalt = (): void => {
    if (halt || failures <= limit) return;
    halt = { failures, limit, skipped: [] };
    opts.onEvent?.({ type: 'rollout.halted', halt });
  };
  const runOne = async (name: string): Promise<void> => {
    const actions: Action[] = byRobot.get(name) ?? [];
    let report: UnitReport;
    if (plan.unreachable.includes(name) || actions.length === 0) report = robotIdle(plan, name, actions, null, opts.reasons);
    else if (halt) report = idleReport(name, 'skipped', `rollout stopped: ${halt.failures} failed robot(s), max_failures allows ${halt.limit}`, actions);
    else if (opts.stop.aborted) report = idleReport(name, 'skipped', 'interrupted', actions);
    else {
      const out = await runUnit(unitInput(name, actions, false), opts.effects, runOpts(opts));
      report = fromOutput(name, out, opts.stop.aborted);
      if (report.status === 'failed') failures += 1;
      checkHalt();
    }
    if (halt && report.status === 'skipped' && report.reason?.startsWith('rollout stopped')) halt.skipped.push(name);
    reports.set(name, report);
    opts.onEvent?.({ type: 'robot.finished', report });
  };
  const width = Math.max(1, opts.parallelism);
  checkHalt();
  await mapBounded(canaries, width, runOne);
  await mapBounded(opts.robots.slice(canaries.length), width, runOne);
  return { reports: opts.robots.map((r) => reports.get(r) as UnitReport), halt };
}

/** Failed robots allowed before the rollout stops: a count, or a share of the fleet (rounded down). */
export function failureLimit(max: MaxFailures, robots: number): number {
  return max.kind === 'count' ? max.value : Math.floor((max.value / 100) * robots);
}

function unitInput(unit: string, actions: Action[], continueOnError: boolean) {
  return { unit, actions, continueOnError };
}

function runOpts(opts: FleetOptions) {
  return {
    stop: opts.stop,
    ...(opts.hard ? { hard: opts.hard } : {}),
    ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
  };
}
