import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHubClient } from '../../../drivers/hub/client.js';
import { HubError } from '../../../drivers/hub/errors.js';
import { backoffMs, retryAfterMs } from '../../../drivers/hub/retry.js';
import { startHub } from '../../../runtime/hub/server.js';
import { request as undiciRequest } from 'undici';
import { ALICE } from '../../hub/helpers.js';

// A fault injector in front of the real embedded hub: it answers 429/503 or
// drops the connection for the requests a test picks, and proxies the rest.

type Fault = (req: IncomingMessage, res: ServerResponse, body: string) => boolean;

async function faultProxy(t: Test, target: string, fault: Fault) {
  const seen: { method: string; url: string; body: string; auth: string | undefined; ua: string | undefined }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => { body += d.toString(); });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization, ua: req.headers['user-agent'] });
      if (fault(req, res, body)) return;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
      undiciRequest(`${target}${req.url ?? ''}`, { method: req.method as 'GET', headers, body: body === '' ? undefined : body })
        .then(async (up) => { res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') }); res.end(Buffer.from(await up.body.arrayBuffer())); })
        .catch(() => { res.statusCode = 502; res.end(); });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function withHub(t: Test) {
  const hub = await startHub({ users: [ALICE] });
  t.teardown(() => hub.close());
  return hub;
}

const input = { watched: [{ type: 'space' as const, name: 'alice/app' }], url: 'https://example.org/hook' };

t.test('429 honours Retry-After, for reads and for create', async (t) => {
  const hub = await withHub(t);
  let n = 0;
  const proxy = await faultProxy(t, hub.url, (_req, res) => {
    if (n++ < 2) { res.writeHead(429, { 'retry-after': '0.2' }); res.end('{"error":"slow down"}'); return true; }
    return false;
  });
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  const start = Date.now();
  t.same(await c.listWebhooks(), []);
  t.ok(Date.now() - start >= 380, `waited Retry-After twice (${Date.now() - start} ms)`);
  n = 0;
  const hook = await c.createWebhook(input);
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 3, 'a 429 create is sent again: it was not processed');
  t.equal(hub.data().webhooks.length, 1);
  t.ok(hook.id);
});

t.test('503 and resets are retried for idempotent calls; gives up after maxRetries with the hub message', async (t) => {
  const hub = await withHub(t);
  let failures = 2;
  const proxy = await faultProxy(t, hub.url, (req, res) => {
    if (req.method === 'GET' && failures-- > 0) {
      if (failures === 1) { res.writeHead(503, { 'x-error-message': 'maintenance' }); res.end('{"error":"maintenance"}'); } else req.socket.destroy();
      return true;
    }
    return false;
  });
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  t.same(await c.listWebhooks(), []);
  t.equal(proxy.seen.length, 3, 'one 503, one reset, then success');

  const always = await faultProxy(t, hub.url, (_req, res) => { res.writeHead(503, { 'x-error-message': `down ${ALICE.token}` }); res.end(); return true; });
  const c2 = createHubClient({ endpoint: always.url, token: ALICE.token, retryBaseMs: 1, maxRetries: 2 });
  t.teardown(() => c2.close());
  const err = (await c2.getWebhook('abc').catch((e: unknown) => e)) as HubError;
  t.ok(err instanceof HubError);
  t.equal(err.status, 503);
  t.equal(err.retriable, true);
  t.equal(always.seen.length, 3, '1 + maxRetries attempts');
  t.notMatch(err.message, ALICE.token, 'the token never appears in errors');
  t.match(err.message, /503 Service Unavailable \(GET .*\/api\/settings\/webhooks\/abc\): down \*\*\*/);
});

t.test('4xx are not retried', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => false);
  const c = createHubClient({ endpoint: proxy.url, token: 'hf_bad', retryBaseMs: 1 });
  t.teardown(() => c.close());
  await t.rejects(c.listWebhooks(), { name: 'HubError', status: 401, hubMessage: 'Invalid credentials in Authorization header', retriable: false });
  t.equal(proxy.seen.length, 1);
});

t.test('a create with an unknown outcome adopts the webhook instead of duplicating it', async (t) => {
  const hub = await withHub(t);
  // The create reaches the hub, but the answer is lost (connection reset).
  const proxy = await faultProxy(t, hub.url, (req, res, body) => {
    if (req.method !== 'POST') return false;
    undiciRequest(`${hub.url}${req.url ?? ''}`, { method: 'POST', headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' }, body })
      .then(async (up) => { await up.body.dump(); res.socket?.destroy(); })
      .catch(() => res.socket?.destroy());
    return true;
  });
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  const hook = await c.createWebhook(input);
  t.equal(hub.data().webhooks.length, 1, 'exactly one webhook exists');
  t.equal(hook.id, hub.data().webhooks[0]?.id, 'the landed webhook is adopted');
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 1, 'the create was never repeated');
  t.equal(proxy.seen.filter((s) => s.method === 'GET').length, 1, 'one list to find it');
});

t.test('a create that never landed surfaces the error', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, (req, res) => {
    if (req.method === 'POST') { res.writeHead(500); res.end('{"error":"boom"}'); return true; }
    return false;
  });
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  await t.rejects(c.createWebhook(input), { name: 'HubError', status: 500, hubMessage: 'boom' });
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 1);
  t.equal(hub.data().webhooks.length, 0);
});

t.test('headers: user-agent robotctl/<version>, bearer token', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => false);
  const c = createHubClient({ endpoint: `${proxy.url}/`, token: ALICE.token });
  t.teardown(() => c.close());
  await c.whoami();
  t.match(proxy.seen[0], { url: '/api/whoami-v2', auth: `Bearer ${ALICE.token}`, ua: /^robotctl\/\d+\.\d+\.\d+/ });
  t.equal(c.endpoint, proxy.url, 'trailing slash stripped');
});

t.test('timeouts are retried for reads and reported as HubError', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => true); // never answers
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, timeoutMs: 100, maxRetries: 1, retryBaseMs: 1 });
  t.teardown(() => c.close());
  await t.rejects(c.listWebhooks(), { name: 'HubError', status: null, retriable: true, message: /UND_ERR_HEADERS_TIMEOUT/ });
  t.equal(proxy.seen.length, 2);
});

t.test('backoff and Retry-After parsing', async (t) => {
  const p = { maxRetries: 3, baseMs: 100, maxDelayMs: 1000 };
  t.equal(backoffMs(p, 0, () => 0), 50);
  t.equal(backoffMs(p, 0, () => 1), 100);
  t.equal(backoffMs(p, 3, () => 1), 800);
  t.equal(backoffMs(p, 10, () => 1), 1000, 'capped');
  t.equal(retryAfterMs('2'), 2000);
  t.equal(retryAfterMs(new Date(10_000).toUTCString(), 5_000), 5000);
  t.equal(retryAfterMs('soon'), null);
  t.equal(retryAfterMs(null), null);
});
