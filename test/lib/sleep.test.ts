import t from 'tap';
import { sleep } from '../../lib/retry.js';

// lib/retry.ts's sleep (node:timers/promises underneath): an abort rejects
// with the signal's own reason, as callers expect; `wake` ends it early.

t.test('resolves once the time has passed', async (t) => {
  const started = Date.now();
  await sleep(20);
  t.ok(Date.now() - started >= 15, 'waited');
});

t.test('an abort rejects with the signal\'s reason, before or during the wait', async (t) => {
  const reason = new Error('stopped by the user');
  await t.rejects(sleep(10, AbortSignal.abort(reason)), reason, 'already aborted');
  const controller = new AbortController();
  const waiting = sleep(60_000, controller.signal);
  controller.abort(reason);
  await t.rejects(waiting, reason, 'aborted while waiting');
});

t.test('`wake` ends the wait early, settled either way', async (t) => {
  const started = Date.now();
  await sleep(60_000, undefined, Promise.resolve());
  await sleep(60_000, new AbortController().signal, Promise.reject(new Error('ignored')));
  t.ok(Date.now() - started < 30_000, 'woken, not timed out');
});
