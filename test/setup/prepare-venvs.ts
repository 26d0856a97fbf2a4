import { prepareVenvs } from '../helpers/python-venvs.js';

// tap's `before` script (.taprc): the shared Python venvs, built once per run
// before any test file starts (see test/helpers/python-venvs.ts).
const started = Date.now();
await prepareVenvs();
console.error(`# python venvs ready in ${Date.now() - started} ms`);
