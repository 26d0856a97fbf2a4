import t from 'tap';
import { createReceiver } from '../../runtime/receiver/index.js';
import { request } from 'node:http';
import { fleetPageHandler, fleetPagePaths, mountFleetPage } from '../../runtime/fleet-page/routes.js';
import { isPageFilePath } from '../../lib/page-assets.js';

// The fleet page's files as the agent serves them: the page at `/`, its
// assets under /fleet/, nothing else (no traversal, no listing).
const JS = /^(text|application)\/javascript/;
t.test('mountFleetPage serves the page and its assets on the receiver', async (t) => {
  const receiver = createReceiver({ port: 0, landingPage: null, secret: null, env: {}, log: () => {} });
  mountFleetPage(receiver);
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());

  const page = await fetch(`${url}/`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.match(await page.text(), /robotctl fleet/);
  for (const [path, type] of [['/fleet/app.js', JS], ['/fleet/style.css', /^text\/css/], ['/fleet/render.js', JS]] as const) {
    const res = await fetch(`${url}${path}`);
    t.equal(res.status, 200, path);
    t.match(res.headers.get('content-type'), type, path);
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    await res.arrayBuffer();
  }
  // The drawing the page shares with the dashboard comes from lib/browser/, under /fleet/shared/.
  for (const path of ['/fleet/shared/pose.js', '/fleet/shared/robot-view.js']) {
    const res = await fetch(`${url}${path}`);
    t.equal(res.status, 200, path);
    t.match(res.headers.get('content-type'), JS, path);
    t.match(await res.text(), /^export |\nexport /, path);
  }
  for (const gone of ['/fleet/robot/pose.js', '/fleet/shared/nope.js']) {
    const res = await fetch(`${url}${gone}`);
    t.equal(res.status, 404, gone);
    await res.arrayBuffer();
  }
  const missing = await fetch(`${url}/fleet/nope.js`);
  t.equal(missing.status, 404);
  await missing.arrayBuffer();
  t.ok(fleetPagePaths().includes('/fleet/index.html'));
  t.equal(fleetPagePaths()[0], '/');
});

/** GET a raw path (fetch would normalise `..` away before sending). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.path = path;
    req.on('error', reject);
    req.end();
  });
}

t.test('the fleet page handler stays inside its folder: traversal, encoded or not, is a 404', async (t) => {
  // One handler on every path, so a traversal is not stopped by the receiver's exact-path routing.
  const server = (await import('node:http')).createServer((req, res) => { void fleetPageHandler()(req, res); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t.equal((await rawGet(url, '/fleet/app.js')).status, 200);
  for (const bad of ['/fleet/../routes.ts', '/fleet/..%2froutes.ts', '/fleet/..%2f..%2ffleet-page%2froutes.ts', '/fleet/%2e%2e%2froutes.ts',
    '/fleet/%2e%2e/routes.ts', '/fleet/..%5croutes.ts', '/fleet/%2fetc%2fpasswd', '/fleet//etc/passwd', '/fleet/a%00.js', '/fleet/%E0%A4%A',
    '/fleet/', '/fleet/.hidden', '/etc/passwd', '/fleet/shared/..%2fpaths.ts', '/fleet/shared/%2e%2e/page-assets.ts', '/fleet/shared/..%2f..%2fpackage.json']) {
    const res = await rawGet(url, bad);
    t.equal(res.status, 404, bad);
    t.notMatch(res.body, /import|root:/, `${bad}: no file content`);
  }
});

t.test('page file paths: plain names only', async (t) => {
  for (const ok of ['app.js', 'css/style.css', '/index.html']) t.ok(isPageFilePath(ok), ok);
  for (const bad of ['', '../x.js', 'a/../../x.js', '..', 'a/', '.env', 'a\\..\\x', 'a\0.js', 'a b.js', '%2e%2e/x']) t.notOk(isPageFilePath(bad), JSON.stringify(bad));
});
