import t from 'tap';
import { revisionChanges, rolloutHolds, rolloutId, rolloutOutcome, rolloutRecord } from '../../reconciler/rollout-history.js';
import { releaseHolds, withRollout, HISTORY_LIMIT, type RolloutLog, type RolloutRecord } from '../../state/rollouts.js';
import type { ApplyReport, UnitReport } from '../../reconciler/report.js';
import type { RobotAction, StartAction, UpdateAppAction } from '../../reconciler/types.js';

// A finished rollout as the state keeps it: its revisions, waves, outcome,
// robots; the revision a failed robot held back; the history bounded.

const URL = 'https://huggingface.co/spaces/alice/hello_app';
const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
const update = (robot: string): UpdateAppAction => ({
  type: 'update_app', robot, app: 'hello_app', address: `robots.${robot}.apps.hello_app`, reason: 'moved on', cause: 'revision',
  info: { name: 'hello_app', source_kind: 'hf_space', description: '', url: URL, extra: {} },
  record: { source: URL, path: null, sha: NEW }, previous: { source: URL, path: null, sha: OLD },
});
const start = (robot: string): StartAction => ({ type: 'start', robot, app: 'hello_app', address: `robots.${robot}.apps.hello_app`, reason: 'restart' });
const unit = (name: string, status: UnitReport['status'], failed: RobotAction | null = null): UnitReport => ({
  name, status, reason: failed ? 'start hello_app: crashed: RuntimeError: boom' : status === 'skipped' ? 'rollout stopped' : null, planned: 2, done: 1,
  failed: failed ? [{ action: failed, error: 'hello_app crashed 2.1 s after it started: RuntimeError: boom' }] : [], notDone: [],
});
const report = (robots: UnitReport[], halted: boolean): ApplyReport => ({
  hub: unit('hub', 'already_converged'), robots, interrupted: false, halt: halted ? { failures: 1, limit: 0, skipped: ['lab'] } : null,
  waves: [['desk'], ['lab']], totals: { planned: 4, done: 1, failed: 1, notDone: 2 },
});
const plan = { actions: [update('desk'), start('desk'), update('lab'), start('lab')] };

t.test('a rolled-back canary: the record, and the failing revision held back', async (t) => {
  const r = report([unit('desk', 'rolled_back', start('desk')), unit('lab', 'skipped')], true);
  const at = new Date('2026-11-27T10:15:00.000Z');
  const rec = rolloutRecord({ id: rolloutId(at, 'ab12'), trigger: 'delivery', startedAt: at, finishedAt: new Date(at.getTime() + 6200), plan, report: r });
  t.same(rec, {
    id: '20261127-101500-ab12', trigger: 'delivery', startedAt: '2026-11-27T10:15:00.000Z', finishedAt: '2026-11-27T10:15:06.200Z', durationMs: 6200,
    revisions: [{ robot: 'desk', app: 'hello_app', from: OLD, to: NEW }, { robot: 'lab', app: 'hello_app', from: OLD, to: NEW }],
    waves: [['desk'], ['lab']], outcome: 'rolled_back',
    robots: [
      { name: 'desk', wave: 1, outcome: 'rolled_back', reason: 'start hello_app: crashed: RuntimeError: boom' },
      { name: 'lab', wave: 2, outcome: 'skipped', reason: 'rollout stopped' },
    ],
  });
  t.same(rolloutHolds(rec, r), {
    hello_app: { sha: NEW, reason: 'desk: hello_app crashed 2.1 s after it started: RuntimeError: boom', rollout: '20261127-101500-ab12', at: '2026-11-27T10:15:06.200Z' },
  });
});

t.test('a rollout that brought the app everywhere releases its hold; a failure unrelated to a new revision holds nothing', async (t) => {
  const ok = report([unit('desk', 'converged'), unit('lab', 'converged')], false);
  const at = new Date(0);
  const rec = rolloutRecord({ id: 'r', trigger: 'apply', startedAt: at, finishedAt: at, plan, report: ok });
  t.equal(rec.outcome, 'succeeded');
  t.same(rolloutHolds(rec, ok), { hello_app: null });
  const switched = { actions: [start('desk')] };
  const failed = report([unit('desk', 'failed', start('desk')), unit('lab', 'already_converged')], true);
  const rec2 = rolloutRecord({ id: 'r2', trigger: 'file', startedAt: at, finishedAt: at, plan: switched, report: failed });
  t.equal(rec2.outcome, 'failed');
  t.same(rolloutHolds(rec2, failed), {}, 'no revision changed: nothing to hold');
  t.same(revisionChanges(switched), []);
});

t.test('outcomes: interrupted wins, then rolled back, then failed', async (t) => {
  t.equal(rolloutOutcome({ ...report([unit('desk', 'rolled_back')], true), interrupted: true }), 'interrupted');
  t.equal(rolloutOutcome(report([unit('desk', 'unreachable')], false)), 'failed');
});

t.test('the history keeps the last HISTORY_LIMIT rollouts; retry releases one app or all', async (t) => {
  let log: RolloutLog = { history: [], held: {} };
  const rec = (i: number): RolloutRecord => ({ id: `r${i}`, trigger: 'apply', startedAt: '', finishedAt: '', durationMs: 0, revisions: [], waves: [], outcome: 'succeeded', robots: [] });
  for (let i = 0; i < HISTORY_LIMIT + 5; i++) log = withRollout(log, rec(i), {});
  t.equal(log.history.length, HISTORY_LIMIT);
  t.equal(log.history[0]?.id, 'r5');
  const hold = { sha: NEW, reason: 'x', rollout: 'r9', at: '' };
  log = withRollout(log, rec(99), { a: hold, b: hold });
  t.same(Object.keys(log.held), ['a', 'b']);
  t.same(releaseHolds(log, ['b', 'c']).released, ['b']);
  t.same(Object.keys(releaseHolds(log, ['b']).log.held), ['a']);
  t.same(releaseHolds(log, []).released, ['a', 'b']);
});
