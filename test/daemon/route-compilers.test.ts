import t from 'tap';
import { join } from 'node:path';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { compiledSchemaCount } from '../../runtime/daemon/route-compilers.js';

// Route schemas are compiled when a request first needs them, once per
// process, and shared by every daemon (robot) in it (issue 16: 1,000
// simulated robots in one process).

t.test('two daemons: no schema compiled at start, one compile serves both, same validation', async (t) => {
  const before = compiledSchemaCount();
  const dir = t.testdir({ a: {}, b: {} });
  const apps = [await buildDaemon({ sim: true, appsDir: join(dir, 'a') }), await buildDaemon({ sim: true, appsDir: join(dir, 'b') })];
  t.teardown(async () => { for (const app of apps) await app.close(); });
  for (const app of apps) await app.ready();
  t.equal(compiledSchemaCount(), before, 'ready compiles nothing');
  for (const app of apps) {
    const r = await app.inject({ method: 'POST', url: '/api/move/goto', payload: { antennas: [0, 0] } });
    t.equal(r.statusCode, 422);
    t.same(r.json(), { detail: [{ type: 'missing', msg: 'Field required', loc: ['body', 'duration'], input: null }] });
    // Defaults and coercion are fastify's: the interpolation default, a querystring boolean.
    const ok = await app.inject({ method: 'POST', url: '/api/move/goto', payload: { antennas: [0, 0], duration: 0.01 } });
    t.equal(ok.statusCode, 200, ok.body);
    const coerced = await app.inject({ method: 'POST', url: '/api/daemon/start?wake_up=false' });
    t.equal(coerced.statusCode, 200, coerced.body);
    const notBool = await app.inject({ method: 'POST', url: '/api/daemon/start?wake_up=maybe' });
    t.equal(notBool.statusCode, 422);
  }
  t.equal(compiledSchemaCount(), before + 2, 'the goto body and the wake_up query, once each for both robots');
});
