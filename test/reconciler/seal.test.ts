import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import { webhookSpecHash } from '../../reconciler/hash.js';
import { newState } from '../../state/file.js';
import { parsePlan, planToJson } from '../../reconciler/plan-file.js';
import { config, hookOf, observation, state as stateOf, webhook } from './plan-fixtures.js';

// A plan is plain data: no digest, no spec hash. Sealing it (what plan --out
// saves and plan --json prints) adds the digests of its inputs and each
// webhook action's spec hash, and nothing else.

const a = webhook('a');
const desired = config({ webhooks: [a, webhook('b', { url: 'https://example.org/b' })] });
const observed = observation({ hooks: [hookOf('1', a)] });
const state = newState();

t.test('a plan holds plain values only', async (t) => {
  const p = plan(desired, observed, state);
  t.strictSame(JSON.parse(JSON.stringify(p)), p, 'JSON keeps all of it');
  for (const key of Object.keys(p)) t.ok(Object.getOwnPropertyDescriptor(p, key)?.writable, `${key} is a plain value`);
  t.notOk('observedDigest' in p || 'desiredDigest' in p, 'no digests');
  t.notOk(p.actions.some((x) => 'specHash' in x), 'no spec hashes');
});

t.test('sealed: the digests of the inputs and the spec hash of every webhook action but a delete', async (t) => {
  const changed = webhook('c', { url: 'https://example.org/c-now' });
  const owned = stateOf({ webhooks: { c: { id: '3', spec: webhook('c') }, gone: { id: '9', spec: webhook('gone') } } });
  const d = config({ webhooks: [a, webhook('b', { url: 'https://example.org/b' }), changed] });
  const o = observation({ hooks: [hookOf('1', a), hookOf('3', webhook('c')), hookOf('9', webhook('gone'))] });
  const p = plan(d, o, owned);
  const sealed = sealPlan(p, d, o);
  t.same(p.actions.map((x) => x.type).sort(), ['adopt', 'create', 'delete', 'update'], 'an adopt, a create, an update and a delete');
  t.equal(sealed.observedDigest, observationDigest(o, d, owned.lineage));
  t.equal(sealed.desiredDigest, desiredDigest(d, owned.lineage));
  for (const x of sealed.actions) {
    if (x.type === 'delete') t.notOk('specHash' in x, 'a delete records no hash');
    else t.equal(x.specHash, webhookSpecHash(d.webhooks[(x as { name: string }).name] as (typeof d.webhooks)[string]), `${x.address}: the hash of its spec`);
  }
  t.strictSame(sealed.actions.map(({ specHash: _h, ...x }) => x), p.actions, 'otherwise the same actions');
  t.notOk(p.actions.some((x) => 'specHash' in x), 'the plan itself is left as it was');
  t.strictSame(parsePlan(planToJson(sealed)), sealed, 'saved and read back');
});

t.test('the same inputs seal to the same document', async (t) => {
  t.equal(planToJson(sealPlan(plan(desired, observed, state), desired, observed)), planToJson(sealPlan(plan(desired, observed, state), desired, observed)));
});
