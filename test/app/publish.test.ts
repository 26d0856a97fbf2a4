import t from 'tap';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathWithoutRobotctl, runInProcess } from '../helpers/cli.js';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { listAppFiles } from '../../cli/app/files.js';
import { appContentHash } from '../../cli/app/check-cache.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';

const TOKEN = 'hf_publish_test_token_123';

interface Scope {
  teardown(fn: () => unknown): void;
  testdir(): string;
}

async function hubFor(t: Scope): Promise<{ url: string; env: NodeJS.ProcessEnv }> {
  const hub = await startHub({ users: [{ name: 'alice', token: TOKEN }] });
  t.teardown(() => hub.close());
  // No HF_TOKEN from the developer's shell, no token file from their home.
  return { url: hub.url, env: { HF_ENDPOINT: hub.url, HF_TOKEN_PATH: join(t.testdir(), 'no-token'), PATH: pathWithoutRobotctl() } };
}

function makeApp(dir: string): string {
  return join(dir, 'pub_app');
}

t.test('publish creates alice/pub_app and uploads the files in one commit', async (t) => {
  const { url, env } = await hubFor(t);
  const dir = t.testdir();
  t.equal((await runInProcess(['app', 'create', 'pub_app', dir], { env })).code, 0);
  const app = makeApp(dir);
  // Build by-products and ignored files never go up.
  mkdirSync(join(app, 'pub_app', '__pycache__'));
  writeFileSync(join(app, 'pub_app', '__pycache__', 'main.cpython-311.pyc'), 'x');
  mkdirSync(join(app, 'pub_app.egg-info'));
  writeFileSync(join(app, 'pub_app.egg-info', 'PKG-INFO'), 'x');
  writeFileSync(join(app, 'notes.log'), 'local');
  writeFileSync(join(app, '.gitignore'), `${'*.log\n'}__pycache__/\n`);

  const r = await runInProcess(['app', 'publish', app, '--token', TOKEN, '--no-check'], { env });
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, `[OK] App published: ${url}/spaces/alice/pub_app`);
  // The printed URL opens as a page in a browser (issue 34 point 4).
  const printed = /App published: (\S+)/.exec(r.stdout)?.[1] ?? '';
  const page = await fetch(printed, { headers: { accept: 'text/html' } });
  t.equal(page.status, 200, 'the printed URL is a page');
  t.match(await page.text(), '<title>alice/pub_app · robotctl hub</title>');
  t.notMatch(r.stdout + r.stderr, TOKEN, 'the token is never printed');

  const client = createHubClient({ endpoint: url, token: TOKEN });
  t.teardown(() => client.close());
  const info = await client.repoInfo('space', 'alice/pub_app');
  t.ok(info, 'the Space exists');
  const files = info!.siblings.map((s) => s.rfilename).filter((f) => f !== '.gitattributes').sort();
  t.same(files, listAppFiles(app));
  t.notOk(files.some((f) => f.includes('__pycache__') || f.includes('egg-info') || f.endsWith('.log')));
  t.ok(files.includes('pub_app/main.py') && files.includes('README.md') && files.includes('.gitignore'));
  const main = await client.downloadFile('space', 'alice/pub_app', 'pub_app/main.py');
  t.match(main.toString(), 'class PubApp(ReachyMiniApp)');
});

t.test('publishing again mirrors the folder: changed files updated, removed files deleted', async (t) => {
  const { url, env } = await hubFor(t);
  const dir = t.testdir();
  await runInProcess(['app', 'create', 'pub_app', dir], { env });
  const app = makeApp(dir);
  const tokenEnv = { ...env, HF_TOKEN: TOKEN };
  t.equal((await runInProcess(['app', 'publish', app, '--no-check'], { env: tokenEnv })).code, 0);
  rmSync(join(app, 'pub_app', 'static', 'main.js'));
  writeFileSync(join(app, 'style.css'), 'body { color: red; }\n');
  const r = await runInProcess(['app', 'publish', app, '--no-check'], { env: tokenEnv });
  t.equal(r.code, 0, r.stderr);
  const client = createHubClient({ endpoint: url, token: TOKEN });
  t.teardown(() => client.close());
  const info = await client.repoInfo('space', 'alice/pub_app');
  const files = info!.siblings.map((s) => s.rfilename);
  t.notOk(files.includes('pub_app/static/main.js'), 'deleted');
  t.equal((await client.downloadFile('space', 'alice/pub_app', 'style.css')).toString(), 'body { color: red; }\n');
});

t.test('publish runs app check first and stops on a failed rule', async (t) => {
  const { env } = await hubFor(t);
  const dir = t.testdir();
  await runInProcess(['app', 'create', 'pub_app', dir], { env });
  rmSync(join(makeApp(dir), 'index.html'));
  writeFileSync(join(dir, 'token'), `${TOKEN}\n`);
  const r = await runInProcess(['app', 'publish', makeApp(dir), '--token-file', join(dir, 'token')], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, '[ERROR] index.html is missing\n');
  t.notMatch(r.stdout, 'Publishing');
});

t.test('no token, or a wrong one: a clear message, never the token', async (t) => {
  const { env } = await hubFor(t);
  const dir = t.testdir();
  await runInProcess(['app', 'create', 'pub_app', dir], { env });
  let r = await runInProcess(['app', 'publish', makeApp(dir), '--no-check'], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, 'Error: You need to be logged in to Hugging Face to publish an app: set HF_TOKEN, or run `node bin/robotctl.js auth login` (or pass --token-file PATH).\n',
    'it names the variable and the login, never --token (visible in ps)');
  // app create --publish asks for the token first: nothing is made, so the same command works once logged in.
  const fresh = join(dir, 'fresh');
  r = await runInProcess(['app', 'create', 'new_app', fresh, '--publish'], { env });
  t.equal(r.code, 1);
  t.equal(r.stderr, 'Error: You need to be logged in to Hugging Face to publish an app: set HF_TOKEN, or run `node bin/robotctl.js auth login` (or pass --token-file PATH).\n');
  t.equal(r.stdout, '', 'no "Created app" line');
  t.notOk(existsSync(fresh), 'no folder made');
  r = await runInProcess(['app', 'publish', makeApp(dir), '--no-check', '--token', 'hf_wrong_secret_value'], { env });
  t.equal(r.code, 1);
  t.match(r.stderr, /^Warning: --token is visible to other users in the process list \(ps\); use --token-file PATH or HF_TOKEN instead\.\nError: Publishing failed: /);
  t.notMatch(r.stderr, 'hf_wrong_secret_value');
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
});

t.test('publishing an unchanged folder makes no commit and says so', async (t) => {
  const { url, env } = await hubFor(t);
  const dir = t.testdir();
  await runInProcess(['app', 'create', 'pub_app', dir], { env });
  const app = makeApp(dir);
  const tokenEnv = { ...env, HF_TOKEN: TOKEN };
  t.equal((await runInProcess(['app', 'publish', app, '--no-check'], { env: tokenEnv })).code, 0);
  const client = createHubClient({ endpoint: url, token: TOKEN });
  t.teardown(() => client.close());
  const before = await client.repoInfo('space', 'alice/pub_app');
  const again = await runInProcess(['app', 'publish', app, '--no-check'], { env: tokenEnv });
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, `[OK] No changes: ${url}/spaces/alice/pub_app already has these ${listAppFiles(app).length} files (commit ${before!.sha.slice(0, 7)}); nothing published.`);
  t.equal((await client.repoInfo('space', 'alice/pub_app'))!.sha, before!.sha, 'no new commit');
  writeFileSync(join(app, 'README.md'), '# changed\n', { flag: 'a' });
  const changed = await runInProcess(['app', 'publish', app, '--no-check'], { env: tokenEnv });
  t.match(changed.stdout, '[OK] App published:', 'a changed file is published');
  t.not((await client.repoInfo('space', 'alice/pub_app'))!.sha, before!.sha);
});

t.test('the check publish runs is cached per content: a second publish of the same content skips it', async (t) => {
  const { env } = await hubFor(t);
  const dir = t.testdir();
  await runInProcess(['app', 'create', 'pub_app', dir], { env });
  const app = makeApp(dir);
  // The check's base venv is the run's shared one (the tap `before` script
  // built it through the same code a user's first check runs) and there is
  // no package index: this test is about the cache of passed checks.
  const cacheEnv = { ...env, HF_TOKEN: TOKEN, ROBOTCTL_CACHE_DIR: join(dir, 'cache'), ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, PIP_NO_INDEX: '1' };
  const first = await runInProcess(['app', 'publish', app], { env: cacheEnv });
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, 'Creating a temporary virtual environment', 'the first publish checks');
  const second = await runInProcess(['app', 'publish', app], { env: cacheEnv });
  t.equal(second.code, 0, second.stderr);
  t.match(second.stdout, 'App check: this content passed before (cached in');
  t.notMatch(second.stdout, 'Creating a temporary virtual environment', 'no second venv');
  // Another content is another key, so it is checked again.
  const key = appContentHash(app);
  writeFileSync(join(app, 'README.md'), '# changed\n', { flag: 'a' });
  t.not(appContentHash(app), key, 'a changed file changes the cache key');
});

t.test('issue 30.6: a pyproject.toml that is not TOML is a one-line error naming the file, never "internal error"', async (t) => {
  const { env } = await hubFor(t);
  const dir = t.testdir();
  t.equal((await runInProcess(['app', 'create', 'pub_app', dir], { env })).code, 0);
  const app = makeApp(dir);
  writeFileSync(join(app, 'pyproject.toml'), '[project]\nname = "pub_app\n');
  const r = await runInProcess(['app', 'publish', app, '--token', TOKEN, '--no-check'], { env });
  t.equal(r.code, 1);
  t.notMatch(r.stderr, /internal error/i);
  t.match(r.stderr, new RegExp(`^Error: ${join(app, 'pyproject.toml').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid TOML: .*line 2`, 'm'));
  t.equal(r.stderr.trim().split('\n').filter((l) => !/--token/.test(l)).length, 1, r.stderr);
});
