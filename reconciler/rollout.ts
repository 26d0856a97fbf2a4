import { randomBytes } from 'node:crypto';
import type { Config } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import type { NotifySender } from '../drivers/notify/webhook.js';
import { rolloutLog, withRollout, type RolloutRecord, type RolloutTrigger } from '../state/rollouts.js';
import type { Action, Plan } from './types.js';
import type { ActionResult } from '../state/types.js';
import type { ApplyReport } from './report.js';
import type { StateRecorder } from './execute/recorder.js';
import { revisionChanges, rolloutHolds, rolloutId, rolloutRecord, type InstalledRevisions } from './rollout-history.js';
import { finishedNotice, sendNotice, startedNotice, type DiscussionRef } from './rollout-notify.js';

// One rollout's bookends around an apply with robot actions: an id and a
// `started` notice before the first action; at the end its record and the
// revisions it holds back go into the state (state/rollouts.ts), and its
// outcome to `notify:`. Notices are sent while the rollout goes on (the
// started one) or after the state is written (the outcome): a slow receiver
// never delays a robot, and never fails the rollout.

export type RolloutEvent =
  | { type: 'rollout.started'; id: string; trigger: RolloutTrigger }
  | { type: 'rollout.recorded'; record: RolloutRecord }
  | { type: 'rollout.notified'; target: string; error: string | null };

export interface RolloutDeps {
  trigger: RolloutTrigger;
  hub: HubClient | null;
  notify: NotifySender | null;
  discussions: DiscussionRef[];
}

export interface Rollout {
  readonly id: string;
  /** Told each action the rollout performed, with its result: an install's revision as the robot reported it. */
  performed(action: Action, result: ActionResult): void;
  /** Record the outcome in the state (through the apply's recorder), then send it. */
  finish(report: ApplyReport, recorder: StateRecorder): Promise<RolloutRecord>;
}

export function beginRollout(plan: Plan, config: Config, deps: RolloutDeps, onEvent: (e: RolloutEvent) => void): Rollout {
  const startedAt = new Date();
  const id = rolloutId(startedAt, randomBytes(2).toString('hex'));
  const robots = [...new Set(plan.actions.flatMap((a) => ('robot' in a ? [a.robot] : [])))];
  const notifyDeps = {
    sender: deps.notify, hub: deps.hub, discussions: deps.discussions,
    onResult: (target: string, error: string | null) => onEvent({ type: 'rollout.notified', target, error }),
  };
  onEvent({ type: 'rollout.started', id, trigger: deps.trigger });
  const started = sendNotice(startedNotice(id, deps.trigger, startedAt, revisionChanges(plan), robots, config.file), config, notifyDeps);
  const installed: InstalledRevisions = {};
  return {
    id,
    performed(action, result) {
      if ((action.type === 'install' || action.type === 'update_app') && result.sha !== undefined && result.sha !== null) {
        (installed[action.robot] ??= {})[action.app] = result.sha;
      }
    },
    async finish(report, recorder) {
      const record = rolloutRecord({ id, trigger: deps.trigger, startedAt, finishedAt: new Date(), plan, report, installed });
      await recorder.recordRollouts(withRollout(rolloutLog(recorder.state), record, rolloutHolds(record, report)));
      onEvent({ type: 'rollout.recorded', record });
      await started;
      await sendNotice(finishedNotice(record, config.file), config, notifyDeps);
      return record;
    },
  };
}
