import t, { type Test } from 'tap';
import { plan, PlanError } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import type { Config } from '../../schema/types.js';
import type { WatchedItem } from '../../lib/wire/hub.js';
import type { Observation, Plan, PlanOptions } from '../../reconciler/types.js';
import type { StateFile } from '../../state/types.js';
import { config, hookOf, observation, state, webhook } from './plan-fixtures.js';

// Table-driven webhook planning: each row is desired + observed + state → the
// ordered actions, written as `type address`.

interface Case {
  name: string;
  desired: Config;
  observed: Observation;
  state: StateFile;
  opts?: PlanOptions;
  expect?: string[];
  throws?: RegExp;
  check?: (t: Test, p: Plan) => void;
}

const a = webhook('a');
const b = webhook('b', { url: 'https://example.org/other' });
const job = webhook('j', { url: null, jobId: 'job-123' });

const cases: Case[] = [
  { name: 'create a new webhook', desired: config({ webhooks: [a] }), observed: observation(), state: state(), expect: ['create webhooks.a'],
    check: (t, p) => { t.equal(p.summary.create, 1); t.match(p.actions[0], { desired: { hasSecret: true, enabled: true } }); t.notOk('secretHash' in (p.actions[0] ?? {}), 'no hash of the secret in the plan'); } },
  { name: 'owned and identical: no action', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: [] },
  { name: 'watched in another order: no action', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a, { watched: [...a.watched].reverse() })] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: [] },
  { name: 'domains in another order still match (adopt, no update)', desired: config({ webhooks: [webhook('a', { domains: ['discussion', 'repo'] })] }),
    observed: observation({ hooks: [hookOf('1', a, { domains: ['repo', 'discussion'] })] }), state: state(), expect: ['adopt webhooks.a'] },
  { name: 'adoption: watched items in another order still match', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a, { watched: [...a.watched].reverse() })] }), state: state(), expect: ['adopt webhooks.a'] },
  { name: 'adoption: a watched item differing only in where its colon falls does not match', desired: config({ webhooks: [webhook('a', { watched: [{ type: 'user', name: 'alice' }] })] }),
    observed: observation({ hooks: [hookOf('1', a, { watched: [{ type: 'user', name: 'alic' }] }), hookOf('2', a, { watched: [{ type: 'use', name: 'ralice' }] as never })] }),
    state: state(), expect: ['create webhooks.a'] },
  { name: 'adoption: one watched item more or less does not match', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a, { watched: [a.watched[0] as WatchedItem] }), hookOf('2', a, { watched: [...a.watched, { type: 'org', name: 'x' }] })] }),
    state: state(), expect: ['create webhooks.a'] },
  { name: 'no domains equals all domains', desired: config({ webhooks: [webhook('a', { domains: [] })] }),
    observed: observation({ hooks: [hookOf('1', a, { domains: ['discussion', 'repo'] })] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: [] },
  { name: 'url change is an update', desired: config({ webhooks: [webhook('a', { url: 'https://new.example.org/h' })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'],
    check: (t, p) => { t.match(p.actions[0], { id: '1', changes: [{ field: 'url', before: a.url, after: 'https://new.example.org/h' }], patch: [{ op: 'replace', path: '/url' }] }); } },
  { name: 'watched change is an update', desired: config({ webhooks: [webhook('a', { watched: [{ type: 'org', name: 'pollen' }] })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'],
    check: (t, p) => { t.match(p.actions[0], { changes: [{ field: 'watched', after: ['org:pollen'] }] }); } },
  { name: 'domains change is an update', desired: config({ webhooks: [webhook('a', { domains: ['discussion'] })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'] },
  { name: 'secret change is shown as sensitive', desired: config({ webhooks: [webhook('a', { secret: 'another-secret' })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'],
    check: (t, p) => {
      t.match(p.actions[0], { secretChanged: true, changes: [{ field: 'secret', before: '(sensitive)', after: '(sensitive value changed)' }] });
      t.notMatch(JSON.stringify(p), /another-secret|hunter2/);
    } },
  { name: 'secret added', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('1', a, { secret: null })] }),
    state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'],
    check: (t, p) => { t.match(p.actions[0], { changes: [{ field: 'secret', before: null, after: '(sensitive)' }] }); } },
  { name: 'disable an enabled webhook', desired: config({ webhooks: [webhook('a', { enabled: false })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['disable webhooks.a'] },
  { name: 'enable a disabled webhook', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('1', a, { disabled: true })] }),
    state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['enable webhooks.a'] },
  { name: 'update then enable', desired: config({ webhooks: [webhook('a', { url: 'https://x.example.org' })] }),
    observed: observation({ hooks: [hookOf('1', a, { disabled: true })] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a', 'enable webhooks.a'] },
  { name: 'disable then update', desired: config({ webhooks: [webhook('a', { url: 'https://x.example.org', enabled: false })] }),
    observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['disable webhooks.a', 'update webhooks.a'] },
  { name: 'delete an owned webhook removed from the file', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b)] }), state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }),
    expect: ['delete webhooks.b'], check: (t, p) => { t.match(p.actions[0], { id: '2' }); t.same(p.unmanaged.webhooks, []); } },
  { name: 'an owned webhook changed on the hub and dropped from the file: its delete is held, not planned', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b, { url: 'https://changed.example.org/h' })] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }), expect: [],
    check: (t, p) => {
      t.same(p.heldDeletes, [{ address: 'webhooks.b', name: 'b', id: '2', reason: 'changed outside robotctl since the state recorded it' }]);
      t.same(p.unmanaged.webhooks, [], 'still the state\'s: not listed as unmanaged');
      t.equal(p.summary.delete, 0);
    } },
  { name: 'a record edited by hand to name a foreign webhook: its delete is held', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('F', webhook('x', { url: 'https://someone.else/h', watched: [{ type: 'org', name: 'x' }] }))] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: 'F', spec: b } } }), expect: [],
    check: (t, p) => { t.match(p.heldDeletes, [{ address: 'webhooks.b', id: 'F' }]); } },
  { name: 'force plans a held delete, saying why', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b, { url: 'https://changed.example.org/h' })] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }), opts: { force: true }, expect: ['delete webhooks.b'],
    check: (t, p) => {
      t.match(p.actions[0], { id: '2', reason: 'no longer in robot.yaml; changed outside robotctl since the state recorded it: --force' });
      t.same(p.heldDeletes, []);
    } },
  { name: 'a webhook toggled on the hub (enabled is not content) is still deleted', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b, { disabled: true })] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }), expect: ['delete webhooks.b'],
    check: (t, p) => { t.same(p.heldDeletes, []); } },
  { name: 'a secret removed on the hub is a change: the delete is held', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b, { secret: null })] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }), expect: [],
    check: (t, p) => { t.equal(p.heldDeletes.length, 1); } },
  { name: 'a job webhook whose job id the hub does not report cannot be proven unchanged: held', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('3', job, { jobSourceId: undefined })] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, j: { id: '3', spec: job } } }), expect: [],
    check: (t, p) => { t.match(p.heldDeletes, [{ address: 'webhooks.j', reason: 'changed outside robotctl since the state recorded it, or so robotctl must assume: the hub does not report its job id' }]); } },
  { name: 'a job webhook whose job id the hub reports, unchanged: deleted', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('3', job)] }),
    state: state({ webhooks: { a: { id: '1', spec: a }, j: { id: '3', spec: job } } }), expect: ['delete webhooks.j'] },
  { name: 'healing an owned webhook changed on the hub stays allowed', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a, { url: 'https://changed.example.org/h' })] }),
    state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['update webhooks.a'], check: (t, p) => { t.match(p.actions[0], { id: '1' }); } },
  { name: 'never-owned webhooks are listed, not touched', desired: config({ webhooks: [a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('99', b)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: [],
    check: (t, p) => { t.same(p.unmanaged.webhooks, [{ id: '99', url: b.url, watched: ['space:alice/hello_app', 'user:alice'] }]); } },
  { name: 'an unmanaged webhook survives a file with other webhooks removed', desired: config({ webhooks: [b] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('99', webhook('x', { url: 'https://someone.else' }))] }),
    state: state({ webhooks: { a: { id: '1', spec: a } } }), expect: ['create webhooks.b', 'delete webhooks.a'],
    check: (t, p) => { t.equal(p.unmanaged.webhooks.length, 1); t.equal(p.unmanaged.webhooks[0]?.id, '99'); } },
  { name: 'adopt after a create lost to a kill', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('7', a)] }), state: state(),
    expect: ['adopt webhooks.a'], check: (t, p) => { t.match(p.actions[0], { id: '7' }); t.same(p.unmanaged.webhooks, []); } },
  { name: 'adopt then disable', desired: config({ webhooks: [webhook('a', { enabled: false })] }), observed: observation({ hooks: [hookOf('7', a)] }), state: state(),
    expect: ['adopt webhooks.a', 'disable webhooks.a'] },
  { name: 'no adoption when the secret differs', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('7', a, { secret: 'other' })] }), state: state(),
    expect: ['create webhooks.a'], check: (t, p) => { t.equal(p.unmanaged.webhooks[0]?.id, '7'); } },
  { name: 'a vanished id is created again', desired: config({ webhooks: [a] }), observed: observation(), state: state({ webhooks: { a: { id: 'gone', spec: a } } }),
    expect: ['create webhooks.a'], check: (t, p) => { t.match(p.actions[0]?.reason, /gone/); } },
  { name: 'a vanished id with an identical webhook left is adopted', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('8', a)] }),
    state: state({ webhooks: { a: { id: 'gone', spec: a } } }), expect: ['adopt webhooks.a'] },
  { name: 'one hub webhook is adopted once', desired: config({ webhooks: [a, webhook('a2')] }), observed: observation({ hooks: [hookOf('7', a)] }), state: state(),
    expect: ['adopt webhooks.a', 'create webhooks.a2'] },
  // Adoption tries the hub's list in order first, then its index: the same choice either way.
  { name: 'identical webhooks on the hub go to identical specs in the hub\'s order', desired: config({ webhooks: [a, webhook('a2', { url: a.url }), webhook('a3', { url: a.url })] }),
    observed: observation({ hooks: [hookOf('7', a), hookOf('8', a)] }), state: state(),
    expect: ['adopt webhooks.a', 'adopt webhooks.a2', 'create webhooks.a3'],
    check: (t, p) => { t.same(p.actions.slice(0, 2).map((x) => (x.type === 'adopt' ? x.id : '')), ['7', '8']); } },
  { name: 'the hub listing them in another order than the file: each still adopts its own', desired: config({ webhooks: [a, b, job] }),
    observed: observation({ hooks: [hookOf('3', job), hookOf('2', b), hookOf('1', a)] }), state: state(),
    expect: ['adopt webhooks.a', 'adopt webhooks.b', 'adopt webhooks.j'],
    check: (t, p) => { t.same(p.actions.map((x) => (x.type === 'adopt' ? x.id : '')), ['1', '2', '3']); t.same(p.unmanaged.webhooks, []); } },
  { name: 'in order, then out of order, then a hub webhook claimed in order is not claimed twice', desired: config({ webhooks: [a, job, b, webhook('a2', { url: a.url })] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', b), hookOf('3', job)] }), state: state(),
    expect: ['adopt webhooks.a', 'adopt webhooks.j', 'adopt webhooks.b', 'create webhooks.a2'],
    check: (t, p) => { t.same(p.actions.slice(0, 3).map((x) => (x.type === 'adopt' ? x.id : '')), ['1', '3', '2']); } },
  { name: 'a hub webhook this file owns is skipped by the in-order pass', desired: config({ webhooks: [webhook('a2', { url: a.url }), a] }),
    observed: observation({ hooks: [hookOf('1', a), hookOf('2', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }),
    expect: ['adopt webhooks.a2'],
    check: (t, p) => { t.match(p.actions[0], { id: '2' }); t.same(p.unmanaged.webhooks, []); } },
  { name: 'create a job webhook', desired: config({ webhooks: [job] }), observed: observation(), state: state(), expect: ['create webhooks.j'],
    check: (t, p) => { t.match(p.actions[0], { desired: { url: null, jobId: 'job-123' } }); } },
  { name: 'job webhook echoed and equal: no action', desired: config({ webhooks: [job] }), observed: observation({ hooks: [hookOf('3', job)] }),
    state: state({ webhooks: { j: { id: '3', spec: job } } }), expect: [] },
  { name: 'job id changed (echoed) is an update', desired: config({ webhooks: [webhook('j', { url: null, jobId: 'job-456' })] }),
    observed: observation({ hooks: [hookOf('3', job)] }), state: state({ webhooks: { j: { id: '3', spec: job } } }), expect: ['update webhooks.j'],
    check: (t, p) => { t.match(p.actions[0], { changes: [{ field: 'jobId', before: 'job-123', after: 'job-456' }] }); } },
  { name: 'job id not echoed, state hash matches: no action', desired: config({ webhooks: [job] }),
    observed: observation({ hooks: [hookOf('3', job, { jobSourceId: undefined })] }), state: state({ webhooks: { j: { id: '3', spec: job } } }), expect: [] },
  { name: 'job id not echoed, toggled on the hub: only enable', desired: config({ webhooks: [job] }),
    observed: observation({ hooks: [hookOf('3', job, { jobSourceId: undefined, disabled: true })] }), state: state({ webhooks: { j: { id: '3', spec: job } } }), expect: ['enable webhooks.j'] },
  { name: 'job id not echoed, changed in the file: update from the state hash', desired: config({ webhooks: [webhook('j', { url: null, jobId: 'job-456' })] }),
    observed: observation({ hooks: [hookOf('3', job, { jobSourceId: undefined })] }), state: state({ webhooks: { j: { id: '3', spec: job } } }), expect: ['update webhooks.j'],
    check: (t, p) => { t.match(p.actions[0], { changes: [{ field: 'jobId', before: '(not reported by the hub)', after: 'job-456' }] }); } },
  { name: 'targets limit the plan', desired: config({ webhooks: [a, b] }), observed: observation(), state: state(), opts: { targets: ['webhooks.b'] },
    expect: ['create webhooks.b'], check: (t, p) => { t.same(p.targets, ['webhooks.b']); t.equal(p.summary.total, 1); } },
  { name: 'a target may name a webhook only the state knows', desired: config({ webhooks: [a] }), observed: observation({ hooks: [hookOf('2', b)] }),
    state: state({ webhooks: { b: { id: '2', spec: b } } }), opts: { targets: ['webhooks.b'] }, expect: ['delete webhooks.b'] },
  { name: 'an unknown target is refused', desired: config({ webhooks: [a] }), observed: observation(), state: state(), opts: { targets: ['webhooks.nope'] }, throws: /unknown target "webhooks.nope"/ },
  { name: 'a malformed target is refused', desired: config({ webhooks: [a] }), observed: observation(), state: state(), opts: { targets: ['a'] }, throws: /unknown target/ },
  { name: 'hub unreachable: no webhook actions', desired: config({ webhooks: [a] }), observed: observation({ hubError: 'connect ECONNREFUSED' }), state: state(), expect: [],
    check: (t, p) => { t.equal(p.hubError, 'connect ECONNREFUSED'); } },
  { name: 'emptying everything needs allowEmpty', desired: config(), observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }),
    throws: /--allow-empty/ },
  { name: 'emptying everything with allowEmpty', desired: config(), observed: observation({ hooks: [hookOf('1', a)] }), state: state({ webhooks: { a: { id: '1', spec: a } } }),
    opts: { allowEmpty: true }, expect: ['delete webhooks.a'] },
  { name: 'an empty file that owns nothing on the hub is fine', desired: config(), observed: observation({ hooks: [hookOf('5', a)] }), state: state(), expect: [] },
];

for (const c of cases) {
  t.test(c.name, (t) => {
    if (c.throws) {
      t.throws(() => plan(c.desired, c.observed, c.state, c.opts), c.throws);
      t.throws(() => plan(c.desired, c.observed, c.state, c.opts), PlanError);
      t.end();
      return;
    }
    const p = plan(c.desired, c.observed, c.state, c.opts);
    t.same(p.actions.map((x) => `${x.type} ${x.address}`), c.expect);
    t.equal(p.format_version, '2.1');
    t.notMatch(JSON.stringify(p), /hunter2/, 'no secret in the plan');
    c.check?.(t, p);
    t.end();
  });
}

t.test('the same inputs give the same plan, whatever the hub list order', (t) => {
  const desired = config({ webhooks: [a, b] });
  const st = state({ webhooks: { a: { id: '1', spec: a } } });
  const hooks = [hookOf('1', a, { url: 'https://drift.example.org' }), hookOf('99', job)];
  const sealed = (o: Observation) => sealPlan(plan(desired, o, st), desired, o);
  const p1 = sealed(observation({ hooks }));
  const p2 = sealed(observation({ hooks: [...hooks].reverse() }));
  t.same(p1.actions, p2.actions);
  t.equal(p1.observedDigest, p2.observedDigest);
  const p3 = sealed(observation({ hooks: [hookOf('1', a)] }));
  t.not(p3.observedDigest, p1.observedDigest, 'a different world has a different digest');
  t.end();
});
