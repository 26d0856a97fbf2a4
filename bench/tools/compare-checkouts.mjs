// Before and after on one figure: runs the same robotctl command on several
// built checkouts, one after another in turn (the order reversed every other
// round), and prints each one's median wall, median CPU and peak RSS. On a
// shared, loaded machine a figure measured once varies too much to tell a
// change; taking turns spreads the load over every checkout alike.
// Not run by `npm run bench` (it needs the checkouts). Usage:
//   node bench/tools/compare-checkouts.mjs CASE RUNS NAME=DIR [NAME=DIR…]
// CASE: plan|diff:WEBHOOKS:ROBOTS:empty|populated (an embedded hub and a
// simulated fleet from this checkout), validate:FILE[:unset|nosecret], help.
// Each DIR is a checkout with `npm run build` done (git worktree add …).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../lib/measure.mjs';
import { measureProcess } from '../lib/process-run.mjs';
import { startWorldFleet, startWorldHub, worldEnv, writeWorldYaml } from '../lib/plan-world.mjs';
import { SECRET_ENV } from '../lib/robot-yaml.mjs';

const [spec = '', runsText = '', ...checkouts] = process.argv.slice(2);
const runs = Number(runsText);
if (!spec || !Number.isInteger(runs) || runs < 1 || checkouts.length === 0) {
  console.error('usage: node bench/tools/compare-checkouts.mjs CASE RUNS NAME=DIR [NAME=DIR…]');
  process.exit(64);
}
const roots = checkouts.map((c) => { const at = c.indexOf('='); return [c.slice(0, at), c.slice(at + 1)]; });
const [command, a, b, c] = spec.split(':');
const dir = mkdtempSync(join(tmpdir(), 'robotctl-compare-'));
let hub = null;
let fleet = null;
try {
  let args = ['--help'];
  let env = {};
  if (command === 'plan' || command === 'diff') {
    const { startHub } = await import('../../dist/runtime/hub/server.js');
    hub = await startWorldHub(startHub, dir, Number(a), c === 'populated');
    if (Number(b) > 0) fleet = await startWorldFleet(dir, Number(b));
    args = [command, '-f', writeWorldYaml(dir, 'world', Number(a), fleet)];
    env = worldEnv(hub);
  } else if (command === 'validate') {
    args = ['validate', '-f', a];
    env = b === 'unset' ? { WEBHOOK_SECRET: '' } : b === 'nosecret' ? {} : SECRET_ENV;
  }
  const results = Object.fromEntries(roots.map(([name]) => [name, []]));
  for (let r = 0; r < runs; r++) {
    for (const [name, root] of r % 2 === 0 ? roots : [...roots].reverse()) {
      results[name].push(await measureProcess(args, { root, env, unset: ['NODE_EXTRA_CA_CERTS'] }));
    }
  }
  for (const [name] of roots) {
    const us = results[name];
    console.log(`${spec} ${name}: wall ${median(us.map((u) => u.wallMs)).toFixed(0)} ms, cpu ${median(us.map((u) => u.cpuMs)).toFixed(0)} ms, `
      + `peak ${Math.max(...us.map((u) => u.maxRssMb)).toFixed(0)} MB, exit ${[...new Set(us.map((u) => u.code))].join('/')} `
      + `[${us.map((u) => u.wallMs.toFixed(0)).join(' ')}]`);
  }
} finally {
  await hub?.close();
  await fleet?.stop();
  rmSync(dir, { recursive: true, force: true });
}
