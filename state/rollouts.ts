import type { StateFile } from './types.js';

// The rollouts the state remembers: the last ones (for `robotctl rollout
// history`) and the revisions held back after a failed rollout, one per
// app, so that nothing installs that revision again until its Space moves
// on or a person runs `robotctl rollout retry`. Small and bounded: the
// whole block is one record of the journal (journal.ts).

/** Rollouts kept, newest last. */
export const HISTORY_LIMIT = 20;

export type RolloutTrigger = 'startup' | 'file' | 'interval' | 'delivery' | 'manual' | 'apply';

export type RolloutOutcome = 'succeeded' | 'failed' | 'rolled_back' | 'interrupted';

export type RobotOutcome = 'updated' | 'failed' | 'rolled_back' | 'skipped' | 'unchanged';

export interface RolloutRobotRecord {
  name: string;
  /** 1-based wave; 0 when the robot had nothing to do. */
  wave: number;
  outcome: RobotOutcome;
  /** Why it failed, was rolled back or skipped (the app's own words where it has some); null otherwise. */
  reason: string | null;
}

/**
 * One app's revision on one robot: what it ran before the rollout and what
 * the rollout brought. A local folder (`path:`) has no revision: its end is
 * null with the folder in `fromPath`/`toPath`; a null end without a path is
 * no app (from) or a revision nobody reported (to).
 */
export interface RevisionChange {
  robot: string;
  app: string;
  from: string | null;
  to: string | null;
  fromPath?: string;
  toPath?: string;
}

export interface RolloutRecord {
  id: string;
  trigger: RolloutTrigger;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  revisions: RevisionChange[];
  /** Robot names per wave, in order (the canary wave first). */
  waves: string[][];
  outcome: RolloutOutcome;
  robots: RolloutRobotRecord[];
}

/** A revision the agent and apply do not install again (until the Space moves on or `rollout retry`). */
export interface HeldRevision {
  sha: string;
  /** What failed, e.g. `desk: RuntimeError: boom (2.1 s after it started)`. */
  reason: string;
  /** The rollout that failed with it. */
  rollout: string;
  at: string;
}

export interface RolloutLog {
  history: RolloutRecord[];
  /** By app name (a key of robot.yaml's apps). */
  held: Record<string, HeldRevision>;
}

export function rolloutLog(state: StateFile): RolloutLog {
  return state.rollouts ?? { history: [], held: {} };
}

/** The log with `record` added (oldest dropped past HISTORY_LIMIT) and its holds set or released. */
export function withRollout(log: RolloutLog, record: RolloutRecord, hold: Record<string, HeldRevision | null>): RolloutLog {
  const held = { ...log.held };
  for (const [app, h] of Object.entries(hold)) {
    if (h) held[app] = h;
    else delete held[app];
  }
  return { history: [...log.history, record].slice(-HISTORY_LIMIT), held };
}

/** The log without the holds of `apps` (all of them when empty), and the apps released. */
export function releaseHolds(log: RolloutLog, apps: string[]): { log: RolloutLog; released: string[] } {
  const names = apps.length === 0 ? Object.keys(log.held) : apps.filter((a) => a in log.held);
  const held = { ...log.held };
  for (const a of names) delete held[a];
  return { log: { ...log, held }, released: names };
}

/** The hold on `app` when `sha` is the revision held back, else null (the Space moved on). */
export function heldRevision(state: StateFile, app: string, sha: string | null): HeldRevision | null {
  const h = state.rollouts?.held[app];
  return h && sha !== null && h.sha === sha ? h : null;
}
