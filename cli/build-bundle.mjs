// Build step (npm run build, after tsc): the compiled CLI (dist/cli/main.js
// and everything it imports, the pure JavaScript dependencies that start-up
// and the servers load included) bundled into one CommonJS file,
// dist/robotctl.cjs, and a V8 code cache of it made by running --help and
// `validate` (dist/robotctl.cjs.cache). bin/robotctl.js loads them, so that
// `robotctl validate` starts without resolving, reading and compiling some
// fifty modules one by one (bench/startup.mjs measures what this saves). The
// other dependencies stay in node_modules, required when a command needs
// them. Without esbuild installed the step says so and the launcher runs
// dist/cli/main.js unbundled.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { BUNDLE, CACHE, TSC_OUTPUT, outputsFresh } = require('../bin/bundle-loader.js');

/** Dependencies bundled into the file: commander at every start, yaml for robot.yaml, the drivers' HTTP client and the servers. */
const INLINE = new Set(['commander', 'yaml', 'fast-json-patch', 'undici', 'fastify', '@fastify/websocket', 'ws']);

// Nothing to do when tsc wrote nothing since the last bundle and neither this
// script, the loader nor the locked dependencies changed.
const inputs = [TSC_OUTPUT, fileURLToPath(import.meta.url), join(root, 'bin', 'bundle-loader.js'), join(root, 'package-lock.json')];
if (outputsFresh([BUNDLE, CACHE], inputs)) process.exit(0);

for (const f of [CACHE, BUNDLE]) rmSync(f, { force: true });
let esbuild;
try {
  esbuild = require('esbuild');
} catch {
  console.error('build: esbuild is not installed, so robotctl runs unbundled (slower start-up); `npm install` adds it');
  process.exit(0);
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !INLINE.has(d)).flatMap((d) => [d, `${d}/*`]);

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
  metafile: true,
  logLevel: 'warning',
});

// bin/bundle-loader.js compiles the bundle as a script, where import() of a
// package cannot work: code must require() what it loads lazily.
const dynamic = Object.values(result.metafile.inputs).flatMap((i) => i.imports).filter((i) => i.kind === 'dynamic-import' && i.external);
if (dynamic.length > 0) {
  rmSync(BUNDLE, { force: true });
  throw new Error(`build: the bundle would import() ${dynamic.map((i) => i.path).join(', ')}; load it with require() instead`);
}

// The bundle is written in ASCII: the few non-ASCII characters esbuild keeps
// (in comments) become \u escapes, so that Node reads the file as a one-byte
// string, with no UTF-8 decoding at every start and half the memory.
const bundleText = readFileSync(BUNDLE, 'utf8');
const asciiText = bundleText.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
if (asciiText !== bundleText) writeFileSync(BUNDLE, asciiText);

// The cache: compile the bundle fresh, run what start-up must be fast for
// (--help, validate with the file's secret set, unset and empty: the last
// one reports errors with their positions), keep what V8 compiled.
const makeCache = `
const { writeFileSync } = require('node:fs');
const { loadBundle, CACHE } = require('./bin/bundle-loader.js');
const { exports, script } = loadBundle({ useCache: false });
const io = (env) => ({ out() {}, err() {}, isTTY: false, stdinIsTTY: false, env, cwd: process.cwd() });
(async () => {
  await exports.main(['--help'], io({}));
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({}));
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({ WEBHOOK_SECRET: 'build' }));
  await exports.main(['validate', '-f', 'examples/fleet.yaml'], io({ WEBHOOK_SECRET: '' }));
  writeFileSync(CACHE, script.createCachedData());
})();
`;
execFileSync(process.execPath, ['-e', makeCache], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
