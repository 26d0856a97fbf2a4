import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedHub } from '../helpers/servers.js';
import { repoRoot } from '../helpers/cli.js';

// What a command loads is part of its speed: a valid robot.yaml (even with an
// unset ${VAR}, validate's warning) never loads the yaml library, and plan
// loads the parts of undici the drivers use, not its index (fetch, WebSocket,
// caches…); from the bundle, it reads none of undici's files at all (they
// are inlined). Checked on the built CLI in a child process, by the CommonJS
// modules it ended with.

const USER = { name: 'alice', token: 'hf_startup_token' };

interface Loaded {
  code: number;
  modules: string[];
}

/**
 * Runs `robotctl …args` in a child node and lists the CommonJS modules it
 * loaded: from dist/'s modules, or from the bundle as bin/robotctl.js runs it.
 */
function loadedBy(args: string[], env: NodeJS.ProcessEnv, from: 'modules' | 'bundle' = 'modules'): Promise<Loaded> {
  const cli = from === 'bundle'
    ? "Promise.resolve(require('./bin/bundle-loader.js').loadBundle().exports)"
    : "import('./dist/cli/main.js')";
  const script = `${cli}.then((m) => m.main(${JSON.stringify(args)})).then((code) => {
    process.stdout.write('\\n' + JSON.stringify({ code, modules: Object.keys(require.cache) }));
  });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out.slice(out.lastIndexOf('\n') + 1)) as Loaded);
      } catch (err) {
        reject(err);
      }
    });
  });
}

const yamlLib = (m: string): boolean => m.includes('/node_modules/yaml/');
const undiciIndex = (m: string): boolean => m.endsWith('/node_modules/undici/index.js');

t.test('validate of examples/fleet.yaml with an unset variable loads no yaml library and no undici', async (t) => {
  const r = await loadedBy(['validate', '-f', 'examples/fleet.yaml'], {});
  t.equal(r.code, 0, 'valid, with warnings');
  t.same(r.modules.filter(yamlLib), [], 'no yaml');
  t.same(r.modules.filter((m) => m.includes('/node_modules/undici/')), [], 'no undici');
});

t.test('a broken file in the fast reader\'s YAML is placed without yaml; other YAML still loads it for its positions', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-startup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.yaml'), 'version: 1\nwebhooks:\n  a:\n    url: https://x.org/a\n    colour: blue\n');
  const plain = await loadedBy(['validate', '-f', join(dir, 'robot.yaml')], {});
  t.equal(plain.code, 1, 'invalid');
  t.same(plain.modules.filter(yamlLib), [], 'an unknown key in plain block YAML: no yaml');
  writeFileSync(join(dir, 'anchors.yaml'), 'version: 1\nbase: &b { url: https://x.org/a, watched: [user:a] }\nwebhooks:\n  a: *b\n');
  const anchors = await loadedBy(['validate', '-f', join(dir, 'anchors.yaml')], {});
  t.equal(anchors.code, 1, 'invalid (unknown top-level key)');
  t.ok(anchors.modules.some(yamlLib), 'anchors: yaml is loaded to read and place it');
});

t.test('plan against the embedded hub loads undici\'s parts, not its index', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-startup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.yaml'), 'version: 1\nwebhooks:\n  a:\n    url: https://x.org/a\n    watched: [user:alice]\n    secret: ${S}\n');
  const r = await loadedBy(['plan', '-f', join(dir, 'robot.yaml')], { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, S: 'startup-secret' });
  t.equal(r.code, 2, 'one webhook to create');
  t.ok(r.modules.some((m) => m.includes('/node_modules/undici/lib/dispatcher/agent.js')), 'the agent is loaded');
  t.same(r.modules.filter(undiciIndex), [], 'undici\'s index is not');
  t.same(r.modules.filter(yamlLib), [], 'no yaml either');
});

t.test('plan from the bundle loads none of undici\'s files: the parts the drivers use are in it', async (t) => {
  const hub = await embeddedHub(t, { users: [USER] });
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-startup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'robot.yaml'), 'version: 1\nwebhooks:\n  a:\n    url: https://x.org/a\n    watched: [user:alice]\n    secret: ${S}\n');
  const r = await loadedBy(['plan', '-f', join(dir, 'robot.yaml')], { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, S: 'startup-secret' }, 'bundle');
  t.equal(r.code, 2, 'one webhook to create, through the bundled agent');
  t.same(r.modules.filter((m) => m.includes('/node_modules/undici/')), [], 'nothing of undici from node_modules');
  t.same(r.modules.filter(yamlLib), [], 'no yaml either');
});

t.test('the bundles are ASCII: Node reads them on its fast path, as one-byte strings', async (t) => {
  const bundles = ['robotctl.cjs', 'robotctl-servers.cjs', 'robotctl-control.cjs'].map((f) => join(repoRoot, 'dist', f)).filter((f) => existsSync(f));
  t.ok(bundles.length > 0 || !existsSync(join(repoRoot, 'node_modules', 'esbuild')), 'the build made its bundles');
  for (const file of bundles) {
    const text = readFileSync(file, 'latin1');
    const at = text.search(/[^\x00-\x7f]/);
    t.equal(at, -1, `${file}: ${at < 0 ? 'ASCII' : `a non-ASCII byte near ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`}`);
  }
});

// V8 takes a code cache only from a process with the same flags; a session
// sets --liftoff-only (lib/webassembly-tier.ts), so the build must make the
// caches without it, and a command must load the CLI's cache before it.
t.test('a fresh process accepts the build\'s code caches', async (t) => {
  t.ok(existsSync(join(repoRoot, 'dist', 'robotctl.cjs.cache')), 'the build made the CLI\'s cache');
  const script = `const { loadBundle, loadServers } = require('./bin/bundle-loader.js');
    const cli = loadBundle(); const servers = loadServers();
    process.stdout.write(JSON.stringify({ cli: cli.script.cachedDataRejected, servers: servers.script.cachedDataRejected }));`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => { text += d.toString(); });
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  t.same(JSON.parse(out), { cli: false, servers: false }, 'neither cache rejected');
});
