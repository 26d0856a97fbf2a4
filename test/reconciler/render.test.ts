import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import { renderPlan, summaryLine, writePlan } from '../../cli/views/plan-view.js';
import { readFileSync } from 'node:fs';
import { PLAN_SCHEMA_FILE, planToJson, parsePlan } from '../../reconciler/plan-file.js';
import { fromDocument, toDocument } from '../../reconciler/plan-keys.js';
import { PlanError } from '../../reconciler/plan-error.js';
import { SECRET, app, config, hookOf, installedOf, observation, robotObs, state, webhook } from './plan-fixtures.js';

// Human and JSON views of a plan: Terraform-like symbols, grouped robot
// actions, a summary line, colour only when asked, and never a secret.

const NEW_SECRET = 'rotated-secret-4711';
const a = webhook('a');
const b = webhook('b', { url: 'https://example.org/b' });
const c = webhook('c', { url: 'https://example.org/c' });
const d = webhook('d', { url: 'https://example.org/d' });
const hello = app('hello_app');
const other = app('other_app');

function busyInputs() {
  const desired = config({
    webhooks: [webhook('a', { url: 'https://example.org/new', secret: NEW_SECRET }), c, d, webhook('e', { url: 'https://example.org/e' })],
    apps: [hello, other], active: 'other_app', robots: [{ name: 'desk' }, { name: 'lab' }],
  });
  const observed = observation({
    hooks: [hookOf('1', a), hookOf('2', b), hookOf('7', c), hookOf('9', webhook('x', { url: 'https://someone.else/hook' })), hookOf('4', d, { disabled: true })],
    robots: { desk: robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' }), lab: { reachable: false, error: 'ECONNREFUSED' } },
  });
  const st = state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b }, d: { id: '4', spec: d } } });
  return { desired, observed, st };
}

function busyPlan() {
  const { desired, observed, st } = busyInputs();
  return plan(desired, observed, st);
}

/** As plan --out saves it and plan --json prints it. */
function busySealed() {
  const { desired, observed, st } = busyInputs();
  return sealPlan(plan(desired, observed, st), desired, observed);
}

t.test('human view of every kind of change', (t) => {
  const out = renderPlan(busyPlan());
  t.match(out, '  ~ webhooks.a (id 1) will be updated');
  t.match(out, /url\s+"https:\/\/example.org\/hooks\/a" → "https:\/\/example.org\/new"/);
  t.match(out, /secret\s+\(sensitive\) → \(sensitive value changed\)/);
  t.match(out, '  > webhooks.c (id 7) will be adopted');
  t.match(out, '  ~ webhooks.d (id 4) will be enabled');
  t.match(out, '  + webhooks.e will be created');
  t.match(out, /secret\s+= \(sensitive\)/);
  t.match(out, '  - webhooks.b (id 2) will be deleted');
  t.match(out, /Robot desk:\n  ~ stop hello_app .*\n  \+ install other_app from https:\/\/huggingface.co\/spaces\/alice\/other_app .*\n  ~ start other_app/);
  t.match(out, 'webhook 9 → https://someone.else/hook');
  t.match(out, 'Robots not reachable, nothing planned for them: lab');
  t.match(out, 'Plan: 1 to adopt, 1 to create, 2 to update, 1 to delete, 3 robot changes.');
  t.notMatch(out, /\x1b\[/, 'no colour unless asked');
  t.end();
});

t.test('no secret in any view', (t) => {
  const p = busyPlan();
  for (const text of [renderPlan(p), renderPlan(p, { color: true }), planToJson(busySealed())]) {
    t.notOk(text.includes(SECRET), 'old secret absent');
    t.notOk(text.includes(NEW_SECRET), 'new secret absent');
  }
  t.end();
});

t.test('colour when asked', (t) => {
  const out = renderPlan(busyPlan(), { color: true });
  t.match(out, '\x1b[32m+\x1b[0m webhooks.e');
  t.match(out, '\x1b[31m-\x1b[0m webhooks.b');
  t.end();
});

t.test('summary lines', (t) => {
  const desired = config({ webhooks: [a, b], apps: [hello], active: 'hello_app', robots: [{ name: 'desk' }] });
  const fresh = plan(desired, observation({ hooks: [hookOf('1', a, { url: 'https://drift' })], robots: { desk: robotObs() } }), state({ webhooks: { a: { id: '1', spec: a } } }));
  t.equal(summaryLine(fresh), 'Plan: 1 to create, 1 to update, 0 to delete, 2 robot changes.');
  const same = plan(desired, observation({ hooks: [hookOf('1', a), hookOf('2', b)], robots: { desk: robotObs([installedOf(hello)], { app: installedOf(hello), state: 'running' }) } }),
    state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } }));
  t.equal(renderPlan(same), 'No changes. The hub and robots match robot.yaml.\n');
  const blind = plan(desired, observation({ hubError: 'HTTP 503' }), state());
  t.match(renderPlan(blind), /Hub not observed, no webhook changes planned: HTTP 503/);
  t.match(summaryLine(blind), /^No changes for what could be observed/);
  t.end();
});

t.test('JSON view round-trips and carries format_version', (t) => {
  const p = busySealed();
  const text = planToJson(p);
  const data = JSON.parse(text) as Record<string, unknown>;
  t.equal(data.format_version, '2.1');
  t.strictSame(parsePlan(text), p, 'exact round trip');
  const keys: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { keys.push(k); if (k !== 'extra') walk(x); }
  };
  walk(data);
  t.same(keys.filter((k) => /[A-Z]/.test(k)), [], 'every key of the JSON plan is snake_case');
  t.match(data, { hub_error: null, observed_digest: /^sha256:/, desired_digest: /^sha256:/ });
  const updates = (data.actions as { type: string; changes?: { field: string }[]; patch?: { path: string }[] }[]).filter((a) => a.type === 'update');
  t.ok(updates.length > 0, 'the busy plan has an update');
  t.end();
});

t.test('snake_case keys: changed fields and patch paths follow, app paths and extra stay as they are', (t) => {
  const action = {
    changes: [{ field: 'jobId', before: 'a', after: 'b' }], patch: [{ op: 'replace', path: '/jobId', value: 'b' }],
    record: { source: null, path: '/home/x/jobId/app', sha: null }, info: { extra: { someKey: 1 } }, secretSalt: 's',
  };
  const doc = toDocument(action);
  t.strictSame(doc, {
    changes: [{ field: 'job_id', before: 'a', after: 'b' }], patch: [{ op: 'replace', path: '/job_id', value: 'b' }],
    record: { source: null, path: '/home/x/jobId/app', sha: null }, info: { extra: { someKey: 1 } }, secret_salt: 's',
  });
  t.strictSame(fromDocument(doc), action);
  t.end();
});

t.test('the plan file schema has an $id and names every field the JSON plan has', (t) => {
  const schema = JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')) as { $id: string };
  t.equal(schema.$id, 'https://robotctl.dev/schema/plan-file.schema.json');
  t.end();
});

t.test('a plan file of another version or shape is refused', (t) => {
  const text = planToJson(busySealed());
  // The command it suggests is written by the caller's CommandLine (the CLI's view); without one it is named as robotctl's.
  const command = (args: string): string => `node bin/robotctl.js ${args}`;
  t.throws(() => parsePlan(text.replace('"format_version": "2.1"', '"format_version": "1.0"'), 'p.json', command),
    { message: 'p.json has format_version "1.0", and this robotctl reads only 2.1: make a new plan with this version of robotctl (`node bin/robotctl.js plan --out p.json`)' });
  t.throws(() => parsePlan(text.replace('"format_version": "2.1"', '"format_version": "1.0"'), 'p.json'),
    { message: 'p.json has format_version "1.0", and this robotctl reads only 2.1: make a new plan with this version of robotctl (robotctl\'s `plan --out p.json`)' });
  t.throws(() => parsePlan('{"actions":[]}', 'p.json'), /format_version null/);
  t.throws(() => parsePlan('{"format_version":"2.1"}'), PlanError);
  t.throws(() => parsePlan(text.replace('"spec_hash"', '"specHash"'), 'p.json'), /p\.json is damaged \(\/actions\/\d+: must have required property 'spec_hash'\): make a new one with robotctl's `plan --out`$/);
  t.throws(() => parsePlan(text.replace('"observed_digest"', '"observedDigest"'), 'p.json'), /must have required property 'observed_digest'/);
  t.throws(() => parsePlan(text.replace(/"type": "create"/, '"type": "explode"'), 'p.json'), /p\.json is damaged \(\/actions\/\d+\/type: must be equal to one of the allowed values\)/);
  t.throws(() => parsePlan('not json'), /not valid JSON/);
  t.throws(() => parsePlan('[1]'), /not a robotctl plan/);
  t.end();
});

t.test('a large plan is written in chunks of whole lines, never as one string', (t) => {
  const hooks = Array.from({ length: 3000 }, (_, i) => webhook(`h${i}`, { url: `https://example.org/h/${i}` }));
  const p = plan(config({ webhooks: hooks }), observation({ hooks: [] }), state({}));
  const chunks: string[] = [];
  writePlan(p, {}, (text) => chunks.push(text));
  const whole = chunks.join('');
  t.ok(chunks.length > 1, `${chunks.length} chunks`);
  t.ok(chunks.every((c) => c.endsWith('\n')), 'each chunk ends a line');
  t.ok(chunks.every((c) => c.length < whole.length / 4), 'the text is never held as one string');
  t.equal(whole.split('\n').length, 3 + 3000 * 6 + 2 + 1, 'heading, six lines per webhook, blank line, summary');
  t.match(whole, '  + webhooks.h2999 will be created (not on the hub yet)\n      url      = "https://example.org/h/2999"\n');
  t.end();
});
