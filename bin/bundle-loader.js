'use strict';
// Loads dist/robotctl.cjs, the whole CLI bundled into one CommonJS file by the
// build (cli/build-bundle.mjs), compiled with the V8 code cache the build saved
// beside it (dist/robotctl.cjs.cache): start-up neither resolves and loads the
// modules one by one nor compiles what `validate` runs. Returns undefined
// when the bundle is missing or older than tsc's last output (tsc run without
// the rest of the build): the launcher then imports dist/cli/main.js, the
// same code unbundled.
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

/** The bundle is used only when it exists and tsc has not written newer output since. */
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

/**
 * The CLI bundle: { exports, script } (script.createCachedData() is how the
 * build makes the cache), or undefined when it is missing or stale. The code
 * cache is used when it was written after the bundle; V8 rejects one made by
 * another Node or under other flags, which only costs a normal compile.
 */
function loadBundle({ useCache = true } = {}) {
  const bundleTime = mtime(BUNDLE);
  if (!isFresh(BUNDLE)) return undefined;
  const cacheTime = useCache ? mtime(CACHE) : undefined;
  const cachedData = cacheTime !== undefined && cacheTime >= bundleTime ? readFileSync(CACHE) : undefined;
  const script = new Script(wrap(readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(BUNDLE), mod, BUNDLE, dirname(BUNDLE));
  return { exports: mod.exports, script };
}

module.exports = { loadBundle, isFresh, outputsFresh, TSC_OUTPUT, BUNDLE, CACHE };
