import t from 'tap';
import { createNotifySender, signature } from '../../../drivers/notify/webhook.js';
import { startNotifyReceiver } from '../../helpers/notify-receiver.js';
import { freePort } from '../../helpers/ports.js';

// The notify webhook's sender against a real receiver started here: the body
// as given, signed as GitHub signs (sha256=HMAC of the raw body), a 5xx
// retried, a 4xx not, and an error that never carries the URL's password.

t.test('a notice arrives signed; a receiver that verifies with the secret accepts it', async (t) => {
  const receiver = await startNotifyReceiver('s3cret');
  const sender = createNotifySender({ userAgent: 'robotctl-test', retry: { baseMs: 5 } });
  t.teardown(async () => { await sender.close(); await receiver.close(); });
  const body = JSON.stringify({ event: 'rolled_back', rollout_id: 'r-1' });
  await sender.post(receiver.url, body, 's3cret');
  t.equal(receiver.notices.length, 1);
  t.equal(receiver.notices[0]?.raw, body, 'the body as sent');
  t.equal(receiver.notices[0]?.signature, signature(body, 's3cret'));
  t.ok(receiver.notices[0]?.signed);
  t.equal(signature('{}', 'k'), 'sha256=add853b103fbcc936a194f9eb15e29c4ff08af6e47d5d1bca4f20218e31e4fff', 'the same HMAC as Python\'s hmac.new(key, body, sha256)');
  await sender.post(receiver.url, body, null);
  t.equal(receiver.notices[1]?.signature, null, 'no secret: no signature header');
});

t.test('a 503 is retried, a 400 is not; a refused connection says where without the URL\'s password', async (t) => {
  const receiver = await startNotifyReceiver(null);
  const sender = createNotifySender({ userAgent: 'robotctl-test', retry: { baseMs: 5 } });
  t.teardown(async () => { await sender.close(); await receiver.close(); });
  receiver.failNext(503);
  await sender.post(receiver.url, '{}', null);
  t.equal(receiver.notices.length, 1, 'delivered on the second attempt');
  receiver.failNext(400);
  await t.rejects(sender.post(receiver.url, '{}', null), /answered HTTP 400/);
  t.equal(receiver.notices.length, 1, 'not retried');
  const port = await freePort();
  const err = await sender.post(`http://user:pa55word@127.0.0.1:${port}/hook`, '{}', null).then(() => null, (e: Error) => e);
  t.match(err?.message, new RegExp(`^notify webhook http://127\\.0\\.0\\.1:${port}/hook: `));
  t.notMatch(err?.message, /pa55word/);
});
