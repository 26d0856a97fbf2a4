'use strict';
// Process-wide settings for a robotctl command: made by the launcher
// (bin/robotctl.js) once the CLI is loaded, and by the benchmarks that run
// the CLI as it does (bench/lib/cli-usage.mjs).
const v8 = require('node:v8');

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. Reading a large
 * answer (the hub's list of 10,000 webhooks is 3 MB) makes V8 recompile
 * llhttp's parser with its optimising compiler on another thread, which
 * takes longer than the rest of the command, and Node waits for that thread
 * before the process exits: 110 ms more, measured after a `plan` of 10,000
 * webhooks (whole process 639 -> 544 ms, medians of 9), for no faster
 * parsing in a run that is already over. With --liftoff-only, llhttp keeps
 * the code of V8's first WebAssembly tier, whose speed the command did not
 * measurably miss (the same time to the end of the command). The flag
 * concerns WebAssembly alone: Node's own HTTP (the servers) does not use it,
 * and set once the CLI is loaded it leaves the build's code cache accepted
 * (checked: V8 does not reject cached data over it).
 */
function setUpProcess() {
  v8.setFlagsFromString('--liftoff-only');
}

module.exports = { setUpProcess };
