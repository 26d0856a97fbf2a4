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

function mtime(file) {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? undefined : s.mtimeMs;
}

/** The code cache, if it was written after the bundle (a rebuilt bundle makes it stale). */
function codeCache(bundleTime) {
  const cacheTime = mtime(CACHE);
  return cacheTime !== undefined && cacheTime >= bundleTime ? readFileSync(CACHE) : undefined;
}

/**
 * Compiles and runs the bundle: { exports, script } (script.createCachedData()
 * is how the build makes the cache), or undefined when it is missing or stale.
 */
function loadBundle({ useCache = true } = {}) {
  const bundleTime = mtime(BUNDLE);
  if (bundleTime === undefined || bundleTime < (mtime(TSC_OUTPUT) ?? 0)) return undefined;
  // Rejected data (another Node or V8 flags) only costs a normal compile.
  const cachedData = useCache ? codeCache(bundleTime) : undefined;
  const script = new Script(wrap(readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(BUNDLE), mod, BUNDLE, dirname(BUNDLE));
  return { exports: mod.exports, script };
}

module.exports = { loadBundle, BUNDLE, CACHE };
