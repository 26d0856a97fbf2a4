import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { ALICE, raw } from './helpers.js';

// What huggingface_hub sends for create_commit(parent_commit=...): the header
// line carries parentCommit; the Hub answers 412 when main moved since.
function ndjson(summary: string, parentCommit: string | null, path: string, content: string): string {
  const header: Record<string, unknown> = { summary, description: '' };
  if (parentCommit) header.parentCommit = parentCommit;
  return [
    { key: 'header', value: header },
    { key: 'file', value: { content: Buffer.from(content).toString('base64'), path, encoding: 'base64' } },
  ].map((l) => JSON.stringify(l)).join('\n');
}

t.test('a commit on a stale parent_commit is refused with 412 and the Hub message', async (t) => {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  await raw(`${hub.url}/api/repos/create`, 'POST', ALICE.token, { name: 'state', organization: null, private: true, type: 'dataset' });
  const info = await raw(`${hub.url}/api/datasets/alice/state`, 'GET', ALICE.token);
  const first = (info.json as { sha: string }).sha;
  const post = (body: string) => fetch(`${hub.url}/api/datasets/alice/state/commit/main`, {
    method: 'POST', headers: { authorization: `Bearer ${ALICE.token}`, 'content-type': 'application/x-ndjson' }, body,
  });
  const ok = await post(ndjson('one', first, 'state.json', '{"serial":1}'));
  t.equal(ok.status, 200, 'parent_commit equal to the head is accepted');
  const second = ((await ok.json()) as { commitOid: string }).commitOid;

  const stale = await post(ndjson('two', first, 'state.json', '{"serial":2}'));
  t.equal(stale.status, 412);
  const message = 'The branch was updated since you opened this page. Please refresh and try again.';
  t.same(await stale.json(), { error: message });
  t.equal(stale.headers.get('x-error-message'), message, 'the header huggingface_hub reads');
  const after = await raw(`${hub.url}/api/datasets/alice/state`, 'GET', ALICE.token);
  t.equal((after.json as { sha: string }).sha, second, 'the refused commit changed nothing');
  t.equal(await (await fetch(`${hub.url}/datasets/alice/state/resolve/main/state.json`, { headers: { authorization: `Bearer ${ALICE.token}` } })).text(), '{"serial":1}');

  const unconditional = await post(ndjson('three', null, 'state.json', '{"serial":3}'));
  t.equal(unconditional.status, 200, 'without parent_commit the commit goes on top');
});
