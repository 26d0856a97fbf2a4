import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { ALICE, BOB, raw, startReceiver, tempDir, type Receiver } from './helpers.js';

interface Setup { hub: RunningHub; alice: HubClient; rx: Receiver }

async function setup(t: Test, opts: Parameters<typeof startHub>[0] = {}): Promise<Setup> {
  const rx = await startReceiver();
  const hub = await startHub({ users: [ALICE, BOB], retryBaseMs: 20, deliveryTimeoutMs: 2000, ...opts });
  const alice = createHubClient({ endpoint: hub.url, token: ALICE.token });
  t.teardown(async () => { await alice.close(); await hub.close(); await rx.close(); });
  return { hub, alice, rx };
}

const watchApp = [{ type: 'space' as const, name: 'alice/app' }];

t.test('a push is delivered as a version-3 repo.content payload with the secret header', async (t) => {
  const { hub, alice, rx } = await setup(t);
  const hook = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/webhooks/redeploy`, secret: 'shh' });
  await alice.createRepo('space', 'alice/app');
  await rx.waitFor(1);
  const created = rx.received[0];
  t.match(created?.body, { event: { action: 'create', scope: 'repo' }, repo: { type: 'space', name: 'alice/app', headSha: /^[0-9a-f]{40}$/ } });
  const before = (await alice.repoInfo('space', 'alice/app'))?.sha;
  const { commitOid } = await alice.commit('space', 'alice/app', [{ op: 'add', path: 'app.py', content: Buffer.from('x') }], 'change');
  const [, push] = await rx.waitFor(2);
  t.equal(push?.path, '/webhooks/redeploy');
  t.equal(push?.headers['x-webhook-secret'], 'shh');
  t.equal(push?.headers['content-type'], 'application/json');
  t.match(push?.headers['user-agent'], /^robotctl-hub\//);
  const body = push?.body as Record<string, any>;
  t.same(body.event, { action: 'update', scope: 'repo.content' });
  t.same(body.webhook, { id: hook.id, version: 3 });
  t.equal(body.repo.headSha, commitOid);
  t.same(body.repo.url, { web: `${hub.url}/spaces/alice/app`, api: `${hub.url}/api/spaces/alice/app` });
  t.match(body.repo, { id: /^[0-9a-f]{24}$/, private: false, owner: { id: /^[0-9a-f]{24}$/ }, subdomain: 'alice-app' });
  t.same(body.updatedRefs, [{ ref: 'refs/heads/main', oldSha: before, newSha: commitOid }]);
  await hub.idle();
  const activity = hub.activity(hook.id);
  t.equal(activity.length, 2);
  t.match(activity[1], { outcome: 'delivered', status: 200, attempt: 1, scope: 'repo.content', durationMs: Number });
});

t.test('domain filtering, owner watch, disabled webhooks, private repos', async (t) => {
  const { hub, alice, rx } = await setup(t);
  const repoOnly = await alice.createWebhook({ watched: [{ type: 'user', name: 'alice' }], url: `${rx.url}/repo`, domains: ['repo'] });
  const discOnly = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/disc`, domains: ['discussion'] });
  const off = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/off` });
  await alice.disableWebhook(off.id);
  const bob = createHubClient({ endpoint: hub.url, token: BOB.token });
  t.teardown(() => bob.close());
  await bob.createWebhook({ watched: [{ type: 'user', name: 'alice' }], url: `${rx.url}/bob` });

  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.createRepo('alice', 'model', 'alice/secret-model', { private: true });
  const d = await raw(`${hub.url}/api/spaces/alice/app/discussions`, 'POST', BOB.token, { title: 'Hi', description: 'first', pullRequest: false });
  t.equal(d.status, 200);
  await raw(`${hub.url}/api/spaces/alice/app/discussions/1/comment`, 'POST', ALICE.token, { comment: 'thanks' });
  await hub.idle();

  const paths = rx.received.map((r) => `${r.path} ${(r.body.event as { scope: string }).scope}/${(r.body.repo as { name: string }).name}`).sort();
  t.same(paths, [
    '/bob discussion.comment/alice/app',
    '/bob discussion/alice/app',
    '/bob repo/alice/app',
    '/disc discussion.comment/alice/app',
    '/disc discussion/alice/app',
    '/repo repo/alice/app',
    '/repo repo/alice/secret-model',
  ], 'repo-only hook gets repo events of all alice repos, discussion hook only discussions, bob not the private repo, disabled nothing');
  const disc = rx.received.find((r) => r.path === '/disc' && (r.body.event as { scope: string }).scope === 'discussion')?.body as Record<string, any>;
  t.match(disc, { discussion: { num: 1, title: 'Hi', status: 'open', isPullRequest: false, url: { web: `${hub.url}/spaces/alice/app/discussions/1` } }, comment: { content: 'first', hidden: false } });
  t.notOk('headSha' in disc.repo, 'headSha only for repo scopes');
  t.same(hub.activity(off.id), []);
  t.ok(hub.activity(repoOnly.id).length === 2 && hub.activity(discOnly.id).length === 2);
});

t.test('a 500 is retried with backoff until a 2xx; every attempt is recorded', async (t) => {
  const { hub, alice, rx } = await setup(t);
  const hook = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/h` });
  rx.script.push(500, 503);
  await hub.createRepo('alice', 'space', 'alice/app');
  await rx.waitFor(3);
  await hub.idle();
  const attempts = hub.activity(hook.id);
  t.same(attempts.map((a) => [a.attempt, a.status, a.outcome]), [[1, 500, 'failed'], [2, 503, 'failed'], [3, 200, 'delivered']]);
  t.same(rx.received[0]?.body, rx.received[2]?.body, 'the same payload is re-sent');
  const act = await raw(`${hub.url}/api/settings/webhooks/${hook.id}/activity`, 'GET', ALICE.token);
  t.equal((act.json as { activity: unknown[] }).activity.length, 3, 'activity route');
  t.equal((await raw(`${hub.url}/api/settings/webhooks/${hook.id}/activity`, 'GET', BOB.token)).status, 404);
});

t.test('attempts are bounded and a timeout counts as a failure', async (t) => {
  const { hub, alice, rx } = await setup(t, { maxAttempts: 3, deliveryTimeoutMs: 100 });
  const dead = await alice.createWebhook({ watched: watchApp, url: 'http://127.0.0.1:9/nothing-listens' });
  const hook = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/h` });
  rx.script.push(500, 500, 500, 500);
  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.idle();
  t.equal(hub.activity(hook.id).length, 3, 'stops after maxAttempts');
  t.ok(hub.activity(dead.id).every((a) => a.status === null && a.error), 'connection errors recorded');
});

t.test('1,000 triggers per 24 h: further triggers are recorded as skipped', async (t) => {
  const { hub, alice, rx } = await setup(t, { triggersPerDay: 2 });
  const hook = await alice.createWebhook({ watched: watchApp, url: `${rx.url}/h` });
  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.commit('alice', 'space', 'alice/app', { 'a.txt': 'a' });
  await hub.commit('alice', 'space', 'alice/app', { 'b.txt': 'b' });
  await hub.idle();
  t.equal(rx.received.length, 2);
  t.same(hub.activity(hook.id).map((a) => a.outcome).sort(), ['delivered', 'delivered', 'skipped']);
  t.match(hub.activity(hook.id).find((a) => a.outcome === 'skipped'), { error: /1,000 triggers per 24 hours/ });
});

t.test('a job webhook runs --job-command with the WEBHOOK_* environment', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'env.json');
  const cmd = `node -e "require('fs').writeFileSync(process.argv[1], JSON.stringify({p: process.env.WEBHOOK_PAYLOAD, id: process.env.WEBHOOK_REPO_ID, type: process.env.WEBHOOK_REPO_TYPE, s: process.env.WEBHOOK_SECRET}))" ${out}`;
  const { hub, alice } = await setup(t, { jobCommand: cmd });
  const hook = await alice.createWebhook({ watched: watchApp, jobSourceId: 'job-1', secret: 'jobsecret' });
  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.idle();
  const env = JSON.parse(readFileSync(out, 'utf8')) as { p: string; id: string; type: string; s: string };
  t.equal(env.id, 'alice/app');
  t.equal(env.type, 'space');
  t.equal(env.s, 'jobsecret');
  t.match(JSON.parse(env.p), { event: { scope: 'repo', action: 'create' }, webhook: { id: hook.id, version: 3 } });
  const [run] = hub.jobRuns();
  t.match(run, { webhookId: hook.id, exitCode: 0, env: { WEBHOOK_REPO_ID: 'alice/app', WEBHOOK_SECRET: '(sensitive)' } });
});

t.test('a job webhook without --job-command still records the run', async (t) => {
  const { hub, alice } = await setup(t);
  const hook = await alice.createWebhook({ watched: watchApp, jobSourceId: 'job-2' });
  await hub.createRepo('alice', 'space', 'alice/app');
  await hub.idle();
  t.match(hub.jobRuns(), [{ webhookId: hook.id, command: null, env: { WEBHOOK_REPO_TYPE: 'space' } }]);
  t.notOk('WEBHOOK_SECRET' in (hub.jobRuns()[0]?.env ?? {}));
});

t.test('repo config, move, delete and discussion status events', async (t) => {
  const { hub, alice, rx } = await setup(t);
  await alice.createWebhook({ watched: [{ type: 'user', name: 'alice' }], url: `${rx.url}/h` });
  await hub.createRepo('alice', 'model', 'alice/m');
  await raw(`${hub.url}/api/models/alice/m/settings`, 'PUT', ALICE.token, { private: true });
  await raw(`${hub.url}/api/models/alice/m/discussions`, 'POST', ALICE.token, { title: 'PR', pullRequest: true });
  await raw(`${hub.url}/api/models/alice/m/discussions/1/status`, 'POST', ALICE.token, { status: 'closed' });
  await raw(`${hub.url}/api/repos/move`, 'POST', ALICE.token, { fromRepo: 'alice/m', toRepo: 'alice/m2', type: 'model' });
  await raw(`${hub.url}/api/repos/delete`, 'DELETE', ALICE.token, { name: 'm2', organization: 'alice', type: 'model' });
  await hub.idle();
  const events = rx.received.map((r) => r.body as Record<string, any>);
  t.same(events.map((e) => `${e.event.scope}:${e.event.action}`), ['repo:create', 'repo.config:update', 'discussion:create', 'discussion:update', 'repo:move', 'repo:delete']);
  t.same(events[1]?.updatedConfig, { private: true });
  t.match(events[2]?.discussion, { isPullRequest: true, changes: { base: 'refs/heads/main' } });
  t.match(events[3]?.discussion, { status: 'closed' });
  t.match(events[4], { repo: { name: 'alice/m' }, movedTo: { name: 'alice/m2', owner: { id: String } } });
  t.match(events[5], { repo: { name: 'alice/m2' } });
});
