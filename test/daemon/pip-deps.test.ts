import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexModeCache } from '../../lib/python-apps/package-index.js';
import { findWheelFile } from '../../lib/python-apps/wheel-file.js';
import { makeApp, until } from './helpers.js';
import { startDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';

// Issue 11.3: the daemon installs an app WITH its declared dependencies, from
// wherever pip's own configuration says (here a local wheelhouse through
// PIP_NO_INDEX + PIP_FIND_LINKS, as a machine with an index would from it).

const DEP_BODY = `
def main():
    import dep_pkg
    print(f"dep {dep_pkg.VALUE}", flush=True)
`;

/** A wheel of a one-module package, built offline with Debian's wheel file on the path. */
function buildWheelhouse(root: string): string {
  const src = join(root, 'dep_pkg');
  mkdirSync(join(src, 'dep_pkg'), { recursive: true });
  writeFileSync(join(src, 'pyproject.toml'), '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "dep-pkg"\nversion = "1.2.0"\n\n[tool.setuptools]\npackages = ["dep_pkg"]\n');
  writeFileSync(join(src, 'dep_pkg', '__init__.py'), 'VALUE = 42\n');
  const house = join(root, 'wheelhouse');
  const r = spawnSync('python3', ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '-w', house, src], {
    env: { ...process.env, PYTHONPATH: findWheelFile() ?? '', PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' }, encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`pip wheel failed: ${r.stderr}`);
  return house;
}

t.test('pip settings decide the mode: PIP_NO_INDEX, --offline, an index that does not answer', async (t) => {
  t.same(await indexModeCache({ PIP_NO_INDEX: '1' })(), { online: false, reason: 'PIP_NO_INDEX is set' });
  t.same(await indexModeCache({}, { offline: true })(), { online: false, reason: '--offline' });
  const dead = await indexModeCache({ PIP_INDEX_URL: 'http://user:pw@127.0.0.1:9/simple/' }, { probeMs: 1500 })();
  t.same(dead, { online: false, reason: 'the package index http://127.0.0.1:9/simple/ did not answer within 1.5 s' }, 'no credentials in the reason');
});

t.test('daemons in one process share one probe of the index', async (t) => {
  let heads = 0;
  const server = createServer((req, res) => { if (req.method === 'HEAD') heads++; res.end(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/`;
  const robots = [indexModeCache({ PIP_INDEX_URL: url }), indexModeCache({ PIP_INDEX_URL: url }), indexModeCache({ PIP_INDEX_URL: url })];
  const modes = await Promise.all(robots.map((mode) => mode()));
  for (const m of modes) t.same(m, { online: true, url });
  t.same(await robots[0]?.(), { online: true, url }, 'asked again');
  t.equal(heads, 1, 'one HEAD for three robots and a second question');
});

t.test('a minute on, the answer is renewed beside the install, which does not wait for the probe', async (t) => {
  const held: (() => void)[] = [];
  let heads = 0;
  // The first HEAD is answered at once; later ones are held, then cut (the index went away).
  const server = createServer((req, res) => {
    heads++;
    if (heads === 1) res.end();
    else held.push(() => req.socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => { for (const answer of held) answer(); server.close(() => r()); }));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/`;
  let clock = 1_000_000;
  const mode = indexModeCache({ PIP_INDEX_URL: url }, { now: () => clock, probeMs: 60_000 });
  t.same(await mode(), { online: true, url }, 'the first install waits for the probe');
  clock += 61_000;
  t.same(await mode(), { online: true, url }, 'a minute later the last answer serves at once');
  await until(() => heads === 2, 20_000, 'the renewing probe');
  t.same(await mode(), { online: true, url }, 'while it runs, the same answer');
  t.equal(heads, 2, 'and no second renewal');
  held.shift()?.();
  const reason = `the package index ${url} did not answer within 60 s`;
  t.same(await until(async () => { const m = await mode(); return m.online ? null : m; }, 20_000, 'the renewed answer'), { online: false, reason }, 'once the probe ends, its answer serves the next installs');
});

t.test('an app and its dependency install from a local wheelhouse; the app imports it', { skip: findWheelFile() ? false : 'no Debian wheel file' }, async (t) => {
  const dir = t.testdir();
  const house = buildWheelhouse(dir);
  t.ok(readdirSync(house).some((f) => f.startsWith('dep_pkg-1.2.0')));
  const src = makeApp(join(dir, 'src'), 'deps_app', DEP_BODY);
  writeFileSync(join(src, 'pyproject.toml'), (await import('node:fs')).readFileSync(join(src, 'pyproject.toml'), 'utf8').replace('requires-python = ">=3.10"', 'requires-python = ">=3.10"\ndependencies = ["dep-pkg>=1"]'));
  const logs: string[] = [];
  const daemon = await startDaemon({ appsDir: join(dir, 'apps'), sim: true, port: 0, env: { ...process.env, PIP_NO_INDEX: '1', PIP_FIND_LINKS: house }, log: (l) => logs.push(l) });
  const client = createDaemonClient({ baseUrl: daemon.url, jobTimeoutMs: 180_000 });
  t.teardown(async () => { await client.close(); await daemon.close(); });
  const job = await client.install({ name: 'deps_app', source_kind: 'local', description: '', url: null, extra: { path: src } });
  t.equal(job.status, 'done', job.logs.join('\n'));
  t.ok(job.logs.includes('Installing offline (PIP_NO_INDEX is set): pip runs with --no-index'));
  t.ok(job.logs.some((l) => /^Running command: .* -m pip install --no-index --no-build-isolation dep-pkg ?\(?>=1\)?$/.test(l)), 'the dependency is installed by pip');
  t.notOk(job.logs.some((l) => l.startsWith('Warning:')), 'nothing is missing');
  await client.startApp('deps_app');
  await until(async () => (await client.currentAppStatus())?.state === 'done', 20_000, 'app done');
  t.ok(logs.includes('dep 42'), 'the app imported its dependency');
});
