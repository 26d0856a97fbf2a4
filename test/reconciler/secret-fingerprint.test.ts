import t from 'tap';
import { createHash } from 'node:crypto';
import { secretFingerprint, webhookSpecHash } from '../../reconciler/hash.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import { plan } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import { planToJson } from '../../reconciler/plan-file.js';
import { SECRET, config, hookOf, observation, state, webhook } from './plan-fixtures.js';

// Issue 12: a weak webhook secret must not be guessable offline from a shared
// state or a saved plan. The state keeps nothing derived from a secret; a
// plan's digests take it in only salted and stretched.

const WEAK = 'hunter2';

function unsaltedSha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

t.test('the spec hash kept in the state does not depend on the secret value, only on having one', (t) => {
  const a = webhook('a', { secret: WEAK });
  t.equal(webhookSpecHash(a), webhookSpecHash({ ...a, secret: 'another-one' }), 'guessing the secret from the state is impossible');
  t.not(webhookSpecHash(a), webhookSpecHash({ ...a, secret: null }), 'adding or removing a secret still changes the spec');
  t.end();
});

t.test('the spec hash is sha256 of the v2 JSON array, for any text (state files recorded it)', (t) => {
  const texts = ['https://x.org/a?b="c"&d=\\e', 'é ü 𝄞', 'tab\tnew\nline\u0001\u2028', '', '</script>'];
  for (const [i, text] of texts.entries()) {
    const spec = { ...webhook('a', { secret: null }), url: text, jobId: text === '' ? null : `job-${text}`, enabled: text.length % 2 === 0 };
    const form = { watched: [`space:${text}`, 'user:x'], domains: ['repo' as const] };
    const expected = createHash('sha256').update(JSON.stringify(['v2', spec.url, spec.jobId, form.watched, form.domains, false, spec.enabled])).digest('hex');
    t.equal(webhookSpecHash(spec, form), expected, `text ${i}`);
  }
  t.end();
});

t.test('a fingerprint is keyed by its salt and is not a plain hash of the secret', (t) => {
  const one = secretFingerprint(WEAK, 'salt-1');
  t.equal(secretFingerprint(WEAK, 'salt-1'), one, 'same salt, same fingerprint (a saved plan can be checked)');
  t.not(secretFingerprint(WEAK, 'salt-2'), one, 'another plan or state gives an unrelated value');
  t.match(one, /^scrypt:[0-9a-f]{64}$/);
  t.notOk(one.includes(unsaltedSha256(WEAK)));
  t.end();
});

t.test('secret drift is found from the hub\'s answer alone, as on a fresh CI runner with an empty state', (t) => {
  const a = webhook('a');
  const fresh = state();
  const same = plan(config({ webhooks: [a] }), observation({ hooks: [hookOf('1', a)] }), fresh);
  t.same(same.actions.map((x) => x.type), ['adopt'], 'the identical webhook (same secret) is adopted');
  const changed = plan(config({ webhooks: [a] }), observation({ hooks: [hookOf('1', a, { secret: 'changed-on-the-hub' })] }), state({ webhooks: { a: { id: '1', spec: a } } }));
  t.same(changed.actions.map((x) => x.type), ['update']);
  t.match(changed.actions[0], { changes: [{ field: 'secret' }] });
  t.end();
});

t.test('a saved plan holds neither the secret nor any unsalted hash of it', (t) => {
  const a = webhook('a', { secret: WEAK });
  const desired = config({ webhooks: [a] });
  const observed = observation({ hooks: [hookOf('1', a, { secret: 'old' })] });
  const p = plan(desired, observed, state({ webhooks: { a: { id: '1', spec: a } } }));
  const text = planToJson(sealPlan(p, desired, observed));
  t.notOk(text.includes(WEAK));
  t.notOk(text.includes(unsaltedSha256(WEAK)));
  t.notOk(/secret_hash/.test(text), 'no per-action secret hash any more');
  t.match(JSON.parse(text), { secret_salt: p.secretSalt, format_version: '2.1' });
  t.end();
});

t.test('the digests still tell a changed secret from an unchanged one', (t) => {
  const desired = config({ webhooks: [webhook('a')] });
  const salt = 'plan-salt';
  t.not(desiredDigest(desired, salt), desiredDigest(config({ webhooks: [webhook('a', { secret: 'rotated' })] }), salt),
    'a secret rotated in robot.yaml between plan and apply makes the saved plan refused');
  const hub = (secret: string | null) => observation({ hooks: [hookOf('1', webhook('a'), { secret })] });
  t.equal(observationDigest(hub('x-1'), desired, salt), observationDigest(hub('x-2'), desired, salt),
    'one foreign hub secret changed to another foreign one: the plan is the same, the digest too');
  t.not(observationDigest(hub(SECRET), desired, salt), observationDigest(hub('x-1'), desired, salt),
    'a hub secret that becomes or stops being robot.yaml\'s changes the digest');
  t.not(observationDigest(hub(null), desired, salt), observationDigest(hub('x-1'), desired, salt));
  t.end();
});

t.test('the planner stays pure: the salt is an input (the state\'s lineage unless given)', (t) => {
  const desired = config({ webhooks: [webhook('a')] });
  const st = state();
  const one = plan(desired, observation(), st);
  t.equal(one.secretSalt, st.lineage);
  t.same(plan(desired, observation(), st), one, 'same inputs, same plan');
  const salted = plan(desired, observation(), st, { secretSalt: 'other' });
  t.equal(salted.secretSalt, 'other');
  t.not(sealPlan(salted, desired, observation()).desiredDigest, sealPlan(one, desired, observation()).desiredDigest);
  t.end();
});
