#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (prepare) so
// start-up never pays for a TypeScript transpiler.
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2))).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(`robotctl: internal error: ${err && err.message ? err.message : err}`); process.exitCode = 1; },
);
