import t from 'tap';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { buildDaemon } from '../../runtime/daemon/server.js';
import { AppStore } from '../../runtime/daemon/apps/store.js';
import { appNameProblem } from '../../lib/python-apps/names.js';
import { until } from '../helpers/wait.js';

// Issue 12.1: no name in a request reaches the filesystem unless it obeys
// the real app-name rule, and every path built from one stays in the apps folder.
// A name that only selects an installed app never reaches it at all.

const root = t.testdir();
const appsDir = join(root, 'data', 'apps');
const victim = join(root, 'data', 'victim');
mkdirSync(victim, { recursive: true });
writeFileSync(join(victim, 'precious.txt'), 'keep me');
mkdirSync(join(root, 'app'), { recursive: true });
writeFileSync(join(root, 'app', 'pyproject.toml'), '[project]\nname = "x"\n');

/** A raw request: no client-side URL normalisation, so `%2E%2E` reaches the server as written. */
function raw(base: string, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = request({ host: hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

const BAD = ['../../victim', '..', '.', '../x', '/tmp/abs', '/', 'a/b', 'a\\b', '..%2F..%2Fvictim', 'app.name', 'has space', '', 'x'.repeat(101), 'nul\u0000'];

t.test('the rule: real messages, dashes and underscores allowed', async (t) => {
  t.equal(appNameProblem('hello_app'), null);
  t.equal(appNameProblem('hello-app'), null);
  t.equal(appNameProblem(''), 'App name cannot be empty.');
  t.equal(appNameProblem('a b'), 'App name cannot contain spaces.');
  t.match(appNameProblem('../x'), /wildcard|slashes/);
  t.match(appNameProblem('.'), /wildcard characters/);
  t.match(appNameProblem('/etc'), /slashes/);
});

t.test('refused install, remove, update, start and startup names leave every file in place', async (t) => {
  const app = await buildDaemon({ appsDir, sim: true });
  t.teardown(() => app.close());
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  type Job = { status: string; logs: string[] };
  // until() returns only a truthy value: the job once it ended.
  const ended = async (id: string): Promise<Job> => (await until(async () => {
    const job = (await app.inject({ method: 'GET', url: `/api/apps/job-status/${id}` })).json() as Job;
    return job.status === 'done' || job.status === 'failed' ? job : null;
  }, 60_000, `job ${id} to end`)) as Job;
  const before = tree(join(root, 'data'));
  for (const name of BAD) {
    const install = await app.inject({ method: 'POST', url: '/api/apps/install', payload: { name, source_kind: 'local', extra: { path: join(root, 'app') } } });
    t.equal(install.statusCode, 400, `install ${JSON.stringify(name)}`);
    t.match(install.json().detail, /^Invalid name .*: App name cannot/);
    const space = await app.inject({ method: 'POST', url: '/api/apps/install', payload: { name, source_kind: 'hf_space', url: 'https://huggingface.co/spaces/a/b' } });
    t.equal(space.statusCode, 400);
    // Issue 30.7: names that only select an installed app (startup app, remove, update, start) are
    // compared with the entry points and never used as a path, so they are answered as the real daemon
    // answers a name it does not have (spec §9): 400 not installed, a failing job, a plain 500.
    const startup = await app.inject({ method: 'PUT', url: '/api/apps/startup-app', payload: { startup_app: name } });
    if (name === '') {
      t.same([startup.statusCode, startup.json()], [200, { startup_app: '' }], 'an empty name is stored as the real daemon stores it');
      continue;
    }
    t.same([startup.statusCode, startup.json()], [400, { detail: `App '${name}' is not installed` }]);
    // Dots percent-encoded too, so `..` reaches the route instead of being resolved by the URL parser.
    const encoded = encodeURIComponent(name).replace(/\./g, '%2E');
    for (const route of ['remove', 'update', 'start-app']) {
      const res = await raw(base, 'POST', `/api/apps/${route}/${encoded}`);
      // fastify refuses a path parameter over 100 characters itself (414) before any route runs.
      if (name.length > 100) t.equal(res.status, 414);
      else if (route === 'start-app') t.same([res.status, res.body], [500, 'Internal Server Error'], `${route} ${JSON.stringify(name)}`);
      else {
        t.equal(res.status, 200, `${route} ${JSON.stringify(name)}: a job`);
        const job = await ended(JSON.parse(res.body).job_id as string);
        t.equal(job.status, 'failed', `${route} ${JSON.stringify(name)}: ${job.logs.join(' | ')}`);
      }
    }
  }
  const seed = await app.inject({ method: 'POST', url: '/api/apps/install', payload: { url: 'https://huggingface.co/spaces/a/..' } });
  t.equal(seed.statusCode, 400, 'a seed install body whose last segment is ..');
  // Encoded dots and slashes as fastify receives them on the wire: a job that fails, no file touched.
  for (const url of ['/api/apps/remove/%2E%2E', '/api/apps/remove/%2e', '/api/apps/remove/..%5Cvictim', '/api/apps/update/%2F%2Fetc']) {
    const res = await raw(base, 'POST', url);
    t.equal(res.status, 200, url);
    t.equal((await ended(JSON.parse(res.body).job_id as string)).status, 'failed', url);
  }
  for (const url of ['/dashboard/..%2F..%2Fpackage.json', '/dashboard/%2E%2E/%2E%2E/package.json', '/dashboard//etc/passwd']) {
    t.equal((await raw(base, 'GET', url)).status, 404, url);
  }
  const job = await app.inject({ method: 'GET', url: '/api/apps/job-status/..%2F..%2Fvictim' });
  t.equal(job.statusCode, 404, 'job ids are looked up in memory only');
  // The startup app's saved value (the empty name PUT above stored it, as the real daemon does) is data, not a path.
  t.same(tree(join(root, 'data')).filter((f) => f !== join('apps', 'startup-app.json')), before, 'no file created or deleted anywhere');
  t.equal(readdirSync(victim).length, 1);
});

t.test('the store itself refuses to build a path outside its folders', async (t) => {
  const store = new AppStore(appsDir);
  t.throws(() => store.versionsDir('../../victim'), /App name cannot/);
  await t.rejects(store.dropRecord('../victim'), /App name cannot/);
  await t.rejects(store.record('.'), /App name cannot/);
  t.match(store.versionsDir('ok_app'), join(appsDir, 'apps', 'ok_app'));
});
