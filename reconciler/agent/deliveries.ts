import type { Config } from '../../schema/types.js';
import type { WebhookPayload } from '../../runtime/receiver/index.js';
import { formatDeliveryLine } from '../../runtime/receiver/index.js';
import type { ReceiverActions } from './receiver-actions.js';
import type { ExpectedSha, WorkItem } from './work-item.js';
import { robotsWithApp } from './reconcile.js';
import type { DiscussionRef } from '../rollout-notify.js';

// What a hub delivery asks of the agent. Handlers only enqueue keys and
// answer at once (the hub wants a quick 2xx); the queue's run decides.
//   reconcile: a push to a Space that is an app's source redeploys that app
//              on the robots that have it; anything else reconciles all.
//   redeploy:  the endpoint's app, on the robots that have it.
//   log:       one line, nothing else.
// The answer's `action` says what was queued; GET /status shows it.

export interface DeliverySink {
  config(): Config;
  enqueue(item: WorkItem): boolean;
  log(line: string): void;
}

export interface DeliveryAnswer {
  action: string;
  queued: string[];
}

export function agentActions(sink: DeliverySink): ReceiverActions {
  const answer = (payload: WebhookPayload, endpoint: string, items: WorkItem[], action: string): DeliveryAnswer => {
    sink.log(`${formatDeliveryLine(payload, endpoint)}: ${action}`);
    const queued = items.filter((i) => sink.enqueue(i)).map((i) => i.key);
    return { action, queued };
  };
  return {
    log: async (payload, endpoint) => {
      sink.log(formatDeliveryLine(payload, `/webhooks/${endpoint.name}`));
      return { action: 'logged', queued: [] };
    },
    reconcile: async (payload, endpoint) => {
      const { items, action } = itemsFor(payload, sink.config());
      return answer(payload, `/webhooks/${endpoint.name}`, items, action);
    },
    redeploy: async (payload, endpoint) => {
      const app = endpoint.app ?? '';
      const config = sink.config();
      const robots = robotsWithApp(config, app);
      const spaceId = config.apps[app]?.spaceId ?? null;
      const expect = spaceId !== null && payload.repo.name === spaceId ? expected(payload) : [];
      const items: WorkItem[] = robots.length === 0 ? [] : [{ key: `app:${app}`, trigger: 'delivery', note: describe(payload), expect, discussions: named(payload) }];
      const action = robots.length === 0 ? `no robot has ${app}: nothing to do` : `redeploy ${app} on ${robots.join(', ')}`;
      return answer(payload, `/webhooks/${endpoint.name}`, items, action);
    },
  };
}

/** The keys a `reconcile` delivery enqueues, and what to say about them. */
export function itemsFor(payload: WebhookPayload, config: Config): { items: WorkItem[]; action: string } {
  const note = describe(payload);
  const apps = payload.repo.type === 'space'
    ? Object.values(config.apps).filter((a) => a.spaceId === payload.repo.name).map((a) => a.name)
    : [];
  if (apps.length === 0) return { items: [{ key: 'full', trigger: 'delivery', note, expect: [] }], action: 'reconcile everything' };
  const items: WorkItem[] = [];
  const parts: string[] = [];
  for (const app of apps) {
    const robots = robotsWithApp(config, app);
    if (robots.length === 0) {
      parts.push(`no robot has ${app}`);
      continue;
    }
    items.push({ key: `app:${app}`, trigger: 'delivery', note, expect: expected(payload), discussions: named(payload) });
    parts.push(`redeploy ${app} on ${robots.join(', ')}`);
  }
  return { items, action: parts.join('; ') };
}

/** A push names the revision it made: the run waits until the hub shows it. */
function expected(payload: WebhookPayload): ExpectedSha[] {
  const sha = payload.repo.headSha;
  return payload.event.scope.startsWith('repo') && typeof sha === 'string' && sha !== '' ? [{ spaceId: payload.repo.name, sha }] : [];
}

/** The discussion or pull request of a Space the delivery is about (a merged PR's redeploy is told there). */
function named(payload: WebhookPayload): DiscussionRef[] {
  const num = payload.discussion?.num;
  return payload.repo.type === 'space' && typeof num === 'number' ? [{ spaceId: payload.repo.name, num }] : [];
}

function describe(payload: WebhookPayload): string {
  return `delivery ${payload.event.scope}/${payload.event.action} ${payload.repo.type}:${payload.repo.name}`;
}
