import t from 'tap';
import { fixtures } from './fixtures.js';
import { get, post, startReceiver } from './helpers.js';
import { until } from '../helpers/wait.js';

t.test('a slow handler gets 202 at once, finishes in the background, its result recorded', async (t) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const { url, receiver } = await startReceiver(t, { slowHandlerMs: 50 }, (r) => {
    r.add(async function slow() {
      await gate;
      return { done: true };
    });
  });
  // The handler only ends after release() below: an answer at all means the receiver did not wait for it.
  const res = await post(`${url}/webhooks/slow`, fixtures.contentUpdate);
  t.equal(res.status, 202);
  t.equal(res.text, '{"status":"accepted"}');
  t.match(receiver.deliveries[0], { status: 202, outcome: 'accepted', durationMs: null });
  const repeat = await post(`${url}/webhooks/slow`, fixtures.contentUpdate);
  t.equal(repeat.status, 202, 'a repeat while running is 202 too');
  release();
  const first = await until(() => (receiver.deliveries[0]?.outcome === 'ok' ? receiver.deliveries[0] : null), 10_000, 'the slow handler to finish');
  t.match(first, { status: 202, outcome: 'ok', result: { done: true }, event: 'repo.content/update', repo: 'space:Wauplin/gradio-user-history' });
  t.ok(typeof first?.durationMs === 'number');
  const after = await post(`${url}/webhooks/slow`, fixtures.contentUpdate);
  t.equal(after.status, 200, 'a repeat after it finished gets the first result');
  t.same(after.body, { done: true });
});

t.test('a slow handler that fails is recorded as failed and logged', async (t) => {
  let fail: () => void = () => {};
  const gate = new Promise<void>((resolve) => { fail = resolve; });
  const { url, receiver, lines } = await startReceiver(t, { slowHandlerMs: 10 }, (r) => {
    r.add(async function slowFail() {
      await gate;
      throw new Error('gave up');
    });
  });
  t.equal((await post(`${url}/webhooks/slowFail`, fixtures.prOpened)).status, 202);
  fail();
  await until(() => receiver.deliveries[0]?.outcome === 'failed', 10_000, 'the slow handler to fail');
  t.match(receiver.deliveries[0], { outcome: 'failed', error: 'gave up' });
  t.ok(lines.includes('/webhooks/slowFail: handler failed: gave up'));
});

t.test('dedupe: the same body twice runs the handler once; another body or endpoint runs', async (t) => {
  const calls: string[] = [];
  const { url, receiver } = await startReceiver(t, {}, (r) => {
    r.add(function a(p) { calls.push(`a:${p.repo.name}`); return { n: calls.length }; });
    r.add(function b(p) { calls.push(`b:${p.repo.name}`); return { n: calls.length }; });
  });
  const one = await post(`${url}/webhooks/a`, fixtures.prOpened);
  const two = await post(`${url}/webhooks/a`, fixtures.prOpened);
  t.same(one.body, { n: 1 });
  t.equal(two.status, 200);
  t.same(two.body, { n: 1 }, 'the repeat answers the first result');
  await post(`${url}/webhooks/a`, fixtures.prClosed);
  await post(`${url}/webhooks/b`, fixtures.prOpened);
  t.same(calls, ['a:gpt2', 'a:Wauplin/leaderboard', 'b:gpt2']);
  t.same(receiver.deliveries.map((d) => d.outcome), ['ok', 'duplicate', 'ok', 'ok']);
});

t.test('dedupe window 0 turns it off; the window expires', async (t) => {
  let off = 0;
  let windowed = 0;
  const a = await startReceiver(t, { dedupeWindowMs: 0 }, (r) => r.add(function h() { return ++off; }));
  await post(`${a.url}/webhooks/h`, fixtures.prOpened);
  await post(`${a.url}/webhooks/h`, fixtures.prOpened);
  t.equal(off, 2);
  let now = 1_000_000;
  const b = await startReceiver(t, { dedupeWindowMs: 30, now: () => now }, (r) => r.add(function h() { return ++windowed; }));
  await post(`${b.url}/webhooks/h`, fixtures.prOpened);
  now += 29;
  await post(`${b.url}/webhooks/h`, fixtures.prOpened);
  t.equal(windowed, 1, 'a repeat inside the window runs once');
  now += 2;
  await post(`${b.url}/webhooks/h`, fixtures.prOpened);
  t.equal(windowed, 2, 'after the window it runs again');
});

t.test('handler context: headers, endpoint, delivery key', async (t) => {
  const keys: string[] = [];
  const { url } = await startReceiver(t, { dedupeWindowMs: 0 }, (r) => r.add((_p, ctx) => {
    keys.push(ctx.deliveryKey);
    return { endpoint: ctx.endpoint, agent: ctx.headers['x-test'] };
  }, { path: 'ctx' }));
  const res = await post(`${url}/webhooks/ctx`, fixtures.prOpened, { 'x-test': 'yes' });
  await post(`${url}/webhooks/ctx`, fixtures.prOpened);
  t.same(res.body, { endpoint: '/webhooks/ctx', agent: 'yes' });
  t.match(keys[0], /^[0-9a-f]{64}$/);
  t.equal(keys[0], keys[1], 'same endpoint + body, same key');
});

t.test('landing page lists the endpoints; replaceable; routes take precedence', async (t) => {
  const a = await startReceiver(t, {}, (r) => { r.add(function redeploy() {}); r.add(function log() {}); });
  const page = await get(`${a.url}/`);
  t.equal(page.status, 200);
  t.match(page.headers['content-type'], /text\/html/);
  t.match(page.text, /2 webhook\(s\) are registered/);
  t.match(page.text, /POST \/webhooks\/redeploy/);
  t.match(page.text, /POST \/webhooks\/log/);
  t.match(page.text, /X-Webhook-Secret/);
  const b = await startReceiver(t, { landingPage: (eps) => `<p>${eps.join(',')}</p>` }, (r) => r.add(function x() {}));
  t.equal((await get(`${b.url}/`)).text, '<p>/webhooks/x</p>');
  const c = await startReceiver(t, { landingPage: null });
  t.equal((await get(`${c.url}/`)).status, 404);
  const d = await startReceiver(t, {}, (r) => {
    r.route('GET', '/', (_req, res) => { res.end('fleet'); });
    r.route('GET', '/status', (_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
    r.route('POST', '/broken', () => { throw new Error('route bug'); });
  });
  t.equal((await get(`${d.url}/`)).text, 'fleet');
  t.same((await get(`${d.url}/status?x=1`)).body, { ok: true });
  t.equal((await post(`${d.url}/status`, '{}')).status, 405);
  const broken = await post(`${d.url}/broken`, '{}');
  t.equal(broken.status, 500);
  t.equal(broken.text, '{"error":"Internal error"}');
  t.ok(d.lines.includes('internal error: route bug'));
});

t.test('start messages without and with a secret', async (t) => {
  const open = await startReceiver(t, {}, (r) => { r.add(function one() {}); r.add(function two() {}); });
  t.same(open.lines, [
    'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.',
    "To add a secret, set `WEBHOOK_SECRET` as environment variable or pass it at initialization: \n\t`createReceiver({ secret: 'my_secret', ... })`",
    'For more details about webhook secrets, please refer to https://huggingface.co/docs/hub/webhooks#webhook-secret.',
    '',
    'Webhooks are correctly set up and ready to use:',
    `  - POST ${open.url}/webhooks/one`,
    `  - POST ${open.url}/webhooks/two`,
    'Go to https://huggingface.co/settings/webhooks to set up your webhooks.',
  ]);
  const closed = await startReceiver(t, { secret: 'top-secret' }, (r) => r.add(function one() {}));
  t.equal(closed.lines[0], 'Webhook secret is correctly defined.');
  t.equal(closed.lines[2], 'Webhooks are correctly set up and ready to use:');
  t.notOk(closed.lines.join('\n').includes('top-secret'), 'the secret is never printed');
});

t.test('start: port 0 gives a free port; the url matches; a busy port fails', async (t) => {
  const a = await startReceiver(t, {});
  t.match(a.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const port = Number(new URL(a.url).port);
  const { createReceiver } = await import('../../runtime/receiver/index.js');
  const b = createReceiver({ port, env: {}, log: () => {} });
  await t.rejects(b.start(), { code: 'EADDRINUSE' });
  await b.close();
});
