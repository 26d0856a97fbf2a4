import t from 'tap';
import { WorkQueue } from '../../reconciler/agent/work-queue.js';
import { covers, type WorkItem, type WorkKey } from '../../reconciler/agent/work-item.js';

const item = (key: WorkKey, expect: WorkItem['expect'] = []): WorkItem => ({ key, trigger: 'manual', note: key, expect });

function recorder(delayMs = 5) {
  const ran: WorkItem[] = [];
  let active = 0;
  let maxActive = 0;
  const q = new WorkQueue(async (i) => {
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, delayMs));
    ran.push(i);
    active--;
  }, () => {});
  return { q, ran, max: () => maxActive };
}

t.test('one run at a time, in order', async (t) => {
  const { q, ran, max } = recorder();
  q.enqueue(item('app:a'));
  q.enqueue(item('local:b'));
  q.enqueue(item('app:c'));
  await q.idle();
  t.same(ran.map((i) => i.key), ['app:a', 'local:b', 'app:c']);
  t.equal(max(), 1);
});

t.test('a burst coalesces: equal keys wait once, a wider key swallows narrower ones', async (t) => {
  const { q, ran } = recorder();
  q.enqueue(item('full')); // starts at once
  t.equal(q.enqueue(item('app:a')), true);
  t.equal(q.enqueue(item('app:a')), false, 'same key already waiting');
  t.equal(q.enqueue(item('local:a')), true, 'a reinstall is not covered by a reconcile');
  t.equal(q.enqueue(item('full')), true, 'full replaces the waiting app:a');
  t.equal(q.enqueue(item('app:b')), false, 'covered by the waiting full');
  t.equal(q.enqueue(item('file')), true, 'file replaces the waiting full');
  await q.idle();
  t.same(ran.map((i) => i.key), ['full', 'local:a', 'file']);
});

t.test('announced revisions survive coalescing (newest per Space)', async (t) => {
  const { q, ran } = recorder();
  q.enqueue(item('full'));
  q.enqueue(item('app:a', [{ spaceId: 'demo/a', sha: '1' }]));
  q.enqueue(item('app:a', [{ spaceId: 'demo/a', sha: '2' }]));
  q.enqueue(item('full', [{ spaceId: 'demo/b', sha: '9' }]));
  await q.idle();
  t.same(ran[1]?.expect, [{ spaceId: 'demo/a', sha: '2' }, { spaceId: 'demo/b', sha: '9' }]);
});

t.test('close lets the run in flight finish and drops the rest', async (t) => {
  const { q, ran } = recorder(30);
  q.enqueue(item('app:a'));
  q.enqueue(item('app:b'));
  await q.close();
  t.same(ran.map((i) => i.key), ['app:a']);
  t.equal(q.enqueue(item('full')), false, 'closed');
});

t.test('a failing run is reported and the queue goes on', async (t) => {
  const errors: string[] = [];
  const ran: string[] = [];
  const q = new WorkQueue(async (i) => {
    if (i.key === 'app:bad') throw new Error('boom');
    ran.push(i.key);
  }, (err, i) => errors.push(`${i.key}: ${(err as Error).message}`));
  q.enqueue(item('app:bad'));
  q.enqueue(item('app:good'));
  await q.idle();
  t.same(errors, ['app:bad: boom']);
  t.same(ran, ['app:good']);
});

t.test('covers', async (t) => {
  t.ok(covers('file', 'full'));
  t.ok(covers('file', 'app:x'));
  t.ok(covers('full', 'app:x'));
  t.notOk(covers('full', 'local:x'));
  t.notOk(covers('app:x', 'full'));
  t.notOk(covers('app:x', 'app:y'));
});

t.test('the discussions deliveries named are kept when their keys coalesce', async (t) => {
  const seen: WorkItem[] = [];
  let release: () => void = () => {};
  const q = new WorkQueue(async (item) => { seen.push(item); await new Promise<void>((r) => { release = r; }); }, () => {});
  q.enqueue({ key: 'full', trigger: 'interval', note: 'busy', expect: [] });
  q.enqueue({ key: 'app:a', trigger: 'delivery', note: 'pr 3', expect: [], discussions: [{ spaceId: 'o/a', num: 3 }] });
  q.enqueue({ key: 'file', trigger: 'file', note: 'save', expect: [] });
  q.enqueue({ key: 'app:a', trigger: 'delivery', note: 'pr 4', expect: [], discussions: [{ spaceId: 'o/a', num: 4 }] });
  release();
  await new Promise<void>((r) => setImmediate(r));
  release();
  await q.idle();
  t.same(seen.map((i) => [i.key, i.discussions ?? []]), [['full', []], ['file', [{ spaceId: 'o/a', num: 3 }, { spaceId: 'o/a', num: 4 }]]]);
});
