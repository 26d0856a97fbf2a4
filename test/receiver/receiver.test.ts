import t from 'tap';
import { createReceiver, type WebhookPayload } from '../../runtime/receiver/index.js';
import { fixtures, fixture } from './fixtures.js';
import { Readable } from 'node:stream';
import { connect } from 'node:net';
import { once } from 'node:events';
import { get, post, postStream, startReceiver } from './helpers.js';

t.test('the spec fixtures reach the handler; its return value is the answer', async (t) => {
  const seen: WebhookPayload[] = [];
  const { url } = await startReceiver(t, {}, (r) => {
    r.add(function redeploy(payload) {
      seen.push(payload);
      return { repo: payload.repo.name };
    });
  });
  for (const text of Object.values(fixtures)) {
    const res = await post(`${url}/webhooks/redeploy`, text);
    t.equal(res.status, 200);
    t.same(res.body, { repo: (JSON.parse(text) as { repo: { name: string } }).repo.name });
  }
  t.same(seen.map((p) => p.event.scope), ['discussion', 'discussion', 'repo.content']);
});

t.test('undefined answers null; async handlers work', async (t) => {
  const { url } = await startReceiver(t, {}, (r) => {
    r.add(() => undefined, { path: 'nothing' });
    r.add(async () => ({ later: true }), { path: '/later/' });
  });
  const a = await post(`${url}/webhooks/nothing`, fixtures.prOpened);
  t.equal(a.status, 200);
  t.equal(a.text, 'null');
  t.equal(a.headers['content-type'], 'application/json');
  const b = await post(`${url}/webhooks/later`, fixtures.prOpened);
  t.same(b.body, { later: true });
});

t.test('secret: 401 missing, 403 wrong or empty, 200 right, rotation', async (t) => {
  const { url, receiver } = await startReceiver(t, { secret: ['old-secret', 'new-secret'] }, (r) => {
    r.add(function hook() { return 'ok'; });
  });
  const target = `${url}/webhooks/hook`;
  const missing = await post(target, fixtures.prOpened);
  t.equal(missing.status, 401);
  t.equal(missing.text, '{"error":"x-webhook-secret header not set."}');
  const wrong = await post(target, fixtures.prOpened, { 'x-webhook-secret': 'nope' });
  t.equal(wrong.status, 403);
  t.equal(wrong.text, '{"error":"Invalid webhook secret."}');
  t.equal((await post(target, fixtures.prOpened, { 'x-webhook-secret': '' })).status, 403);
  t.equal((await post(target, fixtures.prOpened, { 'X-Webhook-Secret': 'old-secret' })).status, 200);
  t.equal((await post(target, fixtures.prClosed, { 'x-webhook-secret': 'new-secret' })).status, 200);
  const rejected = receiver.deliveries.filter((d) => d.outcome === 'rejected');
  t.same(rejected.map((d) => d.status), [401, 403, 403]);
  t.notOk(JSON.stringify(receiver.deliveries).includes('secret\"'), 'no secret value recorded');
});

t.test('secret from WEBHOOK_SECRET when no option', async (t) => {
  const { url } = await startReceiver(t, { env: { WEBHOOK_SECRET: 'from-env' } }, (r) => r.add(function hook() { return 1; }));
  t.equal((await post(`${url}/webhooks/hook`, fixtures.prOpened)).status, 401);
  t.equal((await post(`${url}/webhooks/hook`, fixtures.prOpened, { 'x-webhook-secret': 'from-env' })).status, 200);
});

t.test('400 invalid payload names the field; 400 unparsable JSON; 415 not JSON', async (t) => {
  let calls = 0;
  const { url } = await startReceiver(t, {}, (r) => r.add(function hook() { calls++; }));
  const target = `${url}/webhooks/hook`;
  const bad = fixture('contentUpdate');
  (bad.repo as Record<string, unknown>).type = 'bucket';
  const invalid = await post(target, JSON.stringify(bad));
  t.equal(invalid.status, 400);
  t.same(invalid.body, { error: 'Invalid payload: repo.type must be one of dataset, model, space.' });
  const broken = await post(target, '{"event": ');
  t.equal(broken.status, 400);
  t.match(broken.body, { error: /^Body is not valid JSON/ });
  const form = await post(target, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
  t.equal(form.status, 415);
  t.same(form.body, { error: 'Content-Type must be application/json.' });
  t.equal((await post(target, fixtures.prOpened, { 'content-type': 'text/plain' })).status, 415);
  t.equal((await post(target, fixtures.prOpened, { 'content-type': 'application/json; charset=utf-8' })).status, 200);
  t.equal(calls, 1, 'the handler only saw the valid delivery');
});

t.test('413 over the body limit, declared or streamed', async (t) => {
  const { url } = await startReceiver(t, {}, (r) => r.add(function hook() { return 'ok'; }));
  const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
  const res = await post(`${url}/webhooks/hook`, big);
  t.equal(res.status, 413);
  t.same(res.body, { error: 'Body larger than 1048576 bytes.' });
  const small = await startReceiver(t, { maxBodyBytes: 100 }, (r) => r.add(function hook() { return 'ok'; }));
  // No content-length: the limit is found while reading the chunks.
  const stream = Readable.from([Buffer.from(fixtures.prOpened.slice(0, 80)), Buffer.from(fixtures.prOpened.slice(80))]);
  const chunked = await postStream(`${small.url}/webhooks/hook`, stream);
  t.equal(chunked.status, 413);
  t.equal((await post(`${url}/webhooks/hook`, fixtures.prOpened)).status, 200, 'still serving after a 413');
});

t.test('a delivery aborted mid-body is dropped: no handler run, no record, still serving', async (t) => {
  let calls = 0;
  const { url, receiver } = await startReceiver(t, {}, (r) => r.add(function hook() { calls++; return 'ok'; }));
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`POST /webhooks/hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n${fixtures.prOpened.slice(0, 100)}`);
  socket.destroy();
  await once(socket, 'close');
  t.equal((await post(`${url}/webhooks/hook`, fixtures.prOpened)).status, 200);
  t.equal(calls, 1, 'only the complete delivery ran');
  t.same(receiver.deliveries.map((d) => d.outcome), ['ok'], 'the aborted one left no record');
});

t.test('405 on GET, 404 elsewhere', async (t) => {
  const { url } = await startReceiver(t, {}, (r) => r.add(function hook() { return 'ok'; }));
  const res = await get(`${url}/webhooks/hook`);
  t.equal(res.status, 405);
  t.equal(res.text, '{"detail":"Method Not Allowed"}');
  t.equal(res.headers.allow, 'POST');
  t.equal((await get(`${url}/nowhere`)).status, 404);
  t.equal((await post(`${url}/webhooks/other`, fixtures.prOpened)).status, 404);
  t.equal((await post(`${url}/`, fixtures.prOpened)).status, 404);
});

t.test('a browser opening an endpoint URL gets a page saying what it is for; nothing is delivered', async (t) => {
  let calls = 0;
  const { url, receiver } = await startReceiver(t, {}, (r) => r.add(function hook() { calls++; return 'ok'; }));
  const res = await fetch(`${url}/webhooks/hook`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await res.text();
  t.match(html, '<title>Webhook endpoint /webhooks/hook</title>');
  t.match(html, 'the hub sends each one with <code>POST /webhooks/hook</code>');
  t.match(html, '<a href="/">This server\'s page</a>');
  t.equal(calls, 0, 'the handler did not run');
  t.same(receiver.deliveries, [], 'and no delivery is recorded');
});

t.test('500 on a handler error, no stack; the message is logged', async (t) => {
  const { url, lines, receiver } = await startReceiver(t, {}, (r) => {
    r.add(function boom() { throw new Error('disk on fire'); });
    r.add(async function asyncBoom() { throw new Error('later fire'); });
    r.add(function cyclic() { const o: Record<string, unknown> = {}; o.self = o; return o; });
  });
  for (const name of ['boom', 'asyncBoom', 'cyclic']) {
    const res = await post(`${url}/webhooks/${name}`, fixtures.prOpened);
    t.equal(res.status, 500, name);
    t.equal(res.text, '{"error":"Internal error"}', name);
  }
  t.ok(lines.some((l) => l.includes('/webhooks/boom: handler failed: disk on fire')));
  t.notOk(lines.some((l) => l.includes('    at ')), 'no stack trace logged');
  t.same(receiver.deliveries.map((d) => d.outcome), ['failed', 'failed', 'failed']);
});

t.test('a failed delivery is not remembered: a retry runs again', async (t) => {
  let calls = 0;
  const { url } = await startReceiver(t, {}, (r) => r.add(function flaky() {
    calls++;
    if (calls === 1) throw new Error('first try fails');
    return { calls };
  }));
  t.equal((await post(`${url}/webhooks/flaky`, fixtures.prOpened)).status, 500);
  const retry = await post(`${url}/webhooks/flaky`, fixtures.prOpened);
  t.equal(retry.status, 200);
  t.same(retry.body, { calls: 2 });
});

t.test('add: names, explicit paths, duplicates', async (t) => {
  const r = createReceiver({ env: {}, log: () => {} });
  t.equal(r.add(function trigger_training() {}), '/webhooks/trigger_training');
  t.equal(r.add(() => 1, { path: '/say_hello/' }), '/webhooks/say_hello');
  t.equal(r.add(function ignored() {}, { path: 'a/b' }), '/webhooks/a/b');
  t.throws(() => r.add(function say_hello() {}), new Error('Webhook /webhooks/say_hello already exists.'));
  t.throws(() => r.add(() => 1, { path: '//' }), /needs a name/);
  t.same(r.endpoints, ['/webhooks/trigger_training', '/webhooks/say_hello', '/webhooks/a/b']);
});
