import t from 'tap';
import { createHubClient } from '../../drivers/hub/client.js';
import { createNotifySender } from '../../drivers/notify/webhook.js';
import { commentText, DISCUSSION_TITLE, finishedNotice, sendNotice, startedNotice } from '../../reconciler/rollout-notify.js';
import type { RolloutRecord } from '../../state/rollouts.js';
import { startNotifyReceiver } from '../helpers/notify-receiver.js';
import { embeddedHub } from '../helpers/servers.js';
import { app, config } from './plan-fixtures.js';

// Who hears a rollout: the notify webhook (every notice) and the Space's
// discussion (the outcome only): the pull request a delivery named, else the
// one discussion robotctl opens per Space and reuses. A failed notice is
// told and never thrown.

const USER = { name: 'alice', token: 'hf_alice_notify_token_0123456789' };
const record: RolloutRecord = {
  id: 'r-1', trigger: 'delivery', startedAt: '2026-11-27T10:15:00.000Z', finishedAt: '2026-11-27T10:15:06.200Z', durationMs: 6200,
  revisions: [{ robot: 'desk', app: 'hello_app', from: 'a'.repeat(40), to: 'b'.repeat(40) }], waves: [['desk']], outcome: 'rolled_back',
  robots: [{ name: 'desk', wave: 1, outcome: 'rolled_back', reason: 'RuntimeError: boom; rolled back: hello_app aaaaaaa' }],
};

t.test('the notices: started, then the outcome, with the rollout\'s fields', async (t) => {
  const started = startedNotice('r-1', 'delivery', new Date('2026-11-27T10:15:00Z'), record.revisions, ['desk'], '/x/robot.yaml');
  t.match(started, { event: 'started', app: 'hello_app', robots: [{ name: 'desk', outcome: 'pending', reason: null }], finished_at: null });
  t.match(finishedNotice(record, '/x/robot.yaml'), { format_version: '1.0', event: 'rolled_back', rollout_id: 'r-1', trigger: 'delivery', duration_ms: 6200 });
  t.equal(finishedNotice({ ...record, outcome: 'interrupted' }, 'f').event, 'failed', 'an interrupted rollout did not succeed');
  t.equal(commentText(finishedNotice(record, 'f'), 'hello_app'),
    '**robotctl rollout r-1: rolled back** (hello_app, delivery)\n\nRevisions: desk: aaaaaaa → bbbbbbb\n\n- desk: rolled back — RuntimeError: boom; rolled back: hello_app aaaaaaa\n');
});

t.test('the discussion: the delivery\'s pull request, else robotctl\'s own, opened once and reused; a failed POST is told, never thrown', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const client = createHubClient({ endpoint: hub.url, token: USER.token, retryBaseMs: 5 });
  const sender = createNotifySender({ userAgent: 'robotctl-test', retry: { attempts: 1 } });
  const receiver = await startNotifyReceiver(null);
  t.teardown(async () => { await client.close(); await sender.close(); await receiver.close(); });
  await hub.createRepo(USER.name, 'space', 'alice/hello_app', { sdk: 'static' });
  const pr = await client.createDiscussion('space', 'alice/hello_app', 'a change', 'please merge');
  const cfg = config({ apps: [app('hello_app')] });
  cfg.notify = { webhook: receiver.url, secret: null, discussion: true };
  const results: [string, string | null][] = [];
  const deps = (discussions: { spaceId: string; num: number }[]) => ({ sender, hub: client, discussions, onResult: (target: string, error: string | null) => results.push([target, error]) });
  const notice = finishedNotice(record, 'f');
  await sendNotice(notice, cfg, deps([{ spaceId: 'alice/hello_app', num: pr.num }]));
  await sendNotice(notice, cfg, deps([]));
  await sendNotice(notice, cfg, deps([]));
  receiver.failNext(500);
  await sendNotice(startedNotice('r-2', 'apply', new Date(), [], [], 'f'), cfg, deps([]));
  const list = await client.listDiscussions('space', 'alice/hello_app');
  t.same(list.map((d) => d.title).sort(), [DISCUSSION_TITLE, 'a change'].sort(), 'one discussion opened, reused');
  const own = list.find((d) => d.title === DISCUSSION_TITLE)?.num;
  t.same(results, [
    ['notify webhook (rolled_back)', null], [`comment on alice/hello_app #${pr.num}`, null],
    ['notify webhook (rolled_back)', null], [`comment on alice/hello_app #${own}`, null],
    ['notify webhook (rolled_back)', null], [`comment on alice/hello_app #${own}`, null],
    ['notify webhook (started)', `notify webhook ${receiver.url} answered HTTP 500`],
  ], 'the started notice goes to the webhook only; its failure is told');
  t.equal(receiver.notices.length, 3);
});
