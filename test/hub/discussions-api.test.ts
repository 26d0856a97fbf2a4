import t from 'tap';
import { startHub } from '../../runtime/hub/server.js';
import { hfClient } from './hf-client.js';
import { ALICE, BOB, startReceiver } from './helpers.js';

// huggingface_hub's discussion calls and the keys deserialize_event and
// get_discussion_details read; every change is delivered to watching webhooks.

type Event = { id: string; type: string; createdAt: string; author: { name: string }; data: Record<string, any> };
type Details = { num: number; title: string; status: string; isPullRequest: boolean; author: { name: string }; createdAt: string; repo: { name: string; type: string }; events: Event[]; changes?: { base: string; mergeCommitId?: string }; filesWithConflicts?: string[] };

t.test('discussions and pull requests: events, comments, status, title, merge, each with repo', async (t) => {
  const hub = await startHub({ users: [ALICE, BOB] });
  t.teardown(() => hub.close());
  const rx = await startReceiver();
  t.teardown(() => rx.close());
  const alice = hfClient(hub.url, ALICE.token);
  const bob = hfClient(hub.url, BOB.token);
  await alice.call('POST', '/api/repos/create', { name: 'app', type: 'space', sdk: 'docker' });
  await alice.call('POST', '/api/settings/webhooks', { watched: [{ type: 'space', name: 'alice/app' }], url: `${rx.url}/h`, domains: ['discussion', 'repo'] });
  const base = '/api/spaces/alice/app/discussions';

  const created = await bob.call<{ num: number }>('POST', base, { title: 'Crash on start', description: 'It fails.', pullRequest: false });
  t.equal(created.status, 200);
  const details = await bob.call<Details>('GET', `${base}/${created.body.num}?diff=1`);
  t.match(details.body, { num: 1, title: 'Crash on start', status: 'open', isPullRequest: false, author: { name: 'bob' }, repo: { name: 'alice/app', type: 'space' }, createdAt: String });
  t.match(details.body.events[0], { type: 'comment', author: { name: 'bob' }, data: { latest: { raw: 'It fails.', html: String, updatedAt: String }, edited: false, hidden: false, history: Array } });

  const list = await bob.call<{ discussions: Details[]; count: number; start: number }>('GET', `${base}?p=0&type=all&status=all`);
  t.match(list.body, { count: 1, start: 0, discussions: [{ num: 1, repo: { name: 'alice/app', type: 'space' }, author: { name: 'bob' } }] });

  const comment = await alice.call<{ newMessage: Event }>('POST', `${base}/1/comment`, { comment: 'Looking' });
  t.match(comment.body.newMessage, { type: 'comment', data: { latest: { raw: 'Looking' } } });
  const edited = await alice.call<{ updatedComment: Event }>('POST', `${base}/1/comment/${comment.body.newMessage.id}/edit`, { content: 'Looking into it' });
  t.match(edited.body.updatedComment, { data: { edited: true, latest: { raw: 'Looking into it' } } });
  const hidden = await alice.call<{ updatedComment: Event }>('PUT', `${base}/1/comment/${comment.body.newMessage.id}/hide`);
  t.match(hidden.body.updatedComment, { data: { hidden: true } });
  const title = await bob.call<{ newTitle: Event }>('POST', `${base}/1/title`, { title: 'Crash on start (docker)' });
  t.match(title.body.newTitle, { type: 'title-change', data: { from: 'Crash on start', to: 'Crash on start (docker)' } });
  const closed = await alice.call<{ newStatus: Event }>('POST', `${base}/1/status`, { status: 'closed', comment: 'Fixed' });
  t.match(closed.body.newStatus, { type: 'status-change', data: { status: 'closed' } });

  const pr = await bob.call<{ num: number }>('POST', base, { title: 'Add app', description: 'PR', pullRequest: true });
  const draft = await bob.call<Details>('GET', `${base}/${pr.body.num}`);
  t.match(draft.body, { isPullRequest: true, status: 'draft', changes: { base: 'refs/heads/main' }, filesWithConflicts: [], repo: { name: 'alice/app' } });
  const onPr = await bob.commit('space', 'alice/app', `refs/pr/${pr.body.num}`, 'Add app.py', [{ add: 'app.py', content: 'print(1)' }]);
  t.equal(onPr.status, 200, 'the author of a pull request commits to its ref');
  t.equal((await hfClient(hub.url, null).call('GET', '/api/spaces/alice/app/tree/refs%2Fpr%2F2')).status, 200, 'refs/pr/N is a revision');
  const prDetails = await bob.call<Details>('GET', `${base}/${pr.body.num}`);
  t.same(prDetails.body.events.map((e) => e.type), ['comment', 'commit']);
  t.equal(prDetails.body.status, 'open', 'a commit takes the pull request out of draft');
  t.equal((await bob.call('POST', `${base}/${pr.body.num}/merge`, {})).status, 403, 'only a writer merges');
  const merged = await alice.call('POST', `${base}/${pr.body.num}/merge`, { comment: 'Thanks' });
  t.equal(merged.status, 200);
  const after = await alice.call<Details>('GET', `${base}/${pr.body.num}`);
  t.equal(after.body.status, 'merged');
  const info = await alice.call<{ sha: string; siblings: { rfilename: string }[] }>('GET', '/api/spaces/alice/app');
  t.equal(after.body.changes?.mergeCommitId, info.body.sha, 'mergeCommitId is the new head of main');
  t.ok(info.body.siblings.some((s) => s.rfilename === 'app.py'));

  const viaCommit = await alice.commit('space', 'alice/app', 'main', 'Proposal', [{ add: 'b.txt', content: 'b' }], undefined, '?create_pr=1');
  t.equal(viaCommit.body.pullRequestUrl, `${hub.url}/spaces/alice/app/discussions/3`, 'create_commit(create_pr=True) reads pullRequestUrl');

  await hub.idle();
  const scopes = rx.received.map((r) => `${(r.body.event as { scope: string }).scope}:${(r.body.event as { action: string }).action}`);
  t.same(scopes.filter((s) => s.startsWith('discussion')), [
    'discussion:create', 'discussion.comment:create', 'discussion.comment:update', 'discussion.comment:update',
    'discussion:update', 'discussion:update', 'discussion:create', 'discussion:update', 'discussion:update', 'discussion:create', 'discussion:update',
  ], 'every discussion change is delivered');
  t.ok(scopes.includes('repo.content:update'), 'the merge moved main');
});
