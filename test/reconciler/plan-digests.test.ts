import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import { newState } from '../../state/file.js';
import { planToJson } from '../../reconciler/plan-file.js';
import { config, hookOf, observation, state as stateOf, webhook } from './plan-fixtures.js';

// A plan's digests are computed when first read (a printed plan never pays
// the secret fingerprints' scrypt), and are then the values an eager plan had:
// in the object, in a copy, in JSON, and replaceable like any field.

const a = webhook('a');
const desired = config({ webhooks: [a, webhook('b', { url: 'https://example.org/b' })] });
const observed = observation({ hooks: [hookOf('1', a)] });
const state = newState();

t.test('read, copied or serialised: the digests of the inputs', async (t) => {
  const p = plan(desired, observed, state);
  const expected = {
    observedDigest: observationDigest(observed, desired, state.lineage),
    desiredDigest: desiredDigest(desired, state.lineage),
  };
  t.match(expected.observedDigest, /^sha256:/);
  t.equal(p.observedDigest, expected.observedDigest, 'read');
  t.equal(p.desiredDigest, expected.desiredDigest);
  const copy = { ...plan(desired, observed, state) };
  t.equal(copy.desiredDigest, expected.desiredDigest, 'a copy made before any read has them');
  const json = JSON.parse(JSON.stringify(plan(desired, observed, state))) as Record<string, unknown>;
  t.equal(json.observedDigest, expected.observedDigest, 'JSON has them');
  t.ok(Object.keys(plan(desired, observed, state)).includes('desiredDigest'), 'enumerable');
});

t.test('a digest can be replaced before or after it is read', async (t) => {
  const before = plan(desired, observed, state);
  before.observedDigest = 'sha256:other';
  t.equal(before.observedDigest, 'sha256:other');
  const after = plan(desired, observed, state);
  t.match(after.desiredDigest, /^sha256:/);
  after.desiredDigest = 'sha256:other';
  t.equal(after.desiredDigest, 'sha256:other');
});

t.test('a plan made for display: the same actions and digests without spec hashes, and never written as JSON', async (t) => {
  const changed = webhook('c', { url: 'https://example.org/c-now' });
  const owned = stateOf({ webhooks: { c: { id: '3', spec: webhook('c') } } });
  const inputs = [config({ webhooks: [a, webhook('b', { url: 'https://example.org/b' }), changed] }), observation({ hooks: [hookOf('1', a), hookOf('3', webhook('c'))] }), owned] as const;
  const full = plan(...inputs);
  const shown = plan(...inputs, { display: true });
  t.same(full.actions.map((x) => x.type).sort(), ['adopt', 'create', 'update'], 'an adopt, a create and an update');
  t.ok(full.actions.every((x) => 'specHash' in x && /^[0-9a-f]{64}$/.test(x.specHash)), 'a full plan hashes every spec');
  t.ok(shown.actions.every((x) => 'specHash' in x && x.specHash === ''), 'a display plan hashes none');
  t.strictSame(shown.actions.map((x) => ({ ...x, specHash: '' })), full.actions.map((x) => ({ ...x, specHash: '' })), 'otherwise the same actions');
  t.equal(shown.desiredDigest, full.desiredDigest, 'the desired digest hashes the specs itself');
  t.equal(shown.summary.total, full.summary.total);
  t.throws(() => planToJson(shown), /display only/, 'a display plan cannot be saved');
  t.doesNotThrow(() => planToJson(full));
});
