import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import { newState } from '../../state/file.js';
import { config, hookOf, observation, webhook } from './plan-fixtures.js';

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
