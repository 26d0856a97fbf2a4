// Build step (npm run build, after tsc): bundle the compiled CLI
// (dist/cli/main.js and everything it imports, commander and yaml included)
// into one CommonJS file, dist/robotctl.cjs, the server libraries into
// another, dist/robotctl-servers.cjs, and the simulated robots' control
// thread (a worker's entry) into a third, dist/robotctl-control.cjs; then
// save a V8 code cache of the first two, made by running `validate` and by
// starting a simulated robot. bin/robotctl.js
// loads them: `validate -f examples/fleet.yaml` went from ~100 ms of module
// loading over Node's own start to ~35 ms (ES module loader, 50 files, their
// compilation). The other dependencies stay in node_modules, required when a
// command needs them, as before. Without esbuild installed the step says so
// and the launcher runs dist/cli/main.js unbundled.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { BUNDLE, CACHE, SERVERS, SERVERS_CACHE, SERVER_LIBS, CONTROL, TSC_OUTPUT, outputsFresh } = require('../bin/bundle-loader.js');
/**
 * Bundled into the file: pure JavaScript that start-up paths load. commander
 * at every start; yaml whenever robot.yaml has something to report with its
 * line and column (an unset ${VAR} as `validate` shows it: 170 -> 80 ms with
 * yaml in the bundle and its code cache, measured).
 */
const INLINE = new Set(['commander', 'yaml', 'fast-json-patch']);

// Nothing to do when tsc wrote nothing since the last bundle and neither this
// script, the loader nor the locked dependencies changed (npm test builds
// again right after npm ci built: 1.3 s saved).
const inputs = [TSC_OUTPUT, fileURLToPath(import.meta.url), join(root, 'bin', 'bundle-loader.js'), join(root, 'package-lock.json')];
if (outputsFresh([BUNDLE, CACHE, SERVERS, SERVERS_CACHE, CONTROL], inputs)) process.exit(0);

for (const f of [CACHE, BUNDLE, SERVERS_CACHE, SERVERS, CONTROL]) rmSync(f, { force: true });
let esbuild;
try {
  esbuild = require('esbuild');
} catch {
  console.error('build: esbuild is not installed, so robotctl runs unbundled (slower start-up); `npm install` adds it');
  process.exit(0);
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const externalBut = (inline) => Object.keys(pkg.dependencies).filter((d) => !inline.has(d)).flatMap((d) => [d, `${d}/*`]);
const external = externalBut(new Set([...INLINE, ...SERVER_LIBS, 'undici']));

await esbuild.build({
  absWorkingDir: root,
  stdin: {
    contents: SERVER_LIBS.map((name) => `exports[${JSON.stringify(name)}] = require(${JSON.stringify(name)});`).join('\n'),
    resolveDir: root,
    loader: 'js',
  },
  outfile: SERVERS,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: externalBut(new Set(SERVER_LIBS)),
  logLevel: 'warning',
});

// The control thread (a worker) starts from one file: no ES module loader, no module graph.
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['dist/runtime/daemon/sim/control-worker.js'],
  outfile: CONTROL,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ['dist/cli/main.js'],
  outfile: BUNDLE,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external,
  // The modules find the package root and node_modules from their own URL;
  // the bundle's is in the same dist/ folder, so both resolve as before.
  define: { 'import.meta.url': '__robotctlBundleUrl' },
  banner: { js: 'const __robotctlBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [lazyChildProcess(), serverLibsFromTheirBundle(), yamlFromTheBundle(), undiciPartsInTheBundle(), lazyHttp2ForUndici()],
  metafile: true,
  logLevel: 'warning',
});

/**
 * commander requires node:child_process when it loads, for subcommands that
 * are executables (robotctl has none): with net and dgram behind it, about
 * 3 ms of every start. Inside commander it becomes an object that requires
 * the real module on first use.
 */
function lazyChildProcess() {
  return {
    name: 'lazy-child-process-for-commander',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (
        args.importer.includes('/node_modules/commander/') ? { path: 'lazy-child-process', namespace: 'robotctl' } : undefined
      ));
      b.onLoad({ filter: /.*/, namespace: 'robotctl' }, () => ({
        contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
        loader: 'js',
      }));
    },
  };
}

/**
 * schema/yaml-lib.ts loads yaml on first use through createRequire, which
 * esbuild cannot follow: the bundle then required yaml from node_modules,
 * every file of it compiled without the code cache, whenever robot.yaml had
 * an error to report with its line (validate of an empty secret: ~120 ms
 * instead of ~80). In the bundle that module is a plain require('yaml'),
 * which esbuild inlines and runs on first call, as lazily as before.
 */
function yamlFromTheBundle() {
  return {
    name: 'yaml-from-the-bundle',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/]schema[\\/]yaml-lib\.js$/ }, () => ({
        contents: 'let lib;\nexport function yamlLib() {\n  lib ??= require("yaml");\n  return lib;\n}\n',
        loader: 'js',
      }));
    },
  };
}

/**
 * The drivers load undici's dispatchers file by file through createRequire
 * (drivers/hub/undici.ts), which esbuild cannot follow: every plan, diff or
 * apply then required about 30 of undici's files from node_modules, each
 * read and compiled without the code cache (about 45 ms of a 10,000-webhook
 * plan, profiled). Here those calls become plain requires of the same files,
 * which esbuild inlines; undici's WebSocket (one job wait needs it) and the
 * runtimes' `import 'undici'` still load from node_modules. The drivers match
 * undici's errors by code, never by class, so the two copies never meet.
 */
function undiciPartsInTheBundle() {
  const parts = /\b(?:part|load)\('(undici\/lib\/dispatcher\/[a-z-]+\.js)'\)/g;
  return {
    name: 'undici-parts-in-the-bundle',
    setup(b) {
      // Not in `external` (that would take every subpath), so the index and the WebSocket are kept out here.
      b.onResolve({ filter: /^undici(?:\/lib\/web\/.*)?$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /[\\/]dist[\\/]drivers[\\/](?:hub|daemon)[\\/]undici\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const contents = text.replace(parts, (_, path) => `require(${JSON.stringify(path)})`);
        if (contents === text) throw new Error(`build: ${args.path} no longer loads undici's parts as undiciPartsInTheBundle expects`);
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * undici's HTTP/2 client (in the bundle with its dispatchers) requires
 * node:http2 when it loads, for a few header-name constants: node:http2 and
 * node:tls, about 15 ms of every plan, diff and apply, which speak HTTP/1.1
 * (undici offers h2 only with allowH2, which robotctl never sets). Here
 * http2 is an object with node:http2's constants, taken at build time, and a
 * connect() that requires the real module on first use.
 */
function lazyHttp2ForUndici() {
  const eager = "http2 = require('node:http2')";
  const constants = JSON.stringify(require('node:http2').constants);
  return {
    name: 'lazy-http2-for-undici',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const lazy = `http2 = { constants: ${constants}, connect: (...args) => require('node:http2').connect(...args) }`;
        const contents = text.replace(eager, lazy);
        if (contents === text) throw new Error(`build: ${args.path} no longer loads node:http2 as lazyHttp2ForUndici expects`);
        return { contents, loader: 'js' };
      });
    },
  };
}

/** The server libraries (bin/bundle-loader.js's SERVER_LIBS) come from their own bundle. */
function serverLibsFromTheirBundle() {
  const names = SERVER_LIBS.map((n) => n.replace(/[/@]/g, (c) => `\\${c}`)).join('|');
  return {
    name: 'server-libs-from-their-bundle',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => ({ path: args.path, namespace: 'robotctl-server-lib' }));
      b.onResolve({ filter: /^\.\.\/bin\/bundle-loader\.js$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'robotctl-server-lib' }, (args) => ({
        contents: `module.exports = require('../bin/bundle-loader.js').serverLib(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

// bin/bundle-loader.js compiles the bundle as a script, where import() of a
// package cannot work: code must require() what it loads lazily (schema/yaml-lib.ts).
const dynamic = Object.values(result.metafile.inputs).flatMap((i) => i.imports).filter((i) => i.kind === 'dynamic-import' && i.external);
if (dynamic.length > 0) {
  rmSync(BUNDLE, { force: true });
  throw new Error(`build: the bundle would import() ${dynamic.map((i) => i.path).join(', ')}; load it with require() instead`);
}

// Node reads a file holding any non-ASCII byte into a two-byte string: for
// the 1.7 MB CLI bundle, 6 ms of decoding at every start and twice its size
// in memory, where an ASCII file takes a fast path. esbuild writes code in
// ASCII (it escapes strings and identifiers) but keeps some comments as they
// are: a class field's doc comment with an ellipsis or an arrow, a license
// line with an accented name. Those characters become \u escapes, which no
// comment minds. Done before the code cache is made from the files.
for (const file of [BUNDLE, SERVERS, CONTROL]) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

// The cache: compile the bundle fresh, run what start-up must be fast for
// (--help, validate with the file's secret unset, set and empty), keep what V8 compiled.
const makeCache = `
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { loadBundle, loadServers, CACHE, SERVERS_CACHE } = require('./bin/bundle-loader.js');
const { exports, script } = loadBundle({ useCache: false });
// A session sets --liftoff-only (lib/webassembly-tier.ts), and V8 rejects
// cached code made under other flags than a starting process has, even once
// set back: the plan and diff below run with the call made a no-op.
require('node:v8').setFlagsFromString = () => {};
const io = (env) => ({ out() {}, err() {}, isTTY: false, stdinIsTTY: false, env, cwd: process.cwd() });
(async () => {
  await exports.main(['--help'], io({}));
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({}));
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({ WEBHOOK_SECRET: 'build' }));
  // An empty secret is an error, not a warning: the path that reports a file's errors.
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({ WEBHOOK_SECRET: '' }));
  // plan and diff of a few webhooks against an embedded hub: the session, the
  // hub driver, the planner and the views compiled too, so a user's first
  // plan does not compile them. The trade, measured alternately on the
  // 2-core machine: a plan of 10,000 webhooks 530 -> 496 ms (median of 14),
  // every start about 3 ms more to deserialize (the cache 450 -> 800 KB),
  // which the ASCII bundle above more than pays back (--help 63.6 -> 59.6 ms,
  // validate 66.7 -> 62.1 ms, against the build before both, 25 runs each).
  const { startHub } = await import('./dist/runtime/hub/server.js');
  const hubDir = mkdtempSync(join(tmpdir(), 'robotctl-build-hub-'));
  const hub = await startHub({ users: [{ name: 'build', token: 'hf_build_token' }], dataDir: hubDir, log: () => {} });
  try {
    const lines = ['version: 1', 'webhooks:'];
    for (let i = 0; i < 3; i++) lines.push('  hook-' + i + ':', '    url: https://example.org/' + i, '    watched: [space:build/app, user:build]', '    domains: [repo]', '    secret: \${WEBHOOK_SECRET}');
    writeFileSync(join(hubDir, 'robot.yaml'), lines.join('\\n') + '\\n');
    const env = { WEBHOOK_SECRET: 'build', HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_build_token' };
    const at = { ...io(env), cwd: hubDir };
    for (const command of ['plan', 'diff']) await exports.main([command, '-f', 'robot.yaml'], at);
  } finally {
    await hub.close();
    rmSync(hubDir, { recursive: true, force: true });
  }
  writeFileSync(CACHE, script.createCachedData());
  // The server libraries' cache: a simulated robot started, asked what a
  // drift check asks, and stopped as Ctrl-C stops it.
  const servers = loadServers({ useCache: false });
  const apps = mkdtempSync(join(tmpdir(), 'robotctl-build-cache-'));
  try {
    let listening;
    const url = new Promise((resolve) => { listening = resolve; });
    const daemonIo = { ...io({}), out: (s) => { const m = /listening on (\\S+)/.exec(s); if (m) listening(m[1]); } };
    const exited = exports.main(['daemon', '--sim', '--port', '0', '--apps-dir', apps], daemonIo);
    const base = await url;
    for (const path of ['/api/daemon/status', '/api/apps/list-available/installed', '/api/apps/current-app-status']) {
      await (await fetch(base + path)).arrayBuffer();
    }
    process.emit('SIGTERM', 'SIGTERM');
    await exited;
  } finally {
    rmSync(apps, { recursive: true, force: true });
  }
  if (servers.script) writeFileSync(SERVERS_CACHE, servers.script.createCachedData());
})();
`;
execFileSync(process.execPath, ['-e', makeCache], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
