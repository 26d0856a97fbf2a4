#!/usr/bin/env node
'use strict';
// Thin launcher, CommonJS (bin/package.json) so that start-up never sets up
// the ES module loader. The CLI is built by `npm install` (prepare): tsc's
// modules in dist/, and the same code bundled into dist/robotctl.cjs with a
// V8 code cache (cli/build-bundle.mjs), which this loads: no TypeScript
// transpiler, no fifty-file module graph, no parse of what `validate` runs.
const { loadBundle } = require('./bundle-loader.js');

const bundle = loadBundle();
const cli = bundle ? Promise.resolve(bundle.exports) : import('../dist/cli/main.js');
cli.then((m) => m.main(process.argv.slice(2))).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(`robotctl: internal error: ${err && err.message ? err.message : err}`); process.exitCode = 1; },
);
