import t from 'tap';
import { readdirSync } from 'node:fs';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { dashboardRoot } from '../../runtime/daemon/dashboard-route.js';

// The daemon serves the dashboard page at `/` and its files under /dashboard/.
t.test('the daemon serves the dashboard and its assets', async (t) => {
  const app = await buildDaemon({ sim: true, appsDir: t.testdir() });
  t.teardown(() => app.close());
  const page = await app.inject({ method: 'GET', url: '/' });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<script type="module" src="\/dashboard\/app.js">/);
  const assets = readdirSync(dashboardRoot).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  t.ok(assets.includes('app.js') && assets.includes('style.css'), 'the entry script and the stylesheet');
  for (const file of assets) {
    const res = await app.inject({ method: 'GET', url: `/dashboard/${file}` });
    t.equal(res.statusCode, 200, file);
    t.match(res.headers['content-type'], file.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/, file);
    t.equal(res.headers['x-content-type-options'], 'nosniff', file);
  }
  // Every module the page imports is one the daemon serves: its own, or the
  // drawing it shares with the fleet page (lib/browser/, under shared/).
  const imported = new Set<string>();
  for (const file of assets.filter((f) => f.endsWith('.js'))) {
    const body = (await app.inject({ method: 'GET', url: `/dashboard/${file}` })).body;
    for (const m of body.matchAll(/from '\.\/([\w/-]+\.js)'/g)) imported.add(m[1] ?? '');
  }
  t.ok(imported.has('shared/robot-view.js') && imported.has('shared/pose.js'), 'the shared drawing');
  for (const file of imported) {
    const res = await app.inject({ method: 'GET', url: `/dashboard/${file}` });
    t.equal(res.statusCode, 200, `imported ${file}`);
    t.match(res.headers['content-type'], /^(text|application)\/javascript/, file);
  }
  const traversal = ['/dashboard/../server.js', '/dashboard/%2e%2e/errors.ts', '/dashboard/..%2fserver.ts', '/dashboard/..%2f..%2fdaemon%2fserver.ts',
    '/dashboard/%2e%2e%2fserver.ts', '/dashboard/..%5cserver.ts', '/dashboard/%2fetc%2fpasswd', '/dashboard//etc/passwd', '/dashboard/a%00.js',
    '/dashboard/shared/..%2fpaths.ts', '/dashboard/shared/%2e%2e/page-assets.ts', '/dashboard/shared/..%2f..%2fpackage.json', '/dashboard/shared/'];
  for (const bad of ['/dashboard/nope.js', '/dashboard/', '/dashboard/.hidden', ...traversal]) {
    const res = await app.inject({ method: 'GET', url: bad });
    t.equal(res.statusCode, 404, bad);
    t.same(res.json(), { detail: 'Not Found' }, bad);
  }
  // A malformed escape is refused by fastify's router before any route runs.
  t.equal((await app.inject({ method: 'GET', url: '/dashboard/%E0%A4%A' })).statusCode, 400);
});
