import t from 'tap';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { newState } from '../../state/file.js';
import { hubStore } from '../../state/hub-store.js';
import { batchedJournal } from '../../state/batched-journal.js';
import { applyChange, type StateChange } from '../../state/journal.js';
import type { StateFile } from '../../state/types.js';
import type { StateStore } from '../../state/store.js';

// A remote backend's journal, on a real hub dataset: the state is committed
// every maxPending actions or when the timer fires (the test's own clock),
// in the background, and at close; a failed commit fails the next record.

const USER = { name: 'alice', token: 'hf_alice_batch_token_0123456789' };
let hub: RunningHub;
let client: HubClient;
t.before(async () => {
  hub = await startHub({ users: [USER] });
  client = createHubClient({ endpoint: hub.url, token: USER.token, retryBaseMs: 5 });
});
t.teardown(async () => { await client.close(); await hub.close(); });

const hook = (i: number): StateChange => ({ webhook: `hook-${i}`, record: { id: `id-${i}`, specHash: `h${i}` } });

/** The store's writes, counted. */
function counted(store: StateStore): { write: (s: StateFile) => Promise<StateFile>; count: () => number } {
  let n = 0;
  return { write: (s) => { n += 1; return store.write(s); }, count: () => n };
}

/** A clock the test advances: the pending timer fires when the test says. */
function manualTimer(): { setTimer: (fn: () => void, ms: number) => () => void; fire: () => void; armed: () => boolean } {
  let due: (() => void) | null = null;
  return {
    setTimer: (fn) => { due = fn; return () => { if (due === fn) due = null; }; },
    fire: () => { const fn = due; due = null; fn?.(); },
    armed: () => due !== null,
  };
}

t.test('every maxPending actions and at close: 2 or 3 commits for 25 actions (writes run while actions go on)', async (t) => {
  const store = hubStore({ hub: client, repo: 'alice/batch-count' });
  const writes = counted(store);
  const clock = manualTimer();
  const j = batchedJournal(writes.write, newState(), { maxPending: 10, setTimer: clock.setTimer });
  let s = newState();
  for (let i = 0; i < 25; i++) {
    s = applyChange(s, hook(i));
    await j.record(hook(i), s);
  }
  const stored = await j.close();
  // After the 10th; then what came meanwhile (≥ 10 at once, or the rest at close).
  t.ok(writes.count() >= 2 && writes.count() <= 3, `${writes.count()} commits for 25 actions`);
  t.equal(Object.keys(stored.webhooks).length, 25);
  t.same((await store.read())?.webhooks, s.webhooks, 'the dataset holds every record');
  t.notOk(clock.armed(), 'no timer left behind');
});

t.test('the timer writes what waits, without waiting for more actions', async (t) => {
  const store = hubStore({ hub: client, repo: 'alice/batch-timer' });
  const writes = counted(store);
  const clock = manualTimer();
  const j = batchedJournal(writes.write, newState(), { maxPending: 100, setTimer: clock.setTimer });
  const s = applyChange(newState(), hook(1));
  await j.record(hook(1), s);
  t.ok(clock.armed(), 'armed by the first unwritten record');
  t.equal(writes.count(), 0);
  clock.fire();
  const stored = await j.close();
  t.equal(writes.count(), 1, 'written by the timer; nothing left for close');
  t.same((await store.read())?.webhooks, s.webhooks);
  t.equal(stored.serial, 1);
});

t.test('a failed commit fails the next record and close', async (t) => {
  const store = hubStore({ hub: client, repo: 'alice/batch-fail' });
  await store.write(newState());
  // Another lineage is refused by the store: stands for any failed commit.
  const j = batchedJournal((st) => store.write(st), newState(), { maxPending: 1, setTimer: manualTimer().setTimer });
  await j.record(hook(1), applyChange(newState(), hook(1)));
  await t.rejects(j.close(), /belongs to another lineage/);
  let failed: () => void = () => {};
  const writeFailed = new Promise<void>((r) => { failed = r; });
  const k = batchedJournal((st) => store.write(st).catch((err: unknown) => { failed(); throw err; }), newState(), { maxPending: 1, setTimer: manualTimer().setTimer });
  await k.record(hook(1), applyChange(newState(), hook(1)));
  await writeFailed;
  await new Promise((r) => setImmediate(r));
  await t.rejects(k.record(hook(2), applyChange(newState(), hook(2))), /belongs to another lineage/, 'a later record is refused once the write failed');
  await t.rejects(k.close(), /belongs to another lineage/);
});

t.test('recordNow (an install\'s intent) is stored before it resolves, with what was recorded before it', async (t) => {
  const store = hubStore({ hub: client, repo: 'alice/batch-now' });
  const writes = counted(store);
  const clock = manualTimer();
  const j = batchedJournal(writes.write, newState(), { maxPending: 100, setTimer: clock.setTimer });
  let s = applyChange(newState(), hook(1));
  await j.record(hook(1), s);
  const intent: StateChange = { robot: 'r2', app: 'or2_app', record: { source: null, path: '/apps/or2_app', sha: null, intent: 'install' } };
  s = applyChange(s, intent);
  await j.recordNow(intent, s);
  t.equal(writes.count(), 1, 'one write, without the timer');
  const stored = await store.read();
  t.same(stored?.robots.r2?.apps.or2_app, intent.record, 'the intent is in the stored state');
  t.same(stored?.webhooks, s.webhooks, 'and the record made before it');
  await j.close();
  t.equal(writes.count(), 1, 'nothing left for close');
});
