import type { MaxFailures, RolloutSpec } from '../../schema/types.js';
import type { Action, Plan, RobotAction } from '../types.js';
import { fromOutput, idleReport, robotIdle, totals, type ApplyReport, type Halt, type Reasons, type UnitReport } from '../report.js';
import type { UnitEmitted, UnitOutput } from './machine.js';
import { hubLanes, mergeLanes } from './hub-lanes.js';
import { runUnit, type UnitEffects } from './run-unit.js';
import { mapBounded } from '../../lib/map-bounded.js';
import { rollbackPlan, type RobotBefore } from './rollback.js';
import { rolledBack } from './rollback-report.js';
import { shortReason } from './errors.js';

// The fleet rollout: the hub's actors (a few lanes, hub-lanes.ts) run beside
// the robots; robots go in waves: the canary wave (the first `canary` robots
// of the file) first, then the others, `parallelism` robots a wave. A wave
// ends when each of its robots is done, its health gate included (start.ts),
// so the next wave starts only from a wave that passed. Once failed robots
// pass max_failures the rollout stops: later waves are skipped, and with
// on_failure: rollback the robots of the failed wave go back to what they
// ran before (rollback.ts). A canary that cannot be reached counts as a
// failure: it cannot vouch for the rollout. Other unreachable robots do not
// stop the others.

export interface FleetOptions {
  /** Robot names in file order. */
  robots: string[];
  /** How the waves go (a start's health gate is the effects' business). */
  rollout: { canary: number } & Pick<RolloutSpec, 'maxFailures'> & Partial<Pick<RolloutSpec, 'onFailure'>>;
  parallelism: number;
  effects: UnitEffects;
  /** on_failure: rollback's two halves; absent: nothing is put back. */
  rollback?: RollbackEffects;
  stop: AbortSignal;
  hard?: AbortSignal;
  reasons?: Reasons;
  onEvent?: (e: UnitEmitted | FleetEvent) => void;
  /** Before a robot's first action: why it must not be touched (not the robot robot.yaml names), or null. */
  admit?: (robot: string, signal: AbortSignal) => Promise<string | null>;
}

export interface RollbackEffects {
  /** What the robot runs now, read before its first action; null when it cannot be read. */
  capture(robot: string, signal: AbortSignal): Promise<RobotBefore | null>;
  /** The effects a rollback's actions run with (a start without the health gate). */
  effects: UnitEffects;
}

export type FleetEvent =
  | { type: 'robot.finished'; report: UnitReport }
  | { type: 'rollout.halted'; halt: Halt }
  | { type: 'rollout.wave'; wave: number; robots: string[] }
  | { type: 'robot.rolling_back'; robot: string; actions: RobotAction[] };

export async function executePlan(plan: Plan, opts: FleetOptions): Promise<ApplyReport> {
  const hubActions = plan.actions.filter((a) => !('robot' in a));
  const hubRun = hubActions.length === 0
    ? Promise.resolve(plan.hubError !== null ? idleReport('hub', 'unreachable', plan.hubError) : idleReport('hub', 'already_converged', null))
    : runHub(hubActions, opts).then((o) => fromOutput('hub', o, opts.stop.aborted));
  const robots = await runRobots(plan, opts);
  const hub = await hubRun;
  return { hub, robots: robots.reports, interrupted: opts.stop.aborted, halt: robots.halt, waves: robots.waves, totals: totals([hub, ...robots.reports]) };
}

async function runHub(actions: Action[], opts: FleetOptions): Promise<UnitOutput> {
  const lanes = hubLanes(actions);
  const outputs = await Promise.all(lanes.map((lane) => runUnit(unitInput('hub', lane, true), opts.effects, runOpts(opts))));
  return mergeLanes('hub', actions, outputs);
}

/**
 * The canary wave's size: rollout.canary as declared; when the file sets
 * none, 0, but 1 in a rollout that updates a daemon. A daemon release that
 * fails bricks a robot until someone reaches it (desktop #273, #1251), so one
 * robot goes first unless the owner said otherwise (canary: 0 keeps them
 * together).
 */
export function canaryOf(rollout: Pick<RolloutSpec, 'canary'>, actions: readonly Action[]): number {
  if (rollout.canary !== null) return rollout.canary;
  return actions.some((a) => a.type === 'update_daemon') ? 1 : 0;
}

/** The waves of robots that have work: the canaries (file order), then `parallelism` at a time. */
export function waves(robots: string[], busy: ReadonlySet<string>, canary: number, parallelism: number): string[][] {
  const first = robots.slice(0, Math.max(0, canary)).filter((r) => busy.has(r));
  const rest = robots.slice(Math.max(0, canary)).filter((r) => busy.has(r));
  const out: string[][] = first.length > 0 ? [first] : [];
  const width = Math.max(1, parallelism);
  for (let i = 0; i < rest.length; i += width) out.push(rest.slice(i, i + width));
  return out;
}

async function runRobots(plan: Plan, opts: FleetOptions): Promise<{ reports: UnitReport[]; halt: Halt | null; waves: string[][] }> {
  const byRobot = new Map<string, RobotAction[]>();
  for (const a of plan.actions) if ('robot' in a) byRobot.set(a.robot, [...(byRobot.get(a.robot) ?? []), a]);
  const reports = new Map<string, UnitReport>();
  const canaries = opts.robots.slice(0, Math.max(0, opts.rollout.canary));
  const limit = failureLimit(opts.rollout.maxFailures, opts.robots.length);
  let failures = canaries.filter((r) => plan.unreachable.includes(r)).length;
  let halt: Halt | null = null;
  const finish = (report: UnitReport): void => {
    reports.set(report.name, report);
    opts.onEvent?.({ type: 'robot.finished', report });
  };
  const checkHalt = (): void => {
    if (halt || failures <= limit) return;
    halt = { failures, limit, skipped: [] };
    opts.onEvent?.({ type: 'rollout.halted', halt });
  };
  // Robots with nothing to run (idle, unreachable) are reported at once.
  const busy = new Set(opts.robots.filter((r) => !plan.unreachable.includes(r) && (byRobot.get(r)?.length ?? 0) > 0));
  for (const name of opts.robots) if (!busy.has(name)) finish(robotIdle(plan, name, byRobot.get(name) ?? [], null, opts.reasons));
  checkHalt();
  const order = waves(opts.robots, busy, opts.rollout.canary, opts.parallelism);
  for (const [i, wave] of order.entries()) {
    if (halt || opts.stop.aborted) {
      const why = halt ? haltReason(halt) : 'interrupted';
      for (const name of wave) finish(idleReport(name, 'skipped', why, byRobot.get(name) ?? []));
      if (halt) (halt as Halt).skipped.push(...wave);
      continue;
    }
    opts.onEvent?.({ type: 'rollout.wave', wave: i + 1, robots: wave });
    const ran = await mapBounded(wave, Math.max(1, opts.parallelism), async (name) => {
      const actions = byRobot.get(name) ?? [];
      const turnedAway = await admitted(name, actions, opts);
      if (turnedAway !== null) {
        if (turnedAway.status === 'failed') failures += 1;
        // Nothing was done on it: nothing to roll back.
        return { name, out: { unit: name, status: 'stopped' as const, completed: [], failed: [], notDone: actions }, report: turnedAway, before: null };
      }
      const before = opts.rollback ? await opts.rollback.capture(name, opts.stop).catch(() => null) : null;
      const out = await runUnit(unitInput(name, actions, false), opts.effects, runOpts(opts));
      const report = fromOutput(name, out, opts.stop.aborted);
      if (report.status === 'failed') failures += 1;
      return { name, out, report, before };
    });
    checkHalt();
    const rollBack = halt !== null && opts.rollback !== undefined && opts.rollout.onFailure !== 'stop' && !opts.stop.aborted;
    await mapBounded(ran, Math.max(1, opts.parallelism), async (r) => {
      finish(rollBack && r.out.completed.length + r.out.failed.length > 0 ? await restore(r, opts, halt as Halt) : r.report);
    });
  }
  return { reports: opts.robots.map((r) => reports.get(r) as UnitReport), halt, waves: order };
}

/** The report of a robot the admission check turned away (refused) or could not ask (failed); null to go on. */
async function admitted(name: string, actions: Action[], opts: FleetOptions): Promise<UnitReport | null> {
  if (!opts.admit) return null;
  try {
    const refusal = await opts.admit(name, opts.hard ?? new AbortController().signal);
    return refusal === null ? null : idleReport(name, 'refused', refusal, actions);
  } catch (err) {
    // The robot could not say who it is: its first action fails, nothing is done on it.
    const error = `hardware id check: ${shortReason(err)}`;
    return { name, status: 'failed', reason: error, planned: actions.length, done: 0, failed: [{ action: actions[0] as Action, error }], notDone: actions.slice(1) };
  }
}

/** One robot of a failed wave back to what it ran before; its report says what was and was not put back. */
async function restore(r: { name: string; out: UnitOutput; report: UnitReport; before: RobotBefore | null }, opts: FleetOptions, halt: Halt): Promise<UnitReport> {
  const effects = (opts.rollback as RollbackEffects).effects;
  // Unread (the robot went away before its first action): nothing is known to put back.
  if (r.before === null) return { ...r.report, reason: `${r.report.reason ?? 'failed'}; not rolled back: what it ran before could not be read` };
  const back = rollbackPlan(r.name, r.before, r.out);
  opts.onEvent?.({ type: 'robot.rolling_back', robot: r.name, actions: back.actions });
  const out = back.actions.length === 0 ? null : await runUnit(unitInput(r.name, back.actions, false), effects, runOpts(opts));
  return rolledBack(r.report, halt, out, back);
}

function haltReason(halt: Halt): string {
  return `rollout stopped: ${halt.failures} failed robot(s), max_failures allows ${halt.limit}`;
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
