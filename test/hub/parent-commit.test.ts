import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { isStaleParent } from '../../drivers/hub/errors.js';
import { ALICE } from './helpers.js';

// parent_commit as huggingface.co does it: a commit whose parent is no longer
// the head of main is refused with 412, and of many concurrent commits on one
// parent exactly one lands.

t.test('a stale parentCommit is refused with 412 and the Hub message', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const alice = createHubClient({ endpoint: hub.url, token: ALICE.token });
  t.teardown(() => alice.close());
  await alice.createRepo('dataset', 'alice/state', { private: true });
  const head = (await alice.repoInfo('dataset', 'alice/state'))?.sha as string;
  const add = (text: string) => [{ op: 'add' as const, path: 'state.json', content: Buffer.from(text) }];
  const first = await alice.commit('dataset', 'alice/state', add('1'), 'one', undefined, head);
  const err = await alice.commit('dataset', 'alice/state', add('2'), 'two', undefined, head).catch((e: unknown) => e);
  t.match(err, { status: 412, hubMessage: 'The branch was updated since you opened this page. Please refresh and try again.' });
  t.ok(isStaleParent(err));
  t.ok(await alice.commit('dataset', 'alice/state', add('3'), 'three', undefined, first.commitOid), 'the head as parent is accepted');
});

t.test('concurrent commits on one parent: exactly one lands', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  const alice = createHubClient({ endpoint: hub.url, token: ALICE.token });
  t.teardown(() => alice.close());
  await alice.createRepo('dataset', 'alice/race');
  const head = (await alice.repoInfo('dataset', 'alice/race'))?.sha as string;
  const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) =>
    alice.commit('dataset', 'alice/race', [{ op: 'add', path: `f${i}`, content: Buffer.from(`content ${i}`) }], `c${i}`, undefined, head)));
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one winner');
  t.ok(results.filter((r) => r.status === 'rejected').every((r) => isStaleParent((r as PromiseRejectedResult).reason)), 'the others are 412');
  t.equal((await alice.repoInfo('dataset', 'alice/race'))?.siblings.filter((s) => s.rfilename.startsWith('f')).length, 1);
});
