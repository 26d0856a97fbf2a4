'use strict';
// Loads dist/robotctl.cjs, the whole CLI bundled into one CommonJS file by the
// build (cli/build-bundle.mjs), compiled with the V8 code cache the build saved
// beside it (dist/robotctl.cjs.cache) so that start-up neither parses the
// bundle nor compiles what `validate` runs. Returns undefined when the bundle
// is missing or older than tsc's last output (tsc run without the rest of the
// build): the launcher then imports dist/cli/main.js, the same code unbundled.
const { readFileSync, statSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { createRequire, wrap } = require('node:module');
const { Script } = require('node:vm');

const dist = join(__dirname, '..', 'dist');
const BUNDLE = join(dist, 'robotctl.cjs');
const CACHE = join(dist, 'robotctl.cjs.cache');
const TSC_OUTPUT = join(dist, '.tsbuildinfo');
const SERVERS = join(dist, 'robotctl-servers.cjs');
const SERVERS_CACHE = join(dist, 'robotctl-servers.cjs.cache');
// The simulated robots' control thread starts from this file
// (runtime/daemon/sim/worker-entry.ts), when it is fresh.
const CONTROL = join(dist, 'robotctl-control.cjs');

function mtime(file) {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? undefined : s.mtimeMs;
}

/** A bundle of our own code is used only when it exists and tsc has not written newer output since. */
function isFresh(file) {
  const bundleTime = mtime(file);
  return bundleTime !== undefined && bundleTime >= (mtime(TSC_OUTPUT) ?? 0);
}

/**
 * The build's rule for skipping a step (npm test builds again after npm ci
 * built): every output exists and none is older than any input. A missing
 * input counts as new, so the step runs.
 */
function outputsFresh(outputs, inputs) {
  const oldest = Math.min(...outputs.map((f) => mtime(f) ?? -Infinity));
  return inputs.every((f) => (mtime(f) ?? Infinity) <= oldest);
}

/** The code cache, if it was written after the bundle (a rebuilt bundle makes it stale). */
function codeCache(bundleTime, cacheFile) {
  const cacheTime = mtime(cacheFile);
  return cacheTime !== undefined && cacheTime >= bundleTime ? readFileSync(cacheFile) : undefined;
}

/** Compiles and runs a bundle as CommonJS, with its code cache when that is fresh: { exports, script }. */
function runScript(file, bundleTime, cacheFile, useCache) {
  // Rejected data (another Node or V8 flags) only costs a normal compile.
  const cachedData = useCache ? codeCache(bundleTime, cacheFile) : undefined;
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file));
  return { exports: mod.exports, script };
}

/**
 * The CLI bundle: { exports, script } (script.createCachedData() is how the
 * build makes the cache), or undefined when it is missing or stale.
 */
function loadBundle({ useCache = true } = {}) {
  if (!isFresh(BUNDLE)) return undefined;
  return runScript(BUNDLE, mtime(BUNDLE), CACHE, useCache);
}

// The server libraries are a bundle of their own with its own code cache,
// made by starting a simulated robot: in the CLI's bundle they would make
// every command's cache larger (validate about 25 ms slower, measured); here
// they cost only the commands that serve. The CLI bundle requires each one
// through serverLib(name); without their bundle they come from node_modules.
const SERVER_LIBS = ['fastify', '@fastify/websocket', 'ws'];
let servers;
function loadServers({ useCache = true } = {}) {
  const bundleTime = mtime(SERVERS);
  servers = bundleTime === undefined
    ? { exports: undefined, script: undefined }
    : runScript(SERVERS, bundleTime, SERVERS_CACHE, useCache);
  return servers;
}

/** One of SERVER_LIBS, from their bundle once loaded, else from node_modules. */
function serverLib(name) {
  const bundled = (servers ?? loadServers()).exports;
  return bundled ? bundled[name] : require(name);
}

module.exports = { loadBundle, loadServers, serverLib, isFresh, outputsFresh, TSC_OUTPUT, SERVER_LIBS, BUNDLE, CACHE, SERVERS, SERVERS_CACHE, CONTROL };
