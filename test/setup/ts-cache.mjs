// `--import` this to register ts-cache-hooks.mjs (see there).
import { register } from 'node:module';

register('./ts-cache-hooks.mjs', import.meta.url);

// tap loads its process-tracking hook (@tapjs/processinfo) in every test
// process, and that hook adds itself, through NODE_OPTIONS, to every process
// the test spawns (process-on-spawn's listeners). It serves coverage, which
// is off here (.taprc), and costs each Node child about 0.7 s of CPU (it
// wraps every module load): the suite starts hundreds of CLI, daemon and hub
// processes. So the children start without it. This file is imported after
// tap's own hooks (.taprc node-arg comes last), and this process keeps its own.
// processinfo-off.mjs came through NODE_OPTIONS too, by a path relative to
// the project root; the children need neither.
const onSpawn = globalThis[Symbol.for('process-on-spawn@*:singletonId')];
if (onSpawn && Array.isArray(onSpawn.listeners)) onSpawn.listeners.length = 0;
const testOnly = (o) => o.includes('@tapjs/processinfo') || o.includes('processinfo-off.mjs');
const options = process.env.NODE_OPTIONS;
if (options && options.split(/\s+/).some(testOnly)) {
  const kept = options.split(/\s+/).filter((o) => o && !testOnly(o)).join(' ');
  if (kept) process.env.NODE_OPTIONS = kept;
  else delete process.env.NODE_OPTIONS;
}
