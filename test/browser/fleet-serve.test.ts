import t from 'tap';
import { createReceiver } from '../../runtime/receiver/index.js';
import { fleetPagePaths, mountFleetPage } from '../../runtime/fleet-page/routes.js';
import { readStatic } from '../../lib/static-files.js';
import { fleetPageRoot } from '../../runtime/fleet-page/routes.js';

// The fleet page's files as the agent serves them: the page at `/`, its
// assets under /fleet/, nothing else (no traversal, no listing).
t.test('mountFleetPage serves the page and its assets on the receiver', async (t) => {
  const receiver = createReceiver({ port: 0, landingPage: null, secret: null, env: {}, log: () => {} });
  mountFleetPage(receiver);
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());

  const page = await fetch(`${url}/`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.match(await page.text(), /robotctl fleet/);
  for (const [path, type] of [['/fleet/app.js', /^text\/javascript/], ['/fleet/style.css', /^text\/css/], ['/fleet/render.js', /^text\/javascript/]] as const) {
    const res = await fetch(`${url}${path}`);
    t.equal(res.status, 200, path);
    t.match(res.headers.get('content-type'), type, path);
    t.equal(res.headers.get('x-content-type-options'), 'nosniff');
    await res.arrayBuffer();
  }
  const missing = await fetch(`${url}/fleet/nope.js`);
  t.equal(missing.status, 404);
  await missing.arrayBuffer();
  t.ok(fleetPagePaths().includes('/fleet/index.html'));
  t.equal(fleetPagePaths()[0], '/');
});

t.test('readStatic stays inside its folder and serves known types only', async (t) => {
  t.not(await readStatic(fleetPageRoot, 'app.js'), null);
  t.equal(await readStatic(fleetPageRoot, '../serve.ts'), null, 'no parent folder');
  t.equal(await readStatic(fleetPageRoot, '..%2fstatus-types.ts'), null, 'no encoded traversal');
  t.equal(await readStatic(fleetPageRoot, '/etc/passwd'), null, 'absolute paths stay inside');
  t.equal(await readStatic(fleetPageRoot, ''), null, 'no directory');
  t.equal(await readStatic(fleetPageRoot, 'a%00.js'), null, 'no NUL');
  t.equal(await readStatic(fleetPageRoot, '%E0%A4%A'), null, 'malformed escapes');
});
