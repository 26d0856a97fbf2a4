import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedHub } from '../helpers/servers.js';
import { repoRoot } from '../helpers/cli.js';

// The built CLI as bin/robotctl.js starts it: the bundle with the V8 code
// cache the build made (cli/build-bundle.mjs). V8 takes a code cache only
// from a process with the same flags; a session sets --liftoff-only
// (lib/webassembly-tier.ts) after the cache is loaded, so the build makes
// the cache with V8's defaults.

const USER = { name: 'alice', token: 'hf_startup_token' };

/** Runs `script` in a child node at the package root; its stdout. */
function nodeScript(script: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => { text += d.toString(); });
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
}

t.test('a fresh process accepts the build\'s code cache', async (t) => {
  t.ok(existsSync(join(repoRoot, 'dist', 'robotctl.cjs.cache')), 'the build made the cache');
  const out = await nodeScript(`const { loadBundle } = require('./bin/bundle-loader.js');
    process.stdout.write(JSON.stringify({ rejected: loadBundle().script.cachedDataRejected }));`);
  t.same(JSON.parse(out), { rejected: false }, 'not rejected');
});

t.test('the bundle is ASCII: Node reads it as a one-byte string', async (t) => {
  const text = readFileSync(join(repoRoot, 'dist', 'robotctl.cjs'), 'latin1');
  const at = text.search(/[^\x00-\x7f]/);
  t.equal(at, -1, at < 0 ? 'ASCII' : `a non-ASCII byte near ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`);
});

t.test('plan from the bundle, against the embedded hub: the flag is set after the cache was taken', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-startup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.yaml'), 'version: 1\nwebhooks:\n  a:\n    url: https://x.org/a\n    watched: [user:alice]\n    secret: ${S}\n');
  const out = await nodeScript(`const { loadBundle } = require('./bin/bundle-loader.js');
    const bundle = loadBundle();
    bundle.exports.main(['plan', '-f', ${JSON.stringify(join(dir, 'robot.yaml'))}], { out() {}, err() {}, isTTY: false, stdinIsTTY: false, env: process.env, cwd: process.cwd() })
      .then((code) => process.stdout.write(JSON.stringify({ code, rejected: bundle.script.cachedDataRejected })));`,
  { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, S: 'startup-secret' });
  t.same(JSON.parse(out), { code: 2, rejected: false }, 'one webhook to create; the cache was accepted');
});
