import t from 'tap';
import { agentActions, itemsFor } from '../../reconciler/agent/deliveries.js';
import type { WorkItem } from '../../reconciler/agent/work-item.js';
import type { WebhookPayload } from '../../runtime/receiver/payload.js';
import { app, config, pathApp } from '../reconciler/plan-fixtures.js';

// What a delivery enqueues: a push to an app's Space → that app on the
// robots that have it; anything else → everything; `log` → nothing.

const cfg = config({
  apps: [app('hello_app'), app('wave_app'), pathApp('dev_app')],
  active: 'hello_app',
  robots: [{ name: 'desk' }, { name: 'lab', apps: ['hello_app'] }],
});

function payload(type: 'space' | 'model', name: string, scope = 'repo.content', headSha: string | null = 'abc123'): WebhookPayload {
  return {
    event: { action: 'update', scope },
    repo: { type, name, id: 'x', private: false, url: { web: `https://hf.co/${name}` }, owner: { id: 'o' }, headSha },
    webhook: { id: 'w', version: 3 },
  } as WebhookPayload;
}

t.test('a push to an app Space targets that app, with the revision to wait for', async (t) => {
  const { items, action } = itemsFor(payload('space', 'alice/hello_app'), cfg);
  t.same(items.map((i) => [i.key, i.trigger]), [['app:hello_app', 'delivery']]);
  t.same(items[0]?.expect, [{ spaceId: 'alice/hello_app', sha: 'abc123' }]);
  t.equal(action, 'redeploy hello_app on desk, lab');
});

t.test('an app only one robot has is redeployed there only', async (t) => {
  t.equal(itemsFor(payload('space', 'alice/wave_app'), cfg).action, 'redeploy wave_app on desk');
});

t.test('other deliveries reconcile everything', async (t) => {
  for (const p of [payload('model', 'alice/hello_app'), payload('space', 'bob/other')]) {
    const { items, action } = itemsFor(p, cfg);
    t.same(items.map((i) => i.key), ['full']);
    t.equal(action, 'reconcile everything');
  }
});

t.test('a discussion event waits for no revision', async (t) => {
  t.same(itemsFor(payload('space', 'alice/hello_app', 'discussion'), cfg).items[0]?.expect, []);
});

t.test('the action table: handlers enqueue and answer at once', async (t) => {
  const queued: WorkItem[] = [];
  const lines: string[] = [];
  const actions = agentActions({ config: () => cfg, enqueue: (i) => { queued.push(i); return true; }, log: (l) => lines.push(l) });
  const r1 = await actions.reconcile(payload('space', 'alice/hello_app'), { name: 'redeploy', action: 'reconcile', app: null });
  t.same(r1, { action: 'redeploy hello_app on desk, lab', queued: ['app:hello_app'] });
  const r2 = await actions.redeploy(payload('model', 'x/y'), { name: 'wave', action: 'redeploy', app: 'wave_app' });
  t.same(r2, { action: 'redeploy wave_app on desk', queued: ['app:wave_app'] });
  t.same(queued[1]?.expect, [], 'a delivery about another repo announces no revision of the app');
  const r3 = await actions.log(payload('space', 'alice/hello_app'), { name: 'log', action: 'log', app: null });
  t.same(r3, { action: 'logged', queued: [] });
  t.equal(queued.length, 2);
  t.equal(lines.length, 3);
  t.match(lines[0], /\/webhooks\/redeploy repo\.content\/update space:alice\/hello_app: redeploy hello_app/);
});

t.test('a merged pull request of an app Space names it: the rollout\'s outcome is commented there (notify.discussion)', async (t) => {
  const merged = { ...payload('space', 'alice/hello_app', 'discussion'), discussion: { id: 'd', num: 7, isPullRequest: true, status: 'merged' } } as unknown as WebhookPayload;
  t.same(itemsFor(merged, cfg).items[0]?.discussions, [{ spaceId: 'alice/hello_app', num: 7 }]);
  t.same(itemsFor(payload('space', 'alice/hello_app'), cfg).items[0]?.discussions, [], 'a push names none');
});
