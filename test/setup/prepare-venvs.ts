import { prepareVenvs } from '../helpers/python-venvs.js';
import { warmTsCache } from './ts-transpile.mjs';
import { bundleTap } from './tap-bundle.mjs';

// tap's `before` script (.taprc), run once before any test file starts:
// - every TypeScript file transpiled into the suite's cache at once
//   (test/setup/ts-transpile.mjs), so no test process transpiles on its own;
// - tap bundled into one module for the test processes (tap-bundle.mjs);
// - the shared Python venvs (see test/helpers/python-venvs.ts).
let started = Date.now();
const [files] = await Promise.all([warmTsCache(), bundleTap()]);
console.error(`# ${files} TypeScript files in the transpile cache, tap bundled, in ${Date.now() - started} ms`);
started = Date.now();
await prepareVenvs();
console.error(`# python venvs ready in ${Date.now() - started} ms`);
