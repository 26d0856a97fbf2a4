import t from 'tap';
import fc from 'fast-check';
import { request } from 'undici';
import { fixtures } from './fixtures.js';
import { post, startReceiver } from './helpers.js';

// Random bodies and headers through a real socket: the receiver never
// crashes, keeps answering, and answers 5xx only for the handler that throws.

const RUNS = 5000;
const headerText = fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(s));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A spec fixture with one random change: a field replaced, deleted or added somewhere. */
const mutatedPayload = fc
  .record({
    base: fc.constantFrom(...Object.values(fixtures)),
    pick: fc.nat(),
    op: fc.constantFrom('replace', 'delete', 'add'),
    value: fc.jsonValue({ maxDepth: 2 }),
    key: fc.string({ maxLength: 8 }),
  })
  .map(({ base, pick, op, value, key }) => {
    const doc = JSON.parse(base) as Json;
    const objects: { [k: string]: Json }[] = [];
    const walk = (v: Json): void => {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        objects.push(v);
        Object.values(v).forEach(walk);
      } else if (Array.isArray(v)) v.forEach(walk);
    };
    walk(doc);
    const target = objects[pick % objects.length] as { [k: string]: Json };
    const keys = Object.keys(target);
    const field = keys[pick % Math.max(keys.length, 1)] ?? key;
    if (op === 'delete') delete target[field];
    else target[op === 'add' ? key : field] = value as Json;
    return JSON.stringify(doc);
  });

const body = fc.oneof(
  { arbitrary: fc.json({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)), weight: 2 },
  { arbitrary: fc.uint8Array({ minLength: 1800, maxLength: 4000 }).map((a) => Buffer.from(a)), weight: 1 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  { arbitrary: mutatedPayload, weight: 4 },
  { arbitrary: fc.constantFrom(...Object.values(fixtures)), weight: 2 },
);

const contentType = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.x+json'), weight: 6 },
  { arbitrary: fc.oneof(fc.constantFrom('text/plain', 'multipart/form-data'), headerText), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);
const secret = fc.oneof(
  { arbitrary: fc.constantFrom('current', 'previous'), weight: 6 },
  { arbitrary: fc.oneof(fc.constant(''), headerText), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);
const path = fc.oneof(
  { arbitrary: fc.constantFrom('/webhooks/ok', '/webhooks/throws', '/webhooks/slow'), weight: 12 },
  { arbitrary: fc.constantFrom('/', '/webhooks', '/webhooks/', '/webhooks/ok/extra', '/webhooks/ok?x=1'), weight: 1 },
  { arbitrary: fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)), weight: 1 },
);
const method = fc.oneof({ arbitrary: fc.constant('POST'), weight: 12 }, { arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE'), weight: 1 });

t.test(`fuzz: ${RUNS} random deliveries`, async (t) => {
  const { url } = await startReceiver(t, { secret: ['current', 'previous'], maxBodyBytes: 2048, slowHandlerMs: 5, log: () => {} }, (r) => {
    r.add(function ok(p) { return { repo: p.repo.name }; });
    r.add(function throws() { throw new Error('handler failure'); });
    r.add(async function slow() { await new Promise((resolve) => setTimeout(resolve, 20)); return 'slow'; });
  });
  // Cases come from fast-check's generators; they are sent 16 at a time (a
  // sequential asyncProperty spends most of its time waiting on round trips),
  // and a failing case is reported as it was sent.
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1e9);
  t.comment(`seed ${seed} (FUZZ_SEED=${seed} replays this run)`);
  const cases = fc.sample(fc.tuple(path, method, body, contentType, secret), { numRuns: RUNS, seed });
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const send = async ([p, m, b, ct, s]: (typeof cases)[number]): Promise<void> => {
    const headers: Record<string, string> = {};
    if (ct !== undefined) headers['content-type'] = ct;
    if (s !== undefined) headers['x-webhook-secret'] = s;
    const res = await request(`${url}${p}`, { method: m, headers, body: m === 'GET' ? null : b });
    await res.body.text();
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const ok = res.statusCode >= 500
      ? p === '/webhooks/throws' && res.statusCode === 500
      : [200, 202, 400, 401, 403, 404, 405, 413, 415].includes(res.statusCode);
    if (!ok) failures.push(`${res.statusCode} for ${m} ${p} ct=${ct} body=${String(b).slice(0, 200)}`);
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) await send(cases[next++] as (typeof cases)[number]);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  t.same(failures, [], 'no unexpected status');
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  for (const code of [200, 202, 400, 401, 403, 404, 405, 413, 415, 500]) t.ok(statuses.has(code), `reached ${code}`);
  const after = await post(`${url}/webhooks/ok`, fixtures.prClosed, { 'x-webhook-secret': 'current' });
  t.equal(after.status, 200, 'still answering after the run');
});
