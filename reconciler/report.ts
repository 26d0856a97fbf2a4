import type { Config } from '../schema/types.js';
import { robotActionText, type Action, type Plan } from './types.js';
import type { FailedAction, UnitOutput } from './execute/machine.js';

// The end of an apply, per robot and for the hub: converged (it had work and
// all of it succeeded), already converged (nothing to do), failed (with the
// reason), rolled back (its wave failed and it runs what it ran before),
// unreachable (could not be observed), refused (not the robot robot.yaml
// names: another hardware id), skipped (rollout halted, interrupted,
// or not targeted). Plain data for the human and JSON views.

export type UnitStatus = 'converged' | 'already_converged' | 'failed' | 'rolled_back' | 'unreachable' | 'refused' | 'skipped';

/** What a rollback put back on a robot (execute/rollback.ts). */
export interface RollbackSummary {
  /** e.g. `hello_app 58cf875`, `hello_app running`. */
  restored: string[];
  /** e.g. `hello_app 58cf875 (the robot's daemon installs a Space's head only)`. */
  notRestored: string[];
  /** Why the rollback itself failed; null when it did not. */
  error: string | null;
}

export interface UnitReport {
  /** Robot name, or `hub`. */
  name: string;
  status: UnitStatus;
  /** Why it failed, was skipped or is unreachable; null otherwise. */
  reason: string | null;
  planned: number;
  done: number;
  failed: FailedAction[];
  notDone: Action[];
  /** Present when the robot's wave was rolled back. */
  rollback?: RollbackSummary;
}

export interface Halt {
  failures: number;
  limit: number;
  /** Robots skipped because of it. */
  skipped: string[];
}

export interface ApplyReport {
  hub: UnitReport;
  robots: UnitReport[];
  interrupted: boolean;
  halt: Halt | null;
  /** The robots that had work, wave by wave (canary first); empty when none ran. */
  waves: string[][];
  totals: { planned: number; done: number; failed: number; notDone: number };
}

/**
 * How an apply ended, decided once for the summary line and the exit code:
 * interrupted; failed (an action failed); incomplete (nothing failed, but a
 * unit was unreachable or skipped); complete (every targeted unit converged).
 */
export type ApplyOutcome = 'complete' | 'failed' | 'incomplete' | 'interrupted';

export function applyOutcome(report: ApplyReport): ApplyOutcome {
  if (report.interrupted) return 'interrupted';
  const units = [report.hub, ...report.robots];
  if (units.some((u) => u.status === 'failed' || u.status === 'rolled_back')) return 'failed';
  if (units.some((u) => u.status === 'unreachable' || u.status === 'refused' || (u.status === 'skipped' && u.reason !== 'not targeted'))) return 'incomplete';
  return 'complete';
}

/** The units that could not be reached, by name (`hub` or a robot). */
export function unreachableUnits(report: ApplyReport): string[] {
  return [report.hub, ...report.robots].filter((u) => u.status === 'unreachable').map((u) => u.name);
}

/** The robots robotctl would not touch: not the robot robot.yaml names. */
export function refusedUnits(report: ApplyReport): string[] {
  return report.robots.filter((u) => u.status === 'refused').map((u) => u.name);
}

export function fromOutput(name: string, out: UnitOutput, interrupted: boolean): UnitReport {
  const planned = out.completed.length + out.failed.length + out.notDone.length;
  const base = { name, planned, done: out.completed.length, failed: out.failed, notDone: out.notDone };
  if (out.failed.length > 0) {
    const first = out.failed[0] as FailedAction;
    return { ...base, status: 'failed', reason: `${describe(first.action)}: ${first.error}` };
  }
  if (out.status === 'stopped' && out.notDone.length > 0) {
    return { ...base, status: 'skipped', reason: interrupted ? 'interrupted' : 'stopped' };
  }
  return { ...base, status: planned === 0 ? 'already_converged' : 'converged', reason: null };
}

export function idleReport(name: string, status: UnitStatus, reason: string | null, actions: Action[] = []): UnitReport {
  return { name, status, reason, planned: actions.length, done: 0, failed: [], notDone: actions };
}

export function totals(units: UnitReport[]): ApplyReport['totals'] {
  const t = { planned: 0, done: 0, failed: 0, notDone: 0 };
  for (const u of units) {
    t.planned += u.planned;
    t.done += u.done;
    t.failed += u.failed.length;
    t.notDone += u.notDone.length;
  }
  return t;
}

/** The report of a plan with nothing to do (or a dry run): no unit ran. */
export function reportWithoutRun(plan: Plan, config: Config, note: UnitStatus | null = null, reasons: Reasons = {}): ApplyReport {
  const robots = Object.keys(config.robots).map((name) => {
    const actions = plan.actions.filter((a) => 'robot' in a && a.robot === name);
    return robotIdle(plan, name, actions, note, reasons);
  });
  const hubActions = plan.actions.filter((a) => !('robot' in a));
  const hub = plan.hubError !== null
    ? idleReport('hub', 'unreachable', plan.hubError)
    : idleReport('hub', hubActions.length === 0 ? 'already_converged' : note ?? 'skipped', hubActions.length === 0 ? null : 'dry run', hubActions);
  return { hub, robots, interrupted: false, halt: null, waves: [], totals: totals([hub, ...robots]) };
}

/** Why each unreachable robot could not be observed, by robot name. */
export type Reasons = Record<string, string>;

export function robotIdle(plan: Plan, name: string, actions: Action[], note: UnitStatus | null, reasons: Reasons = {}): UnitReport {
  if (plan.unreachable.includes(name)) return idleReport(name, 'unreachable', reasons[name] ?? 'could not be observed', actions);
  const refused = plan.refused.find((r) => r.robot === name);
  if (refused) return idleReport(name, 'refused', refused.reason, actions);
  if (actions.length === 0) {
    return targeted(plan, name) ? idleReport(name, 'already_converged', null) : idleReport(name, 'skipped', 'not targeted');
  }
  return idleReport(name, note ?? 'skipped', 'dry run', actions);
}

export function targeted(plan: Plan, robot: string): boolean {
  return plan.targets.length === 0 || plan.targets.some((t) => t === `robots.${robot}` || t.startsWith(`robots.${robot}.`));
}

export function describe(a: Action): string {
  return 'robot' in a ? robotActionText(a) : `${a.type} ${a.address}`;
}
