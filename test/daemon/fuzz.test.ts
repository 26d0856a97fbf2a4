import t from 'tap';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildDaemon, routeTable, type DaemonRoute } from '../../runtime/daemon/server.js';
import { embeddedHub } from '../helpers/servers.js';
import { mutated, typedValue } from '../helpers/schema-arbitrary.js';
import { until } from '../helpers/wait.js';

// Issue 29.8: every daemon route validates what it is sent before using it.
// The routes come from fastify's own table (routeTable), so a route added
// later is fuzzed too. Each gets bodies typed by its schema, the same with
// one place broken, and untyped ones (any JSON, text, bytes, any content
// type), with random path parameters and query strings. No answer may be a
// 500 (a crash in a handler), and 501/503 only as the daemon's own answers
// (no hardware; backend stopped); nothing may hang or bring the daemon down.

const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 200);
const ANSWER_WITHIN_MS = 20_000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Case { path: string; query: string; body: string | Buffer | undefined; contentType: string | undefined; kind: string }

const KNOWN_PARAMS = ['hello_app', 'installed', 'hf_space', 'enabled', 'disabled', 'gravity_compensation', 'volume', 'a.stl', '00000000-0000-4000-8000-000000000000'];
const segment = fc.oneof(
  { arbitrary: fc.constantFrom(...KNOWN_PARAMS), weight: 2 },
  { arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent), weight: 3 },
  { arbitrary: fc.constantFrom('..', '%2e%2e', '%2F', '%00', '.', 'a%20b', '%E2%82', '~'), weight: 1 },
);

function pathArbitrary(url: string): fc.Arbitrary<string> {
  const parts = url.split('/').map((p): fc.Arbitrary<string> => {
    if (p.startsWith(':')) return segment;
    if (p === '*') return fc.array(segment, { maxLength: 4 }).map((s) => s.join('/'));
    return fc.constant(p);
  });
  return fc.tuple(...parts).map((ps) => ps.join('/'));
}

function queryText(value: Json): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  return Object.entries(value).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&');
}

function caseArbitrary(route: DaemonRoute): fc.Arbitrary<Case> {
  const schema = (route.schema ?? {}) as { body?: Record<string, unknown>; querystring?: Record<string, unknown> };
  const query = fc.oneof(
    { arbitrary: schema.querystring ? typedValue(schema.querystring).map(queryText) : fc.constant(''), weight: 3 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxKeys: 3 }).map(queryText), weight: 1 },
  );
  const json = (v: fc.Arbitrary<Json>, kind: string) => v.map((value) => ({ body: JSON.stringify(value), kind, contentType: 'application/json' as string | undefined }));
  const typed = schema.body ? [
    { arbitrary: json(typedValue(schema.body), 'typed'), weight: 4 },
    { arbitrary: json(mutated(schema.body), 'mutated'), weight: 4 },
  ] : [];
  const body = fc.oneof(
    ...typed,
    { arbitrary: json(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, 'json'), weight: 3 },
    { arbitrary: fc.record({ body: fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a))), kind: fc.constant('raw'), contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined) }), weight: 2 },
    { arbitrary: fc.constant({ body: undefined, kind: 'none', contentType: undefined }), weight: 1 },
  );
  return fc.record({ path: pathArbitrary(route.url), query, b: body }).map(({ path, query: q, b }) => ({ path, query: q, body: b.body, contentType: b.contentType, kind: b.kind }));
}

/**
 * The daemon's own 5xx answers, which no body causes: hardware the simulator
 * lacks, a stopped backend, and the real daemon's plain 500 for a start of an
 * app no entry point names (spec §9 Names; a crash answers JSON `Internal error`).
 */
function ownServerAnswer(status: number, detail: unknown, route: string, body: string): boolean {
  if (status === 500 && route.startsWith('/api/apps/start-app/') && body === 'Internal Server Error') return true;
  return (status === 501 || status === 503) && typeof detail === 'string' && !detail.startsWith('Internal error');
}

async function backendRunning(app: FastifyInstance): Promise<void> {
  if (app.daemon.state === 'running') return;
  await until(async () => {
    if (app.daemon.state === 'stopped' || app.daemon.state === 'error') await app.inject({ method: 'POST', url: '/api/daemon/start?wake_up=false' });
    return app.daemon.state === 'running';
  }, 60_000, 'the backend running again');
}

t.test(`fuzz: every daemon route, ${CASES_PER_ROUTE} cases each`, async (t) => {
  // The recorded-move routes read datasets from the daemon's hub: a real one
  // answers them at once (404 for a dataset it lacks). An unreachable hub
  // made each such request wait through the hub client's retries (about
  // 0.7 s, 40 s of the file's wall time per 50 cases a route).
  const hub = await embeddedHub(t, {});
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true, hubEndpoint: hub.url, startupApp: null, log: () => {} });
  t.teardown(() => app.close());
  await app.ready();
  const routes = routeTable(app).filter((r) => r.method !== 'HEAD');
  t.ok(routes.length >= 80, `${routes.length} routes from fastify's table`);
  t.ok(routes.some((r) => r.url === '/api/apps/install') && routes.some((r) => r.url === '/ws/sdk'), 'REST and WebSocket routes');
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1e9);
  t.comment(`seed ${seed} (FUZZ_SEED=${seed} replays this run)`);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (const route of routes) {
    for (const c of fc.sample(caseArbitrary(route), { numRuns: CASES_PER_ROUTE, seed })) {
      await backendRunning(app);
      const url = c.query ? `${c.path}?${c.query}` : c.path;
      const answer = app.inject({
        method: route.method as 'GET', url,
        headers: c.contentType ? { 'content-type': c.contentType } : {},
        ...(c.body !== undefined && route.method !== 'GET' ? { payload: c.body } : {}),
      });
      let timer: NodeJS.Timeout | undefined;
      const res = await Promise.race([answer, new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS); })]);
      clearTimeout(timer);
      const what = `${route.method} ${url} (${c.kind}, ${c.contentType ?? 'no content type'}) ${typeof c.body === 'string' ? c.body.slice(0, 300) : `<${c.body?.length ?? 0} bytes>`}`;
      if (res === null) { failures.push(`no answer within ${ANSWER_WITHIN_MS} ms: ${what}`); continue; }
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode < 500) continue;
      let detail: unknown = null;
      try { detail = (JSON.parse(res.body) as { detail?: unknown }).detail; } catch { /* not JSON: a failure below */ }
      if (!ownServerAnswer(res.statusCode, detail, route.url, res.body)) failures.push(`${res.statusCode} ${res.body.slice(0, 200)} ← ${what}`);
    }
  }
  t.comment(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
  t.same(failures.slice(0, 20), [], `${failures.length} failing cases`);
  const alive = await app.inject({ method: 'GET', url: '/api/daemon/status' });
  t.equal(alive.statusCode, 200, 'the daemon still answers');
});

t.test('the issue\'s body: a local install without a name is a 422 naming the field, not a 500', async (t) => {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true, startupApp: null });
  t.teardown(() => app.close());
  const body = { source_kind: 'local', url: 'x', extra: { path: '/tmp' } };
  const res = await app.inject({ method: 'POST', url: '/api/apps/install', payload: body });
  t.equal(res.statusCode, 422, res.body);
  t.same(res.json(), { detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: null }] }, "FastAPI's shape for a missing field");
  const seed = await app.inject({ method: 'POST', url: '/api/apps/install', payload: { url: '' } });
  t.equal(seed.statusCode, 422, 'a seed body {url} is checked as one');
  t.match(seed.json(), { detail: [{ loc: ['body', 'url'], input: '' }] });
  const neither = await app.inject({ method: 'POST', url: '/api/apps/install', payload: {} });
  t.match(neither.json(), { detail: [{ type: 'missing', loc: ['body', 'name'] }] }, 'an empty body is an AppInfo without its name, as on the real daemon');
});
