import t from 'tap';
import { revisionChanges, rolloutHolds, rolloutId, rolloutOutcome, rolloutRecord } from '../../reconciler/rollout-history.js';
import { releaseHolds, withRollout, HISTORY_LIMIT, type RevisionChange, type RolloutLog, type RolloutRecord } from '../../state/rollouts.js';
import type { ApplyReport, UnitReport } from '../../reconciler/report.js';
import type { InstallAction, RobotAction, StartAction, UpdateAppAction } from '../../reconciler/types.js';
import { commentText, finishedNotice } from '../../reconciler/rollout-notify.js';
import { newRolloutView, renderHistory } from '../../cli/views/rollout-view.js';
import type { Io } from '../../lib/io.js';

// A finished rollout as the state keeps it: its revisions, waves, outcome,
// robots; the revision a failed robot held back; the history bounded; the
// revisions as `rollout history` and the notices print them.

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
/** What a view writes to stdout. */
const captured = (fn: (io: Io) => void): string => {
  let out = '';
  fn({ out: (text) => { out += text; }, err: () => {}, isTTY: false, stdinIsTTY: false, env: {}, cwd: '/' });
  return out;
};

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

t.test('a local folder has no revision: its end is its path, printed as `local files`', async (t) => {
  const DIR = '/home/alice/apps/oneshot_app';
  const info = { name: 'oneshot_app', source_kind: 'local' as const, description: '', url: null, extra: {} };
  const install: InstallAction = {
    type: 'install', robot: 'desk', app: 'oneshot_app', address: 'robots.desk.apps.oneshot_app', reason: 'not installed', name: 'oneshot_app',
    info, record: { source: null, path: DIR, sha: null },
  };
  // Moved from the folder to its Space: the daemon reported the folder's install as `local-<hash>`.
  const toSpace: UpdateAppAction = {
    type: 'update_app', robot: 'lab', app: 'oneshot_app', address: 'robots.lab.apps.oneshot_app', reason: 'installed from the folder', cause: 'source', name: 'oneshot_app',
    info, record: { source: URL, path: null, sha: NEW }, previous: { source: null, path: DIR, sha: 'local-1a2b3c' },
  };
  const changes = revisionChanges({ actions: [install, toSpace] });
  t.same(changes, [
    { robot: 'desk', app: 'oneshot_app', from: null, to: null, toPath: DIR },
    { robot: 'lab', app: 'oneshot_app', from: 'local-1a2b3c', to: NEW, fromPath: DIR },
  ]);
  const at = new Date('2026-11-27T10:15:00.000Z');
  const rec = (revisions: RevisionChange[]): RolloutRecord => ({
    id: 'r1', trigger: 'apply', startedAt: at.toISOString(), finishedAt: at.toISOString(), durationMs: 1200, revisions, waves: [['desk']], outcome: 'succeeded', robots: [],
  });
  const row = (revisions: RevisionChange[]): string | undefined => renderHistory({ history: [rec(revisions)], held: {} }, 5).split('\n')[1];
  t.match(row(changes.slice(0, 1)), /^r1 +2026-11-27 10:15:00Z +apply +oneshot_app new → local files +desk +succeeded/);
  t.match(row(changes.slice(1)), /^r1 +.* +oneshot_app local files → bbbbbbb +desk +succeeded/);
  t.match(row([{ robot: 'desk', app: 'hello_app', from: null, to: null }]), / hello_app new → \? /, 'a Space revision nobody reported stays `?`');
  const json = (revisions: RevisionChange[]): unknown => (JSON.parse(captured((io) => newRolloutView('json', io).history({ history: [rec(revisions)], held: {} }, 5))) as { rollouts: { revisions: unknown }[] }).rollouts[0]?.revisions;
  t.same(json(changes), [
    { robot: 'desk', app: 'oneshot_app', from: null, to: null, to_path: DIR },
    { robot: 'lab', app: 'oneshot_app', from: 'local-1a2b3c', to: NEW, from_path: DIR },
  ], 'the JSON names the folder in snake_case, as its other keys');
  t.equal(commentText(finishedNotice(rec(changes), 'f'), 'oneshot_app').split('\n')[2], 'Revisions: desk: new → local files; lab: local files → bbbbbbb');
  t.same(finishedNotice(rec(changes), 'f').revisions[0], { robot: 'desk', app: 'oneshot_app', from: null, to: null, to_path: DIR });
});

t.test('the revision a robot reported installing wins over the planned one, and is the one held back', async (t) => {
  const HEAD = 'c'.repeat(40);
  const r = report([unit('desk', 'rolled_back', start('desk')), unit('lab', 'skipped')], true);
  const at = new Date(0);
  const rec = rolloutRecord({ id: 'r', trigger: 'delivery', startedAt: at, finishedAt: at, plan, report: r, installed: { desk: { hello_app: HEAD } } });
  t.same(rec.revisions, [{ robot: 'desk', app: 'hello_app', from: OLD, to: HEAD }, { robot: 'lab', app: 'hello_app', from: OLD, to: NEW }], 'lab installed nothing: the planned revision');
  t.equal(rolloutHolds(rec, r).hello_app?.sha, HEAD, 'what failed is what desk ran');
});
