import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import { planMismatch } from '../../reconciler/plan-match.js';
import { parsePlan, planToJson } from '../../reconciler/plan-file.js';
import type { SealedAction, SealedPlan } from '../../reconciler/types.js';
import { config, hookOf, observation, state, webhook } from './plan-fixtures.js';

// apply --plan's check (issue 29.1): a saved plan's actions, read back from
// the file, against the plan made again; the first difference named as the
// file spells it (snake_case).

const a = webhook('a');
const b = webhook('b', { url: 'https://example.org/b' });
const desired = config({ webhooks: [webhook('a', { url: 'https://example.org/a-moved' })] });
const observed = observation({ hooks: [hookOf('1', a), hookOf('2', b, { url: 'https://changed.example.org/b' })] });
const st = state({ webhooks: { a: { id: '1', spec: a }, b: { id: '2', spec: b } } });
const fresh = (force = false): SealedPlan => sealPlan(plan(desired, observed, st, { force }), desired, observed);
/** The saved plan as apply reads it: through its file. */
const saved = (p: SealedPlan, edit: (doc: { actions: Record<string, unknown>[] }) => void = () => {}): SealedAction[] => {
  const doc = JSON.parse(planToJson(p)) as { actions: Record<string, unknown>[] };
  edit(doc);
  return parsePlan(JSON.stringify(doc)).actions;
};

t.test('the same plan read back from its file matches', (t) => {
  const p = fresh();
  t.match(p.actions, [{ type: 'update', id: '1' }]);
  t.equal(planMismatch(saved(p), p), null);
  t.end();
});

t.test('an id changed names the action and the field', (t) => {
  t.equal(planMismatch(saved(fresh(), (d) => { (d.actions[0] as { id: string }).id = 'FOREIGN'; }), fresh()),
    'action 1 (update webhooks.a): id is "FOREIGN" in the file, robotctl plans "1"');
  t.end();
});

t.test('a nested field is named by its path in the file', (t) => {
  const edited = saved(fresh(), (d) => { (d.actions[0] as { desired: { job_id: string | null } }).desired.job_id = 'job-evil'; });
  t.equal(planMismatch(edited, fresh()), 'action 1 (update webhooks.a): desired.job_id is "job-evil" in the file, robotctl plans null');
  t.end();
});

t.test('an appended action, and a missing one', (t) => {
  const appended = saved(fresh(), (d) => { d.actions.push({ type: 'delete', address: 'webhooks.x', name: 'x', id: 'FOREIGN2', reason: 'r' }); });
  t.equal(planMismatch(appended, fresh()), "action 2 (delete webhooks.x) is not in robotctl's plan");
  t.equal(planMismatch([], fresh()), "robotctl's plan has an action 1 (update webhooks.a) that the file lacks");
  t.end();
});

t.test('a forced delete applied without --force is named as held back', (t) => {
  const forced = fresh(true);
  t.match(forced.actions, [{ type: 'update' }, { type: 'delete', address: 'webhooks.b' }]);
  t.equal(planMismatch(saved(forced), fresh()),
    "action 2 (delete webhooks.b) is not in robotctl's plan (robotctl holds this delete back: changed outside robotctl since the state recorded it; apply it with --force)");
  t.equal(planMismatch(saved(forced), fresh(true)), null, 'with --force it matches');
  t.end();
});

t.test('a long value is cut to keep the message on one line', (t) => {
  const edited = saved(fresh(), (d) => { (d.actions[0] as { reason: string }).reason = 'x'.repeat(500); });
  const m = planMismatch(edited, fresh()) ?? '';
  t.match(m, /^action 1 \(update webhooks\.a\): reason is "x+… in the file, robotctl plans "url changed"$/);
  t.ok(m.length < 250);
  t.end();
});
