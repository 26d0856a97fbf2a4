import type { Plan } from './types.js';
import type { ApplyReport, UnitReport, UnitStatus } from './report.js';
import type { AppRecord } from '../state/types.js';
import type { HeldRevision, RevisionChange, RobotOutcome, RolloutOutcome, RolloutRecord, RolloutTrigger } from '../state/rollouts.js';

// A rollout as the state remembers it (state/rollouts.ts): made from the plan
// and the apply's report once it ended, with the revisions it holds back.
// Pure: the caller gives the id and the times. A rollout is an apply with
// robot actions; one with webhook actions only is none.

export function isRollout(plan: Pick<Plan, 'actions'>): boolean {
  return plan.actions.some((a) => 'robot' in a);
}

/** A short id, unique enough for one fleet's history: the start time and a random tail the caller gives. */
export function rolloutId(startedAt: Date, tail: string): string {
  return `${startedAt.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}-${tail}`;
}

/** The revision each robot's daemon reported for an app it installed, by robot then app key (the performed results). */
export type InstalledRevisions = Record<string, Record<string, string>>;

/**
 * Each app's revision on each robot: before (as the plan knew it) and what
 * the rollout installs: the revision the robot reported installing when it
 * did (a push that landed after the plan was made is what it got), else the
 * planned one; a local folder by its path.
 */
export function revisionChanges(plan: Pick<Plan, 'actions'>, installed: InstalledRevisions = {}): RevisionChange[] {
  const out: RevisionChange[] = [];
  for (const a of plan.actions) {
    if (a.type !== 'install' && a.type !== 'update_app') continue;
    const sha = installed[a.robot]?.[a.app];
    const to = sha !== undefined ? { ...a.record, sha } : a.record;
    out.push(changeOf(a.robot, a.app, a.type === 'install' ? null : a.previous, to));
  }
  return out;
}

function changeOf(robot: string, app: string, from: AppRecord | null, to: AppRecord): RevisionChange {
  // A folder's `sha` is null, or the daemon's own `local-<hash>`: its path says what it was.
  return {
    robot, app, from: from?.sha ?? null, to: to.sha,
    ...(from !== null && from.path !== null ? { fromPath: from.path } : {}), ...(to.path !== null ? { toPath: to.path } : {}),
  };
}

const OUTCOME: Record<UnitStatus, RobotOutcome> = {
  converged: 'updated', already_converged: 'unchanged', failed: 'failed', rolled_back: 'rolled_back', unreachable: 'skipped', refused: 'skipped', skipped: 'skipped',
};

export function rolloutOutcome(report: ApplyReport): RolloutOutcome {
  if (report.interrupted) return 'interrupted';
  if (report.robots.some((r) => r.status === 'rolled_back')) return 'rolled_back';
  if (report.robots.some((r) => r.status === 'failed' || r.status === 'unreachable') || report.halt) return 'failed';
  return 'succeeded';
}

export interface RecordInput {
  id: string;
  trigger: RolloutTrigger;
  startedAt: Date;
  finishedAt: Date;
  plan: Pick<Plan, 'actions'>;
  report: ApplyReport;
  installed?: InstalledRevisions;
}

export function rolloutRecord(input: RecordInput): RolloutRecord {
  const waveOf = new Map<string, number>();
  input.report.waves.forEach((w, i) => w.forEach((r) => waveOf.set(r, i + 1)));
  const robots = input.report.robots
    .filter((r) => waveOf.has(r.name) || r.status === 'unreachable')
    .map((r) => ({ name: r.name, wave: waveOf.get(r.name) ?? 0, outcome: OUTCOME[r.status], reason: r.reason }));
  return {
    id: input.id, trigger: input.trigger, startedAt: input.startedAt.toISOString(), finishedAt: input.finishedAt.toISOString(),
    durationMs: Math.max(0, input.finishedAt.getTime() - input.startedAt.getTime()),
    revisions: revisionChanges(input.plan, input.installed), waves: input.report.waves, outcome: rolloutOutcome(input.report), robots,
  };
}

/**
 * The holds a finished rollout sets and releases, by app: the revision it
 * brought is held back for each app whose action failed on a robot (the
 * failing revision); an app the rollout brought to every robot it went to
 * is released.
 */
export function rolloutHolds(record: RolloutRecord, report: ApplyReport): Record<string, HeldRevision | null> {
  const out: Record<string, HeldRevision | null> = {};
  const changed = new Map(record.revisions.filter((r) => r.to !== null).map((r) => [`${r.robot}/${r.app}`, r.to as string]));
  for (const r of report.robots) {
    const failed = failedApp(r);
    const sha = failed !== null ? changed.get(`${r.name}/${failed}`) : undefined;
    if (failed === null || sha === undefined || out[failed]) continue;
    out[failed] = { sha, reason: `${r.name}: ${firstReason(r)}`, rollout: record.id, at: record.finishedAt };
  }
  for (const app of new Set(record.revisions.map((r) => r.app))) {
    if (app in out) continue;
    const on = record.revisions.filter((r) => r.app === app).map((r) => report.robots.find((u) => u.name === r.robot)?.status);
    if (on.every((s) => s === 'converged')) out[app] = null;
  }
  return out;
}

/** The app whose action failed on this robot (its first failure), or null (a robot rolled back with its wave failed nothing itself). */
function failedApp(r: UnitReport): string | null {
  const action = r.failed[0]?.action;
  return action && 'app' in action ? action.app : null;
}

function firstReason(r: UnitReport): string {
  return r.failed[0]?.error ?? r.reason ?? 'failed';
}
