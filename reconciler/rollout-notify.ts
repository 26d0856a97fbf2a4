import type { Config, NotifySpec } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import type { NotifySender } from '../drivers/notify/webhook.js';
import type { RevisionChange, RolloutRecord, RolloutTrigger } from '../state/rollouts.js';
import { errorMessage } from '../lib/errors.js';
import { changeEnds, changeJson, type RevisionChangeJson } from './revisions.js';

// Who hears a rollout's outcome (robot.yaml `notify:`): the notify webhook
// gets a JSON POST when the rollout starts and when it ends (succeeded,
// failed, rolled back), and with `discussion: true` each app's Space gets a
// comment with the outcome: on the discussion or pull request the delivery
// named, else on one discussion robotctl opens per Space and reuses. A
// failure to notify is told (onResult) and never fails the rollout.

export const NOTICE_FORMAT_VERSION = '1.0';
export const DISCUSSION_TITLE = 'robotctl rollouts';

export type NoticeEvent = 'started' | 'succeeded' | 'failed' | 'rolled_back';

export interface RolloutNotice {
  format_version: typeof NOTICE_FORMAT_VERSION;
  event: NoticeEvent;
  rollout_id: string;
  trigger: RolloutTrigger;
  /** The app whose revision the rollout changes (the first, when several); null when none changes. */
  app: string | null;
  apps: string[];
  revisions: RevisionChangeJson[];
  robots: { name: string; outcome: string; reason: string | null }[];
  file: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
}

/** A discussion or pull request a delivery named, by Space. */
export interface DiscussionRef {
  spaceId: string;
  num: number;
}

export function startedNotice(id: string, trigger: RolloutTrigger, startedAt: Date, revisions: RevisionChange[], robots: string[], file: string): RolloutNotice {
  const apps = [...new Set(revisions.map((r) => r.app))];
  return {
    format_version: NOTICE_FORMAT_VERSION, event: 'started', rollout_id: id, trigger, app: apps[0] ?? null, apps, revisions: revisions.map(changeJson),
    robots: robots.map((name) => ({ name, outcome: 'pending', reason: null })), file, started_at: startedAt.toISOString(), finished_at: null, duration_ms: null,
  };
}

export function finishedNotice(record: RolloutRecord, file: string): RolloutNotice {
  const apps = [...new Set(record.revisions.map((r) => r.app))];
  const event: NoticeEvent = record.outcome === 'interrupted' ? 'failed' : record.outcome;
  return {
    format_version: NOTICE_FORMAT_VERSION, event, rollout_id: record.id, trigger: record.trigger, app: apps[0] ?? null, apps,
    revisions: record.revisions.map(changeJson), robots: record.robots.map((r) => ({ name: r.name, outcome: r.outcome, reason: r.reason })), file,
    started_at: record.startedAt, finished_at: record.finishedAt, duration_ms: record.durationMs,
  };
}

/** The discussion comment: the outcome, the revisions, each robot's outcome and reason (markdown). */
export function commentText(n: RolloutNotice, app: string): string {
  const revs = n.revisions.filter((r) => r.app === app).map((r) => {
    const e = changeEnds({ from: r.from, to: r.to, fromPath: r.from_path, toPath: r.to_path });
    return `${r.robot}: ${e.from} → ${e.to}`;
  });
  const lines = [`**robotctl rollout ${n.rollout_id}: ${n.event.replace('_', ' ')}** (${app}, ${n.trigger})`, ''];
  if (revs.length > 0) lines.push(`Revisions: ${revs.join('; ')}`, '');
  for (const r of n.robots) lines.push(`- ${r.name}: ${r.outcome.replace('_', ' ')}${r.reason ? ` — ${r.reason}` : ''}`);
  return `${lines.join('\n')}\n`;
}

export interface NotifyDeps {
  sender: NotifySender | null;
  hub: HubClient | null;
  /** What a delivery named (a discussion or pull request of an app's Space). */
  discussions: DiscussionRef[];
  /** One line per notification: sent, or why it failed. */
  onResult: (target: string, error: string | null) => void;
}

/** Send `notice` where robot.yaml says; the discussion gets only the final outcome. Never throws. */
export async function sendNotice(notice: RolloutNotice, config: Pick<Config, 'notify' | 'apps'>, deps: NotifyDeps, signal?: AbortSignal): Promise<void> {
  const spec = config.notify;
  if (!spec) return;
  const jobs: Promise<void>[] = [];
  if (spec.webhook !== null && deps.sender) jobs.push(postWebhook(notice, spec, deps.sender, deps.onResult, signal));
  if (spec.discussion && notice.event !== 'started' && deps.hub) {
    for (const app of notice.apps) {
      const spaceId = config.apps[app]?.spaceId;
      if (spaceId) jobs.push(commentOn(deps.hub, spaceId, commentText(notice, app), deps, signal));
    }
  }
  await Promise.all(jobs);
}

async function postWebhook(notice: RolloutNotice, spec: NotifySpec, sender: NotifySender, onResult: NotifyDeps['onResult'], signal?: AbortSignal): Promise<void> {
  const where = `notify webhook (${notice.event})`;
  try {
    await sender.post(spec.webhook as string, JSON.stringify(notice), spec.secret, signal);
    onResult(where, null);
  } catch (err) {
    onResult(where, errorMessage(err));
  }
}

/** Opened discussions by Space, for this process: one list call per Space, not per rollout. */
const opened = new Map<string, number>();

async function commentOn(hub: HubClient, spaceId: string, text: string, deps: NotifyDeps, signal?: AbortSignal): Promise<void> {
  const key = `${hub.endpoint} ${spaceId}`;
  try {
    const named = deps.discussions.find((d) => d.spaceId === spaceId)?.num;
    const num = named ?? opened.get(key) ?? await ownDiscussion(hub, spaceId, signal);
    if (named === undefined) opened.set(key, num);
    await hub.commentDiscussion('space', spaceId, num, text, signal);
    deps.onResult(`comment on ${spaceId} #${num}`, null);
  } catch (err) {
    opened.delete(key);
    deps.onResult(`comment on ${spaceId}`, errorMessage(err));
  }
}

/** robotctl's discussion on the Space: the open one with its title, else a new one. */
async function ownDiscussion(hub: HubClient, spaceId: string, signal?: AbortSignal): Promise<number> {
  const open = await hub.listDiscussions('space', spaceId, { type: 'discussion', status: 'open' }, signal);
  const mine = open.find((d) => d.title === DISCUSSION_TITLE && !d.isPullRequest);
  if (mine) return mine.num;
  const description = 'robotctl comments here on each rollout of this Space to the robots (robot.yaml `notify: { discussion: true }`).';
  return (await hub.createDiscussion('space', spaceId, DISCUSSION_TITLE, description, signal)).num;
}
