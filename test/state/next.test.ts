import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nextState } from '../../reconciler/state-transition.js';
import { newState, writeState } from '../../state/file.js';
import { plan } from '../../reconciler/plan.js';
import { simulateApply } from '../../reconciler/simulate.js';
import { webhookSpecHash } from '../../reconciler/hash.js';
import type { Action } from '../../reconciler/types.js';
import { SECRET, app, config, hookOf, installedOf, observation, robotObs, state, webhook } from '../reconciler/plan-fixtures.js';

// What each successful action records in the state.

const a = webhook('a');
const hello = app('hello_app');

const desired = config({ webhooks: [a, webhook('b', { enabled: false })], apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] });

function actionsFor(): Action[] {
  return plan(desired, observation({ robots: { desk: robotObs() }, spaces: { 'alice/hello_app': 'abc' } }), state()).actions;
}

t.test('create records the hub id and the hash of the spec robot.yaml declares', (t) => {
  const [create] = actionsFor();
  if (create?.type !== 'create') throw new Error('expected a create');
  const s = nextState(newState(), create, desired.webhooks, { webhookId: 'w-1' });
  t.same(s.webhooks.a, { id: 'w-1', specHash: webhookSpecHash(a) });
  t.throws(() => nextState(newState(), create, desired.webhooks, {}), /without a webhook id/);
  t.throws(() => nextState(newState(), create, {}, { webhookId: 'w-1' }), /not declared/, 'a webhook acted on is declared');
  t.end();
});

t.test('install records the app, with the sha the daemon reported if any', (t) => {
  const install = actionsFor().find((x) => x.type === 'install');
  if (!install) throw new Error('expected an install');
  t.same(nextState(newState(), install, desired.webhooks).robots.desk?.apps.hello_app, { source: hello.source, path: null, sha: 'abc' });
  t.same(nextState(newState(), install, desired.webhooks, { sha: 'def' }).robots.desk?.apps.hello_app?.sha, 'def');
  t.end();
});

t.test('delete, remove, toggles, start and stop', (t) => {
  const base = state({ webhooks: { a: { id: '1', spec: a } }, apps: { desk: { hello_app: hello, other: app('other') } } });
  const del: Action = { type: 'delete', address: 'webhooks.a', name: 'a', id: '1', reason: '' };
  t.same(nextState(base, del, desired.webhooks).webhooks, {});
  const rm: Action = { type: 'remove', address: 'robots.desk.apps.other', robot: 'desk', app: 'other', reason: '' };
  t.same(Object.keys(nextState(base, rm, desired.webhooks).robots.desk?.apps ?? {}), ['hello_app']);
  const off: Action = { type: 'disable', address: 'webhooks.a', name: 'a', id: '1', reason: '' };
  const recorded = { ...base, webhooks: { a: { id: '1', specHash: 'recorded-before' } } };
  t.equal(nextState(recorded, off, desired.webhooks).webhooks.a?.specHash, 'recorded-before', 'a toggle keeps the recorded hash');
  t.equal(nextState(newState(), off, desired.webhooks).webhooks.a?.specHash, webhookSpecHash(a), 'a toggle of a webhook not recorded yet records its spec');
  const start: Action = { type: 'start', address: 'robots.desk.apps.hello_app', robot: 'desk', app: 'hello_app', reason: '' };
  t.equal(nextState(base, start, desired.webhooks), base);
  t.same(base.webhooks.a?.id, '1', 'input state is not mutated');
  t.end();
});

t.test('a state written after a simulated apply holds no secret', async (t) => {
  const desired = config({ webhooks: [a], apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] });
  const observed = observation({ hooks: [hookOf('7', webhook('a', { secret: 'old-secret-123' }))], robots: { desk: robotObs([installedOf(hello)]) } });
  const st = { ...newState(), webhooks: { a: { id: '7', specHash: 'x' } } };
  const p = plan(desired, observed, st);
  const after = simulateApply(observed, p, desired, st);
  const sp = join(t.testdir(), 'state.json');
  await writeState(sp, after.state);
  const text = await readFile(sp, 'utf8');
  t.notOk(text.includes(SECRET));
  t.notOk(text.includes('old-secret-123'));
  t.match(text, /"specHash": "[0-9a-f]{64}"/);
});
