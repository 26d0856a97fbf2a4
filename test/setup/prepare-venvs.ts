import { prepareVenvs } from '../helpers/python-venvs.js';
import { warmTsCache } from './ts-transpile.mjs';
import { bundleTap } from './tap-bundle.mjs';
import { removeStaleRunFolders } from './run-folder.mjs';

// tap's `before` script (.taprc), run once before any test file starts:
// - the folders of earlier runs killed before their `after` script, once
//   their runner is gone (test/setup/run-folder.mjs);
// - every TypeScript file transpiled into the suite's cache at once
//   (test/setup/ts-transpile.mjs), so no test process transpiles on its own;
// - tap bundled into one module for the test processes (tap-bundle.mjs);
// - the Python venvs of this run (see test/helpers/python-venvs.ts).
const stale = removeStaleRunFolders();
if (stale.length > 0) console.error(`# removed the temporary folders of runs that ended without cleaning up: ${stale.join(', ')}`);
let started = Date.now();
const [files] = await Promise.all([warmTsCache(), bundleTap()]);
console.error(`# ${files} TypeScript files in the transpile cache, tap bundled, in ${Date.now() - started} ms`);
started = Date.now();
await prepareVenvs();
console.error(`# python venvs ready in ${Date.now() - started} ms`);
