import t from 'tap';
import { createHubClient } from '../../../drivers/hub/client.js';
import { embeddedHub } from '../../helpers/servers.js';

// The hub driver's discussions calls (huggingface_hub's create_discussion,
// get_repo_discussions, comment_discussion) and repo_info at a revision,
// against the embedded hub: the same wire as huggingface.co.

const USER = { name: 'demo', token: 'hf_discussions_token_0123456789' };

t.test('open a discussion, find it by status and type, comment on it', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const client = createHubClient({ endpoint: hub.url, token: USER.token, retryBaseMs: 5 });
  t.teardown(() => client.close());
  await hub.createRepo(USER.name, 'space', 'demo/hello_app', { sdk: 'static' });
  const { num } = await client.createDiscussion('space', 'demo/hello_app', 'robotctl rollouts', 'Outcomes of rollouts.');
  t.equal(num, 1);
  const open = await client.listDiscussions('space', 'demo/hello_app', { type: 'discussion', status: 'open' });
  t.same(open, [{ num: 1, title: 'robotctl rollouts', status: 'open', author: 'demo', isPullRequest: false }]);
  t.same(await client.listDiscussions('space', 'demo/hello_app', { type: 'pull_request' }), [], 'no pull request');
  await client.commentDiscussion('space', 'demo/hello_app', num, '**rolled back**');
  const details = await (await fetch(`${hub.url}/api/spaces/demo/hello_app/discussions/${num}`)).json() as { events: { type: string; data: { latest: { raw: string } } }[] };
  t.same(details.events.filter((e) => e.type === 'comment').map((e) => e.data.latest.raw), ['Outcomes of rollouts.', '**rolled back**']);
  await t.rejects(client.commentDiscussion('space', 'demo/hello_app', 99, 'x'), /Discussion #99 not found/);
});

t.test('repo_info at a revision: that commit\'s sha; an unknown revision reads as missing', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const client = createHubClient({ endpoint: hub.url, token: USER.token, retryBaseMs: 5 });
  t.teardown(() => client.close());
  await hub.createRepo(USER.name, 'space', 'demo/hello_app', { sdk: 'static' });
  const v1 = (await hub.commit(USER.name, 'space', 'demo/hello_app', { 'a.txt': '1' }, 'v1')).commitOid;
  const v2 = (await hub.commit(USER.name, 'space', 'demo/hello_app', { 'a.txt': '2' }, 'v2')).commitOid;
  t.equal((await client.repoInfo('space', 'demo/hello_app'))?.sha, v2);
  t.equal((await client.repoInfo('space', 'demo/hello_app', undefined, v1))?.sha, v1);
  t.equal(await client.repoInfo('space', 'demo/hello_app', undefined, 'f'.repeat(40)), null);
});
