'use strict';
// Preloaded with `node -r` into a command a benchmark times as a whole
// process (bench/lib/process-run.mjs): writes the process's CPU time and peak
// RSS to $BENCH_USAGE_FILE as it exits. CommonJS, so the command starts as
// bin/robotctl.js does, with no ES module loader set up for the hook.
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', (code) => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ code, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssMb: u.maxRSS / 1024 }));
  });
}
