import t, { type Test } from 'tap';
import { createHubClient } from '../../../drivers/hub/client.js';
import { HubError } from '../../../drivers/hub/errors.js';
import { backoffMs, retryAfterMs } from '../../../lib/retry.js';
import { startHub } from '../../../runtime/hub/server.js';
import { ALICE } from '../../hub/helpers.js';
import { startFaultProxy, type Decide } from '../../helpers/fault-proxy.js';

// The hub driver under the one retry policy, through a fault injector in
// front of the real embedded hub (test/helpers/fault-proxy.ts).

async function faultProxy(t: Test, target: string, decide: Decide) {
  const proxy = await startFaultProxy(target, decide);
  t.teardown(() => proxy.close());
  return proxy;
}

/** The HubError a call ends with. */
async function failure(p: Promise<unknown>): Promise<HubError | null> {
  return p.then(() => null, (err: unknown) => (err instanceof HubError ? err : null));
}

/** Records the waits instead of sleeping them. */
function recordingClock() {
  const waits: number[] = [];
  return { waits, clock: { sleep: async (ms: number) => { waits.push(ms); }, random: () => 1, now: () => Date.now() } };
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
  const proxy = await faultProxy(t, hub.url, () => (n++ < 2 ? { kind: 'status', status: 429, retryAfter: '0.2', message: 'slow down' } : null));
  const { waits, clock } = recordingClock();
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1, clock });
  t.teardown(() => c.close());
  t.same(await c.listWebhooks(), []);
  t.same(waits, [200, 200], 'waited Retry-After twice');
  n = 0;
  const hook = await c.createWebhook(input);
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 3, 'a 429 create is sent again: it was not processed');
  t.equal(hub.data().webhooks.length, 1);
  t.ok(hook.id);
});

t.test('503 and resets are retried for idempotent calls; gives up after maxRetries with the hub message', async (t) => {
  const hub = await withHub(t);
  let failures = 2;
  const proxy = await faultProxy(t, hub.url, (req) => {
    if (req.method !== 'GET' || failures-- <= 0) return null;
    return failures === 1 ? { kind: 'status', status: 503, message: 'maintenance' } : { kind: 'reset' };
  });
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  t.same(await c.listWebhooks(), []);
  t.equal(proxy.seen.length, 3, 'one 503, one reset, then success');

  const always = await faultProxy(t, hub.url, () => ({ kind: 'status', status: 503, message: `down ${ALICE.token}` }));
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
  const proxy = await faultProxy(t, hub.url, () => null);
  const c = createHubClient({ endpoint: proxy.url, token: 'hf_bad', retryBaseMs: 1 });
  t.teardown(() => c.close());
  t.match(await failure(c.listWebhooks()), { status: 401, hubMessage: 'Invalid credentials in Authorization header', retriable: false });
  t.equal(proxy.seen.length, 1);
});

t.test('a create with an unknown outcome adopts the webhook instead of duplicating it', async (t) => {
  const hub = await withHub(t);
  // The create reaches the hub, but the answer is lost (connection dropped).
  const proxy = await faultProxy(t, hub.url, (req) => (req.method === 'POST' ? { kind: 'lost' } : null));
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, retryBaseMs: 1 });
  t.teardown(() => c.close());
  const hook = await c.createWebhook(input);
  t.equal(hub.data().webhooks.length, 1, 'exactly one webhook exists');
  t.equal(hook.id, hub.data().webhooks[0]?.id, 'the landed webhook is adopted');
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 1, 'the create was never repeated');
  t.equal(proxy.seen.filter((s) => s.method === 'GET').length, 1, 'one list to find it');
});

t.test('a create that did not land is sent again in the same call, after a list shows it absent', async (t) => {
  const hub = await withHub(t);
  let posts = 0;
  const proxy = await faultProxy(t, hub.url, (req) => (req.method === 'POST' && posts++ < 2 ? (posts === 1 ? { kind: 'status', status: 500 } : { kind: 'reset' }) : null));
  const { waits, clock } = recordingClock();
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, clock });
  t.teardown(() => c.close());
  const hook = await c.createWebhook(input);
  t.same(proxy.seen.map((s) => s.method), ['POST', 'GET', 'POST', 'GET', 'POST'], 'list before every repeat');
  t.same(hub.data().webhooks.map((w) => w.id), [hook.id], 'one webhook, no duplicate');
  t.same(waits, [250, 500], 'exponential backoff between attempts');
});

t.test('a create that never lands gives up after the bound with the hub message', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, (req) => (req.method === 'POST' ? { kind: 'status', status: 500, message: 'boom' } : null));
  const { clock } = recordingClock();
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, clock });
  t.teardown(() => c.close());
  t.match(await failure(c.createWebhook(input)), { status: 500, hubMessage: 'boom' });
  t.equal(proxy.seen.filter((s) => s.method === 'POST').length, 5, 'at most `attempts` creates');
  t.equal(proxy.seen.filter((s) => s.method === 'GET').length, 4, 'each repeat preceded by a list');
  t.equal(hub.data().webhooks.length, 0);
});

t.test('a persistent 503 costs at most `attempts` requests per call, creates included', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => ({ kind: 'status', status: 503 }));
  const { clock } = recordingClock();
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, clock });
  t.teardown(() => c.close());
  const calls: [string, () => Promise<unknown>][] = [
    ['list', () => c.listWebhooks()], ['create', () => c.createWebhook(input)], ['update', () => c.updateWebhook('x', input)],
    ['enable', () => c.enableWebhook('x')], ['delete', () => c.deleteWebhook('x')], ['repo info', () => c.repoInfo('space', 'alice/app')],
  ];
  for (const [name, call] of calls) {
    const before = proxy.seen.length;
    t.match(await failure(call()), { status: 503 }, name);
    t.equal(proxy.seen.length - before, 5, `${name}: 5 requests (1 + 4 retries), never 15`);
  }
});

t.test('headers: user-agent robotctl/<version>, bearer token', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => null);
  const c = createHubClient({ endpoint: `${proxy.url}/`, token: ALICE.token });
  t.teardown(() => c.close());
  await c.whoami();
  t.match(proxy.seen[0], { url: '/api/whoami-v2', auth: `Bearer ${ALICE.token}`, ua: /^robotctl\/\d+\.\d+\.\d+/ });
  t.equal(c.endpoint, proxy.url, 'trailing slash stripped');
});

t.test('timeouts are retried for reads and reported as HubError', async (t) => {
  const hub = await withHub(t);
  const proxy = await faultProxy(t, hub.url, () => ({ kind: 'hang' }));
  const c = createHubClient({ endpoint: proxy.url, token: ALICE.token, timeoutMs: 100, maxRetries: 1, retryBaseMs: 1 });
  t.teardown(() => c.close());
  await t.rejects(c.listWebhooks(), { name: 'HubError', status: null, retriable: true, message: /UND_ERR_HEADERS_TIMEOUT/ });
  t.equal(proxy.seen.length, 2);
});

t.test('backoff and Retry-After parsing', async (t) => {
  const p = { attempts: 4, baseMs: 100, maxDelayMs: 1000 };
  t.equal(backoffMs(p, 0, () => 0), 50);
  t.equal(backoffMs(p, 0, () => 1), 100);
  t.equal(backoffMs(p, 3, () => 1), 800);
  t.equal(backoffMs(p, 10, () => 1), 1000, 'capped');
  t.equal(retryAfterMs('2'), 2000);
  t.equal(retryAfterMs(new Date(10_000).toUTCString(), 5_000), 5000);
  t.equal(retryAfterMs('soon'), null);
  t.equal(retryAfterMs(null), null);
});
